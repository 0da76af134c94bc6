import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { instalada } from '../support/herramientas';
import { ROOT } from '../support/processes';

function newest(p: string): number {
  if (!existsSync(p)) return 0;
  const st = statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  let t = 0;
  for (const e of readdirSync(p)) t = Math.max(t, newest(path.join(p, e)));
  return t;
}

/** The e2e suite drives the built app (service worker included): build it when missing or older than its sources. */
export default function setup(): void {
  // Without a browser the e2e files are skipped (and say why): nothing to build for.
  if (!instalada('chromium')) return;
  const built = path.join(ROOT, 'dist/client/index.html');
  const sources = Math.max(...['client', 'public', 'shared', 'vite.config.ts'].map((p) => newest(path.join(ROOT, p))));
  if (existsSync(built) && statSync(built).mtimeMs >= sources) return;
  // vite's package exports hide bin/: find it next to its package.json.
  const vite = path.join(path.dirname(createRequire(import.meta.url).resolve('vite/package.json')), 'bin/vite.js');
  // Build as `npm run build` does: vitest sets NODE_ENV=test (workbox would ship its debug build) and
  // VITEST (vite.config.ts would keep jsPDF's HTML helpers in the bundle, which the app's build leaves out).
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: 'production' };
  delete env.VITEST;
  const r = spawnSync(process.execPath, [vite, 'build', '--logLevel', 'warn'], { cwd: ROOT, stdio: 'inherit', env });
  if (r.status !== 0) throw new Error('vite build failed');
}
