import { store } from './store';

/** Set when a new version is installed and waiting: calling it activates the new version and reloads. */
export const actualizacion = store<(() => void) | null>(null);

/**
 * The one place the page talks to the service worker (one bridge per
 * worker). workbox-window is loaded after the first paint: it is not needed
 * to show the first screen.
 */
export async function registrarSw(): Promise<void> {
  if (!('serviceWorker' in navigator) || import.meta.env.DEV) return;
  const { Workbox } = await import('workbox-window');
  const wb = new Workbox('/sw.js', { scope: '/' });
  const reg = await wb.register();
  if (!reg) return;
  /** Offer a new version that is installed and waiting; accepting activates it and reloads once. */
  const ofrecer = (nuevo: ServiceWorker) => {
    actualizacion.set(() => {
      navigator.serviceWorker.addEventListener('controllerchange', () => location.reload(), { once: true });
      nuevo.postMessage({ type: 'SKIP_WAITING' });
    });
  };
  // Watched on the registration itself, not through workbox-window's own events: those skip an
  // update found by another tab or by the browser's periodic check, and one already waiting at load.
  const vigilar = (nuevo: ServiceWorker | null) =>
    nuevo?.addEventListener('statechange', () => {
      if (nuevo.state === 'installed' && navigator.serviceWorker.controller) ofrecer(nuevo);
    });
  if (reg.waiting && navigator.serviceWorker.controller) ofrecer(reg.waiting);
  vigilar(reg.installing); // an update may already be installing when this module loads
  reg.addEventListener('updatefound', () => vigilar(reg.installing));
  // Look for a new version when the app comes back to the foreground.
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') void wb.update();
  });
}

/** Ask the browser not to evict our data (outbox, documents for the road) under storage pressure. */
export async function pedirPersistencia(): Promise<boolean> {
  if (!navigator.storage?.persist) return false;
  if (await navigator.storage.persisted()) return true;
  return navigator.storage.persist();
}
