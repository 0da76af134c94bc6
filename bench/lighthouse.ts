// The first screen as a browser loads it, and Lighthouse (mobile), on the built
// PWA served by the real server. Prints figures; the targets are ≤ 60 KB gzip
// of script for each first screen and performance, accessibility and best
// practices ≥ 95. Run: npx tsx bench/lighthouse.ts
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { type BrowserContext, chromium, type Page, type Request } from 'playwright-core';
import { CHROMIUM_ARGS, reservasEnDispositivo } from '../test/e2e/browser';
import { buildIfStale } from '../test/e2e/global-setup';
import { instalada } from '../test/support/herramientas';

const CHROMIUM = process.env.CHROME_PATH ?? '/usr/bin/chromium';
if (!instalada('chromium')) {
  console.error(`Este banco necesita Chromium en ${CHROMIUM}: apt-get install chromium (o CHROME_PATH=/ruta/a/chromium)`);
  process.exit(1);
}

import { ROOT, runCli, startServerProcess } from '../test/support/processes';

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

interface Script {
  /** Path on the server, e.g. /assets/index-abc.js. */
  file: string;
  /** Size of the body gzipped at level 9 (the budget's unit, whatever the server chose to send). */
  gzip: number;
  /** Bytes on the wire (body as sent, brotli or gzip, plus headers); 0 when the service worker answered from its cache. */
  red: number;
  fromServiceWorker: boolean;
}

interface Medida {
  scripts: Script[];
  gzip: number;
  /** The service worker's own precache fetches during the same load, reported apart: not what the screen needs. */
  precache: { files: number; gzip: number };
}

/** Resolves once no request of the page has been in flight for `quietMs`. */
function idle(page: Page, quietMs = 1000): Promise<void> {
  let inflight = 0;
  let timer: ReturnType<typeof setTimeout> | null = null;
  return new Promise((resolve) => {
    const arm = () => {
      if (timer) clearTimeout(timer);
      timer = inflight === 0 ? setTimeout(done, quietMs) : null;
    };
    const started = () => {
      inflight++;
      arm();
    };
    const ended = () => {
      inflight = Math.max(0, inflight - 1);
      arm();
    };
    const done = () => {
      page.off('request', started).off('requestfinished', ended).off('requestfailed', ended);
      resolve();
    };
    page.on('request', started).on('requestfinished', ended).on('requestfailed', ended);
    arm();
  });
}

/** Who is signed in when the first screen loads. */
type Quien =
  | { tipo: 'nadie' }
  /** Just signed up: the e-mail is not confirmed yet. */
  | { tipo: 'nuevo' }
  /** A confirmed account: the device also registers its key and takes its numbers for issuing with no coverage. */
  | { tipo: 'confirmado'; email: string; password: string };

/**
 * Load `/` in a fresh Chromium profile (empty HTTP cache, no service worker)
 * and record every script the page fetches until the first screen shows its
 * content and the network is quiet. Signed in, the session is opened through
 * the app's own endpoint first and the device remembers it, as after signing
 * up or in: the first screen is then the list.
 */
