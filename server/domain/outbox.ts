import type { Transaction } from 'kysely';
import type { DB } from '../db/schema';
import type { Actor } from './actor';

export const EVENTOS = [
  'deca.creado',
  'deca.emitido',
  'deca.modificado',
  'deca.sustituido',
  'deca.completado',
  'deca.fin_servicio',
  'deca.descargado',
] as const;
export type Evento = (typeof EVENTOS)[number];

/**
 * Record a domain event in the same transaction as the change that caused it
 * (transactional outbox): committed together or not at all, delivered later
 * by the webhook worker.
 */
export async function enqueueEvento(
  trx: Transaction<DB>,
  scope: Pick<Actor, 'accountId' | 'entorno'>,
  evento: Evento,
  decaId: number | null,
  data: unknown,
  now: Date,
): Promise<void> {
  await trx
    .insertInto('eventos')
    .values({ account_id: scope.accountId, entorno: scope.entorno, evento, deca_id: decaId, data: JSON.stringify(data), created_at: now })
    .execute();
}
