import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { migrateToLatest, openDatabase } from '../../server/db/open';
import { instalada } from '../support/herramientas';
import { ROOT } from '../support/processes';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A DATA_DIR whose embedded database is migrated and empty: each e2e server starts on a copy of it. */
    dataDirMigrado: string | null;
  }
}

/**
 * The e2e suite drives the built app (service worker included) served by the
 * compiled server, as `npm run build` makes them: built when missing or out
 * of date. Also what the screenshot and Lighthouse scripts call first.
 */
export function buildIfStale(): void {
  const r = spawnSync(process.execPath, [path.join(ROOT, 'scripts/build.mjs'), '--if-stale'], { cwd: ROOT, stdio: 'inherit' });
  if (r.status !== 0) throw new Error('no se pudo compilar la aplicación web (scripts/build.mjs)');
}

/**
 * Before the e2e files: the build, and one migrated, empty DATA_DIR that
 * every server of the suite starts on a copy of (a server migrating a fresh
 * one takes 7–15 s on two loaded cores, on a migrated copy 3–5 s; what a
 * first start does is checked by the integration suite: migraciones, procesos).
 */
export default async function setup(project: TestProject): Promise<(() => void) | undefined> {
  // Without a browser the e2e files are skipped (and say why): nothing to build for.
  if (!instalada('chromium')) {
    project.provide('dataDirMigrado', null);
    return undefined;
  }
  buildIfStale();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'deca-e2e-plantilla-'));
  const database = await openDatabase({ dataDir: dir });
  try {
    await migrateToLatest(database.db);
  } finally {
    await database.close();
  }
  project.provide('dataDirMigrado', dir);
  return () => rmSync(dir, { recursive: true, force: true });
}
