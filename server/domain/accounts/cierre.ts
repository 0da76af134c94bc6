/**
 * Closing an account: what the law does not require to keep goes, at once
 * and in one transaction; the issued DeCAs, their versions and history stay
 * until their retention ends (spec: Retention; Orden FOM/2861/2012 art. 6),
 * with their public links working for inspections. The person takes their
 * data away first (domain/accounts/exportacion.ts): the export is built
 * before the transaction, and its link is e-mailed in it.
 */
import type { Kysely } from 'kysely';
import { AppError } from '../../../shared/errors';
import { formatMadrid } from '../../../shared/rules/fechas';
import { CONSERVACION_DECA_TEXTO } from '../../../shared/rules/privacidad';
import type { AccountRow, DB } from '../../db/schema';
import { sha256Hex } from '../../sha256';
import type { Trx } from '../context';
import { enqueueCorreo, mensajeExportacion } from '../correo/correos';
import { caducidadExportacion, type ExportacionHecha, urlExportacion } from './exportacion';
import { randomToken } from './tokens';

/** What a closed account's users keep instead of a password hash: no password verifies against it. */
export const SIN_CONTRASENA = 'cuenta-cerrada';

/** What closing did, for the answer (the link only for the operator's CLI: the app gets it by e-mail). */
export interface CuentaCerradaResultado {
  cerradaAt: Date;
  enlace: string;
  caducaAt: Date;
  enviadaA: string;
  /** Issued DeCAs kept (production). */
  decasConservadas: number;
  /** DeCAs deleted: pending ones (both environments) and every one of the test environment. */
  borradas: number[];
}

/** 409 when the account is closed already (a second closure, or the operator after the administrator). */
export function yaCerrada(a: Pick<AccountRow, 'nombre' | 'cerrada_at'>): AppError {
  return new AppError('sin_cambios', `La cuenta de ${a.nombre} ya está cerrada desde el ${formatMadrid(a.cerrada_at!)}.`);
}

/** Before the export: the account, refused when it is closed already. */
export async function cuentaPorCerrar(db: Kysely<DB>, accountId: number): Promise<AccountRow> {
  const a = await db.selectFrom('accounts').selectAll().where('id', '=', accountId).executeTakeFirst();
  if (!a) throw new AppError('no_encontrado', `No existe la cuenta ${accountId}.`);
  if (a.cerrada_at) throw yaCerrada(a);
  return a;
}

/** The address the export's link goes to when the operator closes an account: its first administrator's. */
export async function primerAdministrador(db: Kysely<DB>, accountId: number): Promise<string> {
  const u = await db.selectFrom('users').select('email').where('account_id', '=', accountId).where('rol', '=', 'admin').orderBy('id').executeTakeFirst();
  if (!u) throw new AppError('no_encontrado', `La cuenta ${accountId} no tiene ningún administrador a quien enviar sus datos.`);
  return u.email;
}

/**
 * Close the account in the command layer's transaction, the export of its
 * data already written: the account marked closed (no sign-in, no key from
 * now on), every API key revoked, every session ended, every device
 * revoked (and its unused numbers freed), invitations and reset links gone;
 * users keep only their e-mail (it names who made each DeCA in its history)
 * and role; webhooks with their deliveries, the address book, e-mail (queued
 * or sent), the other party's drafts, the month's counts, idempotency
 * records and outbox events deleted; pending DeCAs and the whole test
 * environment deleted (no validity, nothing to keep), and the delivery-note
 * photos of no DeCA kept let go (deleted within the hour). Then the export's
 * link is recorded (its token's hash) and e-mailed to `destinatario`.
 */
