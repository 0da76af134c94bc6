/**
 * DeCA throughput on PGlite and, with TEST_DATABASE_URL or BENCH_DATABASE_URL,
 * on PostgreSQL, with the server as a child process (autocannon, 10
 * connections, 10 s each):
 * - POST /api/v1/decas, a complete DeCA issued at once (PDF rendered), every
 *   request a new DeCA (no ref_externa, no Idempotency-Key);
 * - GET /api/v1/decas/{id}.
 * And, in the same run, what bounds them: one in-process PDF render (median
 * of 30), bare renders/s on a pool the size of the server's, a bare Koa
 * handler's requests/s, and (on PostgreSQL) bare Koa plus one prepared query
 * per request — each measured before and after the server runs, the higher
 * kept. Then the ratios to those limits.
 *
 * With BENCH_ANTES=<git revision> (e.g. the commit before a change) the same
 * loads also run against the server of that revision, from a temporary
 * checkout, in this same run: «N× the rate before» measured, not remembered;
 * BENCH_RONDAS=N alternates the two N times (medians kept).
 *
 * Plain figures, no pass/fail. Run: npx tsx bench/decas.ts
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { renderDecaPdf } from '../server/documents/deca-pdf';
import { createPdfPool } from '../server/documents/pdf-pool';
import { generarSelloAutofirmado } from '../server/documents/sello';
import { randomToken } from '../server/domain/accounts/tokens';
import { datosPdf } from '../shared/pdf/datos-pdf';
import type { DecaPdfData } from '../shared/pdf/deca-pdf-data';
import { completarDatos, datosDeEntrada } from '../shared/rules/datos-deca';
import { DecaInput } from '../shared/schemas/deca';
import { decaCompleta } from '../test/support/decas';
import { ROOT } from '../test/support/processes';
import { checkout, fmt, type LoadResult, load, median, postgresDatabaseUrl, revisionAnterior, runCliIn, startScript } from './lib';

const RENDER_RUNS = 30;
const POOL_SECONDS = 5;
const WARM_UP_CREATES = 20;

/** The POST body: a complete DeCA (every art. 6 datum, one shipment), made distinct by `referencia`. */
function cuerpo(n: number): string {
  return JSON.stringify(decaCompleta({ referencia: `Bench ${n}`, observaciones: 'Carga paletizada; descarga con cita previa.' }));
}

/** What the server renders for that body, built by the same domain functions. */
function pdfDelCuerpo(): DecaPdfData {
  const input = DecaInput.parse(JSON.parse(cuerpo(0)));
  const datos = completarDatos(datosDeEntrada(input), 'transportista', { nombre: '', nif: '', domicilio: null });
  return datosPdf(datos, {
    entorno: 'produccion',
    numero: '2026-000001',
    version: 1,
    qrUrl: `http://localhost:8080/d/${randomToken(24)}`,
    emitidoAt: new Date(),
    modificadoAt: null,
    motivo: null,
    sustituyeA: null,
  });
}

async function renderMedian(data: DecaPdfData): Promise<number> {
  for (let i = 0; i < 5; i++) await renderDecaPdf(data); // warm-up (JIT, font tables)
  const times: number[] = [];
  for (let i = 0; i < RENDER_RUNS; i++) {
    const start = performance.now();
    await renderDecaPdf({ ...data, numero: `2026-${String(i + 1).padStart(6, '0')}` });
    times.push(performance.now() - start);
  }
  return median(times);
}

/** Sealed renders/s on `createPdfPool()` (default size and a self-signed seal, as the server), workers × 2 jobs in flight. */
async function barePdfRate(data: DecaPdfData): Promise<{ rate: number; workers: number }> {
  const workers = os.availableParallelism();
  const pool = createPdfPool({ sello: generarSelloAutofirmado('bench', new Date()) });
  try {
    await Promise.all(Array.from({ length: workers * 2 }, () => pool.render(data))); // workers started and warm
    let done = 0;
    const start = performance.now();
    const deadline = start + POOL_SECONDS * 1000;
    await Promise.all(
      Array.from({ length: workers * 2 }, async () => {
        while (performance.now() < deadline) {
          await pool.render({ ...data, numero: `2026-${String(100_000 + done).padStart(6, '0')}` });
          done++;
        }
      }),
    );
    return { rate: done / ((performance.now() - start) / 1000), workers };
  } finally {
    await pool.close();
  }
}

