import type { Kysely } from 'kysely';

/**
 * The public authenticity check looks a PDF up by its SHA-256 among every
 * stored version of every DeCA: an index on the fingerprint.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('deca_versiones_sha256_idx').on('deca_versiones').column('pdf_sha256').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('deca_versiones_sha256_idx').execute();
}
