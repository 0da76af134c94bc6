/**
 * Devices of an account's users, and the numbers each holds for DeCAs
 * issued with no coverage (rules: shared/rules/reservas.ts).
 */
import { type Kysely, sql, type Transaction } from 'kysely';
import { AppError } from '../../../shared/errors';
import { limiteMensual } from '../../../shared/rules/cuota';
import { fechaEs, fechaHoraEs, fechaMadrid, mesMadrid } from '../../../shared/rules/fechas';
import { ADELANTO_MAXIMO_MS, caducidadReserva, fueraDePlazo, numeroDelAnio, numerosQueFaltan, reservasUsables } from '../../../shared/rules/reservas';
import type { Entorno } from '../../../shared/schemas/cuenta';
import type { ClavePublica } from '../../../shared/schemas/dispositivo';
import type { DB, DispositivoRow, ReservaRow } from '../../db/schema';
import { sha256Hex } from '../../sha256';
import { cuentaSinConfirmar } from '../accounts/cuota';
import { randomToken } from '../accounts/tokens';
import type { Actor } from '../actor';
import { delAmbito } from '../ambito';
import type { Plan, Trx } from '../context';
import { formatNumero } from '../decas/numeracion';
import { escritura } from '../plan';

/** What tells one device's key from another's at a glance (and makes a key's registration unique). */
export function huellaClave(k: ClavePublica): string {
  return sha256Hex(`${k.x}.${k.y}`).slice(0, 16);
}

const noEncontrado = () => new AppError('no_encontrado', 'Este dispositivo no está registrado en su cuenta.');
const revocado = () => new AppError('conflicto', 'Este dispositivo se dio de baja en la cuenta: no puede emitir sin cobertura. Vuelva a iniciar sesión en él para registrarlo de nuevo.');

/** A device of the account, locked for the rest of the transaction; 404 when the account has none with that id. */
async function bloquearDispositivo(trx: Transaction<DB>, accountId: number, id: number): Promise<DispositivoRow> {
  const row = await trx.selectFrom('dispositivos').selectAll().where('id', '=', id).where('account_id', '=', accountId).forUpdate().executeTakeFirst();
  if (!row) throw noEncontrado();
  return row;
}

/**
 * Register the signed-in user's device key: refused here, before any
 * transaction, when no user is signed in (an API key); the plan writes in
 * the command's transaction. Registering the same key again returns the
 * same device. A key already registered for another user of the account, or
 * one that was revoked, is refused (a revoked key stays revoked: the device
 * makes a new pair).
 */
export function prepararRegistro(actor: Actor, input: { nombre: string; clave_publica: ClavePublica }, now: Date): Plan<DispositivoRow> {
  const userId = actor.userId;
  if (userId === null) throw new AppError('prohibido', 'Solo un usuario con sesión iniciada registra dispositivos.');
  return escritura((trx) => registrarDispositivo(trx, actor.accountId, userId, input, now));
}

/** The registration's writes (see prepararRegistro): the key is inserted unless there, then read back and checked. */
async function registrarDispositivo(trx: Trx, accountId: number, userId: number, input: { nombre: string; clave_publica: ClavePublica }, now: Date): Promise<DispositivoRow> {
  const huella = huellaClave(input.clave_publica);
  await trx
    .insertInto('dispositivos')
    .values({
      account_id: accountId,
      user_id: userId,
      nombre: input.nombre,
      clave_publica: JSON.stringify({ kty: 'EC', crv: 'P-256', x: input.clave_publica.x, y: input.clave_publica.y }),
      huella,
      created_at: now,
    })
    .onConflict((oc) => oc.columns(['account_id', 'huella']).doNothing())
    .execute();
  const row = await trx.selectFrom('dispositivos').selectAll().where('account_id', '=', accountId).where('huella', '=', huella).executeTakeFirstOrThrow();
  if (row.user_id !== userId) throw new AppError('conflicto', 'Esta clave ya está registrada para otro usuario de la cuenta.');
  if (row.revocado_at) throw revocado();
  return row;
}

