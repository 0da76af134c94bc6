/**
 * What one version of a DeCA prints, from its normalised data: the server
 * when it issues, the app when it issues with no coverage. One function, so
 * both render the same bytes from the same data.
 */
import { formatMadrid } from '../rules/fechas';
import type { DecaDatos } from '../schemas/deca';
import type { DecaPdfData } from './deca-pdf-data';

export interface MetaVersion {
  /** The DeCA's environment: a test one is marked as such on every page. */
  entorno: 'produccion' | 'pruebas';
  numero: string;
  version: number;
  emitidoAt: Date;
  /** Time of this version's method-1 change (null for version 1). */
  modificadoAt: Date | null;
  motivo: string | null;
  sustituyeA: string | null;
  /** What the QR holds: the ficha URL (with the device's signed summary for a DeCA issued with no coverage). */
  qrUrl: string;
}

/** Only called for data that passed the ready-to-issue rules, so the required fields are present. */
export function datosPdf(d: DecaDatos, meta: MetaVersion): DecaPdfData {
  const req = (v: string | null, campo: string): string => {
    if (v === null) throw new Error(`datosPdf: falta ${campo} en una DeCA que se emite`);
    return v;
  };
  return {
    entorno: meta.entorno,
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
    cargador_cp: d.cargador_cp,
    cargador_municipio: d.cargador_municipio,
    cargador_provincia: d.cargador_provincia,
    cargador_pais: d.cargador_pais,
    transp_cp: d.transp_cp,
    transp_municipio: d.transp_municipio,
    transp_provincia: d.transp_provincia,
    transp_pais: d.transp_pais,
    matricula_pais: d.matricula_pais,
    remolque_pais: d.remolque_pais,
    envios: d.envios.map((e) => ({
      origen: req(e.origen, 'origen'),
      destino: req(e.destino, 'destino'),
      naturaleza: req(e.naturaleza, 'naturaleza'),
      peso: e.peso ?? 0,
      unidad: e.unidad,
      nota: e.nota,
      destinatario_nombre: e.destinatario_nombre ?? null,
      destinatario_nif: e.destinatario_nif ?? null,
    })),
    emitido_at: formatMadrid(meta.emitidoAt),
    modificado_at: meta.modificadoAt ? formatMadrid(meta.modificadoAt) : null,
    motivo_modificacion: meta.motivo,
    sustituye_a: meta.sustituyeA,
    ficha_url: meta.qrUrl,
  };
}
