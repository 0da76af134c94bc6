import { cpSync, mkdtempSync, rmSync, statfsSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import jsQR from 'jsqr';
import { type Browser, type BrowserContext, type ConsoleMessage, chromium, type Locator, type Page } from 'playwright-core';
import sharp from 'sharp';
import { expect, inject } from 'vitest';
import { SESSION_COOKIE } from '../../server/http/session-cookie';
import { CSRF_HEADER } from '../../shared/api/rutas-app';
import { herramienta } from '../support/herramientas';
import { ROOT, type ServerProcess, startServerProcess } from '../support/processes';
import { startSmtp, type TestSmtp } from '../support/smtp';

/**
 * Debian's Chromium (never a downloaded browser), or `null` when this machine
 * has none: the e2e files then skip after one line saying how to install it.
 */
export const CHROMIUM = herramienta('chromium');
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  // Chromium's shared memory in /tmp instead, only where /dev/shm is too small for it (a container's 64 MB):
  // on disk it costs every page's rendering system time.
  ...(shmPequeno() ? ['--disable-dev-shm-usage'] : []),
];

/** Whether /dev/shm is missing or under 512 MB. */
function shmPequeno(): boolean {
  try {
    const s = statfsSync('/dev/shm');
    return s.blocks * s.bsize < 512 * 1024 * 1024;
  } catch {
    return true;
  }
}

export interface Entorno {
  server: ServerProcess;
  url: string;
  /** Every e-mail the server sent (a real SMTP server on loopback). */
  smtp: TestSmtp;
  /**
   * The browser profile of the test that runs now: a context of the file's one browser (its own
   * storage, cookies, service workers and caches, as a new profile has), or, for a file that
   * needs what only a profile on disk has (installability), a persistent context in a browser
   * of its own. `perfilNuevo` replaces it with a fresh one.
   */
  context: BrowserContext;
  /**
   * Close this test's browser profile and open a new one: nothing another test left (service
   * worker and its Background Sync, IndexedDB, localStorage, cookies, routes, the offline switch,
   * open pages) reaches the test that starts. The service worker drains every user's queue on
   * the device, so a shared profile would send one test's leftovers with the next test's session.
   * A new context of a running browser takes a fraction of a second; a browser of its own, 2–4 s.
   */
  perfilNuevo(): Promise<BrowserContext>;
  /** The server's data directory: the CLI works on it while the server runs. */
  dataDir: string;
  /**
   * The built app this server serves: its own copy of dist/client, so a
   * test that deploys a new version changes it for its own browser only,
   * not for another file's running at the same time.
   */
  clientDir: string;
  /** Stop the server (SIGTERM), run `mientras` while it is down, and start it again on the same port and data. */
  reiniciarServidor(mientras: () => Promise<void>): Promise<void>;
  /** Secrets the test process learned on its own (passwords, sessions, keys of `cuentaNueva`): `fugas` looks for them too. */
  recordar(...secretos: string[]): void;
  /**
   * The secrets found in the server's log so far (every process of this
   * environment, at `info`): `conocidos` (the passwords the test typed) and
   * those `recordar`ed, every session cookie any profile of this environment
   * was given, the one-time tokens of every e-mail sent, and anything shaped
   * like an API key, a webhook secret or a password hash.
   */
  fugas(conocidos?: string[]): Promise<string[]>;
  close(): Promise<void>;
}

/** The token of a one-time link in an e-mail (completing a DeCA, confirming an address, an invitation, a password reset). */
const ENLACE_DE_UN_SOLO_USO = /\/(?:completar|confirmar|invitacion|restablecer)\/([\w-]{20,})/g;
/** An API key, a webhook secret or a password hash, wherever it comes from. */
const CON_FORMA_DE_SECRETO = /dg_(?:live|test)_[\w-]{16,}|whsec_[\w+/-]{16,}|scrypt\$\d+\$/g;
/** The session token in a Set-Cookie header. */
const COOKIE_DE_SESION = new RegExp(`(?:^|[\\s,])${SESSION_COOKIE}=([^;,\\s]+)`, 'g');

