import type { Transaction } from 'kysely';
import { isoMadrid } from '../../../shared/rules/fechas';
import type { Entorno } from '../../../shared/schemas/cuenta';
import type { EventoEntrega } from '../../../shared/schemas/webhook';
import { notificar } from '../../db/notify';
import type { DB } from '../../db/schema';
import { randomToken } from '../accounts/tokens';
import type { Actor } from '../actor';

/** A fresh delivery id: `ev_` + 144 random bits (X-Deca-Entrega and the body's id). */
export function nuevoEntregaId(): string {
  return `ev_${randomToken(18)}`;
}

/** The JSON body of a delivery (spec: Events, «Body shape»), serialised once and sent byte for byte on every attempt. */
export function cuerpoEntrega(p: { id: string; evento: EventoEntrega; creadoAt: Date; entorno: Entorno; data: unknown }): string {
  return JSON.stringify({ id: p.id, evento: p.evento, creado_at: isoMadrid(p.creadoAt), entorno: p.entorno, data: p.data });
}

/**
 * Fan-out at event time: one delivery row per (event, subscribed active
 * webhook), written in the transaction that writes the events, so a crash
 * after commit loses nothing. `destinos` come in the order to deliver.
 * Wakes the workers once this commits.
 */
export async function encolarEntregas(
  trx: Transaction<DB>,
  scope: Pick<Actor, 'accountId' | 'entorno'>,
  destinos: readonly { eventoId: number | null; evento: EventoEntrega; webhookId: number }[],
  ev: { decaId: number | null; data: unknown; now: Date },
): Promise<void> {
  if (destinos.length === 0) return;
  await trx
    .insertInto('webhook_entregas')
    .values(
      destinos.map((d) => {
        const id = nuevoEntregaId();
        return {
          account_id: scope.accountId,
          entorno: scope.entorno,
          webhook_id: d.webhookId,
          entrega_id: id,
          evento_id: d.eventoId,
          evento: d.evento,
          deca_id: ev.decaId,
          cuerpo: cuerpoEntrega({ id, evento: d.evento, creadoAt: ev.now, entorno: scope.entorno, data: ev.data }),
          estado: 'pendiente' as const,
          proximo_intento_at: ev.now,
          created_at: ev.now,
        };
      }),
    )
    .execute();
  await notificar(trx, 'entregas');
}
