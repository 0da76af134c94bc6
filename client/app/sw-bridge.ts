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

/** Set once this device has shown an issued DeCA: from then on its copies for the road must stay. */
const K_EMITIDA = 'deca-copias-camino';

/**
 * Ask the browser not to evict our data (outbox, documents for the road)
 * under storage pressure: once there is something for the road, i.e. after
 * the first issued DeCA (`primera`), and at each start after that (a browser
 * that refused may grant it later, installed or more used).
 */
export async function pedirPersistencia(primera = false): Promise<boolean> {
  if (primera) localStorage.setItem(K_EMITIDA, '1');
  else if (!localStorage.getItem(K_EMITIDA)) return false;
  if (!navigator.storage?.persist) return false;
  if (await navigator.storage.persisted()) return true;
  return navigator.storage.persist();
}

/** The browser's offer to install the app (Chromium's `beforeinstallprompt`), kept for the app to make when it helps. */
export interface OfertaInstalar extends Event {
  prompt(): Promise<void>;
  userChoice: Promise<{ outcome: 'accepted' | 'dismissed' }>;
}
export const ofertaInstalar = store<OfertaInstalar | null>(null);

/** Keep the install offer instead of the browser's own bar: the app offers it after the first issued DeCA. */
export function vigilarInstalacion(): void {
  addEventListener('beforeinstallprompt', (e) => {
    e.preventDefault();
    ofertaInstalar.set(e as OfertaInstalar);
  });
  addEventListener('appinstalled', () => ofertaInstalar.set(null));
}
