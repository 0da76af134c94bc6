// `npm start`: build the web app if it is missing or older than its sources,
// then run the server (TypeScript through tsx, in this same process).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const built = path.join(root, 'dist/client/index.html');

function newest(dir) {
  let t = 0;
  if (!existsSync(dir)) return t;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    t = Math.max(t, entry.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return t;
}

const sources = Math.max(
  newest(path.join(root, 'client')),
  newest(path.join(root, 'public')),
  newest(path.join(root, 'shared')),
  statSync(path.join(root, 'vite.config.ts')).mtimeMs,
);
if (!existsSync(built) || statSync(built).mtimeMs < sources) {
  process.stdout.write('Compilando la aplicación web…\n');
  // vite's package exports hide bin/: find it next to its package.json.
  const vite = path.join(path.dirname(createRequire(import.meta.url).resolve('vite/package.json')), 'bin/vite.js');
  // Always a production build: with NODE_ENV=test or development in the environment Vite
  // would make a dev bundle, which never registers the service worker.
  const r = spawnSync(process.execPath, [vite, 'build', '--logLevel', 'warn'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

const { register } = await import('tsx/esm/api');
register();
await import(pathToFileURL(path.join(root, 'server/main.ts')).href);
