/**
 * Where the time of bench/decas.ts goes. Runs one load phase against the
 * server child started with `--cpu-prof`, and reports:
 * - CPU seconds per thread of the server (main thread, PDF workers, the
 *   rest), of the PostgreSQL backends and of this process (autocannon);
 * - the main thread's self time by package/file and the top functions.
 * Run: npx tsx bench/profile-decas.ts [create|get] [pglite|postgres]
 *      (postgres needs TEST_DATABASE_URL or BENCH_DATABASE_URL)
 * Or:  npx tsx bench/profile-decas.ts floor — bare Koa with 0, 1, 2 and 3
 *      sequential trivial PostgreSQL queries per request: what round trips
 *      alone cost, next to the GET's.
 * Or:  npx tsx bench/profile-decas.ts statements — PostgreSQL backend CPU and
 *      round-trip time of each statement a GET /decas/{id} runs, one at a time.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler } from 'kysely';
import pg from 'pg';
import { openDatabase } from '../server/db/open';
import type { DB } from '../server/db/schema';
import { buscarClave } from '../server/domain/accounts/api-keys';
import { selectDecas } from '../server/domain/decas/queries';
import { createRateLimits } from '../server/limits';
import { decaCompleta } from '../test/support/decas';
import { ROOT, runCli, startServerProcess } from '../test/support/processes';
import { fmt, load, postgresDatabaseUrl, postgresSeconds, startScript, threadTimes } from './lib';

const phase = (['get', 'floor', 'statements'] as const).find((p) => p === process.argv[2]) ?? 'create';
const dbKind = process.argv[3] === 'postgres' ? 'postgres' : 'pglite';
/** DeCAs created before measuring, so reads look among a realistic number of rows. */
const SEED_DECAS = 200;

/** Counters of the bench database and of the WAL (PostgreSQL only), to count commits and syncs per request. */
async function pgCounters(url: string): Promise<Record<string, number>> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const db = await c.query('select xact_commit, xact_rollback, tup_returned, tup_fetched, tup_inserted, tup_updated from pg_stat_database where datname = current_database()');
    const wal = await c.query('select wal_records, wal_bytes, wal_sync from pg_stat_wal');
    return Object.fromEntries(Object.entries({ ...db.rows[0], ...wal.rows[0] }).map(([k, v]) => [k, Number(v)]));
  } finally {
    await c.end();
  }
}

/**
 * A Kysely that runs nothing (DummyDriver answers no rows) and records every
 * query it would send: the exact SQL the server compiles.
 */
function compilerOnly(sent: { sql: string; parameters: readonly unknown[] }[] = []): Kysely<DB> {
  return new Kysely<DB>({
    dialect: {
      createAdapter: () => new PostgresAdapter(),
      createDriver: () => new DummyDriver(),
      createIntrospector: (db) => new PostgresIntrospector(db),
      createQueryCompiler: () => new PostgresQueryCompiler(),
    },
    log: (event) => {
      sent.push({ sql: event.query.sql, parameters: event.query.parameters });
    },
  });
}

