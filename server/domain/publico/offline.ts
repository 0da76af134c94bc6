/**
 * A DeCA issued with no coverage, before its device has synced: its QR
 * carries the ficha URL with a summary signed by the device
 * (shared/rules/resumen-offline.ts; either of its formats). The server vouches for it only when the
 * token was reserved for that device, the summary names the number reserved
 * with it, its issue time lies between the reservation and now (plus the
 * clock allowance: shared/rules/reservas.ts), the device is not revoked, and
 * the signature is the device's key's.
 */
import { webcrypto } from 'node:crypto';
import type { Kysely } from 'kysely';
import { AppError } from '../../../shared/errors';
import { fueraDePlazo } from '../../../shared/rules/reservas';
import { huellaDatos, leerParametro } from '../../../shared/rules/resumen-offline';
import type { DecaDatos } from '../../../shared/schemas/deca';
import type { ClavePublica } from '../../../shared/schemas/dispositivo';
import type { FichaOffline } from '../../../shared/schemas/publico';
import type { DB } from '../../db/schema';
import { formaDeToken } from '../accounts/tokens';

export type { FichaOffline };

async function firmaValida(clave: ClavePublica, datos: Uint8Array, firma: Uint8Array): Promise<boolean> {
  try {
    const key = await webcrypto.subtle.importKey('jwk', { ...clave, ext: true }, { name: 'ECDSA', namedCurve: 'P-256' }, false, ['verify']);
    return await webcrypto.subtle.verify({ name: 'ECDSA', hash: 'SHA-256' }, key, firma, datos);
  } catch {
    return false;
  }
}

/** The signed summary behind a reserved token, verified at `ahora`; null for anything that does not hold (never saying which). */
export async function verificarOffline(db: Kysely<DB>, token: string, o: string, ahora: Date): Promise<FichaOffline | null> {
  const partes = leerParametro(o);
  if (!partes || !formaDeToken(token)) return null;
  const { resumen } = partes;
  const r = await db
    .selectFrom('reservas as r')
    .innerJoin('dispositivos as d', 'd.id', 'r.dispositivo_id')
    .innerJoin('accounts as a', 'a.id', 'r.account_id')
    .select(['r.entorno', 'r.numero', 'r.created_at', 'r.caduca_at', 'd.clave_publica', 'd.revocado_at', 'd.nombre as dispositivo', 'a.nombre as empresa'])
    .where('r.token_publico', '=', token)
    .executeTakeFirst();
  if (!r || r.revocado_at || r.numero !== resumen.numero) return null;
  // Issued (by the device's clock) while the number was still its to give.
  if (resumen.emitida_at.getTime() > r.caduca_at.getTime()) return null;
  // Not before the number was reserved, nor ahead of now beyond the clock allowance.
  if (fueraDePlazo(resumen.emitida_at, r.created_at, ahora)) return null;
  if (!(await firmaValida(r.clave_publica, partes.firmado, partes.firma))) return null;
  return { resumen, entorno: r.entorno, empresa: r.empresa, dispositivo: r.dispositivo };
}

/**
 * The signed summary a device sends with a DeCA it issued with no coverage,
 * checked against what the server is about to issue: the device's own
 * signature for that number, the hash of exactly these data, and the issue
 * time the DeCA takes. The server's PDF then carries the same QR as the
 * device's, and an inspector who scanned it reads the same document.
 */
export async function comprobarResumenFirmado(db: Kysely<DB>, reserva: { token: string; numero: string; emitidaAt: Date }, o: string, datos: DecaDatos): Promise<void> {
  const invalido = (mensaje: string) => new AppError('validacion', mensaje, { campos: { 'emision_offline.qr': mensaje } });
  // The issue time was checked against the server's clock already (comprobarReserva); the summary must carry that very time.
  const v = await verificarOffline(db, reserva.token, o, reserva.emitidaAt);
  if (!v || v.resumen.numero !== reserva.numero) throw invalido(`El QR firmado no es de este dispositivo para el número ${reserva.numero}.`);
  if (v.resumen.huella !== huellaDatos(datos)) throw invalido('El QR firmado no corresponde a los datos de la DeCA: no se emite con otros datos que los firmados.');
  if (v.resumen.emitida_at.getTime() !== Math.floor(reserva.emitidaAt.getTime() / 1000) * 1000) {
    throw invalido('El QR firmado lleva otra hora de emisión que la DeCA.');
  }
}
