import { createHash } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, Migrator, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import type { Logger } from '../log';
import { withCommitOutcome } from './commit-outcome';
import { marcarAlConectar } from './errores';
import { deUnEsquema } from './introspeccion';
import { migrationProvider } from './migrations/index';
import { asegurarParticiones } from './particiones';
import { PGliteDialect } from './pglite-dialect';
import type { DB } from './schema';

const INT8 = 20;
const NUMERIC = 1700;
const BYTEA = 17;

/**
 * bytea to and from PGlite's text form (`\x` and hex) with Node's native hex
 * codec: PGlite's own builds one string per byte, which made storing a
 * DeCA's PDF (~60 KB) most of the embedded database's time. Like
 * node-postgres, a bytea is read as a Buffer.
 */
const byteaATexto = (v: Uint8Array): string => `\\x${Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('hex')}`;
const byteaDesdeTexto = (v: string): Buffer => Buffer.from(v.slice(2), 'hex');

/** An open database: Kysely plus the driver underneath (the rate limiter and LISTEN need it). */
export type Database =
  | { kind: 'pglite'; db: Kysely<DB>; pglite: PGlite; close(): Promise<void> }
  | { kind: 'postgres'; db: Kysely<DB>; pool: pg.Pool; connectionString: string; schema: string | null; close(): Promise<void> };

export interface OpenOptions {
  /** postgres://… — when absent, the embedded PGlite is used. */
  databaseUrl?: string | null;
  /** Where PGlite keeps its files; null = in memory (tests). */
  dataDir?: string | null;
  /** PostgreSQL schema to use (created if missing); tests give each file its own. */
  schema?: string | null;
  /**
   * PGlite only: start from this dump of a data directory (`dumpDataDir`)
   * instead of an empty one. The tests open each file's database from one
   * migrated dump, which skips initdb and the migrations.
   */
  loadDataDir?: Blob | null;
  /** Where a lost connection is logged (the pool replaces it by itself). */
  log?: Logger;
}

/**
 * The one database factory: PGlite under DATA_DIR when DATABASE_URL is unset,
 * a pg pool otherwise. int8 and numeric come back as numbers on both (ids and
 * weights fit in a double), so code never sees '42' on one and 42 on the other.
 */
export async function openDatabase(opts: OpenOptions): Promise<Database> {
  if (opts.databaseUrl) {
    const schema = opts.schema ?? null;
    if (schema) {
      const admin = new pg.Client({ connectionString: opts.databaseUrl, connectionTimeoutMillis: CONNECTION_TIMEOUT_MS });
      admin.on('error', () => {}); // its one query fails with the same error
      await admin.connect();
      try {
        await admin.query(`create schema if not exists "${schema.replace(/"/g, '')}"`);
      } finally {
        await admin.end();
      }
    }
    const pool = createPgPool(opts.databaseUrl, schema, { max: 10, log: opts.log, nombre: 'main' });
    pool.on('connect', (client) => prepararConsultas(client));
    const db = new Kysely<DB>({ dialect: deUnEsquema(withCommitOutcome(new PostgresDialect({ pool }), pool, opts.log)) });
    return {
      kind: 'postgres',
      db,
      pool,
      connectionString: opts.databaseUrl,
      schema,
      close: () => db.destroy(),
    };
  }

  let dir: string | undefined;
  if (opts.dataDir) {
    dir = path.join(opts.dataDir, 'pgdata');
    await mkdir(dir, { recursive: true });
  }
  // One options object: `new PGlite(undefined, options)` (in memory) ignores the options.
  const pglite = new PGlite({
    dataDir: dir,
    ...(opts.loadDataDir ? { loadDataDir: opts.loadDataDir } : {}),
    parsers: { [INT8]: (v: string) => Number(v), [NUMERIC]: (v: string) => Number(v), [BYTEA]: byteaDesdeTexto },
    serializers: { [BYTEA]: byteaATexto },
  });
  await pglite.waitReady;
  const db = new Kysely<DB>({ dialect: deUnEsquema(new PGliteDialect({ pglite })) });
  return {
    kind: 'pglite',
    db,
    pglite,
    close: async () => {
      await db.destroy();
      if (!pglite.closed) await pglite.close();
    },
  };
}

/**
 * How long a request waits for a connection: to open one, or for one of the
 * pool's to come free. Past it the request answers 503 instead of queueing
 * behind others while the database is unreachable or overwhelmed. (A
 * database that refuses connections fails each attempt at once.)
 */
export const CONNECTION_TIMEOUT_MS = 5_000;
/** TCP keepalive on every connection: a peer that vanished (a failover, a cut network) is noticed. */
const KEEPALIVE_DELAY_MS = 10_000;

type ConnectCallback = (err: Error | undefined, client: pg.PoolClient | undefined, done: (release?: unknown) => void) => void;

/**
 * A pg pool on the database (and schema) with int8/numeric read as numbers.
 * `settings` become session settings (e.g. `synchronous_commit: 'off'`).
 *
 * A lost connection is never fatal: node-postgres emits `error` on an idle
 * client that loses its connection (the pool drops it, then re-emits it on
 * itself) and on a checked-out client that is between queries; an `error`
 * with no listener ends the process. Both get one here, so the broken client
 * is dropped and the next request opens another. Getting a connection is
 * bounded (CONNECTION_TIMEOUT_MS), and whatever fails while getting one is
 * marked as such (db/errores.ts), so it is answered 503.
 */
