/**
 * Every list of GET /decas is an index walk, on a seeded database: the plan
 * PostgreSQL runs for each page (the query listarDecas sends, with its
 * parameters) reads the rows of the page from an index in the list's order —
 * no sort of everything the filter matched, no filter throwing away more
 * rows than a page.
 */
import { CompiledQuery, sql } from 'kysely';
import { describe, expect } from 'vitest';
import { consultaDeLista, encodeCursor } from '../../server/domain/decas/listar';
import type { DecaListQuery } from '../../shared/schemas/deca';
import { decaCompleta } from '../support/decas';
import { postDeca } from '../support/decas-http';
import { it } from '../support/fixtures';
import { clonarDeca } from '../support/sembrar';

/** DeCAs of the one account, over 400 days of transport dates and changes. */
const N = 20_000;
const LIMITE = 50;

interface Nodo {
  'Node Type': string;
  'Index Name'?: string;
  'Relation Name'?: string;
  'Rows Removed by Filter'?: number;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  Plans?: Nodo[];
}

const nodos = (n: Nodo): Nodo[] => [n, ...(n.Plans ?? []).flatMap(nodos)];

describe('the plans of the DeCA lists on a seeded database', () => {
  it('walk an index in the list’s order for every filter', { timeout: 120_000 }, async ({ app, c }) => {
    const creada = await postDeca(app, c.live, decaCompleta({ fecha_transporte: '2026-01-01' }));
    expect(creada.status, creada.text).toBe(201);
    const id = creada.body.deca.id as number;
    const db = app.database.db;
    // Over 400 days of transport dates and changes, 500 plates.
    await clonarDeca(db, id, N, {
      fecha_transporte: `to_char(date '2025-06-01' + (g % 400), 'YYYY-MM-DD')`,
      modificado_at: `d.modificado_at - make_interval(mins => g)`,
      // One plate in 1% of the DeCAs as the tractor and in another 1% as the trailer (200 each: more than a page).
      matricula: `case when g % 100 = 0 then '9999ZZZ' else 'M' || lpad((g % 500)::text, 4, '0') || 'BCD' end`,
      matricula_remolque: `case when g % 100 = 50 then '9999ZZZ' else d.matricula_remolque end`,
    });

    const { rows: indices } = await sql<{ hija: string; madre: string }>`
      select c.relname as hija, p.relname as madre from pg_inherits i join pg_class c on c.oid = i.inhrelid join pg_class p on p.oid = i.inhparent
      where p.relkind = 'I'`.execute(db);
    const madre = new Map(indices.map((r) => [r.hija, r.madre]));
    const actor = { accountId: c.account.id, entorno: 'produccion' as const, rol: null, userId: null };
    const plan = async (q: Partial<DecaListQuery>): Promise<Nodo[]> => {
      const compilada = consultaDeLista(db, actor, { limite: LIMITE, ...q } as DecaListQuery).compile();
      const r = await db.executeQuery<{ 'QUERY PLAN': [{ Plan: Nodo }] }>(CompiledQuery.raw(`explain (analyze, format json) ${compilada.sql}`, [...compilada.parameters]));
      // Each month's partition walks its own part of an index: named here by the partitioned table's index.
      return nodos(r.rows[0]!['QUERY PLAN'][0].Plan).map((x) => (x['Index Name'] ? { ...x, 'Index Name': madre.get(x['Index Name']) ?? x['Index Name'] } : x));
    };
    // Newest first with one account in the table, the primary key walked backwards serves as well as the account's own index.
    const casos: [string, Partial<DecaListQuery>, string | string[]][] = [
      ['newest first', {}, ['decas_list_idx', 'decas_pkey']],
      ['a month', { desde: '2026-03-01', hasta: '2026-03-31' }, 'decas_fecha_idx'],
      ['a month, a later page', { desde: '2026-03-01', hasta: '2026-03-31', despues_de: encodeCursor({ orden: 'fecha', clave: '2026-03-20', id: id + N / 2 }) }, 'decas_fecha_idx'],
      ['from a day on', { desde: '2026-05-01' }, 'decas_fecha_idx'],
      ['changed since', { modificado_desde: '2025-01-01' }, 'decas_modificado_idx'],
      ['a plate, as tractor or trailer', { matricula: '9999ZZZ' }, 'decas_matricula_idx'],
      ['a plate, a later page', { matricula: '9999 ZZZ', despues_de: encodeCursor({ orden: 'id', id: id + N / 2 }) }, 'decas_remolque_idx'],
    ];
    for (const [nombre, q, indice] of casos) {
      const n = await plan(q);
      const resumen = n.map((x) => `${x['Node Type']}${x['Index Name'] ? ` ${x['Index Name']}` : ''}`).join(' > ');
      expect(
        n.some((x) => [indice].flat().includes(x['Index Name'] ?? '')),
        `${nombre}: ${resumen}`,
      ).toBe(true);
      expect(
        n.filter((x) => /Sort/.test(x['Node Type'])),
        `${nombre}: ${resumen}`,
      ).toEqual([]);
      for (const x of n) {
        expect(x['Rows Removed by Filter'] ?? 0, `${nombre}: ${resumen}`).toBeLessThanOrEqual(LIMITE);
        // No walk reads more than a page (and the one row that says there is another).
        if (/Index/.test(x['Node Type'])) expect((x['Actual Rows'] ?? 0) * (x['Actual Loops'] ?? 1), `${nombre}: ${resumen}`).toBeLessThanOrEqual(LIMITE + 1);
      }
    }
    // The plate's list walks both indexes, each for a page at most.
    const placa = (await plan({ matricula: '9999ZZZ' })).map((x) => x['Index Name']);
    expect(placa).toEqual(expect.arrayContaining(['decas_matricula_idx', 'decas_remolque_idx']));
  });
});
