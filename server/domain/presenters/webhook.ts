import { formatMadrid } from '../../../shared/rules/fechas';
import type { Entrega, EventoEntrega, IntentoEntrega, Webhook } from '../../../shared/schemas/webhook';
import type { WebhookIntentoRow, WebhookRow } from '../../db/schema';
import type { EntregaConIntentos } from '../webhooks/entregas';
import { fechaHora } from './cuenta';

/** A webhook as listed: never its secret, only a recognisable prefix. */
export function presentWebhook(row: WebhookRow): Webhook {
  return {
    id: row.id,
    url: row.url,
    eventos: row.eventos,
    descripcion: row.descripcion,
    activo: row.activo,
    pausa_motivo: row.pausa_motivo,
    pausado_at: fechaHora(row.pausado_at),
    fallando_desde: fechaHora(row.fallando_desde),
    secreto_prefijo: `${row.secreto.slice(0, 10)}…`,
    created_at: formatMadrid(row.created_at),
  };
}

function presentIntento(row: WebhookIntentoRow): IntentoEntrega {
  return {
    numero: row.numero,
    at: formatMadrid(row.at),
    status: row.status,
    error: row.error,
    duracion_ms: row.duracion_ms,
    proximo_intento_at: fechaHora(row.proximo_intento_at),
    manual: row.manual,
  };
}

/**
 * The DeCA's number as the delivery's body carries it (`data.deca.numero`): a
 * number never changes, and the body is there even when the DeCA is gone (a
 * pending one deleted), so no read of the DeCA is needed.
 */
function numeroEnCuerpo(cuerpo: string): string | null {
  try {
    const n = (JSON.parse(cuerpo) as { data?: { deca?: { numero?: unknown } } }).data?.deca?.numero;
    return typeof n === 'string' ? n : null;
  } catch {
    return null;
  }
}

/** One delivery: its latest result at the top, every attempt below (the receiver's answer body is never kept). */
export function presentEntrega({ entrega: e, intentos }: EntregaConIntentos): Entrega {
  return {
    id: e.entrega_id,
    evento: e.evento as EventoEntrega,
    deca_id: e.deca_id,
    deca_numero: numeroEnCuerpo(e.cuerpo),
    creado_at: formatMadrid(e.created_at),
    estado: e.estado,
    intento: e.intentos,
    ultimo_intento_at: fechaHora(e.ultimo_intento_at),
    status: e.ultimo_status,
    error: e.ultimo_error,
    duracion_ms: e.ultima_duracion_ms,
    proximo_intento_at: e.estado === 'pendiente' ? fechaHora(e.proximo_intento_at) : null,
    intentos: intentos.map(presentIntento),
  };
}
