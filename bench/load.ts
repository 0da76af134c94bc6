/**
 * A mixed workload against the real server (a child process), 60 s on PGlite
 * and, with TEST_DATABASE_URL or BENCH_DATABASE_URL, on PostgreSQL (a fresh
 * database of its own), 20 connections (autocannon):
 * * - 70 % reads: the list (a page of 20) and one DeCA;
 * - 20 % create + issue (a complete DeCA, its PDF rendered and sealed);
 * - 10 % changes: modify (method 1, new version and PDF), replace (method 2)
 *   and end the service, each on DeCAs issued for it beforehand.
 * Prints throughput, p50/p99 latency, errors and non-2xx answers (both must
 * be 0), and the database's size per 1,000 DeCAs. Plain figures, no
 * pass/fail. Run: npx tsx bench/load.ts (BENCH_SEGUNDOS to change the 60 s).
 */
import autocannon from 'autocannon';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { decaCompleta } from '../test/support/decas';
import { ROOT } from '../test/support/processes';
import { fmt, postgresDatabaseUrl, runCliIn, startScript } from './lib';

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

async function crearPrevia(url: string, key: string, n: number, emitir = true): Promise<number> {
  const res = await fetch(`${url}/api/v1/decas`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(decaCompleta({ referencia: `Previa ${n}`, emitir })),
  });
  if (res.status !== 201) throw new Error(`crear: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { deca: { id: number } }).deca.id;
}

/** Up to `n` at a time: setting up hundreds of DeCAs one by one would take longer than the run. */
async function enParalelo<T>(total: number, n: number, f: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < total; i += n) out.push(...(await Promise.all(Array.from({ length: Math.min(n, total - i) }, (_, j) => f(i + j)))));
  return out;
}

async function correr(nombre: string, env: Record<string, string>, tamano: () => Promise<number>): Promise<Resultado> {
  const cuenta = JSON.parse(await runCliIn(ROOT, ['account:create', '--company', 'Carga SL', '--nif', 'B12345674', '--plan', 'pro'], env)) as { cuenta: { id: number } };
  const key = (JSON.parse(await runCliIn(ROOT, ['key:create', '--account', String(cuenta.cuenta.id), '--env', 'live'], env)) as { key: string }).key;
  const server = await startScript('server/main.ts', { ...env, PORT: '0', HOST: '127.0.0.1', API_RATE_LIMIT: '1000000', LOG_LEVEL: 'error' });
  try {
    console.log(`${nombre}: preparando ${PREVIAS * 3} DeCA emitidas…`);
    const previas = (k: number) => enParalelo(PREVIAS, 8, (i) => crearPrevia(server.url, key, k * PREVIAS + i));
    const modificables = await previas(0);
    const sustituibles = await previas(1);
    const finalizables = await previas(2);
    let n = 0;
    const porTipo: Record<string, number> = {};
    const auth = { authorization: `Bearer ${key}` };
    const json = { ...auth, 'content-type': 'application/json' };
    const contar = (tipo: string) => (porTipo[tipo] = (porTipo[tipo] ?? 0) + 1);
    const id = () => modificables[Math.floor(Math.random() * modificables.length)]!;
    // One entry per kind of request, each with its own method and headers (autocannon keeps an
    // entry's method; changing it in setupRequest leaves connections waiting). A connection goes
    // through the cycle in order: 20 requests, 14 reads, 4 creates, 2 changes.
    const listar: autocannon.Request = { method: 'GET', path: '/api/v1/decas?limite=20', headers: auth, setupRequest: (r) => (contar('listar'), r) };
    const ver: autocannon.Request = { method: 'GET', headers: auth, setupRequest: (r) => (contar('ver'), { ...r, path: `/api/v1/decas/${id()}` }) };
    const crear: autocannon.Request = { method: 'POST', path: '/api/v1/decas', headers: json, setupRequest: (r) => (contar('crear'), { ...r, body: JSON.stringify(decaCompleta({ referencia: `Carga ${++n}` })) }) };
    const modificar: autocannon.Request = {
      method: 'PATCH',
      headers: json,
      setupRequest: (r) => (contar('modificar'), { ...r, path: `/api/v1/decas/${id()}`, body: JSON.stringify({ conductor_nombre: `Conductor ${++n}`, motivo: 'Cambio de conductor' }) }),
    };
    // Replace and end alternate; each DeCA is replaced or ended once (a second time would be a 409).
    let turno = 0;
    const sustituirOFin: autocannon.Request = {
      method: 'POST',
      headers: json,
      setupRequest: (r) => {
        const sustituir = turno++ % 2 === 0 && sustituibles.length > 0;
        const objetivo = sustituir ? sustituibles.pop() : finalizables.pop();
        if (objetivo === undefined) return (contar('crear'), { ...r, method: 'POST', path: '/api/v1/decas', body: JSON.stringify(decaCompleta({ referencia: `Carga ${++n}` })) });
        contar(sustituir ? 'sustituir' : 'fin');
        return sustituir
          ? { ...r, path: `/api/v1/decas/${objetivo}/sustituir`, body: JSON.stringify({ ...decaCompleta({ referencia: `Sustituta ${++n}` }), motivo: 'Otra mercancía' }) }
          : { ...r, path: `/api/v1/decas/${objetivo}/fin`, body: '{}' };
      },
    };
    const r = await autocannon({
      url: server.url,
      connections: CONEXIONES,
      duration: SEGUNDOS,
      requests: [listar, ver, crear, listar, ver, modificar, listar, ver, listar, ver, crear, listar, ver, sustituirOFin, listar, ver, crear, ver, listar, crear],
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
  const carga = os.loadavg().map((x) => x.toFixed(2)).join(' ');
  console.log(`\n${nombre} (${SEGUNDOS} s, ${CONEXIONES} conexiones; carga de la máquina ${carga})`);
  console.log(`  ${fmt(r.rps)} peticiones/s; latencia p50 ${r.p50} ms, p99 ${r.p99} ms; errores ${r.errores}, respuestas no 2xx ${r.no2xx}`);
  console.log(`  mezcla: ${Object.entries(r.porTipo).map(([t, k]) => `${t} ${k}`).join(', ')}`);
  if (r.decas > 0) console.log(`  base de datos: ${fmt(r.bytes / 1024 / 1024, 1)} MB con ${fmt(r.decas)} DeCA → ${fmt((r.bytes / r.decas) * 1000 / 1024 / 1024, 1)} MB por 1.000 DeCA`);
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
