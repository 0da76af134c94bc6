import type { Kysely } from 'kysely';

/**
 * Every list is an index walk: a list filtered by the transport date
 * (`desde`/`hasta`) or by `modificado_desde` is ordered by that date and then
 * id, and a plate's list is the merge of two scans ordered by id, so each
 * index ends in `id` — the page is the first rows of the walk, never a sort
 * of everything the filter matched (a carrier's month at a million DeCAs:
 * 85,000 rows read and sorted for 51).
 */
const INDICES = [
  ['decas_fecha_idx', 'fecha_transporte'],
  ['decas_modificado_idx', 'modificado_at'],
  ['decas_matricula_idx', 'matricula'],
  ['decas_remolque_idx', 'matricula_remolque'],
] as const;

export async function up(db: Kysely<any>): Promise<void> {
  for (const [nombre, columna] of INDICES) {
    await db.schema.dropIndex(nombre).execute();
    await db.schema.createIndex(nombre).on('decas').columns(['account_id', 'entorno', columna, 'id']).execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const [nombre, columna] of INDICES) {
    await db.schema.dropIndex(nombre).execute();
    await db.schema.createIndex(nombre).on('decas').columns(['account_id', 'entorno', columna]).execute();
  }
}
