import { type Kysely, sql } from 'kysely';
import type { DB } from '../../server/db/schema';

/**
 * `n` copies of a real DeCA (made through the API), by SQL: every column as
 * the original's but those that identify it (number, public token, client
 * keys) and those `distinto` gives as SQL over `d` (the original) and `g`
 * (1…n). Then ANALYZE, so the planner sees the table as it is.
 */
export async function clonarDeca(db: Kysely<DB>, id: number, n: number, distinto: Record<string, string> = {}): Promise<void> {
  const { rows: columnas } = await sql<{ column_name: string }>`
    select column_name from information_schema.columns
    where table_schema = current_schema() and table_name = 'decas' and column_name <> 'id' order by ordinal_position`.execute(db);
  const expr: Record<string, string> = {
    numero: `d.numero || '-' || g`,
    token_publico: `d.token_publico || g`,
    ref_externa: 'null',
    clave_cliente: 'null',
    huella_cliente: 'null',
    ...distinto,
  };
  const nombres = columnas.map((x) => x.column_name);
  await sql`insert into decas (${sql.raw(nombres.map((c) => `"${c}"`).join(', '))})
    select ${sql.raw(nombres.map((c) => expr[c] ?? `d."${c}"`).join(', '))}
    from decas d, generate_series(1, ${n}) g where d.id = ${id}`.execute(db);
  await sql`analyze decas`.execute(db);
}
