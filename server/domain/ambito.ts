/**
 * The scope every tenant query is held to: one account in one environment.
 * `delAmbito(actor)` is a Kysely expression factory for `.where(…)`, so the
 * two conditions are written once and the compiler refuses it on a table that
 * lacks `account_id` or `entorno`.
 */
import { type Expression, type ExpressionBuilder, type SqlBool, sql } from 'kysely';
import type { Entorno } from '../../shared/schemas/cuenta';

/** Whose rows: an account and an environment (an `Actor`, or anything with both). */
export interface Ambito {
  readonly accountId: number;
  readonly entorno: Entorno;
}

/** The columns a scoped table has. */
interface ColumnasDeAmbito {
  account_id: number;
  entorno: Entorno;
}

/** A `.where(…)` argument for a query over one table `TB` that has both columns (over a join, use the alias form: unqualified columns would be ambiguous). */
export type FiltroDeAmbito = <D extends { [T in TB]: ColumnasDeAmbito }, TB extends keyof D>(eb: ExpressionBuilder<D, TB>) => Expression<SqlBool>;

/** A `.where(…)` argument for a query whose table aliased `A` has both columns, whatever it joins. */
export type FiltroDeAmbitoCon<A extends string> = <D extends { [T in A]: ColumnasDeAmbito }, TB extends keyof D>(eb: ExpressionBuilder<D, TB>) => Expression<SqlBool>;

/**
 * `account_id = ambito.accountId and entorno = ambito.entorno`, for
 * `.where(delAmbito(actor))`. With `alias` the columns are qualified by it
 * (`.where(delAmbito(actor, 'd'))` on `decas as d`), as a query that joins
 * another table needs.
 */
export function delAmbito(ambito: Ambito): FiltroDeAmbito;
export function delAmbito<A extends string>(ambito: Ambito, alias: A): FiltroDeAmbitoCon<A>;
export function delAmbito(ambito: Ambito, alias?: string): FiltroDeAmbito {
  const columna = (nombre: keyof ColumnasDeAmbito) => sql.ref(alias === undefined ? nombre : `${alias}.${nombre}`);
  return (eb) => eb.and([eb(columna('account_id'), '=', ambito.accountId), eb(columna('entorno'), '=', ambito.entorno)]);
}
