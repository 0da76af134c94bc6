/**
 * What the DeCA PDF prints, already resolved from the database row: plain
 * strings and numbers only, so it survives `postMessage` to a worker thread
 * unchanged and the renderer never needs the database, the clock or the config.
 */

import type { UnidadCantidad } from '../rules/peso';

/**
 * The most a seal's CMS may take (the certificate and its chain; ~1.3 KB
 * with our own certificate, a few KB with a qualified one): a PDF rendered
 * without knowing the seal reserves this, as twice as many hex digits.
 */
export const CAPACIDAD_SELLO = 8192;

/** Units a shipment's quantity can be expressed in ('kg' | 't' | 'm3' | 'l' | 'palets' | 'bultos' | 'unidades' | 'contenedores'). */
export type DecaPdfUnidad = UnidadCantidad;

/** One row of the shipments table. */
export interface DecaPdfEnvio {
  origen: string;
  destino: string;
  naturaleza: string;
  /** Quantity in `unidad`; printed in Spanish format (24.500,5). */
  peso: number;
  unidad: DecaPdfUnidad;
  nota: string | null;
  /**
   * The consignee (eFTI extension): kept with what the version printed, so
   * its eFTI dataset says it, but not printed. Absent in versions issued
   * before it existed.
   */
  destinatario_nombre?: string | null;
  destinatario_nif?: string | null;
}

/**
 * What the eFTI dataset takes and the PDF does not print: the parties'
 * addresses in parts and the plates' countries (docs/efti.md). Absent in
 * versions issued before they existed.
 */
export interface DecaPdfEfti {
  cargador_cp?: string | null;
  cargador_municipio?: string | null;
  cargador_provincia?: string | null;
  cargador_pais?: string | null;
  transp_cp?: string | null;
  transp_municipio?: string | null;
  transp_provincia?: string | null;
  transp_pais?: string | null;
  matricula_pais?: string | null;
  remolque_pais?: string | null;
}

/** Everything one version of a DeCA prints, and the eFTI data kept with it. */
export interface DecaPdfData extends DecaPdfEfti {
  /**
   * The environment the DeCA belongs to: one of the test environment
   * ('pruebas') carries «DOCUMENTO DE PRUEBA — SIN VALIDEZ» across every page
   * and in its title, since its number has the same shape as a real one.
   */
  entorno: 'produccion' | 'pruebas';
  /** 'YYYY-NNNNNN'. */
  numero: string;
  /** From 1; each method-1 change prints a new version. */
  version: number;
  estado: 'pendiente' | 'emitido' | 'sustituido';
  cargador_nombre: string;
  cargador_nif: string;
  cargador_domicilio: string;
  transp_nombre: string;
  transp_nif: string;
  /** Printed as «no consta» when null. */
  transp_domicilio: string | null;
  /** 'YYYY-MM-DD'. */
  fecha_transporte: string;
  tipo_vehiculo: 'rigido' | 'articulado' | null;
  matricula: string;
  matricula_remolque: string | null;
  autorizacion_especial: string | null;
  /** The driver's phone is deliberately not part of the document: the paper travels with the lorry. */
  conductor_nombre: string | null;
  observaciones: string | null;
  referencia: string | null;
  /** 1..48 rows; the table continues on further pages as needed. */
  envios: DecaPdfEnvio[];
  /** 'YYYY-MM-DD HH:MM:SS', Europe/Madrid wall time. */
  emitido_at: string;
  /** 'YYYY-MM-DD HH:MM:SS', Europe/Madrid; set when version > 1. */
  modificado_at: string | null;
  /** Reason of the last method-1 change. */
  motivo_modificacion: string | null;
  /** Número of the DeCA this one replaces. */
  sustituye_a: string | null;
  /** Public URL the QR code points to. */
  ficha_url: string;
}
