/**
 * A carrier grown to a national service's size, on PostgreSQL: 200 real
 * DeCAs created through the API (a year of transport dates, 40 tractors and
 * 10 trailers, one to three shipments), cloned by SQL to each size of
 * ESCALA_TAMANOS (default 10000,100000,1000000), plus 1,000 small accounts of
 * 200 DeCAs beside it. At each size, with autocannon and 8 connections, 5 s
 * each: the list's first page, a plate's list, one month's list (and an old
 * month's), a keyset page of 100 deep in the month, a DeCA by id; the CSV
 * export of one month timed as one download; each list's plan (the index it
 * walks, rows read); and the storage per 1,000 DeCAs (tables and indexes,
 * PDFs in the blob store, not the database). Targets at 1M: every list p99
 * ≤ 50 ms, a month's export ≤ 5 s, ≤ 8 KB of PostgreSQL per DeCA.
 *
 * Plain figures, no pass/fail. Run: TEST_DATABASE_URL=postgres://… npx tsx bench/escala.ts
 * (about 15 minutes up to 1M on two cores; ESCALA_TAMANOS=10000,100000 for a quick look).
 */

import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { decaCompleta } from '../test/support/decas';
import { ROOT } from '../test/support/processes';

/** A partitioned table's size: its month partitions' (and their indexes'), as PostgreSQL stores them. */
const tamano = (tabla: string) => `(select coalesce(sum(pg_total_relation_size(i.inhrelid)), 0) from pg_inherits i where i.inhparent = '${tabla}'::regclass)`;

import { fmt, load, postgresDatabaseUrl, runCliIn, startScript } from './lib';

const base = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
if (!base) {
  console.error('Falta TEST_DATABASE_URL (o BENCH_DATABASE_URL): esta medida es sobre PostgreSQL.');
  process.exit(1);
}
const TAMANOS = (process.env.ESCALA_TAMANOS ?? '10000,100000,1000000').split(',').map(Number);
const REALES = 200;
const PEQUENAS = 1_000;

const carga = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
console.log(`machine: ${os.cpus().length} cores, Node ${process.version}, load average at start ${carga()}`);

const db = await postgresDatabaseUrl(base, 'deca_escala');
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'deca-escala-'));
const env = { DATABASE_URL: db.url, DATA_DIR: dataDir };
const cliente = new pg.Client({ connectionString: db.url });
const q = async <T = Record<string, unknown>>(texto: string, params: unknown[] = []): Promise<T[]> => (await cliente.query(texto, params)).rows as T[];

