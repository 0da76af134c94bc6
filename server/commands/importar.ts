import { AppError } from '../../shared/errors';
import { DecaListQuery } from '../../shared/schemas/deca';
import { type Importacion, ImportarQuery } from '../../shared/schemas/importar';
import { z } from '../../shared/schemas/zod';
import type { Plan } from '../domain/context';
import { lineasCsv } from '../domain/decas/exportar';
import { importarCsv } from '../domain/decas/importar';
import { command, ejecutar } from './command';
import { crearDecaCommand } from './decas';

export const importarCsvCommand = command({
  nombre: 'importar_csv',
  descripcion:
    'Importa DeCA desde un CSV (una fila por envío; las filas con la misma ref_externa o referencia son una DeCA; hasta 500 DeCA y 24.001 filas con la cabecera). Con validar solo comprueba (errores y avisos de cada DeCA, los mismos que POST /decas); reimportar el mismo archivo no duplica y otro archivo sin referencias se importa: la clave de cada DeCA sale de su contenido (y de la Idempotency-Key de la subida, si se envía).',
  acceso: 'escritura',
  permiso: 'importar',
  entrada: ImportarQuery.extend({ archivo: z.instanceof(Uint8Array, { error: 'Envíe el CSV' }) }),
  // Only composes another command: each DeCA of the file goes through the create command (its checks, its one transaction, its idempotency), so this opens none.
  componer: (ctx, { archivo, ...q }): Promise<Importacion> =>
    importarCsv(
      ctx.quien,
      archivo,
      q,
      async (importador, cuerpo, clave) => {
        const r = await ejecutar(ctx, crearDecaCommand, importador, cuerpo, { clave });
        if (r.valor.tipo !== 'creada') throw new AppError('validacion', 'La fila no se ha guardado.');
        return { deca: r.valor.deca, avisos: r.valor.avisos, nueva: r.valor.nueva && !r.repetida };
      },
      ctx.idempotencyKey,
    ),
});

export const exportarCsvCommand = command({
  nombre: 'exportar_csv',
  descripcion: 'Las DeCA del listado (mismos filtros) en CSV con las columnas de la importación, una fila por envío.',
  acceso: 'lectura',
  permiso: 'importar',
  entrada: DecaListQuery.omit({ limite: true, despues_de: true }),
  // Only reads: the lines are produced as the answer is streamed.
  preparar: async (ctx, filtros): Promise<Plan<AsyncGenerator<string>>> => ({ valor: lineasCsv(ctx, ctx.quien, filtros) }),
});
