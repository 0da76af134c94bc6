import { type Kysely, sql } from 'kysely';

/**
 * The PDF bytes leave the database for the blob store (server/blobs): a new
 * version's row keeps only their hash, size (`pdf_bytes`, already there) and
 * key (`pdf_clave`), with `pdf` null; rows written before keep their bytes
 * in `pdf` until `blobs:migrate` moves them out. A check keeps one of the
 * two set.
 *
 * Nothing here reads the table, which holds every PDF ever issued: the
 * column is added without a default, NOT NULL is only dropped, and the check
 * is added NOT VALID — every row already satisfies it, since `pdf` was NOT
 * NULL until this very migration — so each statement holds its lock for
 * an instant. The index of the rows still to move is built by
 * `blobs:migrate` itself, concurrently (domain/decas/pdfs-al-almacen.ts).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('deca_versiones').addColumn('pdf_clave', 'text').execute();
  await db.schema
    .alterTable('deca_versiones')
    .alterColumn('pdf', (c) => c.dropNotNull())
    .execute();
  await sql`alter table deca_versiones add constraint deca_versiones_pdf_guardado check (pdf is not null or pdf_clave is not null) not valid`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  const { rows } = await sql<{ n: number }>`select count(*)::int as n from deca_versiones where pdf is null`.execute(db);
  const fuera = rows[0]?.n ?? 0;
  if (fuera > 0) {
    throw new Error(`No se puede deshacer 0015-pdf-fuera: ${fuera} versiones tienen su PDF solo en el almacén de documentos (BLOB_URL); esta migración no los devuelve a la base de datos.`);
  }
  await db.schema.dropIndex('deca_versiones_pdf_en_base_idx').ifExists().execute();
  await db.schema.alterTable('deca_versiones').dropConstraint('deca_versiones_pdf_guardado').execute();
  await db.schema
    .alterTable('deca_versiones')
    .alterColumn('pdf', (c) => c.setNotNull())
    .execute();
  await db.schema.alterTable('deca_versiones').dropColumn('pdf_clave').execute();
}
