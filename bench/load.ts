/**
 * A mixed workload against the real server (a child process), 60 s on PGlite
 * and, with TEST_DATABASE_URL or BENCH_DATABASE_URL, on PostgreSQL (a fresh
 * database of its own), 20 connections (autocannon), the mix of mezcla.ts
 * (70 % reads, 20 % create + issue, 10 % modify, replace and end).
 * Prints throughput, p50/p99 latency, errors and non-2xx answers (both must
 * be 0), and the database's size per 1,000 DeCAs. Plain figures, no
 * pass/fail. Run: npx tsx bench/load.ts (BENCH_SEGUNDOS to change the 60 s).
 */

import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { ROOT } from '../test/support/processes';
import { fmt, postgresDatabaseUrl, runCliIn, startScript } from './lib';
import { prepararMezcla } from './mezcla';

const SEGUNDOS = Number(process.env.BENCH_SEGUNDOS ?? 60);
const CONEXIONES = 20;
/** DeCAs issued before the run, per kind of change (replace and end use each once). */
const PREVIAS = Number(process.env.BENCH_PREVIAS ?? 400);

interface Resultado {
  rps: number;
  p50: number;
  p99: number;
  errores: number;
  no2xx: number;
  porTipo: Record<string, number>;
  decas: number;
  bytes: number;
}

async function correr(nombre: string, env: Record<string, string>, tamano: () => Promise<number>): Promise<Resultado> {
  const cuenta = JSON.parse(await runCliIn(ROOT, ['account:create', '--company', 'Carga SL', '--nif', 'B12345674', '--plan', 'pro'], env)) as { cuenta: { id: number } };
  const key = (JSON.parse(await runCliIn(ROOT, ['key:create', '--account', String(cuenta.cuenta.id), '--env', 'live'], env)) as { key: string }).key;
  const server = await startScript('server/main.ts', { ...env, PORT: '0', HOST: '127.0.0.1', API_RATE_LIMIT: '1000000', LOG_LEVEL: 'error' });
  try {
    console.log(`${nombre}: preparando ${PREVIAS * 3} DeCA emitidas…`);
    const { requests, porTipo } = await prepararMezcla(server.url, key, PREVIAS);
    const r = await autocannon({
      url: server.url,
      connections: CONEXIONES,
      duration: SEGUNDOS,
      requests,
    });
    console.log(`  (autocannon: ${r.requests.total} peticiones, ${r.errors} errores, ${r.timeouts} sin respuesta a tiempo, ${r.resets} reinicios)`);
    const decas = await contarDecas(server.url, key);
    return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errores: r.errors + r.timeouts, no2xx: r.non2xx, porTipo, decas, bytes: await tamano() };
  } finally {
    await server.stop();
  }
}

/** DeCAs the account has now, through the API (every page of the list). */
async function contarDecas(url: string, key: string): Promise<number> {
  let n = 0;
  let despues: string | null = null;
  do {
    const res = await fetch(`${url}/api/v1/decas?limite=100${despues ? `&despues_de=${encodeURIComponent(despues)}` : ''}`, { headers: { authorization: `Bearer ${key}` } });
    const body = (await res.json()) as { decas: unknown[]; siguiente: string | null };
    n += body.decas.length;
    despues = body.siguiente;
  } while (despues);
  return n;
}

function imprimir(nombre: string, r: Resultado): void {
  const carga = os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
  console.log(`\n${nombre} (${SEGUNDOS} s, ${CONEXIONES} conexiones; carga de la máquina ${carga})`);
  console.log(`  ${fmt(r.rps)} peticiones/s; latencia p50 ${r.p50} ms, p99 ${r.p99} ms; errores ${r.errores}, respuestas no 2xx ${r.no2xx}`);
  console.log(
    `  mezcla: ${Object.entries(r.porTipo)
      .map(([t, k]) => `${t} ${k}`)
      .join(', ')}`,
  );
  if (r.decas > 0) console.log(`  base de datos: ${fmt(r.bytes / 1024 / 1024, 1)} MB con ${fmt(r.decas)} DeCA → ${fmt(((r.bytes / r.decas) * 1000) / 1024 / 1024, 1)} MB por 1.000 DeCA`);
}

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'deca-load-'));
try {
  imprimir('PGlite', await correr('PGlite', { DATA_DIR: dataDir }, async () => Number(execFileSync('du', ['-sb', dataDir]).toString().split('\t')[0])));
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}

const pgUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
if (pgUrl) {
  const db = await postgresDatabaseUrl(pgUrl, 'deca_load');
  try {
    const r = await correr('PostgreSQL', { DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'deca-load-pg-')), DATABASE_URL: db.url }, async () => {
      const c = new pg.Client({ connectionString: db.url });
      await c.connect();
      try {
        return Number((await c.query('select pg_database_size(current_database())::bigint as b')).rows[0].b);
      } finally {
        await c.end();
      }
    });
    imprimir('PostgreSQL', r);
  } finally {
    await db.drop();
  }
} else {
  console.log('\n(PostgreSQL: defina TEST_DATABASE_URL o BENCH_DATABASE_URL para medirlo también)');
}
