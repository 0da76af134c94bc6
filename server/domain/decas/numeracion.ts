import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import { fechaMadrid } from '../../../shared/rules/fechas';
import type { DB } from '../../db/schema';
import type { Actor } from '../actor';

/** `2026-000042`: year and a six-digit sequence per account, environment and year. */
export function formatNumero(anio: number, n: number): string {
  return `${anio}-${String(n).padStart(6, '0')}`;
}

/**
 * Take the next document number in its own short transaction. Numbers are
 * never reused (the counter only goes up); one can go unused when the
 * creation fails afterwards. Kept apart from the creating transaction so the
 * counter's row lock is held for a moment, not for a PDF render.
 */
export async function asignarNumero(db: Kysely<DB>, actor: Pick<Actor, 'accountId' | 'entorno'>, now: Date): Promise<string> {
  const anio = Number(fechaMadrid(now).slice(0, 4));
  const row = await db
    .insertInto('numeradores')
    .values({ account_id: actor.accountId, entorno: actor.entorno, anio, ultimo: 1 })
    .onConflict((oc) => oc.columns(['account_id', 'entorno', 'anio']).doUpdateSet({ ultimo: sql`numeradores.ultimo + 1` }))
    .returning('ultimo')
    .executeTakeFirstOrThrow();
  return formatNumero(anio, row.ultimo);
}
