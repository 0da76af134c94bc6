import path from 'node:path';
import { createHash } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, Migrator, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import type { DB } from './schema';
import { migrationProvider } from './migrations/index';
import { deUnEsquema } from './introspeccion';
import { PGliteDialect } from './pglite-dialect';

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
      const admin = new pg.Client({ connectionString: opts.databaseUrl });
      await admin.connect();
      try {
        await admin.query(`create schema if not exists "${schema.replace(/"/g, '')}"`);
      } finally {
        await admin.end();
      }
    }
    const pool = createPgPool(opts.databaseUrl, schema, { max: 10 });
    pool.on('connect', (client) => prepararConsultas(client));
    const db = new Kysely<DB>({ dialect: deUnEsquema(new PostgresDialect({ pool })) });
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
 * A pg pool on the database (and schema) with int8/numeric read as numbers.
 * `settings` become session settings (e.g. `synchronous_commit: 'off'`).
 */
export function createPgPool(connectionString: string, schema: string | null, opts: { max: number; settings?: Record<string, string> }): pg.Pool {
  const settings = { ...(schema ? { search_path: `"${schema}"` } : {}), ...opts.settings };
  // Options in the URL (`?options=-c search_path=…`) are kept: ours are appended, not swapped in.
  const fromUrl = URL.canParse(connectionString) ? (new URL(connectionString).searchParams.get('options') ?? '') : '';
  const options = [fromUrl, ...Object.entries(settings).map(([k, v]) => `-c ${k}=${v}`)].filter(Boolean).join(' ');
  return new pg.Pool({
    connectionString,
    max: opts.max,
    ...(options ? { options } : {}),
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
        if (oid === INT8 || oid === NUMERIC) return (v: string) => Number(v);
        return pg.types.getTypeParser(oid, format);
      }) as typeof pg.types.getTypeParser,
    },
  });
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
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