/**
 * The real server as a child process on a fresh DATA_DIR (embedded PGlite),
 * and a browser profile; each test then takes a fresh profile of its own
 * (`perfilNuevo`). With `enDisco`, each profile is a persistent Chromium
 * profile on a fresh directory (installability needs one), else a new
 * context of one browser the file shares.
 */
export async function arrancar(viewport = { width: 1280, height: 900 }, opts: { enDisco?: boolean } = {}): Promise<Entorno> {
  if (!CHROMIUM) throw new Error('Chromium no está instalado');
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'deca-e2e-data-'));
  // Its embedded database migrated already (global-setup.ts): a copy, as each file's server writes to its own.
  const migrado = process.env.VITEST ? inject('dataDirMigrado') : null;
  if (migrado) cpSync(migrado, dataDir, { recursive: true });
  const clientDir = mkdtempSync(path.join(os.tmpdir(), 'deca-e2e-client-'));
  cpSync(path.join(ROOT, 'dist/client'), clientDir, { recursive: true });
  /** The directory of the profile open now (each is removed once its browser is closed). */
  let perfil: string | undefined;
  /** Every session cookie a profile of this environment was given (also those it later lost by signing out). */
  const sesiones = new Set<string>();
  const recordados = new Set<string>();
  let smtp: TestSmtp | undefined;
  let server: ServerProcess | undefined;
  let context: BrowserContext | undefined;
  let navegador: Browser | undefined;
  const cerrarPerfil = async () => {
    const c = context;
    const dir = perfil;
    context = perfil = undefined;
    if (c) {
      for (const k of await c.cookies().catch(() => [])) if (k.name === SESSION_COOKIE) sesiones.add(k.value);
      await c.close().catch(() => {});
    }
    if (dir) rmSync(dir, { recursive: true, force: true });
  };
  const abrirPerfil = async (): Promise<BrowserContext> => {
    await cerrarPerfil();
    const opciones = { viewport, locale: 'es-ES', timezoneId: 'Europe/Madrid', serviceWorkers: 'allow' as const };
    let c: BrowserContext;
    if (opts.enDisco) {
      perfil = mkdtempSync(path.join(os.tmpdir(), 'deca-e2e-chromium-'));
      c = await chromium.launchPersistentContext(perfil, { executablePath: CHROMIUM!, args: CHROMIUM_ARGS, ...opciones });
    } else {
      navegador ??= await chromium.launch({ executablePath: CHROMIUM!, args: CHROMIUM_ARGS });
      c = await navegador.newContext(opciones);
    }
    // The sessions the server opens for this profile, as they are given (a sign-out takes the cookie away).
    c.on('response', (r) => {
      if (!new URL(r.url()).pathname.startsWith('/app/api/')) return;
      void r
        .headerValue('set-cookie')
        .then((v) => {
          for (const m of (v ?? '').matchAll(COOKIE_DE_SESION)) if (m[1]) sesiones.add(m[1]);
        })
        .catch(() => {});
    });
    context = c;
    return c;
  };
  const close = async () => {
    await cerrarPerfil();
    await navegador?.close().catch(() => {});
    await server?.stop();
    await smtp?.close();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(clientDir, { recursive: true, force: true });
  };
  // At `info`, so that every request line is there to be checked for secrets (fugas).
  const variables = (correo: TestSmtp) => ({
    DATA_DIR: dataDir,
    CLIENT_DIR: clientDir,
    HOST: '127.0.0.1',
    SMTP_URL: correo.url,
    API_RATE_LIMIT: '2000',
    WEBHOOK_ALLOW_INSECURE: '1',
    LOG_LEVEL: 'info',
    // A national eFTI gate that may query the server (the account sees its accesses).
    EFTI_GATE_SECRET: EFTI_SECRETO_E2E,
  });
  const procesos: ServerProcess[] = [];
  // Whatever fails on the way up (the browser above all), nothing started is left running.
  try {
    smtp = await startSmtp();
    // The suites drive whole days of use within minutes (a day of failures fast-forwarded, the
    // service worker's Background Sync, lists re-read): the per-user and per-key limit is raised
    // so a flow is never cut by the 120-a-minute budget, whose 429 handling other tests cover.
    // Webhooks to a receiver on loopback over http, as a developer's would be (WEBHOOK_ALLOW_INSECURE).
    server = await startServerProcess(variables(smtp));
    procesos.push(server);
    await abrirPerfil();
  } catch (err) {
    await close();
    throw err;
  }
  const env: Entorno = {
    server,
    url: server.url,
    smtp,
    get context(): BrowserContext {
      if (!context) throw new Error('no hay perfil de navegador abierto');
      return context;
    },
    perfilNuevo: abrirPerfil,
    dataDir,
    clientDir,
    close,
    async reiniciarServidor(mientras) {
      await env.server.stop();
      await mientras();
      server = env.server = await startServerProcess({ ...variables(env.smtp), PORT: new URL(env.url).port });
      procesos.push(server);
    },
    recordar(...secretos) {
      for (const s of secretos) recordados.add(s);
    },
    async fugas(conocidos = []) {
      const registro = procesos.map((p) => p.output()).join('\n');
      // A check of an empty log would pass whatever the server did.
      if (!registro.includes('"msg":"request"')) return ['el registro no tiene líneas de petición'];
      const actuales = context ? (await context.cookies()).filter((c) => c.name === SESSION_COOKIE).map((c) => c.value) : [];
      const deUnSoloUso = env.smtp.mails.flatMap((m) => [...(m.text ?? '').matchAll(ENLACE_DE_UN_SOLO_USO)].map((x) => x[1]!));
      const secretos = new Set([...conocidos, ...recordados, ...sesiones, ...actuales, ...deUnSoloUso].filter((s) => s.length >= 8));
      return [...[...secretos].filter((s) => registro.includes(s)), ...[...registro.matchAll(CON_FORMA_DE_SECRETO)].map((m) => m[0])].map((s) => `${s.slice(0, 10)}…`);
    },
  };
  return env;
}