/** The account's devices, newest first, with their user's e-mail. */
export async function listarDispositivos(db: Kysely<DB>, accountId: number): Promise<(DispositivoRow & { email: string })[]> {
  return db.selectFrom('dispositivos as d').innerJoin('users as u', 'u.id', 'd.user_id').selectAll('d').select('u.email').where('d.account_id', '=', accountId).orderBy('d.id', 'desc').execute();
}

/**
 * Revoke a device: its unused numbers are released (never given again: they
 * stay gaps) and it gets no more. Its user or an administrator may.
 */
export async function revocarDispositivo(trx: Transaction<DB>, actor: Actor, id: number, now: Date): Promise<DispositivoRow & { email: string }> {
  const row = await bloquearDispositivo(trx, actor.accountId, id);
  if (row.user_id !== actor.userId && actor.rol !== 'admin') {
    throw new AppError('prohibido', 'Solo un administrador o el propio usuario pueden dar de baja un dispositivo.');
  }
  const revocadoAt = row.revocado_at ?? now;
  if (!row.revocado_at) await trx.updateTable('dispositivos').set({ revocado_at: now }).where('id', '=', id).execute();
  await trx.updateTable('reservas').set({ caduca_at: now }).where('dispositivo_id', '=', id).where('usada_at', 'is', null).where('caduca_at', '>', now).execute();
  const { email } = await trx.selectFrom('users').select('email').where('id', '=', row.user_id).executeTakeFirstOrThrow();
  return { ...row, revocado_at: revocadoAt, email };
}

/**
 * The numbers a device holds in an environment, refilled when fewer than
 * RESERVA_MINIMO are usable. In production the account must have confirmed
 * its e-mail: refused here, before any transaction; the plan reads and
 * refills in the command's transaction (see reservarNumeros).
 */
export function prepararReservas(actor: Actor, dispositivoId: number, entorno: Entorno, now: Date): Plan<ReservaRow[]> {
  if (entorno === 'produccion' && !actor.cuenta.confirmada_at) throw cuentaSinConfirmar('emitir sin cobertura');
  return escritura((trx) => reservarNumeros(trx, actor, dispositivoId, entorno, now));
}

/**
 * The refill, in the command's transaction: the new numbers come from the
 * account's counter in one statement (so they never collide with another
 * device's or with a DeCA made online), each with a public token. The
 * device's row is locked meanwhile, so two refills at once give one refill.
 * On the free plan a refill never holds more numbers than the month has left.
 */
async function reservarNumeros(trx: Trx, actor: Actor, dispositivoId: number, entorno: Entorno, now: Date): Promise<ReservaRow[]> {
  const disp = await bloquearDispositivo(trx, actor.accountId, dispositivoId);
  // Another user's device is as unknown as one that does not exist.
  if (disp.user_id !== actor.userId) throw noEncontrado();
  if (disp.revocado_at) throw revocado();
  const tiene = await trx
    .selectFrom('reservas')
    .selectAll()
    .where('dispositivo_id', '=', dispositivoId)
    .where('entorno', '=', entorno)
    .where('usada_at', 'is', null)
    .where('caduca_at', '>', now)
    .execute();
  let faltan = numerosQueFaltan(tiene, now);
  const limite = limiteMensual(actor.cuenta.plan, entorno, mesMadrid(now));
  if (faltan > 0 && limite !== null) {
    const uso = await trx
      .selectFrom('uso_mensual')
      .select('decas')
      .where(delAmbito({ accountId: actor.accountId, entorno }))
      .where('mes', '=', mesMadrid(now))
      .executeTakeFirst();
    faltan = Math.min(faltan, Math.max(0, limite - (uso?.decas ?? 0) - reservasUsables(tiene, now).length));
  }
  if (faltan > 0) {
    const anio = Number(fechaMadrid(now).slice(0, 4));
    const { ultimo } = await trx
      .insertInto('numeradores')
      .values({ account_id: actor.accountId, entorno, anio, ultimo: faltan })
      .onConflict((oc) => oc.columns(['account_id', 'entorno', 'anio']).doUpdateSet({ ultimo: sql`numeradores.ultimo + ${faltan}` }))
      .returning('ultimo')
      .executeTakeFirstOrThrow();
    const nuevas = await trx
      .insertInto('reservas')
      .values(
        Array.from({ length: faltan }, (_, i) => ({
          account_id: actor.accountId,
          entorno,
          dispositivo_id: dispositivoId,
          numero: formatNumero(anio, ultimo - faltan + 1 + i),
          token_publico: randomToken(24),
          created_at: now,
          caduca_at: caducidadReserva(now),
        })),
      )
      .returningAll()
      .execute();
    tiene.push(...nuevas);
  }
  return reservasUsables(tiene, now);
}

