import { type Kysely, sql } from 'kysely';

/**
 * «Firmar en su móvil» (an extension of proofs of delivery): a link the
 * consignee opens on their own phone to sign for a shipment, valid 30 minutes
 * and spent by the one signature it takes. Only the token's SHA-256 is kept,
 * as for every link that acts for an account; `entrega_n` is the delivery it
 * made. Scoped like every tenant table; no foreign key to the partitioned
 * `decas` (its months are dropped whole, and these rows with them).
 *
 * Each delivery also keeps its signature as a PNG beside the vector strokes
 * (`firma_png`: its key and digest in the blob store), for whoever needs an
 * image rather than a path.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('firmas_remotas')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('entorno', 'text', (c) => c.notNull().check(sql`entorno in ('produccion', 'pruebas')`))
    .addColumn('deca_id', 'bigint', (c) => c.notNull())
    .addColumn('envio', 'integer')
    .addColumn('token_sha256', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('expira_at', 'timestamptz', (c) => c.notNull())
    .addColumn('usada_at', 'timestamptz')
    .addColumn('anulada_at', 'timestamptz')
    .addColumn('entrega_n', 'integer')
    .addColumn('canal', 'text', (c) => c.notNull())
    .addColumn('user_id', 'bigint')
    .addColumn('api_key_id', 'bigint')
    .addColumn('etiqueta', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('firmas_remotas_deca_idx').on('firmas_remotas').column('deca_id').execute();
  await db.schema.alterTable('entregas').addColumn('firma_png', 'jsonb').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('entregas').dropColumn('firma_png').execute();
  await db.schema.dropTable('firmas_remotas').execute();
}
