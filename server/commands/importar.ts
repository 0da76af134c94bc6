import { DecaListQuery } from '../../shared/schemas/deca';
import { ImportarQuery, type Importacion } from '../../shared/schemas/importar';
import { z } from '../../shared/schemas/zod';
import { lineasCsv } from '../domain/decas/exportar';
import { importarCsv as importar } from '../domain/decas/importar';
import { command } from './command';

export const importarCsv = command({
  nombre: 'importar_csv',
  descripcion:
    'Importa DeCA desde un CSV (una fila por envío; las filas con la misma ref_externa o referencia son una DeCA; hasta 500 DeCA y 24.001 filas con la cabecera). Con validar solo comprueba; reimportar el mismo archivo no duplica.',
  acceso: 'escritura',
  permiso: 'importar',
  entrada: ImportarQuery.extend({ archivo: z.instanceof(Uint8Array, { error: 'Envíe el CSV' }) }),
  run: (ctx, { archivo, ...q }): Promise<Importacion> => importar(ctx, ctx.quien, archivo, q),
});

export const exportarCsv = command({
  nombre: 'exportar_csv',
  descripcion: 'Las DeCA del listado (mismos filtros) en CSV con las columnas de la importación, una fila por envío.',
  acceso: 'lectura',
  permiso: 'importar',
  entrada: DecaListQuery.omit({ limite: true, despues_de: true }),
  run: async (ctx, filtros): Promise<AsyncGenerator<string>> => lineasCsv(ctx, ctx.quien, filtros),
});
