import { sql } from 'kysely';
import { porTurnos } from '../../por-turnos';
import type { DomainContext } from '../context';

/** Blobs looked at per batch by default (`blobs:gc --lote`). */
export const LOTE_BARRIDO = 1000;
/**
 * Blobs younger than this are never deleted: a change writes its PDF before
 * its transaction, so a blob that no row names yet may be one whose row is
 * about to be committed. No transaction lives a day.
 */
export const MARGEN_HUERFANOS_HORAS = 24;
/** Deletions at a time (an S3 DELETE waits mostly on the network). */
const A_LA_VEZ = 4;

/** One batch of `borrarPdfsHuerfanos`. */
export interface LoteDeBarrido {
  /** Blobs listed in this batch. */
  revisados: number;
  /** Of those, deleted: older than the margin and named by no version. */
  borrados: number;
  /** Their size. */
  bytes: number;
  /** Where the next batch starts (`despues`: the last SHA-256 listed); null once the store's end was reached. */
  siguiente: string | null;
}

/**
 * Delete the PDF blobs no version names, one page of the store at a time in
 * key order: those left by a change that failed after writing its PDF (a
 * conflict that prepared the change again, a lost connection, a crash
 * before the commit). A blob is kept if any `deca_versiones` row has its
 * SHA-256 — moved out or still in the row, any account — or if it is
 * younger than `margenHoras`. Looked up by `deca_versiones_sha256_idx`, one
 * statement per page. Safe to interrupt and to run again.
 */
export async function borrarPdfsHuerfanos(ctx: Pick<DomainContext, 'db' | 'blobs' | 'clock'>, opts: { lote?: number; despues?: string | null; margenHoras?: number } = {}): Promise<LoteDeBarrido> {
  const lote = opts.lote ?? LOTE_BARRIDO;
  const limite = ctx.clock.now().getTime() - (opts.margenHoras ?? MARGEN_HUERFANOS_HORAS) * 3_600_000;
  const pagina = await ctx.blobs.listar({ despues: opts.despues ?? null, limite: lote });
  const viejos = pagina.filter((b) => b.escrito.getTime() < limite);
  let nombrados = new Set<string>();
  if (viejos.length) {
    const { rows } = await sql<{ pdf_sha256: string }>`
      select distinct pdf_sha256 from deca_versiones where pdf_sha256 = any(${viejos.map((b) => b.sha256)}::text[])`.execute(ctx.db);
    nombrados = new Set(rows.map((r) => r.pdf_sha256));
  }
  const huerfanos = viejos.filter((b) => !nombrados.has(b.sha256));
  let borrados = 0;
  let bytes = 0;
  await porTurnos(huerfanos, A_LA_VEZ, async (b) => {
    await ctx.blobs.borrar(b.sha256);
    borrados++;
    bytes += b.bytes;
  });
  return { revisados: pagina.length, borrados, bytes, siguiente: pagina.length === lote ? pagina.at(-1)!.sha256 : null };
}
