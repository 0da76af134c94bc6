import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { inject } from 'vitest';
import { type Database, migrateToLatest, openDatabase } from '../../server/db/open';
import { baseDeDatosPropia, enServidor } from './postgres';

/** Which database this vitest project runs on (vite.config.ts sets DECA_TEST_DB). */
export function testDatabaseKind(): 'pglite' | 'postgres' {
  return process.env.DECA_TEST_DB === 'postgres' ? 'postgres' : 'pglite';
}

/**
 * A fresh, migrated database for one test file: an in-memory PGlite, or a
 * database of its own on TEST_DATABASE_URL's server (a copy of the run's
 * migrated template; without one, a schema of its own on TEST_DATABASE_URL),
 * so parallel files never collide. `close()` drops it.
 */
export async function openTestDatabase(): Promise<Database> {
  if (testDatabaseKind() === 'postgres') {
    const url = process.env.TEST_DATABASE_URL;
    if (!url) throw new Error('DECA_TEST_DB=postgres needs TEST_DATABASE_URL');
    // A copy of the run's migrated database (test/build-setup.ts), when there is one.
    const plantilla = inject('plantillaPostgres');
    if (plantilla) return await copiaDePlantilla(url, plantilla);
    const schema = `t_${randomBytes(6).toString('hex')}`;
    const database = await openDatabase({ databaseUrl: url, schema });
    await migrateToLatest(database.db);
    const close = database.close;
    database.close = async () => {
      await close();
      await enServidor(url, `drop schema if exists "${schema}" cascade`);
    };
    return database;
  }
  // One migrated data directory per run (test/build-setup.ts), copied for each file.
  const plantilla = inject('plantillaPglite');
  const database = await openDatabase({ loadDataDir: plantilla ? new Blob([readFileSync(plantilla)]) : null });
  await migrateToLatest(database.db);
  return database;
}

/** A database of its own, copied from the run's migrated template; `close()` drops it. */
async function copiaDePlantilla(base: string, plantilla: string): Promise<Database> {
  const propia = await baseDeDatosPropia(base, 't', plantilla);
  const database = await openDatabase({ databaseUrl: propia.url });
  // Nothing to migrate; this month's partitions made if the month changed since the template was.
  await migrateToLatest(database.db);
  const close = database.close;
  database.close = async () => {
    await close();
    await propia.drop();
  };
  return database;
}

/**
 * A fresh schema on TEST_DATABASE_URL and a `DATABASE_URL` whose connections
 * use it (for server processes started by a test); `drop()` removes it.
 */
export async function postgresSchemaDeProceso(prefix: string): Promise<{ url: string; drop(): Promise<void> }> {
  const base = process.env.TEST_DATABASE_URL;
  if (!base) throw new Error('needs TEST_DATABASE_URL');
  const schema = `${prefix}_${randomBytes(6).toString('hex')}`;
  const admin = (q: string) => enServidor(base, q);
  await admin(`create schema "${schema}"`);
  const u = new URL(base);
  u.searchParams.set('options', `-c search_path=${schema}`);
  return { url: u.toString(), drop: () => admin(`drop schema if exists "${schema}" cascade`) };
}

/**
 * The rows of one statement on `url`, on a connection of its own (opened and
 * closed around it): what a test reads from a server process's database.
 */
export async function filasEn<T>(url: string, text: string, params: unknown[] = []): Promise<T[]> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query(text, params)).rows as T[];
  } finally {
    await c.end();
  }
}
