import sharp from 'sharp';
import { AppError } from '../../../shared/errors';
import type { JustificantePdfFoto } from '../../../shared/pdf/justificante-pdf';
import { rutaFirma, type TrazoFirma } from '../../../shared/rules/trazo-firma';
import type { Firma } from '../../../shared/schemas/entrega';

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

/** Width, in px, of a signature's PNG: a finger's line at print resolution for a 10 cm box. */
const ANCHO_FIRMA_PNG = 800;

/**
 * A signature's strokes as a PNG on a transparent background, drawn with the
 * same smoothed path as the phone's pad and the receipt (shared/rules/trazo-firma),
 * in the proportions it was signed in.
 */
export async function firmaPng(firma: Firma): Promise<Uint8Array> {
  const ancho = ANCHO_FIRMA_PNG;
  const alto = Math.max(80, Math.min(4000, Math.round(ancho / firma.proporcion)));
  const grosor = Math.max(3, Math.round(Math.min(ancho, alto) / 90));
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${ancho}" height="${alto}" viewBox="0 0 ${ancho} ${alto}"><path d="${rutaFirma(firma.trazos as TrazoFirma[], ancho, alto)}" fill="none" stroke="#000" stroke-width="${grosor}" stroke-linecap="round" stroke-linejoin="round"/></svg>`;
  return new Uint8Array(await sharp(Buffer.from(svg)).png({ compressionLevel: 9 }).toBuffer());
}
