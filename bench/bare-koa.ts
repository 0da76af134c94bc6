/**
 * The reference ceiling for bench/decas.ts: a Koa app with one middleware
 * answering a small JSON, nothing else (no router, auth, database or logs).
 * Started as a child process like the server, so both are measured the same
 * way. Prints `escuchando en <url>` once it listens.
 *
 * For bench/profile-decas.ts `floor`: with BARE_KOA_DATABASE_URL set, each
 * request first runs BARE_KOA_QUERIES (default 1) trivial queries one after
 * the other on a pg pool of 10 (the server's size): the cost of round trips alone.
 * With BARE_KOA_PREPARED=1 they run as a named prepared statement, as the
 * server's own queries do.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import pg from 'pg';

const databaseUrl = process.env.BARE_KOA_DATABASE_URL;
const queries = Number(process.env.BARE_KOA_QUERIES ?? '1');
const prepared = process.env.BARE_KOA_PREPARED === '1';
const pool = databaseUrl ? new pg.Pool({ connectionString: databaseUrl, max: 10 }) : null;

const app = new Koa();
app.use(async (ctx) => {
  let id = 1;
  if (pool) {
    for (let i = 0; i < queries; i++) {
      const text = 'select $1::int as id';
      id = (await (prepared ? pool.query<{ id: number }>({ name: 'bare', text, values: [id] }) : pool.query<{ id: number }>(text, [id]))).rows[0]!.id;
    }
  }
  ctx.body = { ok: true, id, numero: '2026-000001' };
});
const server = createServer(app.callback());
server.keepAliveTimeout = 65_000;
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`escuchando en http://127.0.0.1:${(server.address() as AddressInfo).port}\n`);
});
process.on('SIGTERM', () => {
  server.close(async () => {
    await pool?.end();
    process.exit(0);
  });
  server.closeAllConnections();
});
