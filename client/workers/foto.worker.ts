/**
 * Shrinks a photo off the main thread before it is stored or sent: the
 * camera's 12-megapixel picture becomes a JPEG of at most 1800 px on its long
 * side (what the server's reader uses; a 4 MB photo becomes ~300 KB), turned
 * as the camera held it.
 */
import { expose } from 'comlink';
import { LADO_MAXIMO } from '../../shared/rules/fotos';

/** `lado`: the long side to shrink to (a delivery note's photo for the reader by default; a delivery's photos are smaller). */
async function reducir(foto: Blob, lado = LADO_MAXIMO): Promise<Blob> {
  const bmp = await createImageBitmap(foto, { imageOrientation: 'from-image' });
  try {
    const escala = Math.min(1, lado / Math.max(bmp.width, bmp.height));
    const canvas = new OffscreenCanvas(Math.round(bmp.width * escala), Math.round(bmp.height * escala));
    const g = canvas.getContext('2d');
    if (!g) throw new Error('Este navegador no puede reducir la foto.');
    g.drawImage(bmp, 0, 0, canvas.width, canvas.height);
    return await canvas.convertToBlob({ type: 'image/jpeg', quality: 0.85 });
  } finally {
    bmp.close();
  }
}

const api = { reducir };
export type FotoWorker = typeof api;
expose(api);
