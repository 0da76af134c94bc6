import type { Kysely, Transaction } from 'kysely';
import { AppError } from '../../../shared/errors';
import type { DB, DecaRow } from '../../db/schema';
import type { Actor } from '../actor';

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

/** The one query shape every read of a DeCA uses (so the presenter always has the links), scoped to the actor. */
export function selectDecas(db: Db, actor: Pick<Actor, 'accountId' | 'entorno'>) {
  return selectDecasSinCuenta(db).where('d.account_id', '=', actor.accountId).where('d.entorno', '=', actor.entorno);
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

/** One DeCA of the actor's account and environment, or 404 `no_encontrado`. */
export async function obtenerDeca(db: Db, actor: Pick<Actor, 'accountId' | 'entorno'>, ref: string): Promise<DecaConRefs> {
  const parsed = parseDecaRef(ref);
  if (!parsed) throw noEncontrada(ref);
  const q = selectDecas(db, actor);
  const row = await ('id' in parsed ? q.where('d.id', '=', parsed.id) : q.where('d.numero', '=', parsed.numero)).executeTakeFirst();
  if (!row) throw noEncontrada(ref);
  return row as DecaConRefs;
}

/** Lock a DeCA row for the rest of the transaction (state checks happen after this). */
export async function bloquearDeca(trx: Transaction<DB>, actor: Pick<Actor, 'accountId' | 'entorno'>, id: number): Promise<DecaRow> {
  const row = await trx
    .selectFrom('decas')
    .selectAll()
    .where('id', '=', id)
    .where('account_id', '=', actor.accountId)
    .where('entorno', '=', actor.entorno)
    .forUpdate()
    .executeTakeFirst();
  if (!row) throw noEncontrada(String(id));
  return row;
}

/** Re-read a DeCA with its links inside the transaction (for the event payload and the answer). */
export async function releerDeca(trx: Transaction<DB>, actor: Pick<Actor, 'accountId' | 'entorno'>, id: number): Promise<DecaConRefs> {
  const row = await selectDecas(trx, actor).where('d.id', '=', id).executeTakeFirst();
  if (!row) throw noEncontrada(String(id));
  return row as DecaConRefs;
}
