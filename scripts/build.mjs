// Builds what the product runs: the web app (Vite, into dist/client) and the
// server (esbuild, into dist/server: main.js, cli.js and the PDF worker).
//
//   node scripts/build.mjs                  both, always (`npm run build`)
//   node scripts/build.mjs --if-stale       only what is missing or older than its sources
//   node scripts/build.mjs server --if-stale
//
// `npm start`, `npm run cli` and the test run call it with --if-stale, so a
// fresh clone builds by itself and an up-to-date build costs a few stat calls.
// Progress goes to stderr: `npm run --silent cli` prints only its JSON on stdout.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);

/** The server's entry points, as dist/server/<name>.js. The PDF worker is a file of its own: worker threads load it by path. */
const SERVER_ENTRIES = {
  main: 'server/main.ts',
  cli: 'server/cli.ts',
  'pdf-worker': 'server/documents/pdf-worker.ts',
};

/** Newest modification time under the given files and folders (0 when none exists). */
function newest(paths) {
  let t = 0;
  for (const p of paths) {
    if (!existsSync(p)) continue;
    const st = statSync(p);
    if (!st.isDirectory()) t = Math.max(t, st.mtimeMs);
    else for (const e of readdirSync(p)) t = Math.max(t, newest([path.join(p, e)]));
  }
  return t;
}

/** Whether `output` is missing or older than any of `sources`. */
function stale(output, sources) {
  return !existsSync(output) || statSync(output).mtimeMs < newest(sources.map((s) => path.join(ROOT, s)));
}

const CLIENT_SOURCES = ['client', 'public', 'shared', 'vite.config.ts', 'package-lock.json'];
const SERVER_SOURCES = ['server', 'shared', 'scripts/build.mjs', 'package-lock.json'];

export const clientIsStale = () => stale(path.join(ROOT, 'dist/client/index.html'), CLIENT_SOURCES);
export const serverIsStale = () => Object.keys(SERVER_ENTRIES).some((n) => stale(path.join(ROOT, `dist/server/${n}.js`), SERVER_SOURCES));

/** The web app, as `vite build` makes it for production (service worker included). */
export function buildClient() {
  process.stderr.write('Compilando la aplicación web…\n');
  // vite's package exports hide bin/: find it next to its package.json.
  const vite = path.join(path.dirname(require.resolve('vite/package.json')), 'bin/vite.js');
  // Always a production build: under NODE_ENV=test or development Vite makes a dev bundle that never
  // registers the service worker; and VITEST (set inside a test run) would keep jsPDF's HTML helpers.
  const env = { ...process.env, NODE_ENV: 'production' };
  delete env.VITEST;
  const r = spawnSync(process.execPath, [vite, 'build', '--logLevel', 'warn'], { cwd: ROOT, stdio: ['ignore', 2, 2], env });
  if (r.status !== 0) throw new Error('vite build failed');
}

/**
 * The server as plain JavaScript: one ESM bundle per entry, npm packages left
 * as imports (resolved from node_modules at run time, native ones included).
 * Each bundle sits two folders below the root, as its sources do
 * (server/documents/…), so paths they build from `import.meta.url` (the PDF
 * fonts in shared/pdf/fuentes) mean the same in both. Files are written under
 * a temporary name and renamed, so a process starting meanwhile never reads
 * half a file.
 */
export async function buildServer() {
  process.stderr.write('Compilando el servidor…\n');
  const esbuild = await import('esbuild');
  const out = path.join(ROOT, 'dist/server');
  const result = await esbuild.build({
    absWorkingDir: ROOT,
    entryPoints: SERVER_ENTRIES,
    outdir: out,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20.19',
    packages: 'external',
    sourcemap: 'linked',
    legalComments: 'none',
    logLevel: 'warning',
    write: false,
  });
  mkdirSync(out, { recursive: true });
  // Maps first: a bundle never points at a map that is not there yet.
  const files = [...result.outputFiles].sort((a, b) => Number(b.path.endsWith('.map')) - Number(a.path.endsWith('.map')));
  for (const f of files) {
    const tmp = `${f.path}.${process.pid}.tmp`;
    writeFileSync(tmp, f.contents);
    renameSync(tmp, f.path);
  }
}

/** Build what is asked (both by default); with `ifStale`, only what is missing or out of date. */
export async function build({ client = true, server = true, ifStale = false } = {}) {
  if (client && (!ifStale || clientIsStale())) buildClient();
  if (server && (!ifStale || serverIsStale())) await buildServer();
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const ifStale = args.includes('--if-stale');
  const parts = args.filter((a) => !a.startsWith('--'));
  const unknown = parts.filter((p) => p !== 'client' && p !== 'server');
  if (unknown.length) {
    process.stderr.write(`Parte desconocida: ${unknown.join(', ')} (use client y/o server)\n`);
    process.exit(2);
  }
  try {
    await build({ client: parts.length === 0 || parts.includes('client'), server: parts.length === 0 || parts.includes('server'), ifStale });
  } catch (err) {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  }
}
