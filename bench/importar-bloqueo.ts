/**
 * Whether one account's CSV import holds up everyone else's requests (issue
 * 32: 250,000 one-letter lines kept /healthz waiting 16 s). The server runs as
 * a child process (tsx) on PGlite and, with TEST_DATABASE_URL or
 * BENCH_DATABASE_URL, on PostgreSQL; with BENCH_ANTES=<commit> the same runs
 * against that revision's server too. Three files go to
 * POST /demo/api/v1/importar?validar=1 with a brand-new account's test key:
 * 250,000 lines of «x» under the spec's header (488 KB), 24,000 of them
 * (as many rows as an import takes, each the slowest kind to parse), and the
 * largest valid file (500 DeCA × 48 shipments, one row each: 4.7 MB). Meanwhile two
 * loops send other requests one after another, without pause: GET /healthz
 * and an authenticated GET /demo/api/v1/decas?limite=1. Printed: the import's
 * status and time, the latency of those requests while it ran (p50, p99,
 * max, how many), the same with nothing else running, and the machine's load
 * average in the same run. Plain figures, no pass/fail (the issue's aim: the
 * other requests' p99 under 200 ms while a 250,000-line file is checked).
 *
 * Run: npx tsx bench/importar-bloqueo.ts
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { COLUMNAS_CSV } from '../shared/rules/csv-deca';
import { ROOT } from '../test/support/processes';
import { checkout, csvImportacion, fmt, postgresDatabaseUrl, revisionAnterior, runCliIn, startScript } from './lib';

const CABECERA = COLUMNAS_CSV.join(';');

/** The file: the header, then 250,000 lines of «x». */
const LINEAS_X = `${CABECERA}\n${'x\n'.repeat(250_000)}`;
/** As many such lines as the row bound lets through: the rows csv-parse is slowest at (each has fewer columns than the header). */
const LINEAS_X_COTA = `${CABECERA}\n${'x\n'.repeat(24_000)}`;

/** The largest file an import takes: 500 DeCA × 48 shipments, each a complete, valid row (under the 5 MB limit). */
const csvMaximo = (): string => csvImportacion('BLOQ', 500, 48);
const MAXIMO = csvMaximo();

interface Sonda {
  /** Stops the loop; resolves with the latency of each request it made, in ms. */
  parar(): Promise<number[]>;
}

/** GET `url` again and again, one request at a time, timing each until its body has arrived. */
function sondear(url: string, headers: Record<string, string> = {}): Sonda {
  let seguir = true;
  const ms: number[] = [];
  const bucle = (async () => {
    while (seguir) {
      const t = performance.now();
      const res = await fetch(url, { headers });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`GET ${url} answered ${res.status}`);
      ms.push(performance.now() - t);
    }
  })();
  return {
    parar: async () => {
      seguir = false;
      await bucle;
      return ms;
    },
  };
}

function cifras(ms: number[]): string {
  if (ms.length === 0) return 'no request finished';
  const orden = [...ms].sort((a, b) => a - b);
  const p = (q: number) => orden[Math.min(orden.length - 1, Math.ceil(q * orden.length) - 1)]!;
  return `p50 ${fmt(p(0.5), 1)} ms, p99 ${fmt(p(0.99), 1)} ms, max ${fmt(orden.at(-1)!, 1)} ms (${orden.length} requests)`;
}

const carga = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

/** Both loops running while `mientras` runs; their figures, and what it returned. */
async function medir<T>(url: string, key: string, mientras: () => Promise<T>): Promise<{ valor: T; healthz: number[]; decas: number[] }> {
  const healthz = sondear(`${url}/healthz`);
  const decas = sondear(`${url}/demo/api/v1/decas?limite=1`, { authorization: `Bearer ${key}` });
  try {
    const valor = await mientras();
    return { valor, healthz: await healthz.parar(), decas: await decas.parar() };
  } catch (error) {
    await Promise.allSettled([healthz.parar(), decas.parar()]);
    throw error;
  }
}

