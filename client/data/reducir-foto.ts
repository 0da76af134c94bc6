/**
 * The photo as the server wants it, shrunk in a comlink worker so the screen
 * never stutters. Apart from client/data/fotos.ts so that the form, which
 * only reads proposals, does not load the worker's wiring.
 */
import { wrap } from 'comlink';
import { FOTO_MAXIMA } from '../../shared/rules/fotos';
import type { FotoWorker } from '../workers/foto.worker';

let trabajador: ReturnType<typeof wrap<FotoWorker>> | null = null;

/** At most 1800 px, JPEG. */
export async function reducirFoto(foto: Blob): Promise<Blob> {
  try {
    trabajador ??= wrap<FotoWorker>(new Worker(new URL('../workers/foto.worker.ts', import.meta.url), { type: 'module' }));
    // A worker that never loaded would never answer: the photo does not wait for it forever.
    const plazo = new Promise<never>((_, mal) => setTimeout(() => mal(new Error('sin respuesta')), 20_000));
    return await Promise.race([trabajador.reducir(foto), plazo]);
  } catch {
    // A format this browser cannot draw (HEIC outside Safari): the server may still read it.
    if (foto.size <= FOTO_MAXIMA) return foto;
    throw new Error('No se ha podido reducir esta foto y pasa de 2 MB: hágala de nuevo con la cámara de la aplicación.');
  }
}
