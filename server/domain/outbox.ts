import type { Transaction } from 'kysely';
import type { Evento } from '../../shared/schemas/webhook';
import type { DB } from '../db/schema';
import type { Actor } from './actor';
import { encolarEntregas } from './webhooks/encolar';

// The event names live in the shared webhook schema (subscriptions are validated against them).
export { EVENTOS, type Evento } from '../../shared/schemas/webhook';

/**
 * Record a domain event in the same transaction as the change that caused it
 * (transactional outbox): committed together or not at all, delivered later
 * by the webhook worker. The event's deliveries (one per subscribed webhook)
 * are written here too, in the same transaction.
 */
export async function enqueueEvento(
  trx: Transaction<DB>,
  scope: Pick<Actor, 'accountId' | 'entorno'>,
  evento: Evento,
  decaId: number | null,
  data: unknown,
  now: Date,
): Promise<void> {
  const row = await trx
    .insertInto('eventos')
    .values({ account_id: scope.accountId, entorno: scope.entorno, evento, deca_id: decaId, data: JSON.stringify(data), created_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  await encolarEntregas(trx, scope, { eventoId: row.id, evento, decaId, data, now });
}
