import type { Kysely, Transaction } from 'kysely';
import { AppError } from '../../../shared/errors';
import { formatMadrid } from '../../../shared/rules/fechas';
import { NOMBRE_ROL, quedaAdministrador, type RolUsuario } from '../../../shared/rules/roles';
import type { Invitacion, UsuarioCuenta } from '../../../shared/schemas/cuenta';
import type { AccountRow, DB, InvitacionRow, UserRow } from '../../db/schema';
import { sha256Hex } from '../../sha256';
import type { Plan, Trx } from '../context';
import { enqueueCorreo, mensajeInvitacion } from '../correo/correos';
import { escritura } from '../plan';
import { presentUsuario } from '../presenters/cuenta';
import { hashPassword } from './passwords';
import { formaDeToken, randomToken } from './tokens';

/** How long an invitation link works. */
export const INVITACION_DIAS = 7;
const DIA = 86_400_000;

export function presentUsuarioCuenta(row: UserRow): UsuarioCuenta {
  return { ...presentUsuario(row), created_at: formatMadrid(row.created_at) };
}

export function presentInvitacion(row: InvitacionRow): Invitacion {
  return { id: row.id, email: row.email, rol: row.rol, created_at: formatMadrid(row.created_at), expires_at: formatMadrid(row.expires_at) };
}

/** The account's users, and its invitations still open (not accepted, not expired). */
export async function listarUsuarios(db: Kysely<DB>, accountId: number, now: Date): Promise<{ usuarios: UserRow[]; invitaciones: InvitacionRow[] }> {
  const [usuarios, invitaciones] = await Promise.all([
    db.selectFrom('users').selectAll().where('account_id', '=', accountId).orderBy('id').execute(),
    db.selectFrom('invitaciones').selectAll().where('account_id', '=', accountId).where('aceptada_at', 'is', null).where('expires_at', '>', now).orderBy('id').execute(),
  ]);
  return { usuarios, invitaciones };
}

/** The link an invitation e-mail carries. */
export function urlInvitacion(siteUrl: string, token: string): string {
  return `${siteUrl}/invitacion/${token}`;
}

/**
 * Invite an address to the account with a role. Read and checked here,
 * outside any transaction: an address that already has a user in DeCA
 * cannot be invited (one user, one account). The plan's writes replace the
 * open invitation of the same address (the old link stops working) and send
 * the link through the mail outbox, in the command's transaction.
 */
export async function prepararInvitacion(
  db: Kysely<DB>,
  account: AccountRow,
  invitaId: number,
  input: { email: string; rol: RolUsuario },
  siteUrl: string,
  now: Date,
): Promise<Plan<{ row: InvitacionRow; enlace: string }>> {
  const email = input.email.trim().toLowerCase();
  const [invita, usuario] = await Promise.all([leerUsuario(db, invitaId), db.selectFrom('users').select('account_id').where('email', '=', email).executeTakeFirst()]);
  if (usuario) {
    const mensaje = usuario.account_id === account.id ? 'Ya es usuario de esta cuenta.' : 'Ese correo ya tiene usuario en DeCA, en otra cuenta.';
    throw new AppError('email_registrado', mensaje, { campos: { email: mensaje } });
  }
  return escritura((trx) => invitar(trx, account, invita, email, input.rol, siteUrl, now));
}

/**
 * The invitation's writes: the old open one of the address goes, the new one and its e-mail are written. The link is
 * also answered, once, to the administrator who invites, to copy or share it where the e-mail does not reach (the
 * driver's phone, a messaging app); only its token's hash is kept.
 */
