/**
 * The photo as the server wants it, shrunk in a comlink worker so the screen
 * never stutters. Apart from client/data/fotos.ts so that the form, which
 * only reads proposals, does not load the worker's wiring.
 */
import { wrap } from 'comlink';
import { FOTO_MAXIMA } from '../../shared/rules/fotos';
import type { FotoWorker } from '../workers/foto.worker';

let trabajador: ReturnType<typeof wrap<FotoWorker>> | null = null;

/** At most 1800 px (or `opts.lado`), JPEG; a photo the browser cannot draw passes as it is if it weighs no more than `opts.maximo` (2 MB). */
export async function reducirFoto(foto: Blob, opts: { lado?: number; maximo?: number } = {}): Promise<Blob> {
  const maximo = opts.maximo ?? FOTO_MAXIMA;
  try {
    trabajador ??= wrap<FotoWorker>(new Worker(new URL('../workers/foto.worker.ts', import.meta.url), { type: 'module' }));
    // A worker that never loaded would never answer: the photo does not wait for it forever.
    const plazo = new Promise<never>((_, mal) => setTimeout(() => mal(new Error('sin respuesta')), 20_000));
    return await Promise.race([trabajador.reducir(foto, opts.lado), plazo]);
  } catch {
    // A format this browser cannot draw (HEIC outside Safari): the server may still read it.
    if (foto.size <= maximo) return foto;
    throw new Error(`No se ha podido reducir esta foto y pasa de ${Math.round(maximo / 1024 / 1024)} MB: hágala de nuevo con la cámara de la aplicación.`);
  }
}
