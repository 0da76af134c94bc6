/**
 * An inspector's open of a DeCA raises its download count: on a table of
 * full pages every such update would write a new entry in each of the
 * table's indexes (not HOT). With room left in each page (fillfactor), the
 * count's update stays on its page and touches no index. Counted by
 * PostgreSQL's own statistics on a seeded table, through the public door.
 */
import { sql } from 'kysely';
import { describe, expect } from 'vitest';
import { testDatabaseKind } from '../support/db';
import { decaCompleta } from '../support/decas';
import { postDeca } from '../support/decas-http';
import { it, test } from '../support/fixtures';
import { clonarDeca } from '../support/sembrar';

// Each open from an address of its own (through a trusted proxy): the per-IP budget never drops one.
test.override('opcionesApp', { env: { TRUST_PROXY: '1' } });

const COPIAS = 4_000;
const APERTURAS = 100;

describe.runIf(testDatabaseKind() === 'postgres')('the download count of a DeCA', () => {
  it('is raised by HOT updates: an open rewrites no index entry of decas', { timeout: 120_000 }, async ({ app, c }) => {
    const creada = await postDeca(app, c.live, decaCompleta());
    expect(creada.status, creada.text).toBe(201);
    const db = app.database.db;
    await clonarDeca(db, creada.body.deca.id as number, COPIAS);
    const estadisticas = async () => {
      await sql`select pg_stat_force_next_flush()`.execute(db);
      const { rows } = await sql<{ upd: string; hot: string }>`
        select sum(n_tup_upd)::text as upd, sum(n_tup_hot_upd)::text as hot from pg_stat_user_tables
        where relid in (select inhrelid from pg_inherits where inhparent = 'decas'::regclass)`.execute(db);
      return { upd: Number(rows[0]!.upd), hot: Number(rows[0]!.hot) };
    };
    // (Counted over the month partitions of decas.) One DeCA per heap page: each open's update is the first on its page, so whether it stays
    // HOT depends on the room the table leaves in its pages, not on whether PostgreSQL could
    // prune an earlier version yet (other tests' transactions in the same database hold that back).
    const tokens = (
      await sql<{ token_publico: string }>`
        select token_publico from (
          select distinct on ((ctid::text::point)[0]) token_publico, id from decas
          where numero like '%-%' and account_id = ${c.account.id}
          order by (ctid::text::point)[0], id
        ) una_por_pagina order by id limit ${APERTURAS}`.execute(db)
    ).rows.map((r) => r.token_publico);
    expect(tokens).toHaveLength(APERTURAS);

    const antes = await estadisticas();
    for (const [i, token] of tokens.entries()) {
      const res = await fetch(`${app.url}/d/${token}`, { headers: { 'user-agent': 'Mozilla/5.0 (Linux; Android 14) Chrome/130.0 Mobile', 'x-forwarded-for': `198.18.${i >> 8}.${i & 255}` } });
      expect(res.status).toBe(200);
      await res.arrayBuffer();
    }
    await expect.poll(async () => (await sql<{ n: number }>`select count(*)::int as n from descargas where account_id = ${c.account.id}`.execute(db)).rows[0]!.n).toBe(APERTURAS);
    const despues = await estadisticas();
    const actualizadas = despues.upd - antes.upd;
    expect(actualizadas).toBeGreaterThanOrEqual(APERTURAS);
    // Every count update HOT: each finds the room fillfactor left on its page.
    expect((despues.hot - antes.hot) / actualizadas).toBeGreaterThanOrEqual(0.98);
  });
});