async function invitar(trx: Trx, account: AccountRow, invita: UserRow, email: string, rol: RolUsuario, siteUrl: string, now: Date): Promise<{ row: InvitacionRow; enlace: string }> {
  await trx.deleteFrom('invitaciones').where('account_id', '=', account.id).where('email', '=', email).where('aceptada_at', 'is', null).execute();
  const token = randomToken(32);
  const row = await trx
    .insertInto('invitaciones')
    .values({
      account_id: account.id,
      email,
      rol,
      token_hash: sha256Hex(token),
      invitada_por: invita.id,
      created_at: now,
      expires_at: new Date(now.getTime() + INVITACION_DIAS * DIA),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  const enlace = urlInvitacion(siteUrl, token);
  const mensaje = mensajeInvitacion(account, invita.email, NOMBRE_ROL[rol].toLowerCase(), enlace, formatMadrid(row.expires_at).slice(0, 16));
  await enqueueCorreo(trx, { accountId: account.id, entorno: 'produccion' }, { tipo: 'invitacion', decaId: null, destinatario: email, ...mensaje }, now);
  return { row, enlace };
}

const noValida = () => new AppError('no_encontrado', 'Esta invitación no existe, ya se usó, caducó o se sustituyó por otra. Pida al administrador de la cuenta que le invite de nuevo.');

/** An open invitation by its link's token (unknown, used, expired and replaced all look the same). */
export async function invitacionAbierta(db: Kysely<DB>, token: string, now: Date): Promise<{ invitacion: InvitacionRow; account: AccountRow }> {
  if (!formaDeToken(token)) throw noValida();
  const invitacion = await db.selectFrom('invitaciones').selectAll().where('token_hash', '=', sha256Hex(token)).where('aceptada_at', 'is', null).where('expires_at', '>', now).executeTakeFirst();
  if (!invitacion) throw noValida();
  const account = await db.selectFrom('accounts').selectAll().where('id', '=', invitacion.account_id).executeTakeFirstOrThrow();
  return { invitacion, account };
}

/** What accepting an invitation needs, read and hashed before the transaction that writes it. */
export interface Aceptacion {
  invitacion: InvitacionRow;
  account: AccountRow;
  passwordHash: string;
}

/** The link's open invitation and the new user's password hash: the slow part, outside any transaction. */
export async function prepararAceptacion(db: Kysely<DB>, token: string, password: string, now: Date): Promise<Aceptacion> {
  const { invitacion, account } = await invitacionAbierta(db, token, now);
  return { invitacion, account, passwordHash: await hashPassword(password) };
}

/**
 * Accept an invitation, in the command's transaction: the invitation is
 * spent and the user is created with its role and a confirmed address (the
 * link reached it). The spend is conditional: run twice at once, or after
 * the invitation was withdrawn or replaced since it was read, one wins and
 * the other finds it used.
 */
export async function aceptarInvitacion(trx: Trx, a: Aceptacion, now: Date): Promise<{ user: UserRow; account: AccountRow }> {
  const gastada = await trx.updateTable('invitaciones').set({ aceptada_at: now }).where('id', '=', a.invitacion.id).where('aceptada_at', 'is', null).returning('id').executeTakeFirst();
  if (!gastada) throw noValida();
  const user = await trx
    .insertInto('users')
    .values({ account_id: a.account.id, email: a.invitacion.email, password_hash: a.passwordHash, rol: a.invitacion.rol, email_confirmado_at: now })
    .returningAll()
    .executeTakeFirstOrThrow();
  return { user, account: a.account };
}

/** A user of the account, locked for a change; 404 when it is not one of its users. */
async function usuarioDeLaCuenta(trx: Transaction<DB>, accountId: number, id: number): Promise<UserRow> {
  const user = await trx.selectFrom('users').selectAll().where('id', '=', id).where('account_id', '=', accountId).forUpdate().executeTakeFirst();
  if (!user) throw new AppError('no_encontrado', `No existe el usuario ${id} en esta cuenta.`);
  return user;
}

/** Refuse a change that would leave the account with no administrator. */
async function comprobarAdministrador(trx: Transaction<DB>, accountId: number, user: UserRow, nuevo: RolUsuario | null): Promise<void> {
  // Every administrator of the account locked, so two changes at once cannot each leave the other as the last one.
  const admins = await trx.selectFrom('users').select('id').where('account_id', '=', accountId).where('rol', '=', 'admin').forUpdate().execute();
  if (!quedaAdministrador(admins.length, user.rol, nuevo)) {
    throw new AppError('conflicto', 'La cuenta se quedaría sin administrador: nombre antes a otro usuario administrador.', {
      campos: { rol: 'Es el único administrador' },
    });
  }
}

/** Change a user's role; their sessions keep working with the new role from their next request. */
export async function cambiarRol(trx: Transaction<DB>, accountId: number, id: number, rol: RolUsuario): Promise<UserRow> {
  const user = await usuarioDeLaCuenta(trx, accountId, id);
  if (user.rol === rol) return user;
  await comprobarAdministrador(trx, accountId, user, rol);
  return trx.updateTable('users').set({ rol }).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

/**
 * Assign a user's plates (the whole list, normalized): as a driver, they see
 * the DeCAs of these vehicles from their next request (shared/rules/roles.ts).
 */
export async function asignarMatriculas(trx: Transaction<DB>, accountId: number, id: number, matriculas: readonly string[]): Promise<UserRow> {
  await usuarioDeLaCuenta(trx, accountId, id);
  return trx
    .updateTable('users')
    .set({ matriculas: JSON.stringify(matriculas) })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Remove a user from the account: their sessions end at once (they go with the row). */
export async function quitarUsuario(trx: Transaction<DB>, accountId: number, id: number): Promise<UserRow> {
  const user = await usuarioDeLaCuenta(trx, accountId, id);
  await comprobarAdministrador(trx, accountId, user, null);
  await trx.deleteFrom('users').where('id', '=', id).execute();
  return user;
}

/** Withdraw an open invitation: its link stops working. */
export async function anularInvitacion(trx: Transaction<DB>, accountId: number, id: number): Promise<InvitacionRow> {
  const row = await trx.deleteFrom('invitaciones').where('id', '=', id).where('account_id', '=', accountId).where('aceptada_at', 'is', null).returningAll().executeTakeFirst();
  if (!row) throw new AppError('no_encontrado', `No hay ninguna invitación abierta ${id} en esta cuenta.`);
  return row;
}

/** A user by id (the signed-in one: it exists); `bloquear` locks the row for the rest of the transaction. */
export async function leerUsuario(db: Kysely<DB> | Transaction<DB>, id: number, opts: { bloquear?: boolean } = {}): Promise<UserRow> {
  const q = db.selectFrom('users').selectAll().where('id', '=', id);
  return (opts.bloquear ? q.forUpdate() : q).executeTakeFirstOrThrow();
}
