/**
 * CSV import on PostgreSQL (TEST_DATABASE_URL or BENCH_DATABASE_URL), the
 * server as a child process: one POST /importar of 500 DeCA × 3 shipments,
 * each issued (PDF rendered and sealed). Prints the time, DeCA/s, and where
 * the time goes: the server's CPU by thread (main thread: parsing, checks,
 * database; PDF workers: render and seal) and PostgreSQL's, with the
 * machine's load. Target: under 6 s on a 2-core machine.
 *
 * Run: TEST_DATABASE_URL=postgres://… npx tsx bench/importar.ts
 */
import os from 'node:os';
import { ROOT } from '../test/support/processes';
import { csvImportacion, fmt, postgresDatabaseUrl, postgresSeconds, runCliIn, startScript, threadTimes } from './lib';

const DECAS = 500;
const ENVIOS = 3;

const pgUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
if (!pgUrl) {
  console.log('Needs PostgreSQL: set TEST_DATABASE_URL or BENCH_DATABASE_URL');
  process.exit(0);
}

/** CPU seconds of `pid`'s threads, summed by kind: the main thread, the worker threads, V8's own. */
function hilos(pid: number): Map<string, number> {
  const out = new Map<string, number>();
  for (const [tid, { name, s }] of threadTimes(pid)) {
    const clave = tid === pid ? 'main thread' : name === 'node' ? 'worker threads (PDF pool, libuv)' : name;
    out.set(clave, (out.get(clave) ?? 0) + s);
  }
  return out;
}

const csv = (prefijo: string): string => csvImportacion(prefijo, DECAS, ENVIOS, 'Fruta de hueso en cajas');

console.log(
  `machine: ${os.availableParallelism()} cores, Node ${process.versions.node}, load average at start ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
const db = await postgresDatabaseUrl(pgUrl, 'bench_importar');
const env = { DATABASE_URL: db.url };
try {
  const cuenta = JSON.parse(
    await runCliIn(ROOT, ['account:create', '--company', 'Transportes Núñez, S.L.', '--nif', 'B12345674', '--address', 'Avda. de la Ilustración 7, Zaragoza', '--plan', 'pro'], env),
  ) as { cuenta: { id: number } };
  const key = (JSON.parse(await runCliIn(ROOT, ['key:create', '--account', String(cuenta.cuenta.id), '--env', 'live'], env)) as { key: string }).key;
  const server = await startScript('server/main.ts', { ...env, PORT: '0', HOST: '127.0.0.1', API_RATE_LIMIT: '1000000', LOG_LEVEL: 'error' });
  try {
    const enviar = async (cuerpo: string) => {
      const res = await fetch(`${server.url}/api/v1/importar`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'text/csv' }, body: cuerpo });
      const body = (await res.json()) as { creados: number; repetidos: number; errores: number; decas: { errores: unknown[] }[] };
      if (res.status !== 200) throw new Error(`POST /importar answered ${res.status}: ${JSON.stringify(body)}`);
      const error = body.decas.find((d) => d.errores.length)?.errores;
      if (error) console.log(`first error: ${JSON.stringify(error)}`);
      return body;
    };
    await enviar(
      csv('CALENTAR')
        .split('\r\n')
        .slice(0, 1 + 10 * ENVIOS)
        .join('\r\n'),
    ); // 10 DeCA: workers started, code warm
    const archivo = csv('BENCH');
    const antesHilos = hilos(server.pid);
    const antesPg = postgresSeconds();
    const inicio = performance.now();
    const r = await enviar(archivo);
    const s = (performance.now() - inicio) / 1000;
    const despuesHilos = hilos(server.pid);
    const pg = postgresSeconds() - antesPg;
    console.log(
      `POST /importar, ${DECAS} DeCA × ${ENVIOS} envíos (${fmt(archivo.length / 1024)} KB), issued: ${s.toFixed(2)} s, ${fmt(DECAS / s, 1)} DeCA/s (target < 6 s); creados ${r.creados}, repetidos ${r.repetidos}, errores ${r.errores}`,
    );
    console.log('CPU seconds during the request (2 cores = 2 CPU-s per s):');
    for (const [nombre, t] of despuesHilos) {
      const d = t - (antesHilos.get(nombre) ?? 0);
      if (d >= 0.01) console.log(`  server ${nombre}: ${d.toFixed(2)} s (${fmt((d / DECAS) * 1000, 2)} ms per DeCA)`);
    }
    console.log(`  PostgreSQL: ${pg.toFixed(2)} s (${fmt((pg / DECAS) * 1000, 2)} ms per DeCA)`);
    const otra = performance.now();
    const repetida = await enviar(archivo);
    console.log(`the same file again: ${((performance.now() - otra) / 1000).toFixed(2)} s, creados ${repetida.creados}, repetidos ${repetida.repetidos}`);
  } finally {
    await server.stop();
  }
} finally {
  await db.drop();
}
console.log(
  `load average at end ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
