import { type Kysely, sql } from 'kysely';

/**
 * - `decas.clave_cliente`: the client's own reference of a create (the
 *   Idempotency-Key of `POST /decas`, the app's local id), kept for the
 *   DeCA's whole life and unique per account and environment, so a create
 *   replayed after any time — a phone offline for weeks — returns the same
 *   DeCA instead of a second one. `huella_cliente` is the fingerprint of
 *   that request, to tell a replay from another request reusing the key.
 * - Idempotency claims carry their owner's token and the time they were
 *   taken by the database's clock: a claim is taken over only when the
 *   database says it is abandoned (never by a process whose clock is ahead),
 *   and only its owner completes or releases it. Mail and webhook leases
 *   are judged by the database's clock too, and a mail's result is recorded
 *   only by the pass that holds its lease (`correos.bloqueado_por`).
 * - Indexes for what is deleted or purged by column: each `deca_id` foreign
 *   key (a cascade from `decas` must not scan its children), `eventos` by
 *   age (purged hourly) and `sessions` by user.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('decas').addColumn('clave_cliente', 'text').execute();
  await db.schema.alterTable('decas').addColumn('huella_cliente', 'text').execute();
  await db.schema.createIndex('decas_clave_cliente_uq').on('decas').columns(['account_id', 'entorno', 'clave_cliente']).unique().where(sql.ref('clave_cliente'), 'is not', null).execute();

  await db.schema.alterTable('idempotencia').addColumn('dueno', 'text').execute();
  await db.schema.alterTable('correos').addColumn('bloqueado_por', 'text').execute();
  await db.schema
    .alterTable('idempotencia')
    .addColumn('reclamada_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema.createIndex('deca_versiones_deca_idx').on('deca_versiones').column('deca_id').execute();
  await db.schema.createIndex('deca_cambios_deca_fk_idx').on('deca_cambios').column('deca_id').execute();
  await db.schema.createIndex('descargas_deca_fk_idx').on('descargas').column('deca_id').execute();
  await db.schema.createIndex('completar_borradores_deca_idx').on('completar_borradores').column('deca_id').execute();
  await db.schema.createIndex('eventos_created_idx').on('eventos').column('created_at').execute();
  await db.schema.createIndex('sessions_user_idx').on('sessions').column('user_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const i of [
    'sessions_user_idx',
    'eventos_created_idx',
    'completar_borradores_deca_idx',
    'descargas_deca_fk_idx',
    'deca_cambios_deca_fk_idx',
    'deca_versiones_deca_idx',
    'decas_clave_cliente_uq',
  ]) {
    await db.schema.dropIndex(i).ifExists().execute();
  }
  await db.schema.alterTable('correos').dropColumn('bloqueado_por').execute();
  await db.schema.alterTable('idempotencia').dropColumn('reclamada_at').execute();
  await db.schema.alterTable('idempotencia').dropColumn('dueno').execute();
  await db.schema.alterTable('decas').dropColumn('huella_cliente').execute();
  await db.schema.alterTable('decas').dropColumn('clave_cliente').execute();
}
