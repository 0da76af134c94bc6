import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { migrateToLatest, openDatabase } from '../server/db/open';
import { baseDeDatosPropia } from './support/postgres';
import { ROOT } from './support/processes';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A dump of a migrated, empty PGlite data directory (support/db.ts opens each file's database from it). */
    plantillaPglite: string | null;
    /** A migrated, empty database on TEST_DATABASE_URL's server, the template of each file's (support/db.ts). */
    plantillaPostgres: string | null;
  }
}

/**
 * Before any file of a project runs: the compiled server, which every server
 * process, CLI run and PDF worker of the tests runs, built when missing or out
 * of date; and, for a project on the embedded database, one migrated PGlite
 * data directory that each file copies (opening and migrating a fresh one
 * costs 1.5–2.5 s, loading the copy about 0.3 s).
 */
export default async function setup(project: TestProject): Promise<(() => void) | undefined> {
  const r = spawnSync(process.execPath, [path.join(ROOT, 'scripts/build.mjs'), 'server', '--if-stale'], { cwd: ROOT, stdio: 'inherit' });
  if (r.status !== 0) throw new Error('no se pudo compilar el servidor (scripts/build.mjs server)');

  if (project.config.env?.DECA_TEST_DB === 'postgres') {
    project.provide('plantillaPglite', null);
    return await plantillaPostgres(project);
  }
  project.provide('plantillaPostgres', null);
  if (project.config.env?.DECA_TEST_DB !== 'pglite') {
    project.provide('plantillaPglite', null);
    return undefined;
  }
  const database = await openDatabase({});
  if (database.kind !== 'pglite') throw new Error('openDatabase({}) no abrió PGlite');
  let dump: Blob;
  try {
    await migrateToLatest(database.db);
    dump = await database.pglite.dumpDataDir('none');
  } finally {
    await database.close();
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), 'deca-plantilla-pglite-'));
  const file = path.join(dir, 'pgdata.tar');
  writeFileSync(file, new Uint8Array(await dump.arrayBuffer()));
  project.provide('plantillaPglite', file);
  return () => rmSync(dir, { recursive: true, force: true });
}

/**
 * For a project on PostgreSQL: one database migrated once per run, which
 * each file's database copies (`create database … template`, about 0.15 s;
 * migrating a fresh schema cost 2–2.5 s, most of it the DDL of the
 * partitions). Named per run, so two runs on one server never share it;
 * dropped at the end.
 */
async function plantillaPostgres(project: TestProject): Promise<() => Promise<void>> {
  const base = process.env.TEST_DATABASE_URL;
  if (!base) throw new Error('DECA_TEST_DB=postgres needs TEST_DATABASE_URL');
  const plantilla = await baseDeDatosPropia(base, 'deca_plantilla');
  const database = await openDatabase({ databaseUrl: plantilla.url });
  try {
    await migrateToLatest(database.db);
  } finally {
    // No connection may stay on a template while it is copied.
    await database.close();
  }
  project.provide('plantillaPostgres', plantilla.nombre);
  return plantilla.drop;
}
