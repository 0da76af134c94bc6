import { sql, type Transaction } from 'kysely';
import { isoMadrid } from '../../../shared/rules/fechas';
import type { Entorno } from '../../../shared/schemas/cuenta';
import type { EventoEntrega } from '../../../shared/schemas/webhook';
import type { DB } from '../../db/schema';
import { randomToken } from '../accounts/tokens';
import type { Actor } from '../actor';

/**
 * Channel the worker LISTENs on. The schema is part of it so servers (or
 * test files) sharing one PostgreSQL cluster in different schemas never wake
 * each other; the writer and the listener both take it from current_schema().
 */
export const CANAL_ENTREGAS = 'deca_webhooks_';

/** A fresh delivery id: `ev_` + 144 random bits (X-Deca-Entrega and the body's id). */
export function nuevoEntregaId(): string {
  return `ev_${randomToken(18)}`;
}

/** The JSON body of a delivery (spec: Events, «Body shape»), serialised once and sent byte for byte on every attempt. */
export function cuerpoEntrega(p: { id: string; evento: EventoEntrega; creadoAt: Date; entorno: Entorno; data: unknown }): string {
  return JSON.stringify({ id: p.id, evento: p.evento, creado_at: isoMadrid(p.creadoAt), entorno: p.entorno, data: p.data });
}

/** Wake the webhook workers once this transaction commits (NOTIFY is transactional: a rollback sends nothing). */
export async function notificarEntregas(trx: Transaction<DB>): Promise<void> {
  await sql`select pg_notify(${CANAL_ENTREGAS} || current_schema(), '')`.execute(trx);
}

/**
 * Fan-out at event time: one delivery row per active webhook of the account
 * and environment subscribed to `evento` (or to "*"), in the transaction that
 * writes the event. A paused webhook gets nothing; a crash after commit loses
 * nothing, since the rows are already there. Returns how many were written.
 */
export async function encolarEntregas(
  trx: Transaction<DB>,
  scope: Pick<Actor, 'accountId' | 'entorno'>,
  ev: { eventoId: number; evento: EventoEntrega; decaId: number | null; data: unknown; now: Date },
): Promise<number> {
  const hooks = await trx
    .selectFrom('webhooks')
    .select('id')
    .where('account_id', '=', scope.accountId)
    .where('entorno', '=', scope.entorno)
    .where('activo', '=', true)
    .where(sql<boolean>`(eventos @> '["*"]'::jsonb or eventos @> jsonb_build_array(${ev.evento}::text))`)
    .orderBy('id')
    .execute();
  if (hooks.length === 0) return 0;
  await trx
    .insertInto('webhook_entregas')
    .values(
      hooks.map((h) => {
        const id = nuevoEntregaId();
        return {
          account_id: scope.accountId,
          entorno: scope.entorno,
          webhook_id: h.id,
          entrega_id: id,
          evento_id: ev.eventoId,
          evento: ev.evento,
          deca_id: ev.decaId,
          cuerpo: cuerpoEntrega({ id, evento: ev.evento, creadoAt: ev.now, entorno: scope.entorno, data: ev.data }),
          estado: 'pendiente' as const,
          proximo_intento_at: ev.now,
          created_at: ev.now,
        };
      }),
    )
    .execute();
  await notificarEntregas(trx);
  return hooks.length;
}
