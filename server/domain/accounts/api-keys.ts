import type { Kysely, Transaction } from 'kysely';
import { AppError } from '../../../shared/errors';
import type { Entorno } from '../../../shared/schemas/cuenta';
import type { AccountRow, ApiKeyRow, DB } from '../../db/schema';
import { sha256Hex } from '../../sha256';
import type { Caches, ClaveEncontrada } from '../cache';
import { randomToken } from './tokens';

export const KEY_PREFIX: Record<Entorno, string> = { produccion: 'dg_live_', pruebas: 'dg_test_' };

/** Before the transaction: 404 when the account a key is asked for (by its id: the operator's CLI) does not exist. */
export async function comprobarCuenta(db: Kysely<DB>, accountId: number): Promise<void> {
  const account = await db.selectFrom('accounts').select('id').where('id', '=', accountId).executeTakeFirst();
  if (!account) throw new AppError('no_encontrado', `No existe la cuenta ${accountId}.`);
}

/**
 * Create an API key of an existing account (`comprobarCuenta`; accounts are
 * never deleted): 256 random bits after the `dg_live_`/`dg_test_` prefix.
 * Only its sha256 is stored; the caller shows `key` once.
 */
export async function crearClave(trx: Transaction<DB>, input: { accountId: number; entorno: Entorno; soloLectura: boolean; nombre?: string | null }): Promise<{ row: ApiKeyRow; key: string }> {
  const key = KEY_PREFIX[input.entorno] + randomToken(32);
  const row = await trx
    .insertInto('api_keys')
    .values({
      account_id: input.accountId,
      entorno: input.entorno,
      hash: sha256Hex(key),
      prefijo: key.slice(0, KEY_PREFIX[input.entorno].length + 6),
      nombre: input.nombre ?? null,
      solo_lectura: input.soloLectura,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return { row, key };
}

/** Revoke a key at once; scoped to an account when `accountId` is given. */
export async function revocarClave(trx: Transaction<DB>, id: number, accountId: number | null, now: Date): Promise<ApiKeyRow> {
  let q = trx.updateTable('api_keys').set({ revocada_at: now }).where('id', '=', id).where('revocada_at', 'is', null);
  if (accountId !== null) q = q.where('account_id', '=', accountId);
  const row = await q.returningAll().executeTakeFirst();
  if (row) return row;
  let existing = trx.selectFrom('api_keys').selectAll().where('id', '=', id);
  if (accountId !== null) existing = existing.where('account_id', '=', accountId);
  const found = await existing.executeTakeFirst();
  if (!found) throw new AppError('no_encontrado', `No existe la clave ${id}.`);
  return found; // already revoked: revoking twice is harmless
}

/** The key and its account for a presented secret, or null when unknown. */
export async function buscarClave(db: Kysely<DB>, key: string): Promise<{ key: ApiKeyRow; account: AccountRow } | null> {
  const row = await db
    .selectFrom('api_keys')
    .innerJoin('accounts', 'accounts.id', 'api_keys.account_id')
    .selectAll('api_keys')
    .select([
      'accounts.nombre as a_nombre',
      'accounts.nif as a_nif',
      'accounts.domicilio as a_domicilio',
      'accounts.rol as a_rol',
      'accounts.plan as a_plan',
      'accounts.created_at as a_created_at',
      'accounts.confirmada_at as a_confirmada_at',
      'accounts.cerrada_at as a_cerrada_at',
    ])
    .where('api_keys.hash', '=', sha256Hex(key))
    .executeTakeFirst();
  if (!row) return null;
  const { a_nombre, a_nif, a_domicilio, a_rol, a_plan, a_created_at, a_confirmada_at, a_cerrada_at, ...k } = row;
  return {
    key: k,
    account: {
      id: k.account_id,
      nombre: a_nombre,
      nif: a_nif,
      domicilio: a_domicilio,
      rol: a_rol,
      plan: a_plan,
      created_at: a_created_at,
      confirmada_at: a_confirmada_at,
      cerrada_at: a_cerrada_at,
    },
  };
}

/**
 * The key and its account for a presented secret, from this process's cache
 * when it holds it. The cache drops a key the moment the database announces
 * a change of it or of its account (revocation, plan), in every process.
 */
export async function autenticarClave(deps: { db: Kysely<DB>; caches: Caches }, key: string): Promise<ClaveEncontrada | null> {
  const hash = sha256Hex(key);
  const hit = deps.caches.claves.get(hash);
  if (hit) return hit;
  const sello = deps.caches.claves.selloGeneral();
  const found = await buscarClave(deps.db, key);
  if (found) deps.caches.claves.set(hash, found, sello);
  return found;
}

/** Keep `last_used_at` without a write on every request: at most once a minute per key. True when it wrote. */
export async function marcarClaveUsada(db: Kysely<DB>, key: ApiKeyRow, now: Date): Promise<boolean> {
  if (key.last_used_at && now.getTime() - key.last_used_at.getTime() < 60_000) return false;
  await db.updateTable('api_keys').set({ last_used_at: now }).where('id', '=', key.id).execute();
  return true;
}

/** Keys of an account, newest first. */
export async function listarClaves(db: Kysely<DB>, accountId: number): Promise<ApiKeyRow[]> {
  return db.selectFrom('api_keys').selectAll().where('account_id', '=', accountId).orderBy('id', 'desc').execute();
}
