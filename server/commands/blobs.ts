import { z } from '../../shared/schemas/zod';
import type { Plan } from '../domain/context';
import { LOTE_PDFS, type LoteDePdfs, moverPdfsAlAlmacen } from '../domain/decas/pdfs-al-almacen';
import { borrarPdfsHuerfanos, LOTE_BARRIDO, type LoteDeBarrido, MARGEN_HUERFANOS_HORAS } from '../domain/decas/pdfs-huerfanos';
import { command } from './command';

export type { LoteDeBarrido, LoteDePdfs };

/**
 * `blobs:migrate`: one batch of the PDF bytes still in the database moved to
 * the blob store (BLOB_URL). The CLI repeats it, passing `siguiente` as
 * `--despues`, until none is left, printing the progress; each batch is
 * short, so through a running server's admin socket no call holds it long.
 * Its writes are its own (each blob, then one statement), not a plan's: safe
 * to interrupt and to run again.
 */
export const moverPdfsCommand = command({
  nombre: 'blobs:migrate',
  descripcion: 'Saca de la base de datos al almacén de documentos (BLOB_URL) los PDF de las versiones anteriores a él, por lotes.',
  acceso: 'operador',
  entrada: z.object({
    lote: z.coerce.number().int('Debe ser un número entero').min(1, 'Al menos 1').max(1000, 'Como mucho 1000').default(LOTE_PDFS),
    despues: z.string().max(100).optional(),
  }),
  // Its writes are its own, made while preparing (as a create takes its number): nothing is left for the plan's transaction.
  preparar: async (ctx, f): Promise<Plan<LoteDePdfs>> => ({ valor: await moverPdfsAlAlmacen(ctx, { lote: f.lote, despues: f.despues ?? null }) }),
});

/**
 * `blobs:gc`: one page of the blob store swept of the PDFs no version names
 * (left by changes that failed after writing them). The CLI repeats it,
 * passing `siguiente` as `--despues`, to the store's end, printing the progress.
 */
export const borrarHuerfanosCommand = command({
  nombre: 'blobs:gc',
  descripcion: 'Borra del almacén de documentos los PDF que ninguna versión nombra (de cambios que fallaron tras escribirlos), por lotes.',
  acceso: 'operador',
  entrada: z.object({
    lote: z.coerce.number().int('Debe ser un número entero').min(1, 'Al menos 1').max(1000, 'Como mucho 1000').default(LOTE_BARRIDO),
    despues: z
      .string()
      .regex(/^[0-9a-f]{64}$/, 'Use el valor «siguiente» del lote anterior')
      .optional(),
    margen_horas: z.coerce.number().int('Debe ser un número entero').min(1, 'Al menos 1 hora').max(8760, 'Como mucho un año').default(MARGEN_HUERFANOS_HORAS),
  }),
  // Its deletions are its own, each blob at a time: nothing is left for the plan's transaction.
  preparar: async (ctx, f): Promise<Plan<LoteDeBarrido>> => ({
    valor: await borrarPdfsHuerfanos(ctx, { lote: f.lote, despues: f.despues ?? null, margenHoras: f.margen_horas }),
  }),
});
