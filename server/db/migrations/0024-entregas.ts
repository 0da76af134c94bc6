import { type Kysely, sql } from 'kysely';

/**
 * Proofs of delivery (POST /decas/{id}/entregas, an extension): one row per
 * delivery or refusal of a DeCA's shipment (`envio`, or null for all of
 * them), numbered `n` within its DeCA. Scoped like every tenant table by
 * account and environment. No foreign key to `decas`: it is partitioned by
 * month and its months are dropped whole; the deliveries of those DeCAs go
 * with them (server/db/particiones.ts). The photos' bytes are in the blob
 * store, their keys in `fotos`.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('entregas')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('entorno', 'text', (c) => c.notNull().check(sql`entorno in ('produccion', 'pruebas')`))
    .addColumn('deca_id', 'bigint', (c) => c.notNull())
    .addColumn('n', 'integer', (c) => c.notNull())
    .addColumn('envio', 'integer')
    .addColumn('resultado', 'text', (c) => c.notNull().check(sql`resultado in ('entregada', 'rechazada')`))
    .addColumn('receptor_nombre', 'text')
    .addColumn('receptor_documento', 'text')
    .addColumn('firma', 'jsonb')
    .addColumn('reservas', 'text')
    .addColumn('sin_reservas', 'boolean', (c) => c.notNull())
    .addColumn('motivo_rechazo', 'text')
    .addColumn('fotos', 'jsonb', (c) => c.notNull())
    .addColumn('posicion', 'jsonb')
    .addColumn('registrada_at', 'timestamptz', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('canal', 'text', (c) => c.notNull())
    .addColumn('user_id', 'bigint')
    .addColumn('api_key_id', 'bigint')
    .addColumn('token', 'text', (c) => c.notNull().unique())
    .addColumn('pdf_sha256', 'text')
    .execute();
  await db.schema.createIndex('entregas_deca_n_idx').on('entregas').columns(['deca_id', 'n']).unique().execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('entregas').execute();
}
