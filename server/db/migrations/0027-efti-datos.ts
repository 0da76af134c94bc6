import { type Kysely, sql } from 'kysely';

/**
 * What the eFTI subset ES01 asks for and a DeCA did not hold (docs/efti.md):
 * each party's address in parts (postcode, city, province or region,
 * country) and the registration country of the vehicle's and the trailer's
 * plates. Optional text columns like the DeCA's other fields, null in every
 * existing row: nothing is inferred here (a Spanish plate's country is
 * inferred when the dataset is written). The consignee of each shipment
 * lives in the shipments' jsonb (`envios[].destinatario_nombre`,
 * `destinatario_nif`), which needs no change: older shipments lack the keys
 * and are read as null.
 */
const COLUMNAS = ['cargador_cp', 'cargador_municipio', 'cargador_provincia', 'cargador_pais', 'transp_cp', 'transp_municipio', 'transp_provincia', 'transp_pais', 'matricula_pais', 'remolque_pais'];

export async function up(db: Kysely<any>): Promise<void> {
  // One statement: adding nullable columns with no default rewrites nothing (the partitions of `decas` take them too).
  await sql`alter table decas ${sql.join(
    COLUMNAS.map((c) => sql`add column ${sql.ref(c)} text`),
    sql`, `,
  )}`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table decas ${sql.join(
    COLUMNAS.map((c) => sql`drop column ${sql.ref(c)}`),
    sql`, `,
  )}`.execute(db);
}
