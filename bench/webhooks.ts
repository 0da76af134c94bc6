/**
 * Webhook delivery figures on PGlite and, with TEST_DATABASE_URL or
 * BENCH_DATABASE_URL, on PostgreSQL; the app and the worker in this process,
 * a keep-alive receiver on 127.0.0.1 answering 200 at once:
 * - deliveries/s: N events written while the worker is stopped (one webhook,
 *   one DeCA each, so per-DeCA ordering does not serialise them), then the
 *   worker started and timed until the receiver has them all;
 * - commit → delivery latency p50/p99: DeCAs created through the API one by
 *   one, and 8 at a time, timed from the 201 (committed) to the receipt.
 * Plain figures, no pass/fail. Run: npx tsx bench/webhooks.ts
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ManualClock } from '../server/clock';
import { type Database, migrateToLatest, openDatabase } from '../server/db/open';
import { escribirEventos } from '../server/domain/outbox';
import { startWebhookWorker } from '../server/jobs/webhook-delivery';
import { createLogger } from '../server/log';
import { startTestApp } from '../test/support/app';
import { buildCuenta } from '../test/support/factories';
import { fmt, postgresDatabaseUrl } from './lib';

const N_THROUGHPUT = 3000;
const N_LATENCY = 300;

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
}

async function receiver(): Promise<{ url: string; waitFor(n: number): Promise<void>; count(): number; arrivals: Map<string, number>; close(): Promise<void> }> {
  let n = 0;
  let waiter: { n: number; resolve: () => void } | null = null;
  const arrivals = new Map<string, number>();
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      n++;
      arrivals.set(String(req.headers['x-deca-entrega']), performance.now());
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      if (waiter && n >= waiter.n) waiter.resolve();
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/bench`,
    count: () => n,
    arrivals,
    waitFor: (target) => (n >= target ? Promise.resolve() : new Promise<void>((resolve) => (waiter = { n: target, resolve }))),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

async function bench(label: string, database: Database): Promise<void> {
  const log = createLogger('error');
  const clock = new ManualClock();
  const rx = await receiver();
  const app = await startTestApp({ database, clock, env: { WEBHOOK_ALLOW_INSECURE: '1' }, apiPoints: 1_000_000 });
  try {
    const c = await buildCuenta(app);
    const res = await app.request('POST', '/api/v1/webhooks', { key: c.live, body: { url: rx.url, eventos: ['*'] } });
    if (res.status !== 201) throw new Error(res.text);
    const scope = { accountId: c.account.id, entorno: 'produccion' as const };

    // Throughput: a backlog, then the worker.
    for (let i = 0; i < N_THROUGHPUT; i += 100) {
      await database.db.transaction().execute(async (trx) => {
        for (let k = i; k < Math.min(i + 100, N_THROUGHPUT); k++)
          await escribirEventos(trx, [{ scope, eventos: ['deca.descargado'], decaId: 1_000_000 + k, data: { deca: { id: 1_000_000 + k } }, now: clock.now() }]);
      });
    }
    const t0 = performance.now();
    const worker = await startWebhookWorker({ database, clock, log, allowInsecure: true });
    await rx.waitFor(N_THROUGHPUT);
    const secs = (performance.now() - t0) / 1000;
    console.log(`${label}: ${fmt(N_THROUGHPUT / secs)} deliveries/s (${N_THROUGHPUT} in ${fmt(secs, 2)} s, worker concurrency 16, one keep-alive receiver)`);

    // Latency: commit (the 201) → receipt, the worker woken by NOTIFY.
    for (const parallel of [1, 8]) {
      const lat: number[] = [];
      for (let i = 0; i < N_LATENCY; i += parallel) {
        await Promise.all(
          Array.from({ length: parallel }, async (_, k) => {
            const r = await app.request('POST', '/api/v1/decas', { key: c.live, body: { emitir: false, referencia: `lat-${parallel}-${i + k}` } });
            const committed = performance.now();
            const id = r.body.deca.id as number;
            const entrega = await database.db.selectFrom('webhook_entregas').select('entrega_id').where('deca_id', '=', id).executeTakeFirstOrThrow();
            for (;;) {
              const at = rx.arrivals.get(entrega.entrega_id);
              if (at !== undefined) {
                lat.push(Math.max(0, at - committed));
                return;
              }
              await new Promise((s) => setTimeout(s, 1));
            }
          }),
        );
      }
      console.log(
        `${label}: commit → delivery, ${parallel === 1 ? 'one DeCA at a time' : `${parallel} creating at once`}: p50 ${fmt(pct(lat, 50), 1)} ms, p99 ${fmt(pct(lat, 99), 1)} ms (${lat.length} DeCAs)`,
      );
    }
    await worker.stop();
  } finally {
    await app.close();
    await rx.close();
  }
}

const pglite = await openDatabase({});
await migrateToLatest(pglite.db);
try {
  await bench('PGlite', pglite);
} finally {
  await pglite.close();
}

const pgUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
if (pgUrl) {
  const d = await postgresDatabaseUrl(pgUrl, 'bench_webhooks');
  const database = await openDatabase({ databaseUrl: d.url });
  // Idle pool clients may still be closing when the database is dropped (with force) below.
  if (database.kind === 'postgres') database.pool.on('error', () => {});
  try {
    await migrateToLatest(database.db);
    await bench('PostgreSQL', database);
  } finally {
    await database.close();
    await d.drop();
  }
} else {
  console.log('PostgreSQL skipped: set TEST_DATABASE_URL or BENCH_DATABASE_URL');
}
process.exit(0);
