import { type Kysely, sql } from 'kysely';

/**
 * Devices and the numbers they hold, for DeCAs issued with no coverage. A
 * device is a signed-in user's browser with an ECDSA P-256 key pair made
 * there (the private key never leaves it); its public key is registered here
 * so that what it signs offline can be checked. Each device holds a few
 * numbers and public tokens per environment, taken from the account's
 * counter like any other number (never given twice); a number is used once,
 * by the DeCA the device issued with it.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('dispositivos')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('nombre', 'text', (c) => c.notNull())
    .addColumn('clave_publica', 'jsonb', (c) => c.notNull())
    .addColumn('huella', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('revocado_at', 'timestamptz')
    .execute();
  // One registration per key and account: registering the same key again returns it.
  await sql`create unique index dispositivos_clave_uq on dispositivos (account_id, huella)`.execute(db);

  await db.schema
    .createTable('reservas')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('entorno', 'text', (c) => c.notNull().check(sql`entorno in ('produccion', 'pruebas')`))
    .addColumn('dispositivo_id', 'bigint', (c) => c.notNull().references('dispositivos.id').onDelete('cascade'))
    .addColumn('numero', 'text', (c) => c.notNull())
    .addColumn('token_publico', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('caduca_at', 'timestamptz', (c) => c.notNull())
    .addColumn('usada_at', 'timestamptz')
    .addColumn('deca_id', 'bigint', (c) => c.references('decas.id').onDelete('set null'))
    .execute();
  await sql`create unique index reservas_numero_uq on reservas (account_id, entorno, numero)`.execute(db);

  // A DeCA issued on a device with no coverage: which device (its name then), and when the server got it
  // (its emitido_at is the device's time, the one its PDF and QR show).
  await db.schema
    .alterTable('decas')
    .addColumn('dispositivo_id', 'bigint', (c) => c.references('dispositivos.id').onDelete('set null'))
    .addColumn('dispositivo_nombre', 'text')
    .addColumn('recibida_at', 'timestamptz')
    .execute();
  await sql`create index reservas_dispositivo_idx on reservas (dispositivo_id, entorno) where usada_at is null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('decas').dropColumn('dispositivo_id').dropColumn('dispositivo_nombre').dropColumn('recibida_at').execute();
  await db.schema.dropTable('reservas').execute();
  await db.schema.dropTable('dispositivos').execute();
}
