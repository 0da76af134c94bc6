import { type Kysely, sql, type Transaction } from 'kysely';
import { AppError } from '../../../shared/errors';
import type { Plan, Rol } from '../../../shared/schemas/cuenta';
import type { AccountRow, DB, UserRow } from '../../db/schema';
import { sha256Hex } from '../../sha256';
import { enqueueCorreo, mensajeConfirmacion } from '../correo/correos';
import { hashPassword } from './passwords';
import { formaDeToken, randomToken } from './tokens';

export interface CrearCuentaInput {
  nombre: string;
  nif: string;
  domicilio?: string | null;
  rol: Rol;
  plan?: Plan;
  /** With email and password, the account's first (admin) user is created too. */
  email?: string | null;
  password?: string | null;
  /**
   * Sign-up: the address is not confirmed yet, so a confirmation link is
   * e-mailed (through the mail outbox, in this transaction) and live use is
   * limited until it is opened. The operator's CLI creates confirmed accounts.
   */
  confirmar?: { siteUrl: string; now: Date };
}

/** An account ready to create: its e-mail checked free and its password hashed (`prepararCuenta`). */
export interface CuentaPreparada extends Omit<CrearCuentaInput, 'email' | 'password'> {
  email: string | null;
  passwordHash: string | null;
}

const emailRegistrado = () => new AppError('email_registrado', 'Ya existe una cuenta con ese correo. Inicie sesión o use otro correo.', { campos: { email: 'Ya registrado' } });

/**
 * Before the transaction: the e-mail normalized and checked free, and the
 * password hashed (slow on purpose). Two sign-ups racing for one address
 * meet the unique index, which answers the same `email_registrado`.
 */
export async function prepararCuenta(db: Kysely<DB>, input: CrearCuentaInput): Promise<CuentaPreparada> {
  const { email: dado, password, ...resto } = input;
  const email = dado?.trim().toLowerCase() || null;
  if (email) {
    const taken = await db.selectFrom('users').innerJoin('accounts', 'accounts.id', 'users.account_id').select('accounts.cerrada_at').where('users.email', '=', email).executeTakeFirst();
    if (taken?.cerrada_at) {
      // Its users keep their address: it names who made each DeCA, kept until their retention ends.
      throw new AppError('email_registrado', 'Ese correo fue de un usuario de una cuenta ya cerrada, cuyas DeCA se conservan con él: regístrese con otro correo.', {
        campos: { email: 'Es de una cuenta cerrada' },
      });
    }
    if (taken) throw emailRegistrado();
  }
  return { ...resto, email, passwordHash: email && password ? await hashPassword(password) : null };
}

