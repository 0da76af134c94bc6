import type { Kysely, Transaction } from 'kysely';
import { AppError } from '../../../shared/errors';
import type { Plan, Rol } from '../../../shared/schemas/cuenta';
import type { AccountRow, DB, UserRow } from '../../db/schema';
import { hashPassword } from './passwords';

export interface CrearCuentaInput {
  nombre: string;
  nif: string;
  domicilio?: string | null;
  rol: Rol;
  plan?: Plan;
  /** With email and password, the account's first (admin) user is created too. */
  email?: string | null;
  password?: string | null;
}

/** Create an account and, when given, its admin user. */
export async function crearCuenta(
  trx: Transaction<DB>,
  input: CrearCuentaInput,
): Promise<{ account: AccountRow; user: UserRow | null }> {
  const email = input.email?.trim().toLowerCase() || null;
  if (email) {
    const taken = await trx.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst();
    if (taken) {
      throw new AppError('email_registrado', 'Ya existe una cuenta con ese correo. Inicie sesión o use otro correo.', {
        campos: { email: 'Ya registrado' },
      });
    }
  }
  const account = await trx
    .insertInto('accounts')
    .values({
      nombre: input.nombre.trim(),
      nif: input.nif.trim().toUpperCase(),
      domicilio: input.domicilio?.trim() || null,
      rol: input.rol,
      plan: input.plan ?? 'free',
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  let user: UserRow | null = null;
  if (email && input.password) {
    user = await trx
      .insertInto('users')
      .values({ account_id: account.id, email, password_hash: await hashPassword(input.password), rol: 'admin' })
      .returningAll()
      .executeTakeFirstOrThrow();
  }
  return { account, user };
}

/** Change an account's plan. */
export async function cambiarPlan(trx: Transaction<DB>, accountId: number, plan: Plan): Promise<AccountRow> {
  const row = await trx.updateTable('accounts').set({ plan }).where('id', '=', accountId).returningAll().executeTakeFirst();
  if (!row) throw new AppError('no_encontrado', `No existe la cuenta ${accountId}.`);
  return row;
}

/** One account by id, or a 404 AppError. */
export async function obtenerCuenta(db: Kysely<DB>, accountId: number): Promise<AccountRow> {
  const row = await db.selectFrom('accounts').selectAll().where('id', '=', accountId).executeTakeFirst();
  if (!row) throw new AppError('no_encontrado', `No existe la cuenta ${accountId}.`);
  return row;
}
