import { createHash } from 'node:crypto';
import { z } from '../../shared/schemas/zod';
import { conservarFoto, type FotoGuardada } from '../domain/fotos/conservar';
import { leerFoto } from '../domain/fotos/leer';
import { command } from './command';

export const leerAlbaranCommand = command({
  nombre: 'leer_albaran',
  descripcion:
    'Lee la foto de un albarán, pedido o carta de porte y devuelve los datos de una DeCA para revisar (partes con NIF, fecha, matrículas, lugares, mercancía y pesos, cada uno con su confianza). No crea nada; gasta una lectura de fotos del mes.',
  acceso: 'escritura',
  entrada: z.object({ foto: z.instanceof(Uint8Array, { error: 'Envíe la foto' }) }),
  // A photo sent again with the same Idempotency-Key (a phone that lost the answer) gets the same
  // reading and spends no second read.
  idempotencia: {
    // The stored answer is the first request's, byte for byte (its foto_id included: no second photo is kept).
    repetir: async (_ctx, anterior) => anterior.respuesta as FotoGuardada,
    resumen: (crudo) => {
      const foto = (crudo as { foto?: unknown } | null)?.foto;
      return foto instanceof Uint8Array ? createHash('sha256').update(foto).digest('hex') : null;
    },
  },
  // The reading is prepared outside any transaction, and the photo kept in the blob store once it was read; the read is
  // spent, the photo's row written and the reading recorded under the key, in ejecutar's.
  preparar: async (ctx, { foto }) => conservarFoto(ctx, ctx.quien, foto, await leerFoto(ctx, ctx.quien, foto)),
});