/** Create a prepared account and, when it has e-mail and password, its admin user. */
export async function crearCuenta(trx: Transaction<DB>, input: CuentaPreparada): Promise<{ account: AccountRow; user: UserRow | null }> {
  const account = await trx
    .insertInto('accounts')
    .values({
      nombre: input.nombre.trim(),
      nif: input.nif.trim().toUpperCase(),
      domicilio: input.domicilio?.trim() || null,
      rol: input.rol,
      plan: input.plan ?? 'free',
      confirmada_at: input.confirmar ? null : sql`now()`,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  let user: UserRow | null = null;
  if (input.email && input.passwordHash) {
    user = await trx
      .insertInto('users')
      .values({
        account_id: account.id,
        email: input.email,
        password_hash: input.passwordHash,
        rol: 'admin',
        email_confirmado_at: input.confirmar ? null : sql`now()`,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    if (input.confirmar) user = (await enviarConfirmacion(trx, account, user, input.confirmar.siteUrl, input.confirmar.now)) ?? user;
  }
  return { account, user };
}

/** The link that confirms a user's e-mail. */
export function urlConfirmacion(siteUrl: string, token: string): string {
  return `${siteUrl}/confirmar/${token}`;
}

/**
 * (Re)send the confirmation link while the address is unconfirmed: a new
 * token (the old link stops working), its hash stored, the mail queued.
 * Null, and nothing sent, when the address was confirmed meanwhile.
 */
export async function enviarConfirmacion(trx: Transaction<DB>, account: AccountRow, user: UserRow, siteUrl: string, now: Date): Promise<UserRow | null> {
  const token = randomToken(32);
  const updated = await trx
    .updateTable('users')
    .set({ confirmacion_hash: sha256Hex(token) })
    .where('id', '=', user.id)
    .where('email_confirmado_at', 'is', null)
    .returningAll()
    .executeTakeFirst();
  if (!updated) return null;
  await enqueueCorreo(
    trx,
    { accountId: account.id, entorno: 'produccion' },
    { tipo: 'confirmar_email', decaId: null, destinatario: user.email, ...mensajeConfirmacion(account, urlConfirmacion(siteUrl, token)) },
    now,
  );
  return updated;
}

const yaConfirmado = () => new AppError('sin_cambios', 'Su correo ya está confirmado.');

/** The signed-in user whose link to send again, before the transaction; 409 `sin_cambios` when their address is confirmed already. */
export async function prepararReenvioConfirmacion(db: Kysely<DB>, userId: number): Promise<UserRow> {
  const user = await db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirstOrThrow();
  if (user.email_confirmado_at) throw yaConfirmado();
  return user;
}

/** Send the user's confirmation link again (a new one); 409 `sin_cambios` when the address was confirmed since `prepararReenvioConfirmacion`. */
export async function reenviarConfirmacion(trx: Transaction<DB>, account: AccountRow, user: UserRow, siteUrl: string, now: Date): Promise<UserRow> {
  const enviado = await enviarConfirmacion(trx, account, user, siteUrl, now);
  if (!enviado) throw yaConfirmado();
  return enviado;
}

/**
 * Open a confirmation link: the user's address is confirmed and, for an
 * administrator, the account too. Null when the link is unknown or was
 * replaced by a newer one; a second open of a used link is harmless.
 */
export async function confirmarEmail(trx: Transaction<DB>, token: string, now: Date): Promise<{ account: AccountRow; user: UserRow } | null> {
  if (!formaDeToken(token)) return null;
  const user = await trx.updateTable('users').set({ email_confirmado_at: now, confirmacion_hash: null }).where('confirmacion_hash', '=', sha256Hex(token)).returningAll().executeTakeFirst();
  if (!user) return null;
  if (user.rol === 'admin') {
    await trx.updateTable('accounts').set({ confirmada_at: now }).where('id', '=', user.account_id).where('confirmada_at', 'is', null).execute();
  }
  const account = await trx.selectFrom('accounts').selectAll().where('id', '=', user.account_id).executeTakeFirstOrThrow();
  return { account, user };
}

/** Change the company data; DeCAs already issued keep what they were issued with. */
export async function editarEmpresa(trx: Transaction<DB>, accountId: number, patch: { nombre?: string; nif?: string; domicilio?: string }): Promise<AccountRow> {
  const row = await trx
    .updateTable('accounts')
    .set({ ...(patch.nombre !== undefined && { nombre: patch.nombre }), ...(patch.nif !== undefined && { nif: patch.nif }), ...(patch.domicilio !== undefined && { domicilio: patch.domicilio }) })
    .where('id', '=', accountId)
    .returningAll()
    .executeTakeFirst();
  if (!row) throw new AppError('no_encontrado', `No existe la cuenta ${accountId}.`);
  return row;
}

/** Change an account's plan. */
export async function cambiarPlan(trx: Transaction<DB>, accountId: number, plan: Plan): Promise<AccountRow> {
  const row = await trx.updateTable('accounts').set({ plan }).where('id', '=', accountId).returningAll().executeTakeFirst();
  if (!row) throw new AppError('no_encontrado', `No existe la cuenta ${accountId}.`);
  return row;
}
