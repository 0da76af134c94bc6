/**
 * DeCA throughput on PGlite and, with TEST_DATABASE_URL or BENCH_DATABASE_URL,
 * on PostgreSQL, with the server as a child process (autocannon, 10
 * connections, 10 s each):
 * - POST /api/v1/decas, a complete DeCA issued at once (PDF rendered), every
 *   request a new DeCA (no ref_externa, no Idempotency-Key);
 * - GET /api/v1/decas/{id}.
 * And, in the same run, what bounds them: one in-process PDF render (median
 * of 30), bare renders/s on a pool the size of the server's, and a bare Koa
 * handler's requests/s (both measured before and after the server runs); then
 * the ratios create ÷ bare PDF and GET ÷ bare Koa.
 * Plain figures, no pass/fail. Run: npx tsx bench/decas.ts
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DecaInput } from '../shared/schemas/deca';
import { completarDatos, datosDeEntrada } from '../server/domain/decas/datos';
import { datosPdf } from '../server/domain/decas/documento';
import { randomToken } from '../server/domain/accounts/tokens';
import type { AccountRow } from '../server/db/schema';
import { renderDecaPdf } from '../server/documents/deca-pdf';
import type { DecaPdfData } from '../server/documents/deca-pdf-data';
import { createPdfPool } from '../server/documents/pdf-pool';
import { decaCompleta } from '../test/support/decas';
import { runCli, startServerProcess } from '../test/support/processes';
import { fmt, load, median, postgresDatabaseUrl, startScript, type LoadResult } from './lib';

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
  const datos = completarDatos(datosDeEntrada(input), 'transportista', {} as AccountRow);
  return datosPdf('http://localhost:8080', datos, {
    numero: '2026-000001',
    version: 1,
    tokenPublico: randomToken(24),
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

/** Renders/s on `createPdfPool()` (default size, as the server), workers × 2 jobs in flight. */
async function barePdfRate(data: DecaPdfData): Promise<{ rate: number; workers: number }> {
  const workers = os.availableParallelism();
  const pool = createPdfPool();
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

async function bareKoa(): Promise<LoadResult> {
  const child = await startScript('bench/bare-koa.ts', {});
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

async function benchDecas(label: string, env: Record<string, string>): Promise<DbFigures> {
  const account = await runCli(['account:create', '--company', 'Bench SL', '--nif', 'B12345674', '--plan', 'pro'], env);
  if (account.code !== 0) throw new Error(`account:create failed: ${account.stderr}`);
  const server = await startServerProcess({ ...env, API_RATE_LIMIT: '1000000', LOG_LEVEL: 'error' });
  try {
    const key = JSON.parse((await runCli(['key:create', '--account', '1', '--env', 'live'], env)).stdout).key as string;
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

    const get = await load({ url: `${server.url}/api/v1/decas/${id}`, headers });
    console.log(
      `GET /api/v1/decas/{id} on ${label}: ${fmt(get.rps)} req/s, p50 ${get.p50} ms, p99 ${get.p99} ms, non-2xx ${get.non2xx}, errors ${get.errors}`,
    );
    return { create, get };
  } finally {
    await server.stop();
  }
}

const loadAverage = () => os.loadavg().map((l) => l.toFixed(2)).join(' ');
console.log(`machine: ${os.availableParallelism()} cores, Node ${process.versions.node}, load average at start ${loadAverage()}`);
const data = pdfDelCuerpo();
const renderMs = await renderMedian(data);
console.log(`one PDF render (1 envío), in-process, median of ${RENDER_RUNS}: ${fmt(renderMs, 1)} ms`);

/**
 * The two ceilings, measured before and again after the server runs: on a
 * shared machine other work can only lower a ceiling, so the ratios use the
 * higher of the two.
 */
async function references(when: string): Promise<{ pdf: number; koa: number }> {
  const pdf = await barePdfRate(data);
  console.log(`bare PDF renders (${when}) on a pool of ${pdf.workers} workers (createPdfPool() default), ${pdf.workers * 2} in flight, ~${POOL_SECONDS} s: ${fmt(pdf.rate, 1)} renders/s`);
  const koa = await bareKoa();
  console.log(`bare Koa handler (${when}; child process, small JSON): ${fmt(koa.rps)} req/s, p50 ${koa.p50} ms, p99 ${koa.p99} ms`);
  return { pdf: pdf.rate, koa: koa.rps };
}
const refBefore = await references('before');

const results: [string, DbFigures][] = [];
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'deca-bench-'));
try {
  results.push(['PGlite', await benchDecas('PGlite', { DATA_DIR: dataDir })]);
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}

const pgUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
if (pgUrl) {
  const s = await postgresDatabaseUrl(pgUrl, 'bench_decas');
  try {
    results.push(['PostgreSQL', await benchDecas('PostgreSQL', { DATABASE_URL: s.url })]);
  } finally {
    await s.drop();
  }
} else {
  console.log('PostgreSQL skipped: set TEST_DATABASE_URL or BENCH_DATABASE_URL');
}

const refAfter = await references('after');
const pdfRate = Math.max(refBefore.pdf, refAfter.pdf);
const koaRps = Math.max(refBefore.koa, refAfter.koa);
const pct = (x: number) => `${fmt(x * 100)}%`;
for (const [label, r] of results) {
  console.log(
    `${label}: create+issue ÷ bare PDF rate = ${fmt(r.create.rps, 1)} ÷ ${fmt(pdfRate, 1)} = ${pct(r.create.rps / pdfRate)} (target ≥ 70% on PostgreSQL); ` +
      `GET ÷ bare Koa = ${fmt(r.get.rps)} ÷ ${fmt(koaRps)} = ${pct(r.get.rps / koaRps)} (target ≥ 40% on PostgreSQL)`,
  );
}
console.log(`load average at end ${loadAverage()}`);
