import { createHash } from 'node:crypto';
import { formatMadrid } from '../../../shared/rules/fechas';
import type { DecaDatos } from '../../../shared/schemas/deca';
import type { DecaPdfData } from '../../documents/deca-pdf-data';
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

export interface MetaVersion {
  numero: string;
  version: number;
  tokenPublico: string;
  emitidoAt: Date;
  /** Time of this version's method-1 change (null for version 1). */
  modificadoAt: Date | null;
  motivo: string | null;
  sustituyeA: string | null;
}

/**
 * What one version prints. Only called for data that passed the
 * ready-to-issue rules, so the required fields are present.
 */
export function datosPdf(siteUrl: string, d: DecaDatos, meta: MetaVersion): DecaPdfData {
  const req = (v: string | null, campo: string): string => {
    if (v === null) throw new Error(`datosPdf: falta ${campo} en una DeCA que se emite`);
    return v;
  };
  return {
    numero: meta.numero,
    version: meta.version,
    estado: 'emitido',
    cargador_nombre: req(d.cargador_nombre, 'cargador_nombre'),
    cargador_nif: req(d.cargador_nif, 'cargador_nif'),
    cargador_domicilio: req(d.cargador_domicilio, 'cargador_domicilio'),
    transp_nombre: req(d.transp_nombre, 'transp_nombre'),
    transp_nif: req(d.transp_nif, 'transp_nif'),
    transp_domicilio: d.transp_domicilio,
    fecha_transporte: req(d.fecha_transporte, 'fecha_transporte'),
    tipo_vehiculo: d.tipo_vehiculo,
    matricula: req(d.matricula, 'matricula'),
    matricula_remolque: d.matricula_remolque,
    autorizacion_especial: d.autorizacion_especial,
    conductor_nombre: d.conductor_nombre,
    observaciones: d.observaciones,
    referencia: d.referencia,
    envios: d.envios.map((e) => ({
      origen: req(e.origen, 'origen'),
      destino: req(e.destino, 'destino'),
      naturaleza: req(e.naturaleza, 'naturaleza'),
      peso: e.peso ?? 0,
      unidad: e.unidad,
      nota: e.nota,
    })),
    emitido_at: formatMadrid(meta.emitidoAt),
    modificado_at: meta.modificadoAt ? formatMadrid(meta.modificadoAt) : null,
    motivo_modificacion: meta.motivo,
    sustituye_a: meta.sustituyeA,
    ficha_url: fichaUrl(siteUrl, meta.tokenPublico),
  };
}

/** Render a version's PDF (in the worker pool) and describe its bytes. */
export async function renderVersion(render: DecaPdfRenderer, siteUrl: string, d: DecaDatos, meta: MetaVersion): Promise<PdfVersion> {
  const data = datosPdf(siteUrl, d, meta);
  const pdf = await render(data);
  return { version: meta.version, pdf, sha256: createHash('sha256').update(pdf).digest('hex'), bytes: pdf.byteLength, datosPdf: data };
}
