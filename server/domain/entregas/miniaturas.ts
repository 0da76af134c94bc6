import sharp from 'sharp';
import { AppError } from '../../../shared/errors';
import type { JustificantePdfFoto } from '../../../shared/pdf/justificante-pdf';

/** Long side, in px, of a photo's thumbnail on the receipt (56 mm at ~200 dpi). */
const LADO_MINIATURA = 440;

/**
 * A delivery photo's thumbnail for its receipt: turned as the phone held it
 * (EXIF), shrunk, sRGB JPEG. A photo sharp cannot read is refused here (422
 * on its field), before anything is kept.
 */
export async function miniatura(jpeg: Uint8Array, i: number): Promise<JustificantePdfFoto> {
  try {
    const { data, info } = await sharp(jpeg, { failOn: 'error' })
      .rotate()
      .resize(LADO_MINIATURA, LADO_MINIATURA, { fit: 'inside', withoutEnlargement: true })
      .toColourspace('srgb')
      .jpeg({ quality: 72 })
      .toBuffer({ resolveWithObject: true });
    return { jpeg: new Uint8Array(data), ancho: info.width, alto: info.height };
  } catch {
    throw new AppError('validacion', `La foto ${i + 1} de la entrega no se puede leer como JPEG.`, { campos: { [`fotos[${i}]`]: 'No se puede leer como JPEG' } });
  }
}
