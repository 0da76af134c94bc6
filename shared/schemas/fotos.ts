import { FOTO_MAXIMA } from '../rules/fotos';
import { DIAS_FOTO_SIN_DECA } from '../rules/privacidad';
import { z } from './zod';

/** POST /fotos answer: a DeCA input to review before POST /decas, nothing created. */
export const FotoLeida = z.object({
  propuesta: z.record(z.string(), z.unknown()).meta({ description: 'Datos de DeCA leídos, listos para POST /decas tras revisarlos' }),
  confianza: z.record(z.string(), z.number().min(0).max(1)).meta({ description: 'Confianza de cada campo leído (envíos como envios[0].peso)' }),
  texto: z.string().meta({ description: 'El texto reconocido' }),
  zonas: z.record(z.string(), z.array(z.array(z.number().min(0).max(1)).length(2)).length(4)).meta({
    description:
      'Dónde se leyó cada campo en la foto (mismas claves que confianza): las cuatro esquinas de la línea, en fracciones del ancho y el alto de la foto tal como se ve (orientación EXIF aplicada), en el orden arriba-izquierda, arriba-derecha, abajo-derecha, abajo-izquierda',
  }),
  avisos: z.array(z.string()),
  foto_id: z
    .number()
    .int()
    .positive()
    .meta({
      description: `La foto, guardada tal como llegó: envíe este id como foto_id al crear la DeCA (POST /decas) y la foto queda con ella (GET /decas/{id}/foto). Si no se hace ninguna DeCA con ella, se borra a los ${DIAS_FOTO_SIN_DECA} días`,
    }),
});
export type FotoLeida = z.infer<typeof FotoLeida>;

/** Spec: a photo of at most 2 MB as a file (FOTO_MAXIMA, shared/rules/fotos.ts) and about 6 MB as base64 (its encoding, plus room for a `data:` prefix and line breaks). */
export const BASE64_MAXIMO = Math.ceil((FOTO_MAXIMA * 4) / 3) + 64 * 1024;

/** POST /fotos as JSON, and the MCP tool leer_albaran: the photo in base64 (its bytes and length are checked by the server, middleware/subida.ts). */
export const FotoBase64Input = z.object({
  imagen_base64: z.string().meta({ maxLength: BASE64_MAXIMO, description: 'La foto (JPEG, PNG, WebP o HEIC, hasta 2 MB) en base64, con o sin el prefijo data:image/…;base64,' }),
});