/** A reserved number a DeCA issued on a device says it used, checked. */
export interface ReservaTomada {
  id: number;
  numero: string;
  token: string;
  /** The device's issue time: the DeCA's emitido_at, on its PDF. */
  emitidaAt: Date;
  dispositivoId: number;
  dispositivoNombre: string;
}

/**
 * Check the reservation a DeCA issued with no coverage used: reserved in
 * this account and environment for that device of the signed-in user, with
 * that token, not used before, issued (by the device's clock) after the
 * number was reserved and not later than the server's clock allows
 * (shared/rules/reservas.ts: fueraDePlazo), and still the device's when it
 * issued. Refusals say which, so the app can keep them on the item.
 */
export async function comprobarReserva(db: Kysely<DB>, actor: Actor, e: { dispositivo_id: number; numero: string; token: string; emitida_at: string }, now: Date): Promise<ReservaTomada> {
  if (actor.userId === null) throw new AppError('prohibido', 'Solo la aplicación, con la sesión del usuario del dispositivo, emite con un número reservado.');
  const r = await db
    .selectFrom('reservas as r')
    .innerJoin('dispositivos as d', 'd.id', 'r.dispositivo_id')
    .select(['r.id', 'r.numero', 'r.token_publico', 'r.dispositivo_id', 'r.created_at', 'r.caduca_at', 'r.usada_at', 'd.user_id', 'd.nombre'])
    .where(delAmbito(actor, 'r'))
    .where('r.numero', '=', e.numero)
    .executeTakeFirst();
  if (!r || r.token_publico !== e.token || r.dispositivo_id !== e.dispositivo_id || r.user_id !== actor.userId) {
    throw new AppError('conflicto', `El número ${e.numero} no estaba reservado para este dispositivo: la DeCA no se emite con él.`);
  }
  if (r.usada_at) throw new AppError('conflicto', `El número ${e.numero} ya lo usó otra DeCA: no se da dos veces.`);
  const emitidaAt = new Date(e.emitida_at);
  const plazo = fueraDePlazo(emitidaAt, r.created_at, now);
  if (plazo === 'adelantada') {
    throw new AppError(
      'validacion',
      `La hora de emisión (${fechaHoraEs(emitidaAt)}) es posterior a la del servidor en más de ${ADELANTO_MAXIMO_MS / 60_000} minutos: revise la hora del dispositivo.`,
      {
        campos: { 'emision_offline.emitida_at': 'Hora del dispositivo adelantada' },
      },
    );
  }
  if (plazo === 'antes_de_la_reserva') {
    throw new AppError(
      'validacion',
      `La hora de emisión (${fechaHoraEs(emitidaAt)}) es anterior a la reserva del número ${r.numero} (${fechaHoraEs(r.created_at)}): una DeCA no se emite antes de tener su número. Revise la hora del dispositivo.`,
      { campos: { 'emision_offline.emitida_at': 'Anterior a la reserva del número' } },
    );
  }
  if (emitidaAt.getTime() > r.caduca_at.getTime()) {
    throw new AppError('conflicto', `El número ${e.numero} ya no era de este dispositivo cuando se emitió (caducó o se dio de baja el dispositivo).`);
  }
  if (!numeroDelAnio(r.numero, emitidaAt)) {
    throw new AppError('conflicto', `El número ${e.numero} es de la serie de ${r.numero.slice(0, 4)}: no vale para una DeCA emitida el ${fechaEs(fechaMadrid(emitidaAt))}.`);
  }
  return { id: r.id, numero: r.numero, token: r.token_publico, emitidaAt, dispositivoId: r.dispositivo_id, dispositivoNombre: r.nombre };
}

