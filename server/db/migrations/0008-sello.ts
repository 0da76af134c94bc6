import { type Kysely, sql } from 'kysely';

/**
 * The service's own seal, for a deployment that has not configured a
 * qualified one (SEAL_P12): made at the first start and kept here, so every
 * server process on this database seals with the same certificate. And
 * versions' PDFs stored as they are, not compressed again.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('sello_servicio')
    .addColumn('id', 'integer', (c) => c.primaryKey().check(sql`id = 1`))
    .addColumn('clave_pkcs8', 'bytea', (c) => c.notNull())
    .addColumn('certificado', 'bytea', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  // A version's PDF is compressed already (fonts, pages, profile): PostgreSQL
  // trying again on every insert is CPU spent for nothing.
  await sql`alter table deca_versiones alter column pdf set storage external`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table deca_versiones alter column pdf set storage extended`.execute(db);
  await db.schema.dropTable('sello_servicio').execute();
}
