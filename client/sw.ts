/// <reference lib="webworker" />
import { clientsClaim, setCacheNameDetails } from 'workbox-core';
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { RUTA_DEL_SERVIDOR } from '../shared/rutas-servidor';
import { ETIQUETA_COLA } from './data/cola-fondo';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: Array<{ url: string; revision: string | null }> };

// Versioned cache names: a change of scheme gets a fresh cache, and the old one is dropped below.
setCacheNameDetails({ prefix: 'deca', suffix: 'v1' });

// ── Caching: the app shell (HTML, JS, CSS of every screen) is precached, so the app starts with no network.
cleanupOutdatedCaches();
precacheAndRoute(self.__WB_MANIFEST);

// Client routes (deep links such as /decas/2026-000012) open offline: every navigation gets the shell,
// except the server's own pages and APIs (shared/rutas-servidor.ts: the one list the server and the router use too).
registerRoute(
  new NavigationRoute(createHandlerBoundToURL('/index.html'), {
    denylist: [RUTA_DEL_SERVIDOR],
  }),
);

// ── Lifecycle: a new version waits until the page accepts the «update available» prompt.
self.addEventListener('message', (event) => {
  if ((event.data as { type?: string } | null)?.type === 'SKIP_WAITING') void self.skipWaiting();
});
// The first install controls the open page at once (no reload needed to work offline).
clientsClaim();

// ── Background Sync: the queue of changes made with no coverage moves when the network comes back,
// even with the app closed. The same engine as the page, under the same Web Lock, so never both at once.
interface SyncEvent extends ExtendableEvent {
  readonly tag: string;
  readonly lastChance: boolean;
}
self.addEventListener('sync', ((event: SyncEvent) => {
  if (event.tag === ETIQUETA_COLA) event.waitUntil(vaciarColas(event.lastChance));
}) as EventListener);

/** Drain every user's queue on this device; fail (so the browser tries again later) while work still waits for time. */
async function vaciarColas(ultimaVez: boolean): Promise<void> {
  const [{ openDecaDb }, { createApi }, { SyncEngine }] = await Promise.all([import('./data/db'), import('./data/api'), import('./data/sync')]);
  const nombres = (await indexedDB.databases()).flatMap((d) => {
    const m = d.name ? /^deca-u\d+-(produccion|pruebas)$/.exec(d.name) : null;
    return m ? [{ nombre: d.name!, entorno: m[1] as 'produccion' | 'pruebas' }] : [];
  });
  let esperan = false;
  for (const { nombre, entorno } of nombres) {
    const db = openDecaDb(nombre);
    try {
      const r = await new SyncEngine({ db, api: createApi(entorno), isOnline: () => true }).drain();
      if (r.ocupado || r.estado.fase === 'esperando' || r.estado.fase === 'sin-conexion') esperan = true;
    } finally {
      db.close();
    }
  }
  if (esperan && !ultimaVez) throw new Error('Quedan cambios por enviar: se reintentará.');
}
