import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { startServerProcess, type ServerProcess } from '../support/processes';

/** Debian's Chromium (never a downloaded browser), with the flags that work on these machines. */
export const CHROMIUM = process.env.CHROME_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

export interface Entorno {
  server: ServerProcess;
  url: string;
  context: BrowserContext;
  close(): Promise<void>;
}

/**
 * The real server as a child process on a fresh DATA_DIR (embedded PGlite),
 * and a persistent Chromium profile on a fresh directory (service workers and
 * installability need a non-incognito profile).
 */
export async function arrancar(viewport = { width: 1280, height: 900 }): Promise<Entorno> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'deca-e2e-data-'));
  const profile = mkdtempSync(path.join(os.tmpdir(), 'deca-e2e-chromium-'));
  const server = await startServerProcess({ DATA_DIR: dataDir, HOST: '127.0.0.1' });
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    args: CHROMIUM_ARGS,
    viewport,
    locale: 'es-ES',
    timezoneId: 'Europe/Madrid',
    serviceWorkers: 'allow',
  });
  return {
    server,
    url: server.url,
    context,
    async close() {
      await context.close().catch(() => {});
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Wait until the service worker controls the page (the shell is then precached). */
export async function esperarServiceWorker(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
    if (!navigator.serviceWorker.controller) {
      await new Promise<void>((r) => navigator.serviceWorker.addEventListener('controllerchange', () => r(), { once: true }));
    }
  });
}

/** Bytes behind an <a href> (a blob: URL of the stored PDF), read inside the page. */
export async function leerEnlace(page: Page, selector: string): Promise<{ tipo: string; inicio: string; bytes: number }> {
  return page.$eval(selector, async (a) => {
    const r = await fetch((a as HTMLAnchorElement).href);
    const b = new Uint8Array(await r.arrayBuffer());
    return { tipo: r.headers.get('content-type') ?? '', inicio: String.fromCharCode(...b.slice(0, 5)), bytes: b.length };
  });
}
