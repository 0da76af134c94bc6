import { type Compilable, type Kysely, type RawBuilder, sql } from 'kysely';
import { COLUMNA_XID } from '../db/commit-outcome';
import type { DB } from '../db/schema';

/**
 * One part of a statement made of several: a CTE (`sentencia`, which may
 * name the parts before it) and/or a value read from the statement's one
 * row (`valor`, an expression over the parts), checked once the statement
 * has run (`comprobar` throws to refuse, which rolls back the transaction).
 * A CTE that writes always runs; one that only reads runs when `valor`
 * reads it.
 */
export interface Parte {
  nombre: string;
  sentencia?: Compilable<unknown> | RawBuilder<unknown>;
  valor?: RawBuilder<unknown>;
  comprobar?: (valor: unknown) => void;
}

/**
 * Run `partes` as one statement — one round trip — and check their values.
 * With `xid`, the statement also reports its transaction's id in
 * COLUMNA_XID, so the driver needs no read of its own before the COMMIT
 * (db/commit-outcome.ts): for a transaction's last statement.
 * Returns each part's value by name.
 */
export async function unaSentencia(db: Kysely<DB>, partes: readonly Parte[], opts: { xid?: boolean } = {}): Promise<Record<string, unknown>> {
  const ctes = partes.filter((p) => p.sentencia).map((p) => sql`${sql.id(p.nombre)} as (${p.sentencia})`);
  const columnas = partes.filter((p) => p.valor).map((p) => sql`${p.valor} as ${sql.id(p.nombre)}`);
  if (opts.xid) columnas.push(sql`txid_current()::text as ${sql.id(COLUMNA_XID)}`);
  if (columnas.length === 0) columnas.push(sql`1 as uno`);
  const consulta = ctes.length ? sql`with ${sql.join(ctes)} select ${sql.join(columnas)}` : sql`select ${sql.join(columnas)}`;
  const { rows } = await consulta.execute(db);
  const fila = (rows[0] ?? {}) as Record<string, unknown>;
  for (const p of partes) p.comprobar?.(fila[p.nombre]);
  return fila;
}
