/**
 * GET /api/v1/cuenta throughput (autocannon, 10 connections, 10 s) on PGlite
 * and, with TEST_DATABASE_URL or BENCH_DATABASE_URL, on PostgreSQL; and the
 * cold start of `npm start` on an existing build and data directory.
 * Run: npx tsx bench/cuenta.ts
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { childEnv, ROOT, runCli, startServerProcess } from '../test/support/processes';
import { fmt, load, postgresSchemaUrl } from './lib';

async function coldStart(dataDir: string): Promise<number> {
  const t0 = performance.now();
  const child = spawn(process.execPath, ['scripts/start.mjs'], { cwd: ROOT, env: childEnv({ DATA_DIR: dataDir, PORT: '0' }) });
  await new Promise<void>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('escuchando en')) resolve();
    });
    child.on('exit', (code) => reject(new Error(`exited ${code}: ${out}`)));
  });
  const ms = performance.now() - t0;
  child.kill('SIGTERM');
  await new Promise((r) => child.on('exit', r));
  return ms;
}

async function benchCuenta(label: string, env: Record<string, string>): Promise<void> {
  await runCli(['account:create', '--company', 'Bench SL', '--nif', 'B12345674'], env);
  const server = await startServerProcess({ ...env, API_RATE_LIMIT: '1000000', LOG_LEVEL: 'error' });
  try {
    const key = JSON.parse((await runCli(['key:create', '--account', '1', '--env', 'live'], env)).stdout).key as string;
    const r = await load({ url: `${server.url}/api/v1/cuenta`, headers: { authorization: `Bearer ${key}` } });
    console.log(`GET /api/v1/cuenta on ${label}: ${fmt(r.rps)} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms, non-2xx ${r.non2xx}, errors ${r.errors}`);
  } finally {
    await server.stop();
  }
}

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'deca-bench-'));
try {
  await benchCuenta('PGlite', { DATA_DIR: dataDir });
  const starts: number[] = [];
  for (let i = 0; i < 3; i++) starts.push(await coldStart(dataDir));
  starts.sort((a, b) => a - b);
  console.log(`cold start of npm start (existing build and data): median ${fmt(starts[1] ?? 0)} ms (runs: ${starts.map((s) => fmt(s)).join(', ')})`);
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}

const pgUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
if (pgUrl) {
  const s = await postgresSchemaUrl(pgUrl, 'bench');
  try {
    await benchCuenta('PostgreSQL', { DATABASE_URL: s.url });
  } finally {
    await s.drop();
  }
} else {
  console.log('PostgreSQL skipped: set TEST_DATABASE_URL or BENCH_DATABASE_URL');
}