export function createPgPool(connectionString: string, schema: string | null, opts: { max: number; settings?: Record<string, string>; log?: Logger | undefined; nombre?: string }): pg.Pool {
  const settings = { ...(schema ? { search_path: `"${schema}"` } : {}), ...opts.settings };
  // Options in the URL (`?options=-c search_path=…`) are kept: ours are appended, not swapped in.
  const fromUrl = URL.canParse(connectionString) ? (new URL(connectionString).searchParams.get('options') ?? '') : '';
  const options = [fromUrl, ...Object.entries(settings).map(([k, v]) => `-c ${k}=${v}`)].filter(Boolean).join(' ');
  const pool = new pg.Pool({
    connectionString,
    max: opts.max,
    connectionTimeoutMillis: CONNECTION_TIMEOUT_MS,
    keepAlive: true,
    keepAliveInitialDelayMillis: KEEPALIVE_DELAY_MS,
    ...(options ? { options } : {}),
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
        if (oid === INT8 || oid === NUMERIC) return (v: string) => Number(v);
        return pg.types.getTypeParser(oid, format);
      }) as typeof pg.types.getTypeParser,
    },
  });
  // One log line per lost connection, whether it was idle in the pool or in use. An in-use
  // client's error also reaches the query it breaks (or the next one, «not queryable»), which
  // answers its request; the pool drops the client when it is released.
  const log = opts.log?.child({ pool: opts.nombre ?? 'pg' });
  const inUse = new WeakSet<pg.PoolClient>();
  const reported = new WeakSet<pg.PoolClient>();
  const report = (client: pg.PoolClient, err: Error, msg: string) => {
    if (reported.has(client)) return;
    reported.add(client);
    log?.warn({ err }, msg);
  };
  pool.on('acquire', (client) => inUse.add(client));
  pool.on('release', (_err, client) => inUse.delete(client));
  pool.on('connect', (client) =>
    client.on('error', (err) => {
      if (inUse.has(client)) report(client, err, 'database connection lost while in use; dropped when released');
    }),
  );
  pool.on('error', (err, client) => report(client, err, 'idle database connection lost; the pool opens another when needed'));
  const connect = pool.connect.bind(pool) as (cb?: ConnectCallback) => Promise<pg.PoolClient> | undefined;
  (pool as unknown as { connect: (cb?: ConnectCallback) => Promise<pg.PoolClient> | undefined }).connect = (cb) => {
    if (cb) return connect((err, client, done) => cb(err ? marcarAlConectar(err) : err, client, done));
    return (connect() as Promise<pg.PoolClient>).catch((err: unknown) => {
      throw marcarAlConectar(err);
    });
  };
  return pool;
}

/** Distinct statements each connection keeps prepared (the hot ones are among the first seen; the rest run unnamed). */
const MAX_PREPARADAS = 200;
const nombres = new Map<string, string>();

function nombreDe(text: string): string {
  let name = nombres.get(text);
  if (!name) {
    name = `k${createHash('sha1').update(text).digest('hex').slice(0, 24)}`;
    if (nombres.size < 10 * MAX_PREPARADAS) nombres.set(text, name);
  }
  return name;
}

/**
 * Run the queries Kysely sends as named prepared statements, so PostgreSQL
 * parses and plans each shape once per connection instead of on every call:
 * reading a DeCA by id cost 267–360 µs of the server's time unnamed and 50–73 µs
 * prepared. Kysely always passes `(text, values)`; the text of a statement
 * holds no values (they are parameters), so the set of shapes is small. Each
 * connection keeps at most MAX_PREPARADAS; anything past that runs unnamed.
 */
function prepararConsultas(client: pg.PoolClient): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  const propias = new Set<string>();
  (client as unknown as { query: (...args: unknown[]) => unknown }).query = (config: unknown, values?: unknown, callback?: unknown) => {
    if (typeof config === 'string' && Array.isArray(values) && callback === undefined && /^\s*(select|insert|update|delete|with)\b/i.test(config)) {
      if (propias.has(config) || propias.size < MAX_PREPARADAS) {
        propias.add(config);
        return query({ name: nombreDe(config), text: config, values });
      }
    }
    return callback === undefined ? query(config, values) : query(config, values, callback);
  };
}

/** Run every pending migration; throws (and so stops start-up) if one fails. */
export async function migrateToLatest(db: Kysely<DB>): Promise<string[]> {
  // Name the schema: the migrator's own tables are then created and queried in
  // this schema by name, whatever the search path holds.
  const { rows } = await sql<{ s: string }>`select current_schema() as s`.execute(db);
  const esquema = rows[0]?.s ?? 'public';
  const migrator = new Migrator({ db, provider: migrationProvider, migrationTableSchema: esquema });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'desconocida';
    throw new Error(`La migración ${failed} ha fallado: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    });
  }
  // The months ahead of the DeCAs' partitions, before anything is written (the hourly maintenance then keeps them ahead).
  await asegurarParticiones(db);
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
