import { type Kysely, type RawBuilder, sql } from 'kysely';

/**
 * The create of a DeCA issued at once no longer stores its fields in the
 * history: they are its version 1's data, which the DeCA holds, and reading
 * the history rebuilds them (domain/decas/listar.ts `listarCambios`). Its
 * 'creacion' row keeps `campos` null; `campos` takes null from now on.
 *
 * The rows written before are emptied here, in batches of DeCA ids, each only if
 * what the read rebuilds is what the row holds, byte for byte (the text of
 * the jsonb), so the history is answered as before: a create's fields are
 * every document field but the shipments, from nothing, with the value it
 * had before its first later modification, else the value it has now. Only
 * for a DeCA no longer pending: issuing a pending one may fill its data
 * from the account with no entry of its own, so a pending DeCA's create
 * keeps its fields, as new ones do. A replacement keeps its own too (the
 * DeCA it replaces, whose 'sustitucion' entry holds the same, may be let go
 * before it). A row that differs (written otherwise) keeps them as well.
 *
 * The rules of the read, copied here in SQL as of this migration: a
 * migration never depends on today's code.
 *
 * A batch is one statement over LOTE DeCAs (the next LOTE ids of `decas`,
 * their history by `deca_id`'s index): the migrator runs in one transaction,
 * so batches bound each statement, not the transaction. About 8 s for 200,000
 * DeCAs on PostgreSQL 15; the rows left behind are reclaimed by autovacuum.
 */

const LOTE = 10_000;

/** The document fields a create lists, in print order (shared/rules/campos-deca.ts without `envios`, as of this migration). */
const CAMPOS = [
  'cargador_nombre',
  'cargador_nif',
  'cargador_domicilio',
  'transp_nombre',
  'transp_nif',
  'transp_domicilio',
  'fecha_transporte',
  'tipo_vehiculo',
  'matricula',
  'matricula_remolque',
  'autorizacion_especial',
  'conductor_nombre',
  'conductor_tel',
  'observaciones',
  'referencia',
];

/**
 * What the history answers as the fields of the 'creacion' row `c` of the DeCA `d` when `c.campos` is null. The
 * first `antes` of each field in the DeCA's later modifications is gathered once per row, not once a field.
 */
function camposReconstruidos(): RawBuilder<unknown> {
  const campos = sql.join(CAMPOS.map((campo, i) => sql`(${sql.lit(i)}, ${sql.lit(campo)}, to_jsonb(${sql.ref(`d.${campo}`)}))`));
  const nombres = sql.join(CAMPOS.map((campo) => sql.lit(campo)));
  const valor = sql`coalesce(m.antes -> f.campo, f.ahora)`;
  return sql`(
      select coalesce(jsonb_agg(jsonb_build_object('antes', null, 'campo', f.campo, 'despues', ${valor}) order by f.orden) filter (where ${valor} <> 'null'::jsonb), '[]'::jsonb)
      from (
        select jsonb_object_agg(x.campo, x.antes) as antes
        from (
          select distinct on (e.valor ->> 'campo') e.valor ->> 'campo' as campo, coalesce(e.valor -> 'antes', 'null'::jsonb) as antes
          from deca_cambios mc
          cross join lateral jsonb_array_elements(mc.campos) with ordinality as e (valor, n)
          where mc.account_id = d.account_id and mc.entorno = d.entorno and mc.deca_id = d.id and mc.tipo = 'modificacion' and mc.id > c.id
            and e.valor ->> 'campo' in (${nombres})
          order by e.valor ->> 'campo', mc.id, e.n desc
        ) as x
      ) as m
      cross join (values ${campos}) as f (orden, campo, ahora)
    )`;
}

/**
 * Run `paso` over the DeCAs' ids, LOTE at a time in key order: each batch is
 * the ids in (desde, hasta], taken from `decas` itself, so gaps in the ids cost nothing.
 */
async function porLotes(db: Kysely<any>, paso: (desde: number, hasta: number) => Promise<unknown>): Promise<void> {
  for (let desde = 0; ; ) {
    const { rows } = await sql<{ hasta: string | null }>`
      select max(id)::text as hasta from (select id from decas where id > ${desde} order by id limit ${LOTE}) as lote`.execute(db);
    if (rows[0]?.hasta == null) return;
    const hasta = Number(rows[0].hasta);
    await paso(desde, hasta);
    desde = hasta;
  }
}

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('deca_cambios')
    .alterColumn('campos', (c) => c.dropNotNull())
    .execute();
  await porLotes(db, (desde, hasta) =>
    sql`update deca_cambios c set campos = null
      from decas d
      where d.id > ${desde} and d.id <= ${hasta} and c.deca_id > ${desde} and c.deca_id <= ${hasta} and c.tipo = 'creacion' and c.campos is not null
        and d.id = c.deca_id and d.account_id = c.account_id and d.entorno = c.entorno and d.estado <> 'pendiente' and d.sustituye_a_id is null
        and c.campos::text = (${camposReconstruidos()})::text`.execute(db),
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await porLotes(db, (desde, hasta) =>
    sql`update deca_cambios c set campos = coalesce(${camposReconstruidos()}, '[]'::jsonb)
      from decas d
      where d.id > ${desde} and d.id <= ${hasta} and c.deca_id > ${desde} and c.deca_id <= ${hasta} and c.tipo = 'creacion' and c.campos is null and d.id = c.deca_id`.execute(db),
  );
  await db.schema
    .alterTable('deca_cambios')
    .alterColumn('campos', (c) => c.setNotNull())
    .execute();
}