async function primeraPantalla(url: string, quien: Quien): Promise<Medida> {
  const conSesion = quien.tipo !== 'nadie';
  const profile = mkdtempSync(path.join(os.tmpdir(), 'deca-lh-chromium-'));
  let context: BrowserContext | null = null;
  try {
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      args: CHROMIUM_ARGS,
      viewport: { width: 412, height: 823 },
      locale: 'es-ES',
      serviceWorkers: 'allow',
    });
    if (conSesion) {
      const res =
        quien.tipo === 'confirmado'
          ? await context.request.post(`${url}/app/api/sesion`, { headers: { 'X-DeCA-CSRF': '1' }, data: { email: quien.email, password: quien.password } })
          : await context.request.post(`${url}/app/api/registro`, {
              headers: { 'X-DeCA-CSRF': '1' },
              data: { nombre: 'Transportes Banco SL', nif: 'B12345674', domicilio: 'Calle del Banco 1, Madrid', email: `banco-${Date.now()}@example.com`, password: 'una-clave-larga-1' },
            });
      if (!res.ok()) throw new Error(`${quien.tipo === 'confirmado' ? 'sesión' : 'registro'}: ${res.status()} ${await res.text()}`);
      // The session cookie is in the context now; the app remembers who is signed in on the
      // device (client/app/sesion.ts, key deca.sesion) exactly as it does after signing up.
      const sesion = await res.json();
      await context.addInitScript((s) => {
        if (!localStorage.getItem('deca.sesion')) localStorage.setItem('deca.sesion', JSON.stringify(s));
      }, sesion);
    }
    const page = context.pages()[0] ?? (await context.newPage());
    const pagina: Request[] = [];
    const precache: Request[] = [];
    page.on('requestfinished', (r) => pagina.push(r));
    context.on('requestfinished', (r) => {
      if (r.serviceWorker()) precache.push(r);
    });

    const quiet = idle(page);
    await page.goto(`${url}/`);
    if (conSesion) {
      await page.getByRole('heading', { name: 'Sus DeCA' }).waitFor();
      await page.getByText('No hay DeCA').waitFor();
    } else {
      await page.getByRole('heading', { name: 'Entrar' }).waitFor();
      await page.getByRole('button', { name: 'Entrar' }).waitFor();
    }
    await quiet;
    if (quien.tipo === 'confirmado') {
      // The device took its numbers in this load (they are part of what the first screen did).
      const reservas = await reservasEnDispositivo(page);
      if (reservas < 3) throw new Error(`el dispositivo no tomó números en la primera carga (${reservas})`);
    }
    // What the screen needed is in; what arrives from here on is not the first screen.
    const propios = [...pagina];
    const delSw = [...precache];

    const scripts: Script[] = [];
    for (const r of propios) {
      if (r.resourceType() !== 'script') continue;
      const res = await r.response();
      if (!res) continue;
      const body = await res.body();
      const sizes = await r.sizes().catch(() => null);
      scripts.push({
        file: new URL(r.url()).pathname,
        gzip: gzipSync(body, { level: 9 }).length,
        red: res.fromServiceWorker() ? 0 : sizes ? sizes.responseBodySize + sizes.responseHeadersSize : 0,
        fromServiceWorker: res.fromServiceWorker(),
      });
    }
    let precacheGzip = 0;
    for (const r of delSw) {
      const body = await (await r.response())?.body().catch(() => null);
      if (body) precacheGzip += gzipSync(body, { level: 9 }).length;
    }
    return { scripts, gzip: scripts.reduce((t, s) => t + s.gzip, 0), precache: { files: delSw.length, gzip: precacheGzip } };
  } finally {
    await context?.close().catch(() => {});
    rmSync(profile, { recursive: true, force: true });
  }
}

function imprimir(titulo: string, m: Medida): void {
  const red = m.scripts.reduce((t, s) => t + s.red, 0);
  console.log(`${titulo}: ${kb(m.gzip)} gzip de JavaScript (${m.scripts.length} ficheros, ${kb(red)} en la red)`);
  for (const s of m.scripts) console.log(`  ${kb(s.gzip).padStart(8)}  ${s.file}${s.fromServiceWorker ? ' (del service worker)' : ''}`);
  console.log(`  aparte, precaché del service worker en esa carga: ${m.precache.files} ficheros, ${kb(m.precache.gzip)} gzip`);
}

buildIfStale();
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'deca-lh-'));
const server = await startServerProcess({ DATA_DIR: dataDir, HOST: '127.0.0.1' });
try {
  imprimir('Primera pantalla sin sesión (entrar)', await primeraPantalla(server.url, { tipo: 'nadie' }));
  imprimir('Primera pantalla con sesión, recién registrado (lista)', await primeraPantalla(server.url, { tipo: 'nuevo' }));
  const confirmado = { email: `confirmada-${Date.now()}@example.com`, password: 'una-clave-larga-2' };
  const alta = await runCli(
    ['account:create', '--company', 'Transportes Confirmados SL', '--nif', 'B12345674', '--address', 'Calle del Banco 2, Madrid', '--email', confirmado.email, '--password', confirmado.password],
    { DATA_DIR: dataDir },
  );
  if (alta.code !== 0) throw new Error(`account:create: ${alta.stderr}`);
  imprimir('Primera pantalla con sesión, cuenta confirmada (lista; el dispositivo registra su clave y toma números)', await primeraPantalla(server.url, { tipo: 'confirmado', ...confirmado }));

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
