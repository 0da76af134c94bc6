import type { Aviso, Campos } from '../../../shared/errors';
import type { AutenticidadVista, CompletarVista, DecaPublica, EntregaPublica, FichaPublica, JustificantePublico, PasoCompletar, UltimoCambio } from '../../../shared/schemas/publico';
import type { DecaConRefs } from '../decas/queries';
import { decaUrls, fichaUrl } from '../decas/urls';
import type { Autenticidad } from '../publico/autenticidad';
import { camposEditables, filasEnvio, ladoOtro } from '../publico/completar';
import { datosDelDocumento } from './deca';

/**
 * A DeCA as its public pages show it: the document's data without the
 * driver's phone, its state and links; no ids, no owner, no tokens but those
 * inside its public URLs.
 */
export function presentDecaPublica(row: DecaConRefs, siteUrl: string): DecaPublica {
  return {
    numero: row.numero,
    entorno: row.entorno,
    estado: row.estado,
    version: row.version,
    urls: decaUrls(siteUrl, row),
    ...datosDelDocumento(row),
    envios: row.envios.map(({ destinatario_nombre: _n, destinatario_nif: _f, ...e }) => e),
    pdf_sha256: row.pdf_sha256,
    emitido_at: row.emitido_at,
    fin_servicio_at: row.fin_servicio_at,
    emision_offline: row.recibida_at ? { dispositivo: row.dispositivo_nombre, recibida_at: row.recibida_at } : null,
    sustituye_a: row.sa_numero,
    sustituida_por: row.sp_token && row.sp_numero ? { numero: row.sp_numero, ficha: fichaUrl(siteUrl, row.sp_token) } : null,
  };
}

/** The inspector's and the driver's page of a DeCA. */
export function presentFicha(row: DecaConRefs, ultimo: UltimoCambio | null, siteUrl: string, entregas: EntregaPublica[]): FichaPublica {
  return { deca: presentDecaPublica(row, siteUrl), ultimo, entregas };
}

/** The authenticity check's answer, with the DeCA the file belongs to as it stands now. */
export function presentAutenticidad(a: Autenticidad, siteUrl: string, justificante: JustificantePublico | null = null): AutenticidadVista {
  const e = a.encontrada;
  return {
    sha256: a.sha256,
    justificante,
    encontrada: e ? { deca: presentDecaPublica(e.row, siteUrl), version: e.version, entorno: e.entorno, emitida_at: e.emitida_at } : null,
  };
}

/** A completion link whose DeCA was issued already: only its number and its public page. */
export function presentYaEmitida(row: DecaConRefs, siteUrl: string): Extract<PasoCompletar, { tipo: 'ya_emitida' }> {
  return { tipo: 'ya_emitida', numero: row.numero, ficha: fichaUrl(siteUrl, row.token_publico) };
}

/** The first page of a completion link: who asks, and for which side's data. */
export function presentCompletarInicio(row: DecaConRefs, solicitante: string, siteUrl: string): Extract<PasoCompletar, { tipo: 'inicio' }> {
  return { tipo: 'inicio', deca: presentDecaPublica(row, siteUrl), solicitante, lado: ladoOtro(row) };
}

/** What a step of the completion form decided, before the DeCA is presented. */
export interface PasoFormulario {
  valores: Record<string, string>;
  errores: Campos;
  avisos: Aviso[];
  confirmar?: string;
  rechazados?: string[];
  aviso?: string;
  /** Empty shipment rows to add below the filled ones («Añadir otro envío»). */
  filasExtra?: number;
}

/**
 * The completion form as it stands: the other party's fields with their
 * values, errors and warnings, as many shipment rows as the values, the DeCA
 * or the person asked for (one at least), and the rest of the DeCA.
 */
export function presentCompletarFormulario(row: DecaConRefs, solicitante: string, siteUrl: string, paso: PasoFormulario): { tipo: 'formulario' } & CompletarVista {
  const { filasExtra, ...resto } = paso;
  return {
    tipo: 'formulario',
    deca: presentDecaPublica(row, siteUrl),
    solicitante,
    editables: camposEditables(row),
    filas: Math.max(filasEnvio(paso.valores), row.envios.length, 1) + (filasExtra ?? 0),
    ...resto,
  };
}
