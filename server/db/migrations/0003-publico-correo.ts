import { type Kysely, sql } from 'kysely';

/**
 * Public side of a DeCA: the download log (each open of the public page or
 * PDF), the other party's half-filled completion form, and the mail outbox.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('descargas')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('account_id', 'bigint', (c) => c.notNull())
    .addColumn('entorno', 'text', (c) => c.notNull())
    .addColumn('deca_id', 'bigint', (c) => c.notNull().references('decas.id').onDelete('cascade'))
    .addColumn('recurso', 'text', (c) => c.notNull().check(sql`recurso in ('ficha', 'pdf', 'conductor', 'qr')`))
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('ip', 'text', (c) => c.notNull())
    .addColumn('navegador', 'text', (c) => c.notNull())
    .addColumn('robot', 'boolean', (c) => c.notNull())
    .addColumn('motivo_robot', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('descargas_deca_idx').on('descargas').columns(['account_id', 'entorno', 'deca_id', 'id']).execute();

  await db.schema
    .createTable('completar_borradores')
    .addColumn('account_id', 'bigint', (c) => c.notNull())
    .addColumn('entorno', 'text', (c) => c.notNull())
    .addColumn('deca_id', 'bigint', (c) => c.notNull().references('decas.id').onDelete('cascade'))
    .addColumn('campos', 'jsonb', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('completar_borradores_pk', ['account_id', 'entorno', 'deca_id'])
    .execute();

  await db.schema
    .createTable('correos')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('entorno', 'text', (c) => c.notNull())
    .addColumn('deca_id', 'bigint')
    .addColumn('tipo', 'text', (c) => c.notNull())
    .addColumn('destinatario', 'text', (c) => c.notNull())
    .addColumn('asunto', 'text', (c) => c.notNull())
    .addColumn('texto', 'text', (c) => c.notNull())
    .addColumn('html', 'text', (c) => c.notNull())
    .addColumn('adjuntos', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('estado', 'text', (c) => c.notNull().defaultTo('pendiente').check(sql`estado in ('pendiente', 'enviado', 'fallido')`))
    .addColumn('intentos', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('proximo_intento_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('bloqueado_hasta', 'timestamptz')
    .addColumn('ultimo_error', 'text')
    .addColumn('registrado', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('enviado_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('correos_pendientes_idx').on('correos').columns(['estado', 'proximo_intento_at']).execute();
  await db.schema.createIndex('correos_account_idx').on('correos').columns(['account_id', 'entorno', 'id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['correos', 'completar_borradores', 'descargas']) await db.schema.dropTable(t).ifExists().execute();
}