/** Each statement of GET /decas/{id}, 3000 times one after another: PostgreSQL CPU and round trip per execution. */
async function statements(): Promise<void> {
  const pgUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (!pgUrl) throw new Error('statements needs TEST_DATABASE_URL or BENCH_DATABASE_URL');
  const pgDb = await postgresDatabaseUrl(pgUrl, 'bench_stmt');
  try {
    const env = { DATABASE_URL: pgDb.url };
    await runCli(['account:create', '--company', 'Bench SL', '--nif', 'B12345674', '--plan', 'pro'], env);
    const key = JSON.parse((await runCli(['key:create', '--account', '1', '--env', 'live'], env)).stdout).key as string;
    const server = await startServerProcess({ ...env, API_RATE_LIMIT: '1000000', LOG_LEVEL: 'error' });
    let id = 0;
    try {
      for (let i = 0; i < SEED_DECAS; i++) {
        const res = await fetch(`${server.url}/api/v1/decas`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify(decaCompleta({ referencia: `s${i}` })),
        });
        id = ((await res.json()) as { deca: { id: number } }).deca.id;
      }
    } finally {
      await server.stop();
    }
    const client = new pg.Client({ connectionString: pgDb.url });
    await client.connect();
    // The server's own rate limiters (their pool, their session settings).
    const database = await openDatabase({ databaseUrl: pgDb.url });
    const limits = createRateLimits(database, { apiPoints: 1_000_000_000 });
    try {
      const k = compilerOnly();
      const deca = selectDecas(k, { accountId: 1, entorno: 'produccion', rol: null, userId: null }).where('d.id', '=', id).compile();
      const sent: { sql: string; parameters: readonly unknown[] }[] = [];
      await buscarClave(compilerOnly(sent), key);
      const clave = sent[0]!;
      const N = 3000;
      // Backend CPU is read for all PostgreSQL processes (the limiter has a pool of its own): run on a quiet machine.
      const cases: [string, () => Promise<unknown>][] = [
        ['select $1::int (trivial)', () => client.query('select $1::int as id', [1])],
        ['API key lookup (buscarClave)', () => client.query(clave.sql, clave.parameters as unknown[])],
        ['GET DeCA query (selectDecas by id)', () => client.query(deca.sql, deca.parameters as unknown[])],
        ['API key lookup as a named prepared statement', () => client.query({ name: 'clave', text: clave.sql, values: clave.parameters as unknown[] })],
        ['GET DeCA query as a named prepared statement', () => client.query({ name: 'deca', text: deca.sql, values: deca.parameters as unknown[] })],
        ["rate limit consume (the server's limiter)", () => limits.api.consume('key:1')],
      ];
      for (const [label, run] of cases) {
        for (let i = 0; i < 200; i++) await run();
        const cpu0 = postgresSeconds();
        const t0 = performance.now();
        for (let i = 0; i < N; i++) await run();
        const ms = performance.now() - t0;
        const cpu = postgresSeconds() - cpu0;
        console.log(`${label}: ${fmt((ms / N) * 1000)} µs round trip, PostgreSQL backend CPU ${fmt((cpu / N) * 1e6)} µs per execution`);
      }
      // The fresh table has no statistics yet (autovacuum analyzes it later): compare with an analyzed one.
      const plan = async () =>
        (await client.query(`explain (analyze, costs off, timing off) ${deca.sql}`, deca.parameters as unknown[])).rows.map((row: Record<string, string>) => `    ${row['QUERY PLAN']}`).join('\n');
      console.log(`plan of the GET DeCA query before ANALYZE:\n${await plan()}`);
      await client.query('analyze');
      console.log(`plan after ANALYZE:\n${await plan()}`);
      for (const [label, run] of cases.filter(([l]) => l.startsWith('GET'))) {
        const cpu0 = postgresSeconds();
        const t0 = performance.now();
        for (let i = 0; i < N; i++) await run();
        const ms = performance.now() - t0;
        console.log(`${label}, after ANALYZE: ${fmt((ms / N) * 1000)} µs round trip, PostgreSQL backend CPU ${fmt(((postgresSeconds() - cpu0) / N) * 1e6)} µs per execution`);
      }
    } finally {
      await client.end();
      await limits.close();
      await database.close();
    }
  } finally {
    await pgDb.drop();
  }
}

/** EXPLAIN ANALYZE of the query GET /decas/{id} runs (selectDecas by id), compiled by Kysely exactly as the server does. */
async function explainGet(url: string, id: number): Promise<string> {
  const compiler = compilerOnly();
  const q = selectDecas(compiler, { accountId: 1, entorno: 'produccion', rol: null, userId: null }).where('d.id', '=', id).compile();
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const r = await c.query(`explain (analyze, costs off, timing off) ${q.sql}`, q.parameters as unknown[]);
    return r.rows.map((row: Record<string, string>) => `    ${row['QUERY PLAN']}`).join('\n');
  } finally {
    await c.end();
  }
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

/** Where a frame's code lives: a package, a product file, node internals, or V8 (GC, idle, program). */
function area(url: string, fn: string): string {
  if (!url) return fn.startsWith('(') ? fn : '(native/V8)';
  if (url.startsWith('node:')) return 'node internals';
  const nm = url.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const rest = url.slice(nm + 'node_modules/'.length).split('/');
    return rest[0]!.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]!;
  }
  return url.replace(/^file:\/\//, '').replace(`${ROOT}/`, '');
}

