import type { Kysely } from 'kysely';
import type { AccountRow, DB, UserRow } from '../../db/schema';
import { randomToken, sha256Hex } from './tokens';

export const SESSION_DAYS = 30;
const DAY = 86_400_000;
/** Extend a sliding session at most this often, not on every request. */
const REFRESH_AFTER = 60 * 60 * 1000;

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
 * The user and account of a live session, sliding its expiry 30 days ahead;
 * `renewedUntil` tells the caller to re-send the cookie. Null when unknown or expired.
 */
export async function leerSesion(
  db: Kysely<DB>,
  token: string,
  now: Date,
): Promise<{ user: UserRow; account: AccountRow; renewedUntil: Date | null } | null> {
  const id = sha256Hex(token);
  const s = await db.selectFrom('sessions').selectAll().where('id', '=', id).executeTakeFirst();
  if (!s) return null;
  if (s.expires_at.getTime() <= now.getTime()) {
    await db.deleteFrom('sessions').where('id', '=', id).execute();
    return null;
  }
  const user = await db.selectFrom('users').selectAll().where('id', '=', s.user_id).executeTakeFirst();
  const account = await db.selectFrom('accounts').selectAll().where('id', '=', s.account_id).executeTakeFirst();
  if (!user || !account) return null;
  let renewedUntil: Date | null = null;
  if (now.getTime() - s.last_seen_at.getTime() > REFRESH_AFTER) {
    renewedUntil = new Date(now.getTime() + SESSION_DAYS * DAY);
    await db.updateTable('sessions').set({ last_seen_at: now, expires_at: renewedUntil }).where('id', '=', id).execute();
  }
  return { user, account, renewedUntil };
}

/** Close a session (sign out). */
export async function cerrarSesion(db: Kysely<DB>, token: string): Promise<void> {
  await db.deleteFrom('sessions').where('id', '=', sha256Hex(token)).execute();
}
