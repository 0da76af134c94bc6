/** The Background Sync tag under which the service worker drains the outbox. */
export const ETIQUETA_COLA = 'deca-cola';

interface ConSync {
  sync?: { register(tag: string): Promise<void> };
}

/**
 * Ask the browser to wake the service worker when there is network, so
 * queued changes go even if the app is closed by then (Background Sync,
 * where the browser has it; elsewhere the page's own triggers do the work).
 */
export async function pedirEnvioEnSegundoPlano(): Promise<boolean> {
  try {
    const reg = (await navigator.serviceWorker?.getRegistration()) as (ServiceWorkerRegistration & ConSync) | undefined;
    if (!reg?.sync) return false;
    await reg.sync.register(ETIQUETA_COLA);
    return true;
  } catch {
    return false; // permission denied or not supported: the page keeps draining on its own
  }
}