/**
 * The path of the first link in the last e-mail sent to `to` whose path
 * matches `ruta` (the mail names SITE_URL, not this server's port), waiting
 * for one other than `excepto` (a mail sent again).
 */
export async function enlaceDelCorreo(env: Entorno, to: string, ruta: RegExp, excepto?: string): Promise<string> {
  const limite = Date.now() + 20_000;
  for (;;) {
    for (const mail of [...env.smtp.mails].reverse()) {
      if (!JSON.stringify(mail.to ?? '').includes(to)) continue;
      const camino = (mail.text ?? '')
        .match(/https?:\/\/\S+/g)
        ?.map((u) => new URL(u).pathname)
        .find((p) => ruta.test(p));
      if (camino && camino !== excepto) return camino;
      if (camino) break;
    }
    if (Date.now() > limite) throw new Error(`ningún correo a ${to} con un enlace ${ruta}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * Wait until the service worker controls the page (the shell is then precached).
 * A page whose load was still going on when the worker activated is left
 * uncontrolled for good (clients.claim() takes only pages that are ready, as
 * Chromium does under load); as for a user, the next load of the page is the
 * worker's: it is reloaded once.
 */
export async function esperarServiceWorker(page: Page): Promise<void> {
  const estado = await controlDelServiceWorker(page, 20_000);
  if (estado === null) return;
  if (!/activo activated, controla no$/.test(estado)) throw new Error(`El service worker no controla la página: ${estado}`);
  await page.reload();
  const otraVez = await controlDelServiceWorker(page, 60_000);
  if (otraVez !== null) throw new Error(`El service worker no controla la página, tampoco tras recargarla: ${otraVez}`);
}

/** Null once the worker controls the page within `ms`; else what it met. */
async function controlDelServiceWorker(page: Page, ms: number): Promise<string | null> {
  // Bounded, and saying what it met: `ready` alone waits for ever on a worker that never activates.
  return await page.evaluate(async (ms) => {
    const controla = (async () => {
      await navigator.serviceWorker.ready;
      if (!navigator.serviceWorker.controller) {
        await new Promise<void>((r) => navigator.serviceWorker.addEventListener('controllerchange', () => r(), { once: true }));
      }
      return 'controla';
    })();
    if ((await Promise.race([controla, new Promise((r) => setTimeout(r, ms, 'espera'))])) === 'controla') return null;
    const reg = await navigator.serviceWorker.getRegistration();
    return `registro ${reg ? 'sí' : 'no'}, instalando ${reg?.installing?.state ?? '—'}, en espera ${reg?.waiting?.state ?? '—'}, activo ${reg?.active?.state ?? '—'}, controla ${navigator.serviceWorker.controller ? 'sí' : 'no'}`;
  }, ms);
}

/**
 * Follow an in-app link and wait for the screen it leads to. Should that
 * screen not show, the error says where the click led, what the page shows
 * and what the page logged as an error (a bare timeout says none of it).
 */
export async function seguirEnlace(page: Page, enlace: Locator, destino: Locator, timeout = 30_000): Promise<void> {
  const errores: string[] = [];
  const alFallo = (e: Error) => errores.push(e.message);
  const alMensaje = (m: ConsoleMessage) => {
    if (m.type() === 'error') errores.push(m.text());
  };
  page.on('pageerror', alFallo);
  page.on('console', alMensaje);
  try {
    await enlace.click();
    await destino.waitFor({ timeout });
  } catch (e) {
    const muestra = await page
      .locator('body')
      .innerText({ timeout: 2_000 })
      .catch(() => '?');
    const dijo = errores.length > 0 ? `; errores de la página: ${errores.join(' | ')}` : '';
    throw new Error(`Tras seguir ${enlace}, no apareció ${destino}: la página está en ${page.url()} y muestra «${muestra.replace(/\s+/g, ' ').slice(0, 400)}»${dijo}`, { cause: e });
  } finally {
    page.off('pageerror', alFallo);
    page.off('console', alMensaje);
  }
}

/**
 * How often a test polls the API with its key: the server allows 120
 * requests a minute per key (the product's limit), and a poll at the default
 * 50 ms would spend it in seconds and get 429s instead of answers. Once a
 * second leaves half the budget to everything else the test does that minute.
 */
export const POLL_API_MS = 1_000;

/**
 * The public API with a key made in the app, from the test process (not
 * through the browser, so its offline switch does not apply). Throws on any
 * answer that is not 2xx, with the status and body.
 */
export async function llamarApi<T>(env: Entorno, clave: string, method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${env.url}/api/v1${path}`, {
    method,
    headers: { Authorization: `Bearer ${clave}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json()) as T;
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

/**
 * How many reserved numbers the device holds in its database of `entorno` (0
 * with none yet); with `vaciar`, it gives them all up in the same transaction.
 */
function reservasDelDispositivo(p: Page, vaciar: boolean, entorno: 'produccion' | 'pruebas' = 'produccion'): Promise<number> {
  return p.evaluate(
    async ({ vaciar, entorno }) => {
      const nombre = (await indexedDB.databases()).find((d) => d.name?.endsWith(`-${entorno}`))?.name;
      if (!nombre) return 0;
      const db = await new Promise<IDBDatabase>((ok, mal) => {
        const r = indexedDB.open(nombre);
        r.onsuccess = () => ok(r.result);
        r.onerror = () => mal(r.error);
        r.onblocked = () => mal(new Error(`IndexedDB ${nombre} bloqueada`));
      });
      try {
        if (!db.objectStoreNames.contains('reservas')) return 0;
        return await new Promise<number>((ok, mal) => {
          const tx = db.transaction('reservas', vaciar ? 'readwrite' : 'readonly');
          const almacen = tx.objectStore('reservas');
          const habia = almacen.count();
          if (vaciar) almacen.clear();
          tx.oncomplete = () => ok(habia.result);
          tx.onerror = () => mal(tx.error);
          tx.onabort = () => mal(tx.error ?? new Error('transacción abortada'));
        });
      } finally {
        db.close();
      }
    },
    { vaciar, entorno },
  );
}

/** The secret the e2e server shares with its eFTI gate (EFTI_GATE_SECRET; the gate is `ES`, the default). */
export const EFTI_SECRETO_E2E = 'pasarela-efti-de-las-pruebas-e2e-0123456789';

/** What the QR on the screen holds, read from a screenshot as a phone's camera would. */
export async function leerQr(p: Page, testId = 'qr'): Promise<string> {
  const png = await p.getByTestId(testId).screenshot();
  const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const code = jsQR(new Uint8ClampedArray(data.buffer, data.byteOffset, data.byteLength), info.width, info.height);
  if (!code) throw new Error('no se pudo leer el QR de la pantalla');
  return code.data;
}

/** The numbers reserved for this device that it holds (the server's own reservation, seen from the app), in production unless `entorno` says. */
export function reservasEnDispositivo(p: Page, entorno: 'produccion' | 'pruebas' = 'produccion'): Promise<number> {
  return reservasDelDispositivo(p, false, entorno);
}

/**
 * A device that holds no numbers (all used, or an account that cannot have
 * them): «Emitir» with no network then queues the DeCA for the server to
 * issue, the path these flows check. Called once the context is offline, so
 * no new refill starts.
 */
export async function sinNumerosReservados(p: Page): Promise<void> {
  // A refill asked for just before the network went may still land: cleared until, half a second
  // after a clearing, none has come back.
  let vueltas = 0;
  await expect
    .poll(
      async () => {
        const habia = await reservasDelDispositivo(p, true);
        return vueltas++ === 0 ? -1 : habia;
      },
      { timeout: 20_000, interval: 500 },
    )
    .toBe(0);
}

/** An account of this environment's server, made by `cuentaNueva`, and its first user (administrator). */
export interface Cuenta {
  email: string;
  password: string;
  empresa: string;
  usuarioId: number;
  /** The session the sign-up opened (`deca_sesion=…`), for the app's endpoints from the test process. */
  cookie: string;
  /** A production API key made with that session (with `clave`), for the public API (llamarApi). */
  clave: string | null;
}

export interface OpcionesCuenta {
  /** Company name (default «Transportes Prueba SL»). */
  empresa?: string;
  /** Start of the user's e-mail (default «conductora»); a number follows, so each account's is new. */
  alias?: string;
  /** Confirm the e-mail through the link the server mails (default true: real numbers and production keys wait for it). */
  confirmar?: boolean;
  /** Make a production API key; a string names it. Implies a confirmed e-mail. */
  clave?: boolean | string;
}

/** Sign-ups by this process: each comes from a loopback address of its own (see `pedir`). */
let altas = 0;

/**
 * A request to this environment's server from the test process, as a
 * visitor of its own: from `desde`, a loopback address other than the
 * browser's. (The server allows 5 sign-ups an hour from one address, the
 * product's limit; each test's account comes from another visitor.)
 */
function pedir(env: Entorno, method: string, ruta: string, opts: { json?: unknown; cookie?: string; desde?: string } = {}): Promise<{ status: number; texto: string; setCookie: string[] }> {
  const url = new URL(ruta, env.url);
  const cuerpo = opts.json === undefined ? '' : JSON.stringify(opts.json);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: `${url.pathname}${url.search}`,
        method,
        ...(opts.desde ? { localAddress: opts.desde } : {}),
        headers: {
          'User-Agent': 'deca-e2e',
          [CSRF_HEADER]: '1',
          ...(opts.json === undefined ? { 'Content-Type': 'application/x-www-form-urlencoded' } : { 'Content-Type': 'application/json' }),
          'Content-Length': Buffer.byteLength(cuerpo),
          ...(opts.cookie ? { Cookie: opts.cookie } : {}),
        },
      },
      (res) => {
        const trozos: Buffer[] = [];
        res.on('data', (c: Buffer) => trozos.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, texto: Buffer.concat(trozos).toString('utf8'), setCookie: res.headers['set-cookie'] ?? [] }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(cuerpo);
  });
}

/**
 * A new company account with its administrator, made through the server's
 * own endpoints as the app makes it (POST /app/api/registro), not through the
 * sign-up form: by default its e-mail confirmed through the link the server
 * mails (POST /confirmar/<token>), and with `clave` a production API key
 * (POST /app/api/claves, with the session and the CSRF header). Its
 * password, session and key are remembered for `fugas`.
 */
export async function cuentaNueva(env: Entorno, opts: OpcionesCuenta = {}): Promise<Cuenta> {
  const n = ++altas;
  const email = `${opts.alias ?? 'conductora'}-${n}@example.com`;
  const password = `una-clave-larga-${n}-${Math.random().toString(36).slice(2, 10)}`;
  const empresa = opts.empresa ?? 'Transportes Prueba SL';
  const desde = `127.0.${1 + Math.floor(n / 250)}.${2 + (n % 250)}`;
  const alta = await pedir(env, 'POST', '/app/api/registro', {
    desde,
    json: { nombre: empresa, nif: 'B12345674', domicilio: 'Polígono Sur 3, Zaragoza', email, password },
  });
  if (alta.status !== 201) throw new Error(`alta de ${email}: ${alta.status} ${alta.texto}`);
  const token = alta.setCookie.map((c) => new RegExp(`^${SESSION_COOKIE}=([^;]+)`).exec(c)?.[1]).find(Boolean);
  if (!token) throw new Error(`alta de ${email} sin cookie de sesión`);
  const cookie = `${SESSION_COOKIE}=${token}`;
  env.recordar(password, token);
  const { usuario } = JSON.parse(alta.texto) as { usuario: { id: number } };
  let clave: string | null = null;
  if (opts.confirmar !== false || opts.clave) {
    const enlace = await enlaceDelCorreo(env, email, /^\/confirmar\//);
    const confirmado = await pedir(env, 'POST', enlace, { desde });
    if (confirmado.status !== 200 || !confirmado.texto.includes('Correo confirmado')) throw new Error(`confirmación de ${email}: ${confirmado.status} ${confirmado.texto.slice(0, 300)}`);
  }
  if (opts.clave) {
    const r = await pedir(env, 'POST', '/app/api/claves', {
      desde,
      cookie,
      json: { entorno: 'produccion', ...(typeof opts.clave === 'string' ? { nombre: opts.clave } : {}) },
    });
    if (r.status !== 201) throw new Error(`clave de ${email}: ${r.status} ${r.texto}`);
    clave = (JSON.parse(r.texto) as { key: string }).key;
    env.recordar(clave);
  }
  return { email, password, empresa, usuarioId: usuario.id, cookie, clave };
}

/**
 * Sign in on `page` through the sign-in screen, as the user would (the app
 * keeps who is signed in on the device as well as the server's cookie), and
 * wait for the list, with the app installed: its service worker controls the
 * page, so the shell is precached and every later navigation is served by it.
 *
 * On a fresh profile the worker installs while the test goes on; a full
 * navigation that starts before it activates and is still loading when it
 * claims the open pages is left uncontrolled (clients.claim() takes only
 * pages that are ready), and such a page then never works offline. Waiting
 * here, on the first page (ready long before the worker exists), keeps every
 * test's later navigations out of that window.
 */
export async function entrar(env: Entorno, page: Page, cuenta: Pick<Cuenta, 'email' | 'password'>): Promise<void> {
  await page.goto(env.url);
  await page.getByRole('heading', { name: 'Entrar' }).waitFor();
  await page.fill('#f-email', cuenta.email);
  await page.fill('#f-password', cuenta.password);
  await page.getByRole('button', { name: 'Entrar' }).click();
  await page.getByRole('heading', { name: 'Sus DeCA' }).waitFor({ timeout: 20_000 });
  await esperarServiceWorker(page);
}
