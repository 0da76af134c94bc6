import { type Kysely, sql } from 'kysely';

/**
 * The photos of delivery notes read by POST /fotos, kept so each stays with
 * the DeCA made from it (GET /decas/{id}/foto). The bytes are in the blob
 * store under `clave`; the row says whose they are, what they are and where
 * they belong:
 * - `deca_id`: the DeCA it became (POST /decas with `foto_id`); one photo a
 *   DeCA at most. No foreign key: `decas` is partitioned by month and its
 *   months are dropped whole; the photos of a month go with it
 *   (server/db/particiones.ts), their rows deleted in the same transaction.
 * - `caduca_at`: when a photo that became no DeCA is deleted by the hourly
 *   maintenance (30 days after it was read, or at once when its DeCA was
 *   deleted while pending or its account closed); null once it is a DeCA's.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('fotos')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('entorno', 'text', (c) => c.notNull().check(sql`entorno in ('produccion', 'pruebas')`))
    .addColumn('clave', 'text', (c) => c.notNull().unique())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('bytes', 'integer', (c) => c.notNull())
    .addColumn('tipo', 'text', (c) => c.notNull())
    .addColumn('deca_id', 'bigint')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('caduca_at', 'timestamptz')
    .addCheckConstraint('fotos_unida_o_caduca', sql`(deca_id is null) <> (caduca_at is null)`)
    .execute();
  await db.schema.createIndex('fotos_deca_idx').on('fotos').column('deca_id').unique().where(sql.ref('deca_id'), 'is not', null).execute();
  await db.schema.createIndex('fotos_caduca_idx').on('fotos').column('caduca_at').where(sql.ref('caduca_at'), 'is not', null).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('fotos').execute();
}
