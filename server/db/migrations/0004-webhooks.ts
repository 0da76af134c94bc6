import { type Kysely, sql } from 'kysely';

/**
 * Webhooks, their deliveries (one per event and webhook, written in the same
 * transaction as the event) and every delivery attempt. Keys start with
 * (account_id, entorno) like every tenant table.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('webhooks')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('entorno', 'text', (c) => c.notNull().check(sql`entorno in ('produccion', 'pruebas')`))
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('eventos', 'jsonb', (c) => c.notNull())
    .addColumn('descripcion', 'text')
    // The signing key must be usable, so it is stored as is (it is not a login secret).
    .addColumn('secreto', 'text', (c) => c.notNull())
    .addColumn('activo', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('pausa_motivo', 'text')
    .addColumn('pausado_at', 'timestamptz')
    .addColumn('fallando_desde', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('webhooks_account_idx').on('webhooks').columns(['account_id', 'entorno', 'id']).execute();

  await db.schema
    .createTable('webhook_entregas')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('account_id', 'bigint', (c) => c.notNull())
    .addColumn('entorno', 'text', (c) => c.notNull())
    .addColumn('webhook_id', 'bigint', (c) => c.notNull().references('webhooks.id').onDelete('cascade'))
    .addColumn('entrega_id', 'text', (c) => c.notNull())
    // No foreign key: events may be pruned on their own schedule; a ping has none.
    .addColumn('evento_id', 'bigint')
    .addColumn('evento', 'text', (c) => c.notNull())
    .addColumn('deca_id', 'bigint')
    // The exact body sent on every attempt (the signature changes with t, the body never).
    .addColumn('cuerpo', 'text', (c) => c.notNull())
    .addColumn('estado', 'text', (c) => c.notNull().check(sql`estado in ('pendiente', 'entregada', 'fallida')`))
    .addColumn('intentos', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('intentos_auto', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('proximo_intento_at', 'timestamptz')
    // Lease of the worker sending it now (start, expiry, owner); an expired lease means that worker died.
    .addColumn('en_curso_desde', 'timestamptz')
    .addColumn('en_curso_hasta', 'timestamptz')
    .addColumn('en_curso_token', 'text')
    .addColumn('ultimo_intento_at', 'timestamptz')
    .addColumn('ultimo_status', 'integer')
    .addColumn('ultimo_error', 'text')
    .addColumn('ultima_duracion_ms', 'integer')
    .addColumn('entregada_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('webhook_entregas_id_uq').on('webhook_entregas').columns(['account_id', 'entorno', 'entrega_id']).unique().execute();
  // One delivery per (event, webhook): fan-out can never write it twice.
  await db.schema
    .createIndex('webhook_entregas_evento_uq')
    .on('webhook_entregas')
    .columns(['account_id', 'entorno', 'webhook_id', 'evento_id'])
    .unique()
    .where(sql.ref('evento_id'), 'is not', null)
    .execute();
  // What the worker looks for: due, pending deliveries.
  await db.schema.createIndex('webhook_entregas_due_idx').on('webhook_entregas').columns(['proximo_intento_at', 'id']).where(sql.ref('estado'), '=', 'pendiente').execute();
  // Order per DeCA and webhook: is an earlier one still pending?
  await db.schema.createIndex('webhook_entregas_orden_idx').on('webhook_entregas').columns(['webhook_id', 'deca_id', 'id']).where(sql.ref('estado'), '=', 'pendiente').execute();
  await db.schema.createIndex('webhook_entregas_list_idx').on('webhook_entregas').columns(['webhook_id', 'id']).execute();
  await db.schema.createIndex('webhook_entregas_created_idx').on('webhook_entregas').column('created_at').execute();

  await db.schema
    .createTable('webhook_intentos')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('account_id', 'bigint', (c) => c.notNull())
    .addColumn('entorno', 'text', (c) => c.notNull())
    .addColumn('entrega_id', 'bigint', (c) => c.notNull().references('webhook_entregas.id').onDelete('cascade'))
    .addColumn('numero', 'integer', (c) => c.notNull())
    .addColumn('at', 'timestamptz', (c) => c.notNull())
    .addColumn('status', 'integer')
    .addColumn('error', 'text')
    .addColumn('duracion_ms', 'integer', (c) => c.notNull())
    .addColumn('proximo_intento_at', 'timestamptz')
    .addColumn('manual', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();
  await db.schema.createIndex('webhook_intentos_entrega_idx').on('webhook_intentos').columns(['entrega_id', 'id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['webhook_intentos', 'webhook_entregas', 'webhooks']) {
    await db.schema.dropTable(t).ifExists().execute();
  }
}
