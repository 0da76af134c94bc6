/**
 * A DeCA issued with no coverage, before its device has synced: its QR
 * carries the ficha URL with a summary signed by the device
 * (shared/rules/resumen-offline.ts). The server vouches for it only when the
 * token was reserved for that device, the summary names the number reserved
 * with it, the device is not revoked, and the signature is the device's key's.
 */
import { webcrypto } from 'node:crypto';
import type { Kysely } from 'kysely';
import { datosAFirmar, decodificarResumen, partirParametro, type ResumenOffline } from '../../../shared/rules/resumen-offline';
import type { ClavePublica } from '../../../shared/schemas/dispositivo';
import type { DB } from '../../db/schema';

export interface FichaOffline {
  resumen: ResumenOffline;
  /** The company whose device signed it. */
  empresa: string;
  dispositivo: string;
}

async function firmaValida(clave: ClavePublica, datos: Uint8Array, firma: Uint8Array): Promise<boolean> {
  try {
    const key = await webcrypto.subtle.importKey('jwk', { ...clave, ext: true }, { name: 'ECDSA', namedCurve: 'P-256' }, false, ['verify']);
    return await webcrypto.subtle.verify({ name: 'ECDSA', hash: 'SHA-256' }, key, firma, datos);
  } catch {
    return false;
  }
}

/** The signed summary behind a reserved token, verified; null for anything that does not hold (never saying which). */
export async function verificarOffline(db: Kysely<DB>, token: string, o: string): Promise<FichaOffline | null> {
  const partes = partirParametro(o);
  const resumen = partes && decodificarResumen(partes.resumen);
  if (!partes || !resumen || !/^[\w-]{20,64}$/.test(token)) return null;
  const r = await db
    .selectFrom('reservas as r')
    .innerJoin('dispositivos as d', 'd.id', 'r.dispositivo_id')
    .innerJoin('accounts as a', 'a.id', 'r.account_id')
    .select(['r.numero', 'r.caduca_at', 'd.clave_publica', 'd.revocado_at', 'd.nombre as dispositivo', 'a.nombre as empresa'])
    .where('r.token_publico', '=', token)
    .executeTakeFirst();
  if (!r || r.revocado_at || r.numero !== resumen.numero) return null;
  // Issued (by the device's clock) while the number was still its to give.
  if (resumen.emitida_at.getTime() > r.caduca_at.getTime()) return null;
  if (!(await firmaValida(r.clave_publica, datosAFirmar(partes.resumen), partes.firma))) return null;
  return { resumen, empresa: r.empresa, dispositivo: r.dispositivo };
}
