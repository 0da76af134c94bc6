import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { instalada } from '../support/herramientas';
import { ROOT } from '../support/processes';

/**
 * The e2e suite drives the built app (service worker included) served by the
 * compiled server, as `npm run build` makes them: built when missing or out
 * of date. Also what the screenshot and Lighthouse scripts call first.
 */
export default function setup(): void {
  // Without a browser the e2e files are skipped (and say why): nothing to build for.
  if (!instalada('chromium')) return;
  const r = spawnSync(process.execPath, [path.join(ROOT, 'scripts/build.mjs'), '--if-stale'], { cwd: ROOT, stdio: 'inherit' });
  if (r.status !== 0) throw new Error('no se pudo compilar la aplicación web (scripts/build.mjs)');
}