async function bareKoa(env: Record<string, string> = {}): Promise<LoadResult> {
  const child = await startScript('bench/bare-koa.ts', env);
  try {
    await load({ url: child.url, duration: 2 }); // warm-up
    return await load({ url: child.url });
  } finally {
    await child.stop();
  }
}

interface DbFigures {
  create: LoadResult;
  get: LoadResult;
}

/** Create+issue and GET against the server of the checkout at `root` (this one, or another revision). */
async function benchDecas(label: string, env: Record<string, string>, root = ROOT): Promise<DbFigures> {
  const account = JSON.parse(await runCliIn(root, ['account:create', '--company', 'Bench SL', '--nif', 'B12345674', '--plan', 'pro'], env)) as { cuenta: { id: number } };
  const server = await startScript('server/main.ts', { ...env, PORT: '0', HOST: '127.0.0.1', API_RATE_LIMIT: '1000000', LOG_LEVEL: 'error' }, [], root);
  try {
    const key = (JSON.parse(await runCliIn(root, ['key:create', '--account', String(account.cuenta.id), '--env', 'live'], env)) as { key: string }).key;
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    let id = 0;
    for (let i = 0; i < WARM_UP_CREATES; i++) {
      const res = await fetch(`${server.url}/api/v1/decas`, { method: 'POST', headers, body: cuerpo(-i - 1) });
      if (res.status !== 201) throw new Error(`warm-up POST /decas answered ${res.status}: ${await res.text()}`);
      id = ((await res.json()) as { deca: { id: number } }).deca.id;
    }

    let n = 0;
    const create = await load({
      url: `${server.url}/api/v1/decas`,
      method: 'POST',
      headers,
      requests: [{ setupRequest: (req) => ({ ...req, body: cuerpo(++n) }) }],
    });
    console.log(
      `POST /api/v1/decas (create+issue, PDF) on ${label}: ${fmt(create.rps, 1)} req/s, p50 ${create.p50} ms, p99 ${create.p99} ms, ` +
        `201s ${create.ok}, non-2xx ${create.non2xx}, errors ${create.errors}`,
    );

    await load({ url: `${server.url}/api/v1/decas/${id}`, headers, duration: 2 }); // warm-up
    const get = await load({ url: `${server.url}/api/v1/decas/${id}`, headers });
    console.log(`GET /api/v1/decas/{id} on ${label}: ${fmt(get.rps)} req/s, p50 ${get.p50} ms, p99 ${get.p99} ms, non-2xx ${get.non2xx}, errors ${get.errors}`);
    return { create, get };
  } finally {
    await server.stop();
  }
}

/** Both databases for the checkout at `root`. */
async function benchAll(tag: string, root: string, pgUrl: string | undefined): Promise<Map<string, DbFigures>> {
  const out = new Map<string, DbFigures>();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'deca-bench-'));
  try {
    out.set('PGlite', await benchDecas(`PGlite${tag}`, { DATA_DIR: dataDir }, root));
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
  if (pgUrl) {
    const s = await postgresDatabaseUrl(pgUrl, 'bench_decas');
    try {
      out.set('PostgreSQL', await benchDecas(`PostgreSQL${tag}`, { DATABASE_URL: s.url }, root));
    } finally {
      await s.drop();
    }
  }
  return out;
}

const rev = revisionAnterior();

const loadAverage = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
console.log(`machine: ${os.availableParallelism()} cores, Node ${process.versions.node}, load average at start ${loadAverage()}`);
const data = pdfDelCuerpo();
const renderMs = await renderMedian(data);
console.log(`one PDF render (1 envío), in-process, median of ${RENDER_RUNS}: ${fmt(renderMs, 2)} ms`);

const pgUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;

/**
 * The ceilings, measured before and again after the servers run: on a
 * shared machine other work can only lower a ceiling, so the ratios use the
 * higher of the two.
 */
async function references(when: string): Promise<{ pdf: number; koa: number; koaQuery: number | null }> {
  const pdf = await barePdfRate(data);
  console.log(`bare PDF renders (${when}) on a pool of ${pdf.workers} workers (createPdfPool() default), ${pdf.workers * 2} in flight, ~${POOL_SECONDS} s: ${fmt(pdf.rate, 1)} renders/s`);
  const koa = await bareKoa();
  console.log(`bare Koa handler (${when}; child process, small JSON): ${fmt(koa.rps)} req/s, p50 ${koa.p50} ms, p99 ${koa.p99} ms`);
  let koaQuery: number | null = null;
  if (pgUrl) {
    const q = await bareKoa({ BARE_KOA_DATABASE_URL: pgUrl, BARE_KOA_QUERIES: '1', BARE_KOA_PREPARED: '1' });
    console.log(`bare Koa + one prepared PostgreSQL query per request (${when}): ${fmt(q.rps)} req/s, p50 ${q.p50} ms, p99 ${q.p99} ms`);
    koaQuery = q.rps;
  }
  return { pdf: pdf.rate, koa: koa.rps, koaQuery };
}
const refBefore = await references('before');

