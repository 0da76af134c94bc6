import { sql, type Transaction } from 'kysely';
import type { Evento } from '../../shared/schemas/webhook';
import type { DB } from '../db/schema';
import type { Actor } from './actor';
import { encolarEntregas } from './webhooks/encolar';

/** Events of a change, to be written in its transaction (by the command layer, after `aplicar`). */
export interface EventosNuevos {
  scope: Pick<Actor, 'accountId' | 'entorno'>;
  eventos: readonly Evento[];
  decaId: number | null;
  data: unknown;
  now: Date;
}

/** Write the events a change returned, in order, in its transaction. */
export async function escribirEventos(trx: Transaction<DB>, lista: readonly EventosNuevos[]): Promise<void> {
  for (const e of lista) await enqueueEventos(trx, e.scope, e.eventos, e.decaId, e.data, e.now);
}

// The event names live in the shared webhook schema (subscriptions are validated against them).
export { EVENTOS, type Evento } from '../../shared/schemas/webhook';

/**
 * Record domain events in the same transaction as the change that caused
 * them (transactional outbox): committed together or not at all, delivered
 * later by the webhook worker. One statement writes the events and finds
 * the active webhooks subscribed to each; only when there are some is a
 * second one needed, for their deliveries (one per event and webhook, in the
 * order the events happened).
 */
export async function enqueueEventos(trx: Transaction<DB>, scope: Pick<Actor, 'accountId' | 'entorno'>, eventos: readonly Evento[], decaId: number | null, data: unknown, now: Date): Promise<void> {
  if (eventos.length === 0) return;
  const json = JSON.stringify(data);
  const destinos = await trx
    .with('ev', (db) =>
      db
        .insertInto('eventos')
        .values(eventos.map((evento) => ({ account_id: scope.accountId, entorno: scope.entorno, evento, deca_id: decaId, data: json, created_at: now })))
        .returning(['id', 'evento']),
    )
    .selectFrom('ev')
    .innerJoin('webhooks as w', (join) =>
      join
        .on('w.account_id', '=', scope.accountId)
        .on('w.entorno', '=', scope.entorno)
        .on('w.activo', '=', true)
        .on(sql<boolean>`(w.eventos @> '["*"]'::jsonb or w.eventos @> jsonb_build_array(ev.evento))`),
    )
    .select(['ev.id as evento_id', 'ev.evento', 'w.id as webhook_id'])
    .orderBy('ev.id')
    .orderBy('w.id')
    .execute();
  if (destinos.length === 0) return;
  await encolarEntregas(
    trx,
    scope,
    destinos.map((d) => ({ eventoId: d.evento_id, evento: d.evento as Evento, webhookId: d.webhook_id })),
    { decaId, data, now },
  );
}
