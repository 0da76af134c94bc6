import { createHash } from 'node:crypto';
import { datosPdf, type MetaVersion as MetaPdf } from '../../../shared/pdf/datos-pdf';
import type { DecaPdfData } from '../../../shared/pdf/deca-pdf-data';
import { conResumen } from '../../../shared/rules/resumen-offline';
import type { DecaDatos } from '../../../shared/schemas/deca';
import type { DecaPdfRenderer } from '../../documents/pdf-pool';
import { fichaUrl } from './urls';

/** A rendered version, ready to store. */
export interface PdfVersion {
  version: number;
  pdf: Uint8Array;
  sha256: string;
  bytes: number;
  datosPdf: DecaPdfData;
}

export interface MetaVersion extends Omit<MetaPdf, 'qrUrl'> {
  tokenPublico: string;
  /** The `o` parameter a device signed for a DeCA it issued with no coverage: its QR keeps it. */
  resumenOffline?: string;
}

/** Render a version's PDF (in the worker pool) and describe its bytes. */
export async function renderVersion(render: DecaPdfRenderer, siteUrl: string, d: DecaDatos, meta: MetaVersion): Promise<PdfVersion> {
  const ficha = fichaUrl(siteUrl, meta.tokenPublico);
  const data = datosPdf(d, { ...meta, qrUrl: meta.resumenOffline ? conResumen(ficha, meta.resumenOffline) : ficha });
  const pdf = await render(data);
  return { version: meta.version, pdf, sha256: createHash('sha256').update(pdf).digest('hex'), bytes: pdf.byteLength, datosPdf: data };
}