/**
 * With BENCH_ANTES, BENCH_RONDAS rounds (default 1) alternate which server
 * runs first (this one, then that revision; then the other way round), so a
 * machine that warms or cools during the run weighs on both alike; the
 * figures kept are each server's median over the rounds.
 */
const RONDAS = rev ? Math.max(1, Number(process.env.BENCH_RONDAS ?? 1)) : 1;
const medianas = (rondas: Map<string, DbFigures>[]): Map<string, DbFigures> => {
  const out = new Map<string, DbFigures>();
  for (const label of rondas[0]?.keys() ?? []) {
    const de = (f: (d: DbFigures) => LoadResult) => rondas.map((r) => f(r.get(label)!));
    const med = (rs: LoadResult[]): LoadResult => ({ ...rs[0]!, rps: median(rs.map((r) => r.rps)), p50: median(rs.map((r) => r.p50)), p99: median(rs.map((r) => r.p99)) });
    out.set(label, { create: med(de((d) => d.create)), get: med(de((d) => d.get)) });
  }
  return out;
};
const rondasAhora: Map<string, DbFigures>[] = [];
const rondasAntes: Map<string, DbFigures>[] = [];
const co = rev ? checkout(rev) : null;
try {
  for (let ronda = 0; ronda < RONDAS; ronda++) {
    const ahoraPrimero = ronda % 2 === 0;
    if (co && !ahoraPrimero) {
      console.log(`— round ${ronda + 1}: the server of ${rev} first —`);
      rondasAntes.push(await benchAll(` at ${rev}`, co.root, pgUrl));
    }
    if (co) console.log(`— round ${ronda + 1}: this server —`);
    rondasAhora.push(await benchAll('', ROOT, pgUrl));
    if (co && ahoraPrimero) {
      console.log(`— round ${ronda + 1}: the same loads on the server of ${rev} —`);
      rondasAntes.push(await benchAll(` at ${rev}`, co.root, pgUrl));
    }
  }
} finally {
  co?.remove();
}
if (!pgUrl) console.log('PostgreSQL skipped: set TEST_DATABASE_URL or BENCH_DATABASE_URL');
const ahora = medianas(rondasAhora);
const antes = co ? medianas(rondasAntes) : null;
if (RONDAS > 1) console.log(`median of ${RONDAS} rounds each:`);

const refAfter = await references('after');
const pdfRate = Math.max(refBefore.pdf, refAfter.pdf);
const koaRps = Math.max(refBefore.koa, refAfter.koa);
const koaQuery = refBefore.koaQuery === null || refAfter.koaQuery === null ? null : Math.max(refBefore.koaQuery, refAfter.koaQuery);
const pct = (x: number) => `${fmt(x * 100)}%`;
for (const [label, r] of ahora) {
  const lines = [
    `${label}: create+issue ÷ bare PDF rate = ${fmt(r.create.rps, 1)} ÷ ${fmt(pdfRate, 1)} = ${pct(r.create.rps / pdfRate)} (aim ≥ 60%)`,
    `${label}: GET ÷ bare Koa = ${fmt(r.get.rps)} ÷ ${fmt(koaRps)} = ${pct(r.get.rps / koaRps)} (aim 30%)`,
  ];
  if (label === 'PostgreSQL' && koaQuery) lines.push(`${label}: GET ÷ (bare Koa + one prepared query) = ${fmt(r.get.rps)} ÷ ${fmt(koaQuery)} = ${pct(r.get.rps / koaQuery)}`);
  const b = antes?.get(label);
  if (b) {
    lines.push(`${label}: create+issue now ÷ at ${rev} = ${fmt(r.create.rps, 1)} ÷ ${fmt(b.create.rps, 1)} = ${fmt(r.create.rps / b.create.rps, 2)}× (target ≥ 2× on PostgreSQL)`);
    lines.push(`${label}: GET now ÷ at ${rev} = ${fmt(r.get.rps)} ÷ ${fmt(b.get.rps)} = ${fmt(r.get.rps / b.get.rps, 2)}× (target ≥ 3× on PostgreSQL)`);
  }
  for (const l of lines) console.log(l);
}
console.log(`load average at end ${loadAverage()}`);
