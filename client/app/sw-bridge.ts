import { store } from './store';

/** Set when a new version is installed and waiting: calling it activates the new version and reloads. */
export const actualizacion = store<(() => void) | null>(null);

/**
 * The one place the page talks to the service worker (STYLE: one bridge per
 * worker). workbox-window is loaded after the first paint: it is not needed
 * to show the first screen.
 */
export async function registrarSw(): Promise<void> {
  if (!('serviceWorker' in navigator) || import.meta.env.DEV) return;
  const { Workbox } = await import('workbox-window');
  const wb = new Workbox('/sw.js', { scope: '/' });
  wb.addEventListener('waiting', () => {
    actualizacion.set(() => {
      wb.addEventListener('controlling', () => location.reload());
      wb.messageSkipWaiting();
    });
  });
  await wb.register();
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
