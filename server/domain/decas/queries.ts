import { type ExpressionBuilder, type Kysely, sql, type Transaction } from 'kysely';
import { AppError } from '../../../shared/errors';
import { veTodasLasDecas } from '../../../shared/rules/roles';
import type { DB, DecaRow, DecaUpdate } from '../../db/schema';
import type { Actor } from '../actor';
import { delAmbito } from '../ambito';

type Db = Kysely<DB> | Transaction<DB>;

/** A DeCA row with the numbers and tokens of the DeCA it replaces and that replaced it. */
export type DecaConRefs = DecaRow & {
  sa_numero: string | null;
  sa_token: string | null;
  sp_numero: string | null;
  sp_token: string | null;
};

/** A row just written that links to no other DeCA (a new one), as the presenter takes it. */
export function sinRefs(row: DecaRow): DecaConRefs {
  return { ...row, sa_numero: null, sa_token: null, sp_numero: null, sp_token: null };
}

/**
 * DeCA rows with their replacement links, of any account: only for lookups by
 * an unguessable public token. Everything else uses `selectDecas`.
 */
export function selectDecasSinCuenta(db: Db) {
  return db
    .selectFrom('decas as d')
    .leftJoin('decas as sa', 'sa.id', 'd.sustituye_a_id')
    .leftJoin('decas as sp', 'sp.id', 'd.sustituido_por_id')
    .selectAll('d')
    .select(['sa.numero as sa_numero', 'sa.token_publico as sa_token', 'sp.numero as sp_numero', 'sp.token_publico as sp_token']);
}

/** Who asks for DeCAs: the account and environment, and the user's role (a driver sees only theirs). */
export type Alcance = Pick<Actor, 'accountId' | 'entorno' | 'rol' | 'userId'>;

/**
 * The DeCAs of `decas as d` a driver may see (administrators, the office and
 * API keys see all of the account): shared/rules/roles.ts
 * `esDecaDelConductor` in SQL — those they made, and those whose `matricula`
 * is one of the plates assigned to them (read here, so a change of their
 * plates holds from the next request).
 */
function delConductor(actor: Alcance) {
  return (eb: ExpressionBuilder<DB & { d: DB['decas'] }, 'd'>) => {
    if (actor.userId === null) return eb.lit(false);
    return eb.or([
      eb('d.creado_por_user_id', '=', actor.userId),
      sql<boolean>`d.matricula in (select jsonb_array_elements_text(u.matriculas) from users u where u.id = ${actor.userId} and u.account_id = ${actor.accountId})`,
    ]);
  };
}

/**
 * Every DeCA of the actor's account and environment, whoever the actor is:
 * only for re-reading a row the caller has just been allowed to change.
 * Everything else uses `selectDecas`.
 */
export function selectDecasDeLaCuenta(db: Db, actor: Pick<Actor, 'accountId' | 'entorno'>) {
  return selectDecasSinCuenta(db).where(delAmbito(actor, 'd'));
}

/**
 * The one query shape every read of a DeCA uses (so the presenter always has
 * the links), scoped to the actor: their account and environment, and for a
 * driver their DeCAs only. A DeCA outside it is answered as one of another
 * account (404), so its existence is never told.
 */
export function selectDecas(db: Db, actor: Alcance) {
  const q = selectDecasDeLaCuenta(db, actor);
  return veTodasLasDecas(actor.rol) ? q : q.where(delConductor(actor));
}

/** `{id}` of the spec: the numeric id or the number `YYYY-NNNNNN`. */
export function parseDecaRef(ref: string): { id: number } | { numero: string } | null {
  if (/^\d{1,15}$/.test(ref)) return { id: Number(ref) };
  if (/^\d{4}-\d{6}$/.test(ref)) return { numero: ref };
  return null;
}

function noEncontrada(ref: string): AppError {
  return new AppError('no_encontrado', `No existe la DeCA ${ref} en esta cuenta y entorno.`);
}

/** One DeCA the actor may see (of their account and environment; a driver's own), or 404 `no_encontrado`. */
export async function obtenerDeca(db: Db, actor: Alcance, ref: string): Promise<DecaConRefs> {
  const parsed = parseDecaRef(ref);
  if (!parsed) throw noEncontrada(ref);
  const q = selectDecas(db, actor);
  const row = await ('id' in parsed ? q.where('d.id', '=', parsed.id) : q.where('d.numero', '=', parsed.numero)).executeTakeFirst();
  if (!row) throw noEncontrada(ref);
  return row as DecaConRefs;
}

/** Lock a DeCA row the actor may see for the rest of the transaction (state checks happen after this). */
export async function bloquearDeca(trx: Transaction<DB>, actor: Alcance, id: number): Promise<DecaRow> {
  const q = trx.selectFrom('decas as d').selectAll('d').where('d.id', '=', id).where(delAmbito(actor, 'd'));
  const row = await (veTodasLasDecas(actor.rol) ? q : q.where(delConductor(actor))).forUpdate().executeTakeFirst();
  if (!row) throw noEncontrada(String(id));
  return row;
}

/**
 * Re-read a DeCA with its links inside the transaction (for the event payload
 * and the answer), after a change the actor was allowed to make: a driver who
 * moved it to a vehicle not theirs still gets the answer of their change.
 */
export async function releerDeca(trx: Transaction<DB>, actor: Pick<Actor, 'accountId' | 'entorno'>, id: number): Promise<DecaConRefs> {
  const row = await selectDecasDeLaCuenta(trx, actor).where('d.id', '=', id).executeTakeFirst();
  if (!row) throw noEncontrada(String(id));
  return row as DecaConRefs;
}

/**
 * Change a DeCA only if it is still at the revision it was read at (one
 * statement: the row lock and the check are the update's own). Returns the
 * row after the change with the links it had — the DeCA it replaces never
 * changes, and being replaced raises the revision — or null when it moved
 * (or is gone) since it was read: the caller prepares again.
 */
export async function actualizarSiNoCambio(trx: Transaction<DB>, actor: Pick<Actor, 'accountId' | 'entorno'>, leida: DecaConRefs, set: DecaUpdate): Promise<DecaConRefs | null> {
  const row = await trx.updateTable('decas').set(set).where('id', '=', leida.id).where(delAmbito(actor)).where('revision', '=', leida.revision).returningAll().executeTakeFirst();
  return row ? { ...row, sa_numero: leida.sa_numero, sa_token: leida.sa_token, sp_numero: leida.sp_numero, sp_token: leida.sp_token } : null;
}
