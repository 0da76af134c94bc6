import { createHash } from 'node:crypto';
import { datosPdf, type MetaVersion as MetaPdf } from '../../../shared/pdf/datos-pdf';
import type { DecaPdfData } from '../../../shared/pdf/deca-pdf-data';
import { conResumen } from '../../../shared/rules/resumen-offline';
import type { DecaDatos } from '../../../shared/schemas/deca';
import { errorAlGuardar } from '../../blobs/almacen';
import type { DomainContext } from '../context';
import { fichaUrl } from './urls';

/** A rendered version whose bytes are already in the blob store: its row keeps their hash, size and key. */
export interface PdfVersion {
  version: number;
  pdf: Uint8Array;
  sha256: string;
  bytes: number;
  /** The blob's key in the store (`pdf/ab/<sha256>`). */
  clave: string;
  datosPdf: DecaPdfData;
}

export interface MetaVersion extends Omit<MetaPdf, 'qrUrl'> {
  tokenPublico: string;
  /** The `o` parameter a device signed for a DeCA it issued with no coverage: its QR keeps it. */
  resumenOffline?: string;
}

/**
 * Render a version's PDF (in the worker pool) and write it to the blob
 * store, in the change's `preparar`, before the transaction that inserts
 * the version's row: a row never names a blob that is not there. A change
 * that then fails leaves its blob unreferenced, until `blobs:gc`
 * (pdfs-huerfanos.ts) sweeps it a day later.
 */
export async function renderVersion(ctx: Pick<DomainContext, 'renderPdf' | 'siteUrl' | 'blobs'>, d: DecaDatos, meta: MetaVersion): Promise<PdfVersion> {
  const ficha = fichaUrl(ctx.siteUrl, meta.tokenPublico);
  const data = datosPdf(d, { ...meta, qrUrl: meta.resumenOffline ? conResumen(ficha, meta.resumenOffline) : ficha });
  const pdf = await ctx.renderPdf(data);
  const sha256 = createHash('sha256').update(pdf).digest('hex');
  const clave = await ctx.blobs.guardar(sha256, pdf).catch((err: unknown) => {
    throw errorAlGuardar(err, `el PDF de la DeCA ${meta.numero}`);
  });
  return { version: meta.version, pdf, sha256, bytes: pdf.byteLength, clave, datosPdf: data };
}
