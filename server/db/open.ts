import path from 'node:path';
import { mkdir } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, PGliteDialect, PostgresDialect, sql } from 'kysely';
import { Migrator } from 'kysely/migration';
import pg from 'pg';
import type { DB } from './schema';
import { migrationProvider } from './migrations/index';

const INT8 = 20;
const NUMERIC = 1700;

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
    const pool = new pg.Pool({
      connectionString: opts.databaseUrl,
      max: 10,
      ...(schema ? { options: `-c search_path="${schema}"` } : {}),
      types: {
        getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
          if (oid === INT8 || oid === NUMERIC) return (v: string) => Number(v);
          return pg.types.getTypeParser(oid, format);
        }) as typeof pg.types.getTypeParser,
      },
    });
    const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
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
  const pglite = new PGlite(dir, {
    parsers: { [INT8]: (v: string) => Number(v), [NUMERIC]: (v: string) => Number(v) },
  });
  await pglite.waitReady;
  const db = new Kysely<DB>({ dialect: new PGliteDialect({ pglite }) });
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

/** Run every pending migration; throws (and so stops start-up) if one fails. */
export async function migrateToLatest(db: Kysely<DB>): Promise<string[]> {
  // Name the schema: without it Kysely's migrator takes a kysely_migration table
  // in *any* schema as its own, so two schemas migrating at once (test files,
  // several installs on one server) fail with «kysely_migration_lock does not exist».
  const { rows } = await sql<{ s: string }>`select current_schema() as s`.execute(db);
  const migrator = new Migrator({ db, provider: migrationProvider, migrationTableSchema: rows[0]?.s ?? 'public' });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'desconocida';
    throw new Error(`La migración ${failed} ha fallado: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    });
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
