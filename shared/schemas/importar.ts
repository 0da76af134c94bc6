import { Aviso } from '../errors';
import { z } from './zod';

/** Query of POST /importar. */
const bandera = z.enum(['0', '1', 'true', 'false']).transform((v) => v === '1' || v === 'true');
export const ImportarQuery = z.object({
  validar: bandera.default(false).meta({ description: '1: solo comprueba el archivo (errores y avisos de cada DeCA); no guarda nada' }),
  emitir: bandera.default(true).meta({ description: '0: las DeCA quedan pendientes' }),
  todo_o_nada: bandera.default(false).meta({ description: '1: si alguna DeCA tiene errores no se guarda ninguna' }),
});
export type ImportarQuery = z.output<typeof ImportarQuery>;

export const ErrorCsv = z.object({
  linea: z.number().int().meta({ description: 'Línea del archivo (la cabecera es la 1)' }),
  columna: z.string().nullable(),
  mensaje: z.string(),
});
export type ErrorCsv = z.infer<typeof ErrorCsv>;

export const ResultadoImportacion = z.object({
  lineas: z.array(z.number().int()),
  ref_externa: z.string().nullable(),
  referencia: z.string().nullable(),
  resultado: z.enum(['creada', 'repetida', 'valida', 'error', 'no_guardada']).meta({
    description: 'creada; repetida (ya importada: no se crea otra); valida (con validar=1); error; no_guardada (todo_o_nada y otra DeCA falló)',
  }),
  id: z.number().int().nullable(),
  numero: z.string().nullable(),
  estado: z.string().nullable(),
  errores: z.array(ErrorCsv),
  avisos: z.array(Aviso).meta({
    description:
      'Los de POST /decas para los mismos datos, también con validar=1 (p. ej. un NIF con la letra de control mal), y al importar una ref_externa ya importada con otros datos (no se cambia)',
  }),
});
export type ResultadoImportacion = z.infer<typeof ResultadoImportacion>;

export const Importacion = z.object({
  validar: z.boolean(),
  creados: z.number().int(),
  repetidos: z.number().int(),
  errores: z.number().int().meta({ description: 'DeCA con errores' }),
  decas: z.array(ResultadoImportacion),
});
export type Importacion = z.infer<typeof Importacion>;
