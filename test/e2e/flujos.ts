import { readFileSync } from 'node:fs';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, expect, onTestFinished } from 'vitest';
import { arrancar, type Cuenta, cuentaNueva, type Entorno, entrar, llamarApi, type OpcionesCuenta } from './browser';

/**
 * What the e2e files share: one environment per file (server + browser), a
 * fresh browser profile and a fresh account for every test, and the steps
 * of the app many flows take (fill a DeCA, wait for its number, download its PDF).
 */

/** The public API with this test's key (see llamarApi). */
export type Api = <T>(method: string, path: string, body?: unknown) => Promise<T>;

/** What a test starts from: a fresh account, signed in on a page of its own profile, on the list. */
export interface Sesion {
  page: Page;
  cuenta: Cuenta;
  /** The public API with the account's key (made with `clave`). */
  api: Api;
}

export interface ArchivoE2e {
  /** This file's environment (started in beforeAll). */
  readonly env: Entorno;
  /**
   * What the browser refused or complained about under the app's policies (CSP,
   * Permissions-Policy) during the running test, by page; emptied after each test,
   * which fails if it is not empty (with `politicas`). A test that trips them on
   * purpose empties it itself.
   */
  readonly politicas: string[];
  /** A fresh account (see cuentaNueva), signed in through the sign-in screen on a new page of this test's profile. */
  sesion(opts?: OpcionesCuenta & { ruta?: string }): Promise<Sesion>;
  /** The public API with a key. */
  api(cuenta: Cuenta): Api;
}

/**
 * The hooks of an e2e file: the environment once (arrancar), a fresh browser
 * profile before every test (Entorno.perfilNuevo), the policy watch after
 * every test (with `politicas`), and once all have run, the check that the
 * server wrote no secret to its log (every process of the file's server).
 */
export function archivoE2e(opts: { viewport?: { width: number; height: number }; politicas?: boolean; enDisco?: boolean } = {}): ArchivoE2e {
  let env: Entorno | undefined;
  const politicas: string[] = [];
  // The profile arrancar opened has never been used: the first test takes it.
  let estrenado = false;
  /** Tests of this file that ran (none when `-t` picks only other files' tests). */
  let corridas = 0;
  const entorno = (): Entorno => {
    if (!env) throw new Error('el entorno no ha arrancado');
    return env;
  };

  beforeAll(async () => {
    env = await arrancar(opts.viewport, { enDisco: opts.enDisco });
  }, 120_000);

  beforeEach(async () => {
    const context = estrenado ? await entorno().perfilNuevo() : entorno().context;
    estrenado = true;
    corridas++;
    politicas.length = 0;
    if (opts.politicas) await vigilarPoliticas(context, politicas);
  });

  // A flow that trips the app's CSP (or an unknown Permissions-Policy feature) fails, even if it looks fine.
  if (opts.politicas) {
    afterEach(() => {
      expect(politicas.splice(0)).toEqual([]);
    });
  }

  // Every flow of the file has run against this server, whose every log line is checked.
  afterAll(async () => {
    if (!env) return;
    try {
      if (corridas > 0) expect(await env.fugas(), 'wrote no secret to the server’s log: no password, session, key, webhook secret or one-time link').toEqual([]);
    } finally {
      await env.close();
    }
  });

  const api = (cuenta: Cuenta): Api => {
    return <T>(method: string, path: string, body?: unknown) => {
      if (!cuenta.clave) throw new Error('la cuenta no tiene clave de API (cuentaNueva con `clave`)');
      return llamarApi<T>(entorno(), cuenta.clave, method, path, body);
    };
  };

  return {
    get env() {
      return entorno();
    },
    politicas,
    api,
    async sesion(o = {}) {
      const e = entorno();
      const cuenta = await cuentaNueva(e, o);
      const page = await e.context.newPage();
      await entrar(e, page, cuenta);
      if (o.ruta) await page.goto(`${e.url}${o.ruta}`);
      return { page, cuenta, api: api(cuenta) };
    },
  };
}

/**
 * Every page of the context reports Content-Security-Policy violations (the
 * `securitypolicyviolation` event also fires for a violation a script catches,
 * such as an eval probe) and Chromium's own console lines about the policies.
 */
async function vigilarPoliticas(context: BrowserContext, vistas: string[]): Promise<void> {
  await context.addInitScript(() => {
    addEventListener('securitypolicyviolation', (e) => {
      console.error(`[csp] ${e.effectiveDirective} bloqueó ${e.blockedURI || '(en línea)'} en ${e.sourceFile}:${e.lineNumber}`);
    });
  });
  context.on('console', (m) => {
    if (/^\[csp\]|Refused to|Content[- ]Security[- ]Policy|Permissions-Policy/i.test(m.text())) vistas.push(`${m.page()?.url() ?? '?'}: ${m.text()}`);
  });
}

/** The numbers of the account's DeCAs on the server (not archived), sorted. */
/** A complete DeCA as the API takes it (issued unless `emitir: false`). */
export const decaCompleta = (cambios: Record<string, unknown> = {}) => ({
  cargador_nombre: 'Envíos Norte, S.A.',
  cargador_nif: 'A58818501',
  cargador_domicilio: 'Calle Mayor 1, Burgos',
  fecha_transporte: new Date().toISOString().slice(0, 10),
  matricula: '3434 CCC',
  envios: [{ origen: 'Burgos', destino: 'Bilbao', naturaleza: 'Palés de madera', peso: '8.000' }],
  ...cambios,
});

