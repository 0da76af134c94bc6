import type { Kysely } from 'kysely';
import { AppError } from '../../../shared/errors';
import { fechaHoraEs } from '../../../shared/rules/fechas';
import { CONSERVACION_DECA_TEXTO, RUTA_PRIVACIDAD } from '../../../shared/rules/privacidad';
import type { AccountRow, DB, UserRow } from '../../db/schema';
import { sha256Hex } from '../../sha256';
import { DUMMY_HASH, verifyPassword } from './passwords';
import { randomToken } from './tokens';

export const SESSION_DAYS = 30;
const DAY = 86_400_000;
/** Extend a sliding session at most this often, not on every request. */
const REFRESH_AFTER = 60 * 60 * 1000;

/** Who signs in: the user and their account, as the account functions read them. */
export interface QuienEntra {
  user: UserRow;
  account: AccountRow;
}

/** Open a server-side session; returns the cookie token (only its hash is stored). */
export async function abrirSesion(db: Kysely<DB>, user: UserRow, now: Date): Promise<{ token: string; expiresAt: Date }> {
  const token = randomToken(32);
  const expiresAt = new Date(now.getTime() + SESSION_DAYS * DAY);
  await db
    .insertInto('sessions')
    .values({ id: sha256Hex(token), user_id: user.id, account_id: user.account_id, created_at: now, last_seen_at: now, expires_at: expiresAt })
    .execute();
  // Expired sessions of this user go now, so the table does not grow without bound.
  await db.deleteFrom('sessions').where('user_id', '=', user.id).where('expires_at', '<', now).execute();
  return { token, expiresAt };
}

/**
 * The user and account of a live session (one query), sliding its expiry
 * 30 days ahead; `renewedUntil` tells the caller to re-send the cookie. Null
 * when unknown or expired.
 */
export async function leerSesion(db: Kysely<DB>, token: string, now: Date): Promise<{ user: UserRow; account: AccountRow; renewedUntil: Date | null } | null> {
  const id = sha256Hex(token);
  const row = await db
    .selectFrom('sessions as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .innerJoin('accounts as a', 'a.id', 's.account_id')
    .select([
      's.expires_at',
      's.last_seen_at',
      'u.id as u_id',
      'u.email as u_email',
      'u.password_hash as u_password_hash',
      'u.rol as u_rol',
      'u.created_at as u_created_at',
      'u.email_confirmado_at as u_email_confirmado_at',
      'u.confirmacion_hash as u_confirmacion_hash',
      'u.matriculas as u_matriculas',
      'a.id as a_id',
      'a.nombre as a_nombre',
      'a.nif as a_nif',
      'a.domicilio as a_domicilio',
      'a.rol as a_rol',
      'a.plan as a_plan',
      'a.created_at as a_created_at',
      'a.confirmada_at as a_confirmada_at',
      'a.cerrada_at as a_cerrada_at',
    ])
    .where('s.id', '=', id)
    .executeTakeFirst();
  if (!row) return null;
  if (row.expires_at.getTime() <= now.getTime()) {
    await db.deleteFrom('sessions').where('id', '=', id).execute();
    return null;
  }
  // Closing an account ends its sessions in the same transaction; this only guards a row that outlived it.
  if (row.a_cerrada_at) return null;
  const user: UserRow = {
    id: row.u_id,
    account_id: row.a_id,
    email: row.u_email,
    password_hash: row.u_password_hash,
    rol: row.u_rol,
    created_at: row.u_created_at,
    email_confirmado_at: row.u_email_confirmado_at,
    confirmacion_hash: row.u_confirmacion_hash,
    matriculas: row.u_matriculas,
  };
  const account: AccountRow = {
    id: row.a_id,
    nombre: row.a_nombre,
    nif: row.a_nif,
    domicilio: row.a_domicilio,
    rol: row.a_rol,
    plan: row.a_plan,
    created_at: row.a_created_at,
    confirmada_at: row.a_confirmada_at,
    cerrada_at: row.a_cerrada_at,
  };
  let renewedUntil: Date | null = null;
  if (now.getTime() - row.last_seen_at.getTime() > REFRESH_AFTER) {
    renewedUntil = new Date(now.getTime() + SESSION_DAYS * DAY);
    await db.updateTable('sessions').set({ last_seen_at: now, expires_at: renewedUntil }).where('id', '=', id).execute();
  }
  return { user, account, renewedUntil };
}

/** Close a session (sign out). */
export async function cerrarSesion(db: Kysely<DB>, token: string): Promise<void> {
  await db.deleteFrom('sessions').where('id', '=', sha256Hex(token)).execute();
}

/**
 * The user whose e-mail and password these are, or null. Always spends the
 * time of one password check, so timing does not tell whether the e-mail exists.
 */
export async function comprobarCredenciales(db: Kysely<DB>, email: string, password: string): Promise<QuienEntra | null> {
  const fila = await db
    .selectFrom('users')
    .innerJoin('accounts', 'accounts.id', 'users.account_id')
    .selectAll('users')
    .select(['accounts.nombre as a_nombre', 'accounts.cerrada_at as a_cerrada_at'])
    .where('users.email', '=', email)
    .executeTakeFirst();
  const ok = await verifyPassword(password, fila?.password_hash ?? DUMMY_HASH);
  // A closed account's users keep their address (it names who made each DeCA) but no password: they are told why.
  if (fila?.a_cerrada_at) throw cuentaCerrada(fila.a_nombre, fila.a_cerrada_at);
  if (!fila || !ok) return null;
  const { a_nombre: _n, a_cerrada_at: _c, ...user } = fila;
  const account = await db.selectFrom('accounts').selectAll().where('id', '=', user.account_id).executeTakeFirstOrThrow();
  return { user, account };
}

/** 403 for a user of a closed account: nobody signs in there again; the DeCAs stay until their retention ends. */
export function cuentaCerrada(empresa: string, cerradaAt: Date): AppError {
  return new AppError(
    'prohibido',
    `La cuenta de ${empresa} se cerró el ${fechaHoraEs(cerradaAt)}: ya no se puede entrar en ella ni usar sus claves de API. Sus DeCA emitidas se conservan hasta que acabe su plazo (${CONSERVACION_DECA_TEXTO}); más en ${RUTA_PRIVACIDAD}.`,
  );
}
