import { type Kysely, sql } from 'kysely';

/**
 * The address book: one row per company (keyed by NIF), vehicle (by plate)
 * or place (by its normalised text) of an account and environment, with its
 * data as JSON, the text it is searched by, and how often and when it was
 * last used (the order of a search).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('agenda')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('entorno', 'text', (c) => c.notNull().check(sql`entorno in ('produccion', 'pruebas')`))
    .addColumn('tipo', 'text', (c) => c.notNull().check(sql`tipo in ('empresas', 'vehiculos', 'lugares')`))
    .addColumn('clave', 'text', (c) => c.notNull())
    .addColumn('datos', 'jsonb', (c) => c.notNull())
    .addColumn('busqueda', 'text', (c) => c.notNull())
    .addColumn('usos', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('ultimo_uso_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('agenda_clave_unica', ['account_id', 'entorno', 'tipo', 'clave'])
    .execute();
  // No index on the use count: every DeCA bumps it, and an index on it would
  // make each of those updates rewrite index entries (no HOT update). A
  // search sorts an account's entries of one kind, found by the unique key.
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('agenda').execute();
}