/** Every measurement against the server of the checkout at `root`, on the database `env` names. */
async function bench(etiqueta: string, env: Record<string, string>, root: string): Promise<void> {
  const cuenta = JSON.parse(await runCliIn(root, ['account:create', '--company', 'Transportes Núñez, S.L.', '--nif', 'B12345674', '--address', 'Avda. de la Ilustración 7, Zaragoza'], env)) as {
    cuenta: { id: number };
  };
  const server = await startScript('server/main.ts', { ...env, PORT: '0', HOST: '127.0.0.1', API_RATE_LIMIT: '1000000', LOG_LEVEL: 'error' }, [], root);
  try {
    const key = (JSON.parse(await runCliIn(root, ['key:create', '--account', String(cuenta.cuenta.id), '--env', 'test'], env)) as { key: string }).key;
    const importar = async (cuerpo: string): Promise<{ status: number; s: number; resumen: string }> => {
      const t = performance.now();
      const res = await fetch(`${server.url}/demo/api/v1/importar?validar=1`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'text/csv' }, body: cuerpo });
      const body = (await res.json()) as { decas?: unknown[]; errores?: number; error?: { mensaje: string } };
      const s = (performance.now() - t) / 1000;
      const resumen = body.error ? `«${body.error.mensaje.slice(0, 90)}…»` : `${body.decas?.length ?? 0} DeCA checked, ${body.errores ?? 0} with errors`;
      return { status: res.status, s, resumen };
    };
    // Warm: the code paths loaded and compiled before anything is timed.
    await importar(
      MAXIMO.split('\r\n')
        .slice(0, 1 + 48)
        .join('\r\n'),
    );
    await medir(server.url, key, () => new Promise((r) => setTimeout(r, 500)));

    const quieto = await medir(server.url, key, () => new Promise((r) => setTimeout(r, 2000)));
    console.log(`${etiqueta}, nothing else running (2 s): /healthz ${cifras(quieto.healthz)}; GET /decas ${cifras(quieto.decas)}`);
    for (const [nombre, cuerpo] of [
      [`250,000 lines of «x» (${fmt(Buffer.byteLength(LINEAS_X) / 1024)} KB)`, LINEAS_X],
      [`24,000 lines of «x» (${fmt(Buffer.byteLength(LINEAS_X_COTA) / 1024)} KB)`, LINEAS_X_COTA],
      [`500 DeCA × 48 envíos, valid (${fmt(Buffer.byteLength(MAXIMO) / 1024)} KB)`, MAXIMO],
    ] as const) {
      const cargaAntes = carga();
      const r = await medir(server.url, key, () => importar(cuerpo));
      console.log(`${etiqueta}, POST /importar?validar=1 of ${nombre}: ${r.valor.status} in ${fmt(r.valor.s, 2)} s, ${r.valor.resumen}`);
      console.log(`  meanwhile /healthz ${cifras(r.healthz)}`);
      console.log(`  meanwhile GET /demo/api/v1/decas?limite=1 ${cifras(r.decas)}`);
      console.log(`  load average before ${cargaAntes}, after ${carga()}`);
    }
  } finally {
    await server.stop();
  }
}

/** PGlite, and PostgreSQL when a URL is given, for the checkout at `root`. */
async function benchAll(tag: string, root: string, pgUrl: string | undefined): Promise<void> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'deca-bench-'));
  try {
    await bench(`PGlite${tag}`, { DATA_DIR: dataDir }, root);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
  if (!pgUrl) return;
  const db = await postgresDatabaseUrl(pgUrl, 'bench_bloqueo');
  try {
    await bench(`PostgreSQL${tag}`, { DATABASE_URL: db.url }, root);
  } finally {
    await db.drop();
  }
}

const rev = revisionAnterior();
const pgUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
console.log(`machine: ${os.availableParallelism()} cores, Node ${process.versions.node}, load average at start ${carga()}`);
await benchAll('', ROOT, pgUrl);
if (!pgUrl) console.log('PostgreSQL skipped: set TEST_DATABASE_URL or BENCH_DATABASE_URL');
if (rev) {
  const co = checkout(rev);
  try {
    console.log(`— the same on the server of ${rev} —`);
    await benchAll(` at ${rev}`, co.root, pgUrl);
  } finally {
    co.remove();
  }
}
console.log(`load average at end ${carga()}`);