export async function numerosEnServidor(api: Api): Promise<string[]> {
  const r = await api<{ decas: { numero: string }[] }>('GET', '/decas?limite=100&archivado=false');
  return r.decas.map((d) => d.numero).sort();
}

/** A new DeCA typed in the form (one page, desktop), up to «Lista para emitir». */
export async function rellenarDeca(p: Page, datos: { cargador: string; matricula: string; origen: string; destino: string }): Promise<void> {
  await p.click('a[href="/decas/nueva"]');
  await p.fill('#f-cargador_nombre', datos.cargador);
  await p.fill('#f-cargador_nif', 'B12345674');
  await p.fill('#f-cargador_domicilio', 'Calle Mayor 1, Madrid');
  await p.fill('#f-matricula', datos.matricula);
  await p.fill('#f-envios_0__origen', datos.origen);
  await p.fill('#f-envios_0__destino', datos.destino);
  await p.fill('#f-envios_0__naturaleza', 'Palés de fruta');
  await p.fill('#f-envios_0__peso', '24.500');
  await p.getByText('Lista para emitir.').waitFor();
}

/** The detail page's heading once the server number has arrived. */
export async function esperarNumero(p: Page): Promise<string> {
  const h1 = p.locator('h1', { hasText: /DeCA \d{4}-\d{6}/ });
  await h1.waitFor({ timeout: 20_000 });
  return /(\d{4}-\d{6})/.exec((await h1.textContent()) ?? '')![1]!;
}

/** The bytes behind the «Descargar PDF» link, as the user gets them. */
export async function descargarPdfBytes(p: Page): Promise<Buffer> {
  const [descarga] = await Promise.all([p.waitForEvent('download'), p.getByRole('link', { name: 'Descargar PDF' }).click()]);
  return readFileSync((await descarga.path())!);
}

/** The PDF behind the «Descargar PDF» link (a blob: URL of the stored bytes), as the user gets it. */
export async function descargarPdf(p: Page): Promise<{ nombre: string; inicio: string; bytes: number }> {
  const [descarga] = await Promise.all([p.waitForEvent('download'), p.getByRole('link', { name: 'Descargar PDF' }).click()]);
  const b = readFileSync((await descarga.path())!);
  return { nombre: descarga.suggestedFilename(), inicio: b.subarray(0, 5).toString('latin1'), bytes: b.length };
}

/** A URL of the site (SITE_URL) on this test server. */
export function enEsteServidor(env: Entorno, url: string): string {
  const u = new URL(url);
  return `${env.url}${u.pathname}${u.search}`;
}

/** How many DeCAs have their PDF and QR kept on the device (the signed-in user's production database, read directly). */
export function documentosEnDispositivo(p: Page): Promise<number> {
  return p.evaluate(async () => {
    const nombre = (await indexedDB.databases()).map((d) => d.name).find((n) => n?.startsWith('deca-u') && n.endsWith('-produccion'));
    if (!nombre) return 0;
    const db = await new Promise<IDBDatabase>((ok, mal) => {
      const r = indexedDB.open(nombre);
      r.onsuccess = () => ok(r.result);
      r.onerror = () => mal(r.error);
    });
    try {
      if (!db.objectStoreNames.contains('documentos')) return 0;
      return await new Promise<number>((ok, mal) => {
        const r = db.transaction('documentos').objectStore('documentos').count();
        r.onsuccess = () => ok(r.result);
        r.onerror = () => mal(r.error);
      });
    } finally {
      db.close();
    }
  });
}

/**
 * The rows of one store of the device's database (the signed-in user's
 * production one, read directly), each with only the fields named: what the
 * app keeps, as its sync engine reads it.
 */
export function filasEnDispositivo<T extends object>(p: Page, almacen: string, campos: readonly (keyof T & string)[]): Promise<T[]> {
  return p.evaluate(
    async ([almacen, campos]) => {
      const nombre = (await indexedDB.databases()).find((d) => d.name?.endsWith('-produccion'))!.name!;
      const db = await new Promise<IDBDatabase>((ok, mal) => {
        const r = indexedDB.open(nombre);
        r.onsuccess = () => ok(r.result);
        r.onerror = () => mal(r.error);
      });
      try {
        return await new Promise<Record<string, unknown>[]>((ok) => {
          const r = db.transaction(almacen).objectStore(almacen).getAll();
          r.onsuccess = () => ok((r.result as Record<string, unknown>[]).map((fila) => Object.fromEntries(campos.map((c) => [c, fila[c]]))));
        });
      } finally {
        db.close();
      }
    },
    [almacen, campos as readonly string[]] as const,
  ) as Promise<T[]>;
}

/**
 * The app closed and the network back, with the service worker's
 * registration found: the returned function fires the queue's Background
 * Sync event, as the browser does when it wakes the worker.
 */
export async function sincronizacionEnSegundoPlano(env: Entorno, page: Page): Promise<() => Promise<void>> {
  await page.goto('about:blank');
  await env.context.setOffline(false);
  const cdp = await env.context.newCDPSession(page);
  onTestFinished(() => cdp.detach().catch(() => {}));
  const registro = new Promise<{ registrationId: string }>((resolve) => {
    cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }: { registrations: { registrationId: string; scopeURL: string; isDeleted: boolean }[] }) => {
      const r = registrations.find((x) => x.scopeURL.startsWith(env.url) && !x.isDeleted);
      if (r) resolve(r);
    });
  });
  await cdp.send('ServiceWorker.enable');
  const { registrationId } = await registro;
  return async () => {
    await cdp.send('ServiceWorker.dispatchSyncEvent', { origin: new URL(env.url).origin, registrationId, tag: 'deca-cola', lastChance: false });
  };
}
