import { store } from './store';

/** Set when a new version is installed and waiting: calling it activates the new version and reloads. */
export const actualizacion = store<(() => void) | null>(null);

/**
 * The one place the page talks to the service worker (one bridge per
 * worker). It registers once the page has loaded (the first screen's own
 * requests go first) and watches the registration itself: the browser's API
 * is all this needs, so no library comes with the first screen for it.
 */
export async function registrarSw(): Promise<void> {
  if (!('serviceWorker' in navigator) || import.meta.env.DEV) return;
  if (document.readyState !== 'complete') await new Promise((r) => addEventListener('load', r, { once: true }));
  const reg = await navigator.serviceWorker.register('/sw.js', { scope: '/' });
  /** Offer a new version that is installed and waiting; accepting activates it and reloads once. */
  const ofrecer = (nuevo: ServiceWorker) => {
    actualizacion.set(() => {
      navigator.serviceWorker.addEventListener('controllerchange', () => location.reload(), { once: true });
      nuevo.postMessage({ type: 'SKIP_WAITING' });
    });
  };
  // Every way a new version arrives: found by this page, by another tab or by the browser's periodic
  // check, or already waiting at load.
  const vigilar = (nuevo: ServiceWorker | null) =>
    nuevo?.addEventListener('statechange', () => {
      if (nuevo.state === 'installed' && navigator.serviceWorker.controller) ofrecer(nuevo);
    });
  if (reg.waiting && navigator.serviceWorker.controller) ofrecer(reg.waiting);
  vigilar(reg.installing); // an update may already be installing when the registration resolves
  reg.addEventListener('updatefound', () => vigilar(reg.installing));
  // Look for a new version when the app comes back to the foreground (with no network, at the next return).
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') reg.update().catch(() => {});
  });
}

/** Ask the browser not to evict our data (outbox, documents for the road) under storage pressure. */
export async function pedirPersistencia(): Promise<boolean> {
  if (!navigator.storage?.persist) return false;
  if (await navigator.storage.persisted()) return true;
  return navigator.storage.persist();
}
