import { sql, type Transaction } from 'kysely';
import { AppError } from '../../../shared/errors';
import { veTodasLasDecas } from '../../../shared/rules/roles';
import type { DB } from '../../db/schema';
import type { Actor } from '../actor';
import { delAmbito } from '../ambito';

/** Another DeCA of the account holds this `ref_externa` (a driver is not told the number of a DeCA that may not be theirs). */
export function refExternaUsada(actor: Pick<Actor, 'rol'>, ref: string, numero: string): AppError {
  const cual = veTodasLasDecas(actor.rol) ? `la DeCA ${numero}` : 'otra DeCA de la cuenta';
  return new AppError('ref_externa_usada', `La ref_externa «${ref}» ya es de ${cual}.`, { campos: { ref_externa: 'Ya usada' } });
}

/**
 * A `ref_externa` is one DeCA's in its account and environment. `decas` is
 * partitioned by month (migration 0019), which allows no unique index on
 * it, so whoever writes one (a create, PATCH, a replacement) holds it in
 * its transaction: a lock on the reference until the commit, then — in a
 * statement of its own, whose snapshot sees what an earlier holder
 * committed — no other DeCA with it, or 422 `ref_externa_usada` (a create
 * that meets it is run again by the command layer, and answered with that
 * DeCA). Two writers of the same reference wait for each other; of
 * different ones, never.
 */
export async function exigirRefLibre(trx: Transaction<DB>, actor: Pick<Actor, 'accountId' | 'entorno' | 'rol'>, ref: string, propia: number | null): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtextextended(${`ref_externa:${actor.accountId}:${actor.entorno}:${ref}`}::text, 0))`.execute(trx);
  let q = trx.selectFrom('decas').select('numero').where(delAmbito(actor)).where('ref_externa', '=', ref);
  if (propia !== null) q = q.where('id', '<>', propia);
  const usada = await q.limit(1).executeTakeFirst();
  if (usada) throw refExternaUsada(actor, ref, usada.numero);
}
