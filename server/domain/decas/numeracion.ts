import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import { limiteMensual } from '../../../shared/rules/cuota';
import { fechaMadrid, mesMadrid } from '../../../shared/rules/fechas';
import type { DB } from '../../db/schema';
import { limitePlan } from '../accounts/cuota';
import type { Actor } from '../actor';
import { type Parte, unaSentencia } from '../sentencia';

/** `2026-000042`: year and a six-digit sequence per account, environment and year. */
export function formatNumero(anio: number, n: number): string {
  return `${anio}-${String(n).padStart(6, '0')}`;
}

/**
 * Take the next document number in its own short transaction, refusing with
 * 429 `limite_plan` when the month's quota is already spent — one statement
 * for both, and a refused request never burns a number. Numbers are never
 * reused (the counter only goes up); one can go unused when the creation
 * fails afterwards. Kept apart from the creating transaction so the counter's
 * row lock is held for a moment, not for a PDF render; that transaction
 * counts the quota (consumirCuota) and an unconfirmed account's cap
 * (contarSinConfirmar) again under a row lock, so requests racing for the
 * last unit cannot both pass: the losers are refused there, each leaving the
 * number it took unused (README: numbering).
 */
export async function asignarNumero(db: Kysely<DB>, actor: Pick<Actor, 'accountId' | 'entorno' | 'cuenta'>, now: Date): Promise<string> {
  const parte = numeroTomado(actor, now);
  return parte.leer((await unaSentencia(db, [parte])).numero);
}

/**
 * asignarNumero as a part of a statement (one that also reads what the
 * DeCA needs, say): the number is taken when the statement runs, its own
 * transaction, and `leer` gives it, or refuses with 429 `limite_plan`.
 */
export function numeroTomado(actor: Pick<Actor, 'accountId' | 'entorno' | 'cuenta'>, now: Date): Parte & { leer(valor: unknown): string } {
  const anio = Number(fechaMadrid(now).slice(0, 4));
  const mes = mesMadrid(now);
  const limite = limiteMensual(actor.cuenta.plan, actor.entorno, mes);
  const cupo = limite === null ? sql`` : sql`where coalesce((select decas from uso_mensual where account_id = ${actor.accountId} and entorno = ${actor.entorno} and mes = ${mes}), 0) < ${limite}`;
  return {
    nombre: 'numero',
    sentencia: sql`insert into numeradores (account_id, entorno, anio, ultimo)
      select ${actor.accountId}::bigint, ${actor.entorno}::text, ${anio}::int, 1 ${cupo}
      on conflict (account_id, entorno, anio) do update set ultimo = numeradores.ultimo + 1
      returning ultimo`,
    valor: sql`(select ultimo from numero)`,
    leer(valor) {
      if (valor == null) throw limitePlan(limite ?? 0, mes);
      return formatNumero(anio, Number(valor));
    },
  };
}
