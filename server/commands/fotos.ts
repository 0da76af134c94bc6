import { z } from '../../shared/schemas/zod';
import { leerFoto, type FotoLeida } from '../domain/fotos/leer';
import { command } from './command';

export const leerAlbaran = command({
  nombre: 'leer_albaran',
  descripcion:
    'Lee la foto de un albarán, pedido o carta de porte y devuelve los datos de una DeCA para revisar (partes con NIF, fecha, matrículas, lugares, mercancía y pesos, cada uno con su confianza). No crea nada; gasta una lectura de fotos del mes.',
  acceso: 'escritura',
  entrada: z.object({ foto: z.instanceof(Uint8Array, { error: 'Envíe la foto' }) }),
  run: (ctx, { foto }): Promise<FotoLeida> => leerFoto(ctx, ctx.quien, foto),
});
