import { formatMadrid } from '../../../shared/rules/fechas';
import type { Cambio, Deca, DecaRef } from '../../../shared/schemas/deca';
import { envioCompleto } from '../../../shared/schemas/envio';
import type { CambioLeido } from '../decas/listar';
import type { DecaConRefs } from '../decas/queries';
import { decaUrls, fichaUrl } from '../decas/urls';
import { fechaHora } from './cuenta';

function ref(siteUrl: string, id: number | null, numero: string | null, token: string | null): DecaRef | null {
  return id !== null && numero && token ? { id, numero, ficha: fichaUrl(siteUrl, token) } : null;
}

/** The document's own data (Orden FOM/2861/2012 art. 6) as every door shows it: the parties, the transport, the shipments. */
export function datosDelDocumento(row: DecaConRefs) {
  return {
    cargador_nombre: row.cargador_nombre,
    cargador_nif: row.cargador_nif,
    cargador_domicilio: row.cargador_domicilio,
    transp_nombre: row.transp_nombre,
    transp_nif: row.transp_nif,
    transp_domicilio: row.transp_domicilio,
    fecha_transporte: row.fecha_transporte,
    tipo_vehiculo: row.tipo_vehiculo,
    matricula: row.matricula,
    matricula_remolque: row.matricula_remolque,
    autorizacion_especial: row.autorizacion_especial,
    conductor_nombre: row.conductor_nombre,
    observaciones: row.observaciones,
    referencia: row.referencia,
    envios: row.envios.map(envioCompleto),
  };
}

/** The eFTI extensions (docs/efti.md): the parties' addresses in parts and the plates' countries; the PDF does not print them. */
export function datosEfti(row: DecaConRefs) {
  return {
    cargador_cp: row.cargador_cp,
    cargador_municipio: row.cargador_municipio,
    cargador_provincia: row.cargador_provincia,
    cargador_pais: row.cargador_pais,
    transp_cp: row.transp_cp,
    transp_municipio: row.transp_municipio,
    transp_provincia: row.transp_provincia,
    transp_pais: row.transp_pais,
    matricula_pais: row.matricula_pais,
    remolque_pais: row.remolque_pais,
  };
}

/** The DeCA as the API, the MCP tools and the webhooks show it: whitelisted fields only (no tokens, no owner). */
export function presentDeca(row: DecaConRefs, siteUrl: string): Deca {
  return {
    id: row.id,
    numero: row.numero,
    estado: row.estado,
    version: row.version,
    ref_externa: row.ref_externa,
    emisor_rol: row.emisor_rol,
    canal: row.canal,
    ...datosDelDocumento(row),
    ...datosEfti(row),
    conductor_tel: row.conductor_tel,
    urls: decaUrls(siteUrl, row),
    pdf_sha256: row.pdf_sha256,
    pdf_bytes: row.pdf_bytes,
    emitido_at: fechaHora(row.emitido_at),
    modificado_at: formatMadrid(row.modificado_at),
    created_at: formatMadrid(row.created_at),
    fin_servicio_at: fechaHora(row.fin_servicio_at),
    sustituye_a: ref(siteUrl, row.sustituye_a_id, row.sa_numero, row.sa_token),
    sustituido_por: ref(siteUrl, row.sustituido_por_id, row.sp_numero, row.sp_token),
    archivado: row.archivado,
    descargas: row.descargas,
    emision_offline: row.recibida_at && row.emitido_at ? { dispositivo: row.dispositivo_nombre ?? '', emitida_at: formatMadrid(row.emitido_at), recibida_at: formatMadrid(row.recibida_at) } : null,
  };
}

/** One history entry. */
export function presentCambio(row: CambioLeido): Cambio {
  return {
    version: row.version,
    tipo: row.tipo,
    motivo: row.motivo,
    autor: { tipo: row.autor_tipo, id: row.autor_id, nombre: row.autor_nombre },
    canal: row.canal,
    created_at: formatMadrid(row.created_at),
    campos: row.campos,
  };
}
