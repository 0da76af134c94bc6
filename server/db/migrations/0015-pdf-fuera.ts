import { type Kysely, sql } from 'kysely';

/**
 * The PDF bytes leave the database for the blob store (server/blobs): a new
 * version's row keeps only their hash, size (`pdf_bytes`, already there) and
 * key (`pdf_clave`), with `pdf` null; rows written before keep their bytes
 * in `pdf` until `blobs:migrate` moves them out. A check keeps one of the
 * two set, and a partial index lists the rows still to move (empty once
 * they are all out, and never touched by a new version's insert).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('deca_versiones').addColumn('pdf_clave', 'text').execute();
  await db.schema
    .alterTable('deca_versiones')
    .alterColumn('pdf', (c) => c.dropNotNull())
    .execute();
  await db.schema.alterTable('deca_versiones').addCheckConstraint('deca_versiones_pdf_guardado', sql`pdf is not null or pdf_clave is not null`).execute();
  await db.schema.createIndex('deca_versiones_pdf_en_base_idx').on('deca_versiones').columns(['account_id', 'entorno', 'deca_id', 'version']).where(sql.ref('pdf'), 'is not', null).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  const { rows } = await sql<{ n: number }>`select count(*)::int as n from deca_versiones where pdf is null`.execute(db);
  const fuera = rows[0]?.n ?? 0;
  if (fuera > 0) {
    throw new Error(`No se puede deshacer 0015-pdf-fuera: ${fuera} versiones tienen su PDF solo en el almacén de documentos (BLOB_URL); esta migración no los devuelve a la base de datos.`);
  }
  await db.schema.dropIndex('deca_versiones_pdf_en_base_idx').execute();
  await db.schema.alterTable('deca_versiones').dropConstraint('deca_versiones_pdf_guardado').execute();
  await db.schema
    .alterTable('deca_versiones')
    .alterColumn('pdf', (c) => c.setNotNull())
    .execute();
  await db.schema.alterTable('deca_versiones').dropColumn('pdf_clave').execute();
}
