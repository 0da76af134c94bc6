import { z } from './zod';

/** POST /fotos answer: a DeCA input to review before POST /decas, nothing created. */
export const FotoLeida = z.object({
  propuesta: z.record(z.string(), z.unknown()).meta({ description: 'Datos de DeCA leídos, listos para POST /decas tras revisarlos' }),
  confianza: z.record(z.string(), z.number().min(0).max(1)).meta({ description: 'Confianza de cada campo leído (envíos como envios[0].peso)' }),
  texto: z.string().meta({ description: 'El texto reconocido' }),
  avisos: z.array(z.string()),
});
export type FotoLeida = z.infer<typeof FotoLeida>;

/** POST /fotos as JSON, and the MCP tool leer_albaran: the photo in base64 (its bytes are checked by the server). */
export const FotoBase64Input = z.object({
  imagen_base64: z.string().meta({ description: 'La foto (JPEG, PNG, WebP o HEIC, hasta 2 MB) en base64, con o sin el prefijo data:image/…;base64,' }),
});
