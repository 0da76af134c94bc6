import { type Kysely, sql } from 'kysely';

/**
 * - `decas.modificado_at` is always set (spec: a timestamp, never null): equal
 *   to `created_at` at creation and moved on every change, so
 *   `GET /decas?modificado_desde=` also finds new DeCAs. Existing rows take
 *   their last write time (`updated_at`, which every change moved).
 * - Triggers announce every change of a DeCA, an API key, an account or a
 *   webhook on a NOTIFY channel (suffixed by the schema, like the webhook
 *   channel), so each server process drops what it cached about it: a revoked
 *   key is refused everywhere within a moment, a changed DeCA never served stale.
 * - E-mail confirmation of accounts opened through sign-up.
 * - An index for the public-open deduplication (same DeCA, IP and browser).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`update decas set modificado_at = updated_at where modificado_at is null or modificado_at < updated_at`.execute(db);
  await db.schema
    .alterTable('decas')
    .alterColumn('modificado_at', (c) => c.setNotNull())
    .execute();
  await db.schema
    .alterTable('decas')
    .alterColumn('modificado_at', (c) => c.setDefault(sql`now()`))
    .execute();
  await db.schema.dropIndex('decas_updated_idx').ifExists().execute();
  await db.schema.createIndex('decas_modificado_idx').on('decas').columns(['account_id', 'entorno', 'modificado_at']).execute();

  await sql`
    create or replace function deca_notificar_cambio() returns trigger language plpgsql as $$
    declare
      fila record;
    begin
      if tg_op = 'DELETE' then fila := old; else fila := new; end if;
      perform pg_notify(tg_argv[0] || current_schema(), fila.id::text);
      return null;
    end $$`.execute(db);
  for (const [tabla, canal] of [
    ['decas', 'deca_cambio_decas_'],
    ['api_keys', 'deca_cambio_claves_'],
    ['accounts', 'deca_cambio_cuentas_'],
    ['webhooks', 'deca_cambio_webhooks_'],
  ] as const) {
    await sql`create trigger ${sql.raw(`${tabla}_notificar`)} after update or delete on ${sql.table(tabla)}
      for each row execute function deca_notificar_cambio(${sql.lit(canal)})`.execute(db);
  }
  // A new webhook changes what the fan-out must look for; new DeCAs, keys and accounts were never cached.
  await sql`create trigger webhooks_notificar_alta after insert on webhooks
    for each row execute function deca_notificar_cambio('deca_cambio_webhooks_')`.execute(db);

  await db.schema.alterTable('accounts').addColumn('confirmada_at', 'timestamptz').execute();
  await sql`update accounts set confirmada_at = created_at`.execute(db);
  await db.schema.alterTable('users').addColumn('email_confirmado_at', 'timestamptz').execute();
  await db.schema.alterTable('users').addColumn('confirmacion_hash', 'text').execute();
  await sql`update users set email_confirmado_at = created_at`.execute(db);
  await db.schema.createIndex('users_confirmacion_idx').on('users').column('confirmacion_hash').execute();

  await db.schema.createIndex('descargas_repeticion_idx').on('descargas').columns(['deca_id', 'ip', 'created_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('descargas_repeticion_idx').ifExists().execute();
  await db.schema.dropIndex('users_confirmacion_idx').ifExists().execute();
  await db.schema.alterTable('users').dropColumn('confirmacion_hash').execute();
  await db.schema.alterTable('users').dropColumn('email_confirmado_at').execute();
  await db.schema.alterTable('accounts').dropColumn('confirmada_at').execute();
  for (const t of ['decas', 'api_keys', 'accounts', 'webhooks']) await sql`drop trigger if exists ${sql.raw(`${t}_notificar`)} on ${sql.table(t)}`.execute(db);
  await sql`drop trigger if exists webhooks_notificar_alta on webhooks`.execute(db);
  await sql`drop function if exists deca_notificar_cambio()`.execute(db);
  await db.schema.dropIndex('decas_modificado_idx').ifExists().execute();
  await db.schema.createIndex('decas_updated_idx').on('decas').columns(['account_id', 'entorno', 'updated_at']).execute();
  await db.schema
    .alterTable('decas')
    .alterColumn('modificado_at', (c) => c.dropNotNull())
    .execute();
}