try {
  const cuenta = JSON.parse(await runCliIn(ROOT, ['account:create', '--company', 'Transportes Escala SL', '--nif', 'B12345674', '--plan', 'pro'], env)) as { cuenta: { id: number } };
  const accountId = cuenta.cuenta.id;
  const server = await startScript('server/main.ts', { ...env, PORT: '0', HOST: '127.0.0.1', API_RATE_LIMIT: '1000000', LOG_LEVEL: 'error' }, [], ROOT);
  try {
    const key = (JSON.parse(await runCliIn(ROOT, ['key:create', '--account', String(accountId), '--env', 'live'], env)) as { key: string }).key;
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    await cliente.connect();

    // The real ones: a year of dates, 40 tractors, 10 trailers, one to three shipments.
    for (let i = 0; i < REALES; i++) {
      const dia = new Date(Date.UTC(2026, 0, 1) + ((i * 37) % 365) * 86_400_000).toISOString().slice(0, 10);
      const envios = Array.from({ length: 1 + (i % 3) }, (_, k) => ({ origen: 'Zaragoza', destino: ['Teruel', 'Huesca', 'Valencia'][k]!, naturaleza: 'Melocotón', peso: 8000 + k * 500 }));
      const cuerpo = decaCompleta({
        fecha_transporte: dia,
        matricula: `${1000 + (i % 40)} BCD`,
        ...(i % 4 === 0 ? { matricula_remolque: `R ${2000 + (i % 10)} BBB` } : {}),
        envios,
        referencia: `Escala ${i}`,
      });
      const res = await fetch(`${server.url}/api/v1/decas`, { method: 'POST', headers, body: JSON.stringify(cuerpo) });
      if (res.status !== 201) throw new Error(`POST /decas respondió ${res.status}: ${await res.text()}`);
    }
    const almacen = await q<{ t: string; v: string; c: string; d: string }>(
      `select ${tamano('decas')}::text t, ${tamano('deca_versiones')}::text v, ${tamano('deca_cambios')}::text c, (select count(*) from decas)::text d`,
    );
    const a = almacen[0]!;
    const porMil = (n: string) => (Number(n) / Number(a.d)) * 1000;
    console.log(
      `storage per 1,000 DeCAs (the ${a.d} real ones; PDFs in the blob store): decas ${fmt(porMil(a.t) / 1024)} KB, deca_versiones ${fmt(porMil(a.v) / 1024)} KB, deca_cambios ${fmt(porMil(a.c) / 1024)} KB — ` +
        `${fmt((Number(a.t) + Number(a.v) + Number(a.c)) / Number(a.d) / 1024, 1)} KB per DeCA (target ≤ 8)`,
    );

    const columnas = (
      await q<{ column_name: string }>(
        `select column_name from information_schema.columns where table_schema = current_schema() and table_name = 'decas' and column_name <> 'id' order by ordinal_position`,
      )
    ).map((x) => x.column_name);
    // Each clone's g is new across calls, so its number and public token are too.
    let hechas = 0;
    const clonar = async (cuantas: number, cuentaDe: string) => {
      const distinto: Record<string, string> = {
        account_id: cuentaDe,
        numero: `d.numero || '-' || g`,
        token_publico: `d.token_publico || g`,
        ref_externa: 'null',
        clave_cliente: 'null',
        huella_cliente: 'null',
        modificado_at: `d.modificado_at - make_interval(mins => g)`,
      };
      await q(
        `insert into decas (${columnas.map((c) => `"${c}"`).join(', ')})
         select ${columnas.map((c) => distinto[c] ?? `d."${c}"`).join(', ')}
         from generate_series($2::int + 1, $2::int + $1::int) g join decas d on d.id = (select min(id) from decas where account_id = ${accountId}) + (g % ${REALES})`,
        [cuantas, hechas],
      );
      hechas += cuantas;
    };

    // 1,000 small accounts of 200 DeCAs each, beside the big one.
    const primera = Number((await q<{ id: string }>(`select max(id)::text id from accounts`))[0]!.id);
    await q(`insert into accounts (nombre, nif, rol, plan) select 'Pequeña ' || g, 'B12345674', 'transportista', 'free' from generate_series(1, ${PEQUENAS}) g`);
    await clonar(PEQUENAS * REALES, `${primera} + 1 + (g % ${PEQUENAS})`);

    const mes = { desde: '2026-03-01', hasta: '2026-03-31' };
    const viejo = { desde: '2026-01-01', hasta: '2026-01-31' };
    let tiene = REALES;
    for (const n of TAMANOS) {
      const t0 = performance.now();
      if (n > tiene) await clonar(n - tiene, String(accountId));
      tiene = Math.max(tiene, n);
      await q('analyze');
      console.log(`\n— ${fmt(n)} DeCAs in the carrier (+ ${fmt(PEQUENAS * REALES)} in ${fmt(PEQUENAS)} small accounts); seeded in ${fmt((performance.now() - t0) / 1000, 1)} s; load ${carga()}`);
      const id = Number((await q<{ id: string }>(`select max(id)::text id from decas where account_id = ${accountId}`))[0]!.id);
      // A cursor deep in the month: the page after the first 1,000 of it.
      const lista = async (query: Record<string, string>) => {
        const r = await fetch(`${server.url}/api/v1/decas?${new URLSearchParams(query)}`, { headers });
        return (await r.json()) as { decas: { id: number }[]; siguiente: string | null };
      };
      let cursor: string | null = null;
      for (let i = 0; i < 10; i++) {
        const query: Record<string, string> = { ...mes, limite: '100' };
        if (cursor !== null) query.despues_de = cursor;
        cursor = (await lista(query)).siguiente;
      }
      const ops: [string, string][] = [
        ['list, first page', '/api/v1/decas'],
        ['list matricula=', '/api/v1/decas?matricula=1003BCD'],
        ['list one month', `/api/v1/decas?${new URLSearchParams(mes)}`],
        ['list an old month', `/api/v1/decas?${new URLSearchParams(viejo)}`],
        ['keyset page of 100, 1,000 deep in the month', `/api/v1/decas?${new URLSearchParams({ ...mes, limite: '100', ...(cursor ? { despues_de: cursor } : {}) })}`],
        ['get by id', `/api/v1/decas/${id}`],
      ];
      for (const [nombre, ruta] of ops) {
        const r = await load({ url: `${server.url}${ruta}`, headers, connections: 8, duration: 5 });
        console.log(`${nombre}: ${r.p50}/${r.p99} ms (p50/p99), ${fmt(r.rps)} req/s, non-2xx ${r.non2xx}, errors ${r.errors}`);
      }
      const e0 = performance.now();
      const exp = await fetch(`${server.url}/api/v1/decas.csv?${new URLSearchParams(mes)}`, { headers: { authorization: headers.authorization } });
      const cuerpoExp = await exp.arrayBuffer();
      if (exp.status !== 200) throw new Error(`GET /decas.csv respondió ${exp.status}: ${new TextDecoder().decode(cuerpoExp).slice(0, 300)}`);
      const bytes = cuerpoExp.byteLength;
      console.log(`CSV export of one month: ${fmt((performance.now() - e0) / 1000, 2)} s, ${fmt(bytes / 1e6, 1)} MB, status ${exp.status} (target ≤ 5 s at 1M)`);
      const total = await q<{ t: string; d: string }>(`select (${tamano('decas')} + ${tamano('deca_versiones')} + ${tamano('deca_cambios')})::text t, (select count(*) from decas)::text d`);
      console.log(`PostgreSQL, decas + versions + history: ${fmt(Number(total[0]!.t) / 1e6)} MB for ${fmt(Number(total[0]!.d))} DeCAs`);
    }
    // The plans at the largest size, as listarDecas sends them.
    for (const [nombre, filtro] of [
      ['month', `fecha_transporte between '2026-03-01' and '2026-03-31' order by fecha_transporte desc, id desc`],
      ['plate (tractor walk)', `matricula = '1003BCD' order by id desc`],
    ] as const) {
      const plan = await q<{ 'QUERY PLAN': string }>(`explain (analyze, buffers) select id from decas where account_id = ${accountId} and entorno = 'produccion' and ${filtro} limit 51`);
      console.log(`\nplan, ${nombre}:\n${plan.map((p) => `  ${p['QUERY PLAN']}`).join('\n')}`);
    }
  } finally {
    await server.stop();
  }
} finally {
  await cliente.end().catch(() => {});
  await db.drop();
  rmSync(dataDir, { recursive: true, force: true });
  console.log(`\nload average at end ${carga()}`);
}
