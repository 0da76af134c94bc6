import { sql, type Transaction } from 'kysely';
import type { Evento } from '../../shared/schemas/webhook';
import type { DB } from '../db/schema';
import type { Actor } from './actor';
import { type Parte, unaSentencia } from './sentencia';
import { entregasDeEventos } from './webhooks/encolar';

/** Events of a change, to be written in its transaction (by the command layer, after `aplicar`). */
export interface EventosNuevos {
  scope: Pick<Actor, 'accountId' | 'entorno'>;
  eventos: readonly Evento[];
  decaId: number | null;
  data: unknown;
  now: Date;
}

// The event names live in the shared webhook schema (subscriptions are validated against them).
export { EVENTOS, type Evento } from '../../shared/schemas/webhook';

/**
 * Domain events as parts of the change's last statement (transactional
 * outbox): committed with the change or not at all, delivered later by the
 * webhook worker. Per group, one CTE writes the events and another fans them
 * out to the active webhooks subscribed to each (one delivery per event and
 * webhook, in the order the events happened), waking the workers once it
 * commits: no statement of their own, however many webhooks there are.
 */
export function partesDeEventos(lista: readonly EventosNuevos[]): Parte[] {
  const partes: Parte[] = [];
  lista.forEach((e, i) => {
    if (e.eventos.length === 0) return;
    const json = JSON.stringify(e.data);
    const ev = `eventos_${i}`;
    partes.push({
      nombre: ev,
      sentencia: sql`insert into eventos (account_id, entorno, evento, deca_id, data, created_at)
        select ${e.scope.accountId}::bigint, ${e.scope.entorno}::text, evento, ${e.decaId}::bigint, ${json}::jsonb, ${e.now}::timestamptz
        from (values ${sql.join(e.eventos.map((evento, n) => sql`(${evento}::text, ${n}::int)`))}) as x(evento, n) order by n
        returning id, evento`,
    });
    partes.push(...entregasDeEventos(e.scope, ev, { decaId: e.decaId, json, now: e.now }, `entregas_${i}`));
  });
  return partes;
}

/** Write the events a change returned in their own statement of its transaction (a change outside the command layer). */
export async function escribirEventos(trx: Transaction<DB>, lista: readonly EventosNuevos[]): Promise<void> {
  const partes = partesDeEventos(lista);
  if (partes.length) await unaSentencia(trx, partes);
}
