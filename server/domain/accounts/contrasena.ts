import { type Kysely, sql, type Transaction } from 'kysely';
import { AppError } from '../../../shared/errors';
import type { AccountRow, DB, UserRow } from '../../db/schema';
import { sha256Hex } from '../../sha256';
import { enqueueCorreoSiHayUsuario, mensajeRestablecer } from '../correo/correos';
import { formaDeToken, randomToken } from './tokens';

/** How long a password reset link works. */
export const RESTABLECER_MINUTOS = 30;
const MINUTO = 60_000;

/** The link a password reset e-mail carries (the app's screen to choose a new password). */
export function urlRestablecer(siteUrl: string, token: string): string {
  return `${siteUrl}/restablecer/${token}`;
}

/**
 * «¿Ha olvidado la contraseña?»: a one-time link for the user with this
 * e-mail, through the mail outbox in this transaction. Whether or not the
 * address has a user, the same statements run (each writes a row or none)
 * and the caller answers the same: nothing tells a stranger which addresses
 * have an account. Links asked for earlier keep working until they expire
 * (a link a stranger made someone receive is still the owner's own).
 */
export async function pedirRestablecimiento(trx: Transaction<DB>, email: string, siteUrl: string, now: Date): Promise<void> {
  const token = randomToken(32);
  const expira = new Date(now.getTime() + RESTABLECER_MINUTOS * MINUTO);
  await trx.deleteFrom('restablecimientos').where('expires_at', '<=', now).execute();
  await trx
    .insertInto('restablecimientos')
    .columns(['user_id', 'token_hash', 'created_at', 'expires_at'])
    .expression(
      trx
        .selectFrom('users')
        .select([
          'id',
          sql<string>`${sha256Hex(token)}::text`.as('token_hash'),
          sql<Date>`${now.toISOString()}::timestamptz`.as('created_at'),
          sql<Date>`${expira.toISOString()}::timestamptz`.as('expires_at'),
        ])
        .where('email', '=', email)
        // A closed account's users keep their address, never a way back in.
        .where('account_id', 'not in', (eb) => eb.selectFrom('accounts').select('id').where('cerrada_at', 'is not', null)),
    )
    .execute();
  await enqueueCorreoSiHayUsuario(trx, email, { tipo: 'restablecer_contrasena', ...mensajeRestablecer(urlRestablecer(siteUrl, token), RESTABLECER_MINUTOS) }, now);
}

/** A reset link for a known user, not mailed (the operator's CLI hands it over). */
export async function crearRestablecimiento(trx: Transaction<DB>, user: UserRow, siteUrl: string, now: Date): Promise<{ url: string; expiresAt: Date }> {
  const token = randomToken(32);
  const expiresAt = new Date(now.getTime() + RESTABLECER_MINUTOS * MINUTO);
  await trx
    .insertInto('restablecimientos')
    .values({ user_id: user.id, token_hash: sha256Hex(token), created_at: now, expires_at: expiresAt })
    .execute();
  return { url: urlRestablecer(siteUrl, token), expiresAt };
}

const noValido = () => new AppError('no_encontrado', 'Este enlace para restablecer la contraseña no existe, ya se usó o caducó (vale 30 minutos). Pida otro en «¿Ha olvidado la contraseña?».');

/** The user of an open reset link (unknown, used and expired all look the same). */
export async function restablecimientoAbierto(db: Kysely<DB>, token: string, now: Date): Promise<{ user: UserRow; expiresAt: Date }> {
  if (!formaDeToken(token)) throw noValido();
  const row = await db
    .selectFrom('restablecimientos as r')
    .innerJoin('users as u', 'u.id', 'r.user_id')
    .selectAll('u')
    .select('r.expires_at as r_expires_at')
    .where('r.token_hash', '=', sha256Hex(token))
    .where('r.expires_at', '>', now)
    .executeTakeFirst();
  if (!row) throw noValido();
  const { r_expires_at, ...user } = row;
  return { user, expiresAt: r_expires_at };
}

/**
 * Spend a reset link and set the user's password (hashed before the
 * transaction, once `restablecimientoAbierto` found the link open): the link
 * (and every other open link of the user) is gone, and so is every session
 * of the user. Two at once: one wins (the delete returns the row once), the
 * other finds it used.
 */
export async function restablecerContrasena(trx: Transaction<DB>, token: string, passwordHash: string, now: Date): Promise<{ user: UserRow; account: AccountRow }> {
  if (!formaDeToken(token)) throw noValido();
  const gastado = await trx.deleteFrom('restablecimientos').where('token_hash', '=', sha256Hex(token)).where('expires_at', '>', now).returning('user_id').executeTakeFirst();
  if (!gastado) throw noValido();
  return fijarContrasena(trx, gastado.user_id, passwordHash);
}

/**
 * Set a user's password (its hash, made before the transaction): every
 * session of the user ends (the caller opens the one of this device) and
 * their open reset links stop working.
 */
export async function fijarContrasena(trx: Transaction<DB>, userId: number, passwordHash: string): Promise<{ user: UserRow; account: AccountRow }> {
  const user = await trx.updateTable('users').set({ password_hash: passwordHash }).where('id', '=', userId).returningAll().executeTakeFirstOrThrow();
  await cerrarSesionesDe(trx, userId);
  await trx.deleteFrom('restablecimientos').where('user_id', '=', userId).execute();
  const account = await trx.selectFrom('accounts').selectAll().where('id', '=', user.account_id).executeTakeFirstOrThrow();
  return { user, account };
}

/** End every session of a user, on every device; how many there were. */
export async function cerrarSesionesDe(db: Kysely<DB>, userId: number): Promise<number> {
  const r = await db.deleteFrom('sessions').where('user_id', '=', userId).executeTakeFirst();
  return Number(r.numDeletedRows);
}

const sinUsuario = (email: string) => new AppError('no_encontrado', `No hay ningún usuario con el correo ${email}.`);

/** The user the operator resets the password of, before the transaction; 404 when the address has none. */
export async function usuarioConCorreo(db: Kysely<DB>, email: string): Promise<UserRow> {
  const user = await db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
  if (!user) throw sinUsuario(email);
  return user;
}

/**
 * The operator resets a user's password: a one-use link to choose a new one
 * (returned, and not mailed) and every session of the user ended now.
 */
export async function restablecerPorOperador(trx: Transaction<DB>, user: UserRow, siteUrl: string, now: Date): Promise<{ email: string; url: string; expiresAt: Date; sesiones: number }> {
  // Locked, so the user cannot be removed between the link and the sessions; gone since it was read: the same 404.
  const sigue = await trx.selectFrom('users').select('id').where('id', '=', user.id).forUpdate().executeTakeFirst();
  if (!sigue) throw sinUsuario(user.email);
  const { url, expiresAt } = await crearRestablecimiento(trx, user, siteUrl, now);
  const sesiones = await cerrarSesionesDe(trx, user.id);
  return { email: user.email, url, expiresAt, sesiones };
}
