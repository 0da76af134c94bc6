import { type Kysely, sql } from 'kysely';

/**
 * Personal data let go (the /privacidad page says what is kept and for how long):
 * - `accounts.cerrada_at`: an administrator (or the operator) closed the
 *   account; it can no longer sign in nor use a key, and its DeCAs stay until
 *   their retention ends.
 * - `descargas.ip_truncada`: the public download log's IP, cut to its network
 *   (IPv4 /24, IPv6 /48) once the open is 90 days old. A partial index lists
 *   the rows still whole, oldest first, so each batch of the hourly
 *   maintenance reads only rows it will change, never the ones already cut
 *   (the index holds about 90 days of opens).
 * - `exportaciones`: the ZIP of an account's data made when it is closed
 *   (server/blobs/exportaciones.ts), served once by an unguessable link for 7
 *   days; only the sha256 of the link's token is stored.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('accounts').addColumn('cerrada_at', 'timestamptz').execute();

  // A constant default: no table rewrite on PostgreSQL 11 or later.
  await db.schema
    .alterTable('descargas')
    .addColumn('ip_truncada', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();
  await db.schema.createIndex('descargas_ip_entera_idx').on('descargas').column('created_at').where(sql.ref('ip_truncada'), '=', false).execute();

  await db.schema
    .createTable('exportaciones')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('archivo', 'text', (c) => c.notNull())
    .addColumn('bytes', 'bigint', (c) => c.notNull())
    .addColumn('enviada_a', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('caduca_at', 'timestamptz', (c) => c.notNull())
    .addColumn('descargada_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('exportaciones_caduca_idx').on('exportaciones').column('caduca_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('exportaciones').execute();
  await db.schema.dropIndex('descargas_ip_entera_idx').execute();
  await db.schema.alterTable('descargas').dropColumn('ip_truncada').execute();
  await db.schema.alterTable('accounts').dropColumn('cerrada_at').execute();
}
