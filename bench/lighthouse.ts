// Lighthouse (mobile) on the built PWA served by the real server, and the
// gzip size of the JavaScript the first screen needs. Prints figures; the
// targets are performance, accessibility and best practices ≥ 95 and
// ≤ 60 KB gzip of initial JS. Run: npx tsx bench/lighthouse.ts
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import buildIfStale from '../test/e2e/global-setup';
import { CHROMIUM, CHROMIUM_ARGS } from '../test/e2e/browser';
import { ROOT, startServerProcess } from '../test/support/processes';

interface Chunk {
  file: string;
  imports?: string[];
  dynamicImports?: string[];
  isEntry?: boolean;
  src?: string;
}

const dist = path.join(ROOT, 'dist/client');
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

/** The entry chunk and its static imports (what index.html loads), plus a route module and its own static imports. */
function initialJs(extra: string[]): { files: string[]; gzip: number } {
  const manifest = JSON.parse(readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8')) as Record<string, Chunk>;
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    for (const i of manifest[key]?.imports ?? []) visit(i);
  };
  const entry = Object.keys(manifest).find((k) => manifest[k]!.isEntry)!;
  visit(entry);
  for (const e of extra) visit(e);
  const files = [...seen].map((k) => manifest[k]!.file).filter((f) => f.endsWith('.js'));
  const gzip = files.reduce((t, f) => t + gzipSync(readFileSync(path.join(dist, f)), { level: 9 }).length, 0);
  return { files, gzip };
}

buildIfStale();
const signedIn = initialJs([]);
const signedOut = initialJs(['views/acceso.tsx']);
console.log(`JS inicial (gzip), primera pantalla con sesión (lista): ${kb(signedIn.gzip)} — ${signedIn.files.join(', ')}`);
console.log(`JS inicial (gzip), primera pantalla sin sesión (entrar): ${kb(signedOut.gzip)} — ${signedOut.files.join(', ')}`);

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'deca-lh-'));
const server = await startServerProcess({ DATA_DIR: dataDir, HOST: '127.0.0.1' });
try {
  const out = path.join(dataDir, 'lighthouse.json');
  const bin = path.join(ROOT, 'node_modules/.bin/lighthouse');
  const r = spawnSync(
    bin,
    [
      `${server.url}/`,
      '--output=json',
      `--output-path=${out}`,
      '--only-categories=performance,accessibility,best-practices',
      '--form-factor=mobile',
      '--quiet',
      `--chrome-flags=${CHROMIUM_ARGS.join(' ')}`,
    ],
    { env: { ...process.env, CHROME_PATH: CHROMIUM }, stdio: ['ignore', 'inherit', 'inherit'], timeout: 300_000 },
  );
  if (r.status !== 0) throw new Error(`lighthouse terminó con ${r.status}`);
  const lhr = JSON.parse(readFileSync(out, 'utf8')) as {
    categories: Record<string, { score: number }>;
    audits: Record<string, { displayValue?: string; score: number | null; title: string }>;
  };
  const score = (c: string) => Math.round((lhr.categories[c]?.score ?? 0) * 100);
  console.log(`Lighthouse (móvil) ${server.url}/: performance ${score('performance')}, accessibility ${score('accessibility')}, best-practices ${score('best-practices')}`);
  for (const a of ['first-contentful-paint', 'largest-contentful-paint', 'total-blocking-time', 'cumulative-layout-shift', 'speed-index']) {
    console.log(`  ${lhr.audits[a]?.title}: ${lhr.audits[a]?.displayValue}`);
  }
  const fallos = Object.entries(lhr.audits).filter(([, a]) => a.score !== null && a.score < 0.9 && !('displayValue' in a && /ms|s$/.test(a.displayValue ?? '')));
  for (const [id, a] of fallos.slice(0, 10)) console.log(`  revisar: ${id} (${a.title})`);
} finally {
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