/** Self time of each sample attributed to area and function, in ms, within [from, to] (µs, profile clock). */
function summarise(profile: CpuProfile, from: number, to: number) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const areas = new Map<string, number>();
  const fns = new Map<string, number>();
  let t = profile.startTime;
  let total = 0;
  profile.samples.forEach((id, i) => {
    t += profile.timeDeltas[i] ?? 0;
    if (t < from || t > to) return;
    const next = profile.timeDeltas[i + 1] ?? 0;
    const node = byId.get(id)!;
    const { functionName, url, lineNumber } = node.callFrame;
    const ms = next / 1000;
    total += ms;
    const a = area(url, functionName);
    areas.set(a, (areas.get(a) ?? 0) + ms);
    const fn = `${functionName || '(anonymous)'} ${a}:${lineNumber + 1}`;
    fns.set(fn, (fns.get(fn) ?? 0) + ms);
  });
  const top = (m: Map<string, number>, n: number) => [...m].sort((a, b) => b[1] - a[1]).slice(0, n);
  return { total, areas: top(areas, 20), fns: top(fns, 30) };
}

async function main(): Promise<void> {
  const profDir = mkdtempSync(path.join(os.tmpdir(), 'deca-prof-'));
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'deca-bench-'));
  const pgUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (dbKind === 'postgres' && !pgUrl) throw new Error('postgres needs TEST_DATABASE_URL or BENCH_DATABASE_URL');
  const pgDb = dbKind === 'postgres' ? await postgresDatabaseUrl(pgUrl!, 'bench_prof') : null;
  const env: Record<string, string> = pgDb ? { DATABASE_URL: pgDb.url } : { DATA_DIR: dataDir };
  try {
    await runCli(['account:create', '--company', 'Bench SL', '--nif', 'B12345674', '--plan', 'pro'], env);
    const server = await startScript('server/main.ts', { ...env, PORT: '0', API_RATE_LIMIT: '1000000', LOG_LEVEL: 'error' }, ['--cpu-prof', `--cpu-prof-dir=${profDir}`, '--cpu-prof-interval=200']);
    const pid = server.pid;
    let loadSeconds = 0;
    try {
      const key = JSON.parse((await runCli(['key:create', '--account', '1', '--env', 'live'], env)).stdout).key as string;
      const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
      let id = 0;
      for (let i = 0; i < SEED_DECAS; i++) {
        const res = await fetch(`${server.url}/api/v1/decas`, { method: 'POST', headers, body: JSON.stringify(decaCompleta({ referencia: `w${i}` })) });
        id = ((await res.json()) as { deca: { id: number } }).deca.id;
      }
      const countersBefore = pgDb ? await pgCounters(pgDb.url) : null;
      const before = threadTimes(pid);
      const pgBefore = postgresSeconds();
      const selfBefore = process.cpuUsage();
      const wallStart = performance.now();
      let n = 0;
      const r =
        phase === 'create'
          ? await load({
              url: `${server.url}/api/v1/decas`,
              method: 'POST',
              headers,
              requests: [{ setupRequest: (req) => ({ ...req, body: JSON.stringify(decaCompleta({ referencia: `p${++n}` })) }) }],
            })
          : await load({ url: `${server.url}/api/v1/decas/${id}`, headers });
      const wall = (performance.now() - wallStart) / 1000;
      const after = threadTimes(pid);
      const pgSec = postgresSeconds() - pgBefore;
      const self = process.cpuUsage(selfBefore);
      loadSeconds = wall;

      console.log(
        `${phase} on ${dbKind}: ${fmt(r.rps, 1)} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms, ok ${r.ok}, non-2xx ${r.non2xx}; wall ${fmt(wall, 1)} s; load average ${os
          .loadavg()
          .map((l) => l.toFixed(2))
          .join(' ')}`,
      );
      console.log('CPU seconds during the load (2 cores = 2 CPU-s per s):');
      const rows: [string, number][] = [];
      for (const [tid, a] of after) {
        const b = before.get(tid)?.s ?? 0;
        const d = a.s - b;
        if (d >= 0.05) rows.push([`${tid === pid ? 'server main thread' : `server thread ${tid}`} (${a.name})`, d]);
      }
      rows.push(['PostgreSQL processes', pgSec], ['bench process (autocannon)', (self.user + self.system) / 1e6]);
      for (const [label, s] of rows.sort((x, y) => y[1] - x[1])) console.log(`  ${label}: ${fmt(s, 2)} s = ${fmt((s / wall) * 100)}% of a core`);
      const ok = r.ok || 1;
      const workers = [...after].filter(([tid, a]) => tid !== pid && a.name === 'node').reduce((sum, [tid, a]) => sum + a.s - (before.get(tid)?.s ?? 0), 0);
      console.log(
        `  per request: main thread ${fmt(((after.get(pid)!.s - (before.get(pid)?.s ?? 0)) / ok) * 1000, 2)} ms, ` +
          `other 'node' threads (PDF workers, libuv, V8 helpers) ${fmt((workers / ok) * 1000, 2)} ms, PostgreSQL ${fmt((pgSec / ok) * 1000, 2)} ms`,
      );
      // Stop at once, so the end of the profile is the end of the load.
      await server.stop();
      if (pgDb && countersBefore) {
        await new Promise((res) => setTimeout(res, 1500)); // backends report their statistics about once a second
        const countersAfter = await pgCounters(pgDb.url);
        const per = Object.entries(countersAfter).map(([k, v]) => `${k} ${fmt((v - (countersBefore[k] ?? 0)) / ok, 1)}`);
        console.log(`  PostgreSQL counters per request (whole cluster for WAL): ${per.join(', ')}`);
        console.log(`  plan of GET's DeCA query on the table as the load left it:\n${await explainGet(pgDb.url, id)}`);
      }
    } finally {
      await server.stop();
    }

    // Node names them CPU.<date>.<time>.<pid>.<thread id>.<seq>.cpuprofile; thread id 0 is the main thread.
    const files = readdirSync(profDir).filter((f) => f.endsWith('.cpuprofile'));
    const mainFile = files.find((f) => f.includes(`.${pid}.0.`));
    if (!mainFile) throw new Error(`no profile written in ${profDir}`);
    const profile = JSON.parse(readFileSync(path.join(profDir, mainFile), 'utf8')) as CpuProfile;
    // The profile's clock has an arbitrary origin: keep the load's seconds
    // counted back from its end (stopping takes well under the 0.5 s margin).
    const to = profile.endTime;
    const from = to - loadSeconds * 1e6 - 0.5e6;
    const s = summarise(profile, from, to);
    console.log(`main-thread profile (${mainFile}), load window, ${fmt(s.total)} ms sampled:`);
    console.log('  self time by area:');
    for (const [a, ms] of s.areas) console.log(`    ${fmt((ms / s.total) * 100, 1)}%  ${fmt(ms)} ms  ${a}`);
    console.log('  top functions by self time:');
    for (const [f, ms] of s.fns) console.log(`    ${fmt((ms / s.total) * 100, 1)}%  ${fmt(ms)} ms  ${f}`);
    console.log(`profiles kept in ${profDir} (${files.length} files; open in Chrome DevTools)`);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
    await pgDb?.drop();
  }
}

/** Bare Koa req/s with n sequential `select $1` round trips per request. */
async function floor(): Promise<void> {
  const pgUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (!pgUrl) throw new Error('floor needs TEST_DATABASE_URL or BENCH_DATABASE_URL');
  for (const n of [0, 1, 2, 3]) {
    const child = await startScript('bench/bare-koa.ts', n ? { BARE_KOA_DATABASE_URL: pgUrl, BARE_KOA_QUERIES: String(n) } : {});
    try {
      await load({ url: child.url, duration: 2 });
      const pgBefore = postgresSeconds();
      const start = performance.now();
      const r = await load({ url: child.url });
      const wall = (performance.now() - start) / 1000;
      const pgSec = postgresSeconds() - pgBefore;
      console.log(
        `bare Koa + ${n} sequential pg queries per request: ${fmt(r.rps)} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms, ` +
          `PostgreSQL ${fmt((pgSec / wall) * 100)}% of a core (${fmt((pgSec / (r.ok || 1)) * 1e6)} µs per request); load average ${os.loadavg()[0]!.toFixed(2)}`,
      );
    } finally {
      await child.stop();
    }
  }
}

if (phase === 'floor') await floor();
else if (phase === 'statements') await statements();
else await main();
