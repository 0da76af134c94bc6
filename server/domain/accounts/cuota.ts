import type { Kysely, Transaction } from 'kysely';
import { sql } from 'kysely';
import { AppError } from '../../../shared/errors';
import { limiteFotos, limiteMensual } from '../../../shared/rules/cuota';
import { mesMadrid, primerDiaMesSiguiente } from '../../../shared/rules/fechas';
import type { Cuota, Entorno } from '../../../shared/schemas/cuenta';
import type { AccountRow, DB } from '../../db/schema';
import type { Actor } from '../actor';
import { delAmbito } from '../ambito';
import type { Parte } from '../sentencia';

/**
 * Live DeCAs an account opened through sign-up may create before its e-mail
 * is confirmed: enough to try the service for real, not enough to run a
 * business on an address nobody answers. The test environment has no such limit.
 */
export const DECAS_SIN_CONFIRMAR = 5;

/** The quota of the Madrid month that contains `now`, for one environment. */
export async function obtenerCuota(db: Kysely<DB>, account: AccountRow, entorno: Entorno, now: Date): Promise<Cuota> {
  const mes = mesMadrid(now);
  const uso = await db
    .selectFrom('uso_mensual')
    .select(['decas', 'fotos'])
    .where(delAmbito({ accountId: account.id, entorno }))
    .where('mes', '=', mes)
    .executeTakeFirst();
  const usadas = uso?.decas ?? 0;
  const limite = limiteMensual(account.plan, entorno, mes);
  return {
    periodo: mes,
    limite,
    usadas,
    restantes: limite === null ? null : Math.max(0, limite - usadas),
    reinicia: primerDiaMesSiguiente(mes),
    fotos: cuentaFotos(limiteFotos(account.plan, entorno), uso?.fotos ?? 0),
  };
}

const cuentaFotos = (limite: number | null, usadas: number) => ({ limite, usadas, restantes: limite === null ? null : Math.max(0, limite - usadas) });

/** 429 `limite_plan` for photo reads. */
function limiteFotosAgotado(limite: number, mes: string): AppError {
  return new AppError('limite_plan', `Ha usado las ${limite} lecturas de fotos de este mes del plan gratuito. Pase al plan Pro o espere al ${primerDiaMesSiguiente(mes)}.`);
}

/** Before reading a photo: refuses (429) when the month's reads are spent, so no work is done for nothing. */
export async function comprobarFotos(db: Kysely<DB>, actor: Pick<Actor, 'cuenta' | 'entorno'>, now: Date): Promise<void> {
  const limite = limiteFotos(actor.cuenta.plan, actor.entorno);
  if (limite === null) return;
  const mes = mesMadrid(now);
  const uso = await db
    .selectFrom('uso_mensual')
    .select('fotos')
    .where(delAmbito({ accountId: actor.cuenta.id, entorno: actor.entorno }))
    .where('mes', '=', mes)
    .executeTakeFirst();
  if ((uso?.fotos ?? 0) >= limite) throw limiteFotosAgotado(limite, mes);
}

/** After a photo was read: counts it, refusing (429) the one past the limit even when several finish at once. */
export async function gastarFoto(db: Kysely<DB>, actor: Pick<Actor, 'cuenta' | 'entorno'>, now: Date): Promise<void> {
  const mes = mesMadrid(now);
  const limite = limiteFotos(actor.cuenta.plan, actor.entorno);
  // The count only moves while it is under the limit: no row back means the reads were spent.
  const row = await db
    .insertInto('uso_mensual')
    .values({ account_id: actor.cuenta.id, entorno: actor.entorno, mes, decas: 0, fotos: 1 })
    .onConflict((oc) => {
      const sumar = oc.columns(['account_id', 'entorno', 'mes']).doUpdateSet({ fotos: sql`uso_mensual.fotos + 1` });
      return limite === null ? sumar : sumar.where('uso_mensual.fotos', '<', limite);
    })
    .returning('fotos')
    .executeTakeFirst();
  if (!row && limite !== null) throw limiteFotosAgotado(limite, mes);
}

/**
 * Count one DeCA against the month's quota, as a part of the creating
 * transaction's last statement: the row lock of the upsert serialises
 * concurrent creations, so the 101st of a free account is refused even
 * under load (429 `limite_plan`, and the transaction rolls back).
 */