/** Mark the reservation used by the DeCA, in the transaction that creates it; one used meanwhile is refused. */
export async function usarReserva(trx: Transaction<DB>, t: ReservaTomada, decaId: number, now: Date): Promise<void> {
  const r = await trx.updateTable('reservas').set({ usada_at: now, deca_id: decaId }).where('id', '=', t.id).where('usada_at', 'is', null).executeTakeFirst();
  if (Number(r.numUpdatedRows) !== 1) throw new AppError('conflicto', `El número ${t.numero} ya lo usó otra DeCA: no se da dos veces.`);
}

/** A device's reserved number a DeCA made by the app with coverage took (see tomarReservaEnLinea). */
export interface ReservaEnLinea {
  id: number;
  numero: string;
  token: string;
}

/**
 * The number a device of the app names for a DeCA it creates with coverage
 * (`reserva_dispositivo`): claimed in one short statement of its own, as the
 * account's counter is (numeracion.ts), when it is still that device's — of
 * the signed-in user, not revoked, unused, unexpired, of this year in Madrid —
 * and the month's quota has room (so a refused request never spends it).
 * Null otherwise (an API key, which has no device; a number expired or used
 * meanwhile): the DeCA then takes the account's next number. Claimed, it is
 * spent even if the creation fails afterwards (a gap, as with the counter);
 * the DeCA's transaction links it (usarReservaEnLinea). The device picks it
 * and marks it used in its own store at once, so the same number is never
 * also given to a DeCA it issues with no coverage.
 */
export async function tomarReservaEnLinea(db: Kysely<DB>, actor: Actor, pedida: { dispositivo_id: number; numero: string }, now: Date): Promise<ReservaEnLinea | null> {
  if (actor.userId === null) return null;
  const anio = fechaMadrid(now).slice(0, 4);
  const mes = mesMadrid(now);
  const limite = limiteMensual(actor.cuenta.plan, actor.entorno, mes);
  const r = await db
    .updateTable('reservas')
    .set({ usada_at: now })
    .where('id', '=', (eb) =>
      eb
        .selectFrom('reservas as r')
        .innerJoin('dispositivos as d', 'd.id', 'r.dispositivo_id')
        .select('r.id')
        .where(delAmbito(actor, 'r'))
        .where('r.numero', '=', pedida.numero)
        .where('r.dispositivo_id', '=', pedida.dispositivo_id)
        .where('d.user_id', '=', actor.userId)
        .where('d.revocado_at', 'is', null)
        .where('r.caduca_at', '>', now)
        .where(sql<boolean>`left(r.numero, 4) = ${anio}`),
    )
    .where('usada_at', 'is', null)
    .$if(limite !== null, (q) => q.where(sql<boolean>`coalesce((select decas from uso_mensual where account_id = ${actor.accountId} and entorno = ${actor.entorno} and mes = ${mes}), 0) < ${limite}`))
    .returning(['id', 'numero', 'token_publico'])
    .executeTakeFirst();
  return r ? { id: r.id, numero: r.numero, token: r.token_publico } : null;
}

/** Link the claimed reservation to the DeCA that took it, in the transaction that creates it. */
export async function usarReservaEnLinea(trx: Transaction<DB>, r: ReservaEnLinea, decaId: number): Promise<void> {
  await trx.updateTable('reservas').set({ deca_id: decaId }).where('id', '=', r.id).execute();
}