export async function cerrarCuenta(trx: Trx, c: { accountId: number; exportacion: ExportacionHecha; destinatario: string; siteUrl: string; now: Date }): Promise<CuentaCerradaResultado> {
  const { accountId, now } = c;
  const cuenta = await trx.selectFrom('accounts').selectAll().where('id', '=', accountId).forUpdate().executeTakeFirst();
  if (!cuenta) throw new AppError('no_encontrado', `No existe la cuenta ${accountId}.`);
  if (cuenta.cerrada_at) throw yaCerrada(cuenta);

  await trx.updateTable('accounts').set({ cerrada_at: now }).where('id', '=', accountId).execute();
  await trx.updateTable('api_keys').set({ revocada_at: now }).where('account_id', '=', accountId).where('revocada_at', 'is', null).execute();
  await trx.deleteFrom('sessions').where('account_id', '=', accountId).execute();
  await trx.updateTable('dispositivos').set({ revocado_at: now }).where('account_id', '=', accountId).where('revocado_at', 'is', null).execute();
  await trx.deleteFrom('reservas').where('account_id', '=', accountId).where('usada_at', 'is', null).execute();
  await trx.deleteFrom('invitaciones').where('account_id', '=', accountId).execute();
  await trx
    .deleteFrom('restablecimientos')
    .where('user_id', 'in', (eb) => eb.selectFrom('users').select('id').where('account_id', '=', accountId))
    .execute();
  await trx.updateTable('users').set({ password_hash: SIN_CONTRASENA, confirmacion_hash: null, matriculas: '[]' }).where('account_id', '=', accountId).execute();
  await trx.deleteFrom('webhooks').where('account_id', '=', accountId).execute();
  await trx.deleteFrom('agenda').where('account_id', '=', accountId).execute();
  await trx.deleteFrom('correos').where('account_id', '=', accountId).execute();
  await trx.deleteFrom('completar_borradores').where('account_id', '=', accountId).execute();
  await trx.deleteFrom('uso_mensual').where('account_id', '=', accountId).execute();
  await trx.deleteFrom('idempotencia').where('account_id', '=', accountId).execute();
  await trx.deleteFrom('eventos').where('account_id', '=', accountId).execute();
  // Pending DeCAs were never issued (their completion links die with them), and the test environment has no validity.
  const borradas = await trx
    .deleteFrom('decas')
    .where('account_id', '=', accountId)
    .where((eb) => eb.or([eb('estado', '=', 'pendiente'), eb('entorno', '=', 'pruebas')]))
    .returning('id')
    .execute();
  // Delivery-note photos go with the next hourly maintenance, but those of the issued DeCAs kept (they go with their DeCA).
  const soltar = trx.updateTable('fotos').set({ deca_id: null, caduca_at: now }).where('account_id', '=', accountId);
  await soltar.where('deca_id', 'is', null).execute();
  for (let i = 0; i < borradas.length; i += 1000) {
    await soltar
      .where(
        'deca_id',
        'in',
        borradas.slice(i, i + 1000).map((b) => b.id),
      )
      .execute();
  }
  const { n } = await trx
    .selectFrom('decas')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('account_id', '=', accountId)
    .where('entorno', '=', 'produccion')
    .executeTakeFirstOrThrow();

  const token = randomToken(32);
  const caducaAt = caducidadExportacion(now);
  const enlace = urlExportacion(c.siteUrl, token);
  await trx
    .insertInto('exportaciones')
    .values({
      account_id: accountId,
      token_hash: sha256Hex(token),
      archivo: c.exportacion.archivo,
      bytes: c.exportacion.bytes,
      enviada_a: c.destinatario,
      created_at: now,
      caduca_at: caducaAt,
    })
    .execute();
  const megas = `${Math.max(0.1, c.exportacion.bytes / 1_048_576)
    .toFixed(1)
    .replace('.', ',')} MB`;
  await enqueueCorreo(
    trx,
    { accountId, entorno: 'produccion' },
    {
      tipo: 'exportacion_cuenta',
      decaId: null,
      destinatario: c.destinatario,
      ...mensajeExportacion(cuenta, enlace, { caduca: formatMadrid(caducaAt), megas, decas: Number(n), conservacion: CONSERVACION_DECA_TEXTO }),
    },
    now,
  );
  return { cerradaAt: now, enlace, caducaAt, enviadaA: c.destinatario, decasConservadas: Number(n), borradas: borradas.map((b) => b.id) };
}