export function cuotaConsumida(trx: Transaction<DB>, actor: Pick<Actor, 'cuenta' | 'entorno'>, now: Date): Parte {
  const mes = mesMadrid(now);
  const limite = limiteMensual(actor.cuenta.plan, actor.entorno, mes);
  return {
    nombre: 'cuota',
    sentencia: trx
      .insertInto('uso_mensual')
      .values({ account_id: actor.cuenta.id, entorno: actor.entorno, mes, decas: 1 })
      .onConflict((oc) => oc.columns(['account_id', 'entorno', 'mes']).doUpdateSet({ decas: sql`uso_mensual.decas + 1` }))
      .returning('decas'),
    valor: sql`(select decas from cuota)`,
    comprobar: (decas) => {
      if (limite !== null && Number(decas) > limite) throw limitePlan(limite, mes);
    },
  };
}

/** 429 `limite_plan`, saying when the quota resets. */
export function limitePlan(limite: number, mes: string): AppError {
  return new AppError('limite_plan', `Ha usado las ${limite} DeCA de este mes del plan gratuito. Pase al plan Pro o espere al ${primerDiaMesSiguiente(mes)}.`);
}

/** Live DeCAs of an account (every state: a pending one counts as one issued). */
async function decasReales(db: Kysely<DB>, accountId: number): Promise<number> {
  const r = await db
    .selectFrom('decas')
    .select(sql<number>`count(*)::int`.as('n'))
    .where(delAmbito({ accountId, entorno: 'produccion' }))
    .executeTakeFirstOrThrow();
  return r.n;
}

const limiteSinConfirmar = () => cuentaSinConfirmar(`emitir más de ${DECAS_SIN_CONFIRMAR} DeCA reales`);

/**
 * An account opened through sign-up whose e-mail is not confirmed yet may
 * create only DECAS_SIN_CONFIRMAR live DeCAs (409 `cuenta_sin_confirmar`);
 * confirmed accounts and the test environment read nothing here. This is the
 * early refusal, before a number is taken, so a creation one at a time past
 * the cap burns no number; creations at once are held to the cap by
 * contarSinConfirmar, inside their transactions.
 */
export async function exigirCuentaConfirmada(db: Kysely<DB>, actor: Pick<Actor, 'cuenta' | 'entorno'>): Promise<void> {
  if (actor.entorno !== 'produccion' || actor.cuenta.confirmada_at) return;
  if ((await decasReales(db, actor.cuenta.id)) >= DECAS_SIN_CONFIRMAR) throw limiteSinConfirmar();
}

/**
 * The unconfirmed account's cap, counted again inside the creating
 * transaction once its DeCA is written: the account's row is locked first
 * (FOR NO KEY UPDATE, which the foreign keys' checks of the rows being
 * written do not wait for), so concurrent creations of one unconfirmed
 * account count one after another, each seeing the DeCAs the ones before it
 * committed — 40 at once make exactly DECAS_SIN_CONFIRMAR. The one past the
 * cap rolls back with 409 `cuenta_sin_confirmar` (the number it took stays
 * unused: see asignarNumero). An e-mail confirmed meanwhile lifts the cap.
 */
export async function contarSinConfirmar(trx: Transaction<DB>, actor: Pick<Actor, 'cuenta' | 'entorno'>): Promise<void> {
  if (actor.entorno !== 'produccion' || actor.cuenta.confirmada_at) return;
  const cuenta = await trx.selectFrom('accounts').select('confirmada_at').where('id', '=', actor.cuenta.id).forNoKeyUpdate().executeTakeFirst();
  if (!cuenta || cuenta.confirmada_at) return;
  if ((await decasReales(trx, actor.cuenta.id)) > DECAS_SIN_CONFIRMAR) throw limiteSinConfirmar();
}

/** 409 `cuenta_sin_confirmar`: what waits for the confirmation, and where the link is. */
export function cuentaSinConfirmar(que: string): AppError {
  return new AppError(
    'cuenta_sin_confirmar',
    `Confirme el correo de la cuenta para ${que}: abra el enlace que le enviamos (puede pedir otro en Cuenta). El entorno de pruebas funciona ya, sin límite.`,
  );
}
