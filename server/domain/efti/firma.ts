/**
 * How a national eFTI gate authenticates its requests to this platform
 * (docs/efti.md, «Autenticación de la pasarela»).
 *
 * The reference implementation carries the gate ↔ platform messages over
 * eDelivery AS4 (Domibus access points: WS-Security signatures with
 * certificates of the eFTI PKI), and its REST variant has no authentication
 * yet (`PlatformRestService`: «TODO EREF-72»). An AS4 access point is not
 * something this service can run in-process, and mutual TLS ends at
 * whatever proxy is in front of it. So the gate signs each request with a
 * secret it shares with this platform, the way our webhooks are signed:
 *
 *   Efti-Gate-Id: ES
 *   Efti-Firma: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, t "." gate "." METHOD " " path "." body)>
 *
 * The path (with `/demo` for the test environment) is signed, so a request
 * signed for one environment never passes on the other; each environment
 * has its own secret anyway. A signature older or newer than
 * VENTANA_FIRMA_S is refused (replay window), and within it the same
 * signature is answered once (its digest is unique in `efti_consultas`).
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { AppError } from '../../../shared/errors';

/** How far the request's time may be from ours, either way, in seconds. */
export const VENTANA_FIRMA_S = 300;

/** What the gate sent to be checked. */
export interface PeticionFirmada {
  /** `Efti-Gate-Id` as sent ('' when absent). */
  gateId: string;
  /** `Efti-Firma` as sent ('' when absent). */
  firma: string;
  metodo: string;
  /** The path as requested, without the query. */
  ruta: string;
  cuerpo: Uint8Array;
}

/** The signature of a request (the v1 value of `Efti-Firma`), as the gate computes it. */
export function firmaPasarela(secreto: string, t: number, gateId: string, metodo: string, ruta: string, cuerpo: Uint8Array | string): string {
  return createHmac('sha256', secreto).update(`${t}.${gateId}.${metodo.toUpperCase()} ${ruta}.`).update(cuerpo).digest('hex');
}

/** The whole `Efti-Firma` header for a request sent at `t`. */
export function cabeceraFirma(secreto: string, t: number, gateId: string, metodo: string, ruta: string, cuerpo: Uint8Array | string): string {
  return `t=${t},v1=${firmaPasarela(secreto, t, gateId, metodo, ruta, cuerpo)}`;
}

const noAutenticada = (mensaje: string) => new AppError('no_autenticado', mensaje);

/**
 * Check a gate's request against the secret of the environment it was sent
 * to; the gate's id and the digest of its signature (to refuse a replay), or
 * 401 `no_autenticado` saying what is wrong (never which part of the HMAC).
 */
export function verificarFirma(esperado: { gateId: string; secreto: string }, p: PeticionFirmada, ahoraS: number): { gateId: string; firmaSha256: string } {
  if (!p.gateId || !p.firma) {
    throw noAutenticada('Petición de pasarela eFTI sin firmar: envíe las cabeceras Efti-Gate-Id y Efti-Firma (t=…,v1=…).');
  }
  if (p.gateId !== esperado.gateId) throw noAutenticada(`La pasarela «${p.gateId.slice(0, 64)}» no está autorizada en esta plataforma.`);
  const m = /^t=(\d{1,12}),v1=([0-9a-f]{64})$/.exec(p.firma.trim());
  if (!m) throw noAutenticada('Efti-Firma no tiene la forma t=<segundos unix>,v1=<HMAC-SHA256 en hexadecimal>.');
  const t = Number(m[1]);
  if (Math.abs(ahoraS - t) > VENTANA_FIRMA_S) {
    throw noAutenticada(`La firma es de hace demasiado (o de más adelante): t debe estar a menos de ${VENTANA_FIRMA_S} s de la hora de la plataforma. Firme cada petición al enviarla.`);
  }
  const calculada = Buffer.from(firmaPasarela(esperado.secreto, t, p.gateId, p.metodo, p.ruta, p.cuerpo), 'hex');
  const recibida = Buffer.from(m[2] as string, 'hex');
  if (!timingSafeEqual(calculada, recibida)) throw noAutenticada('La firma de la petición no es válida para esta pasarela, esta ruta y este cuerpo.');
  return { gateId: p.gateId, firmaSha256: createHash('sha256').update(recibida).digest('hex') };
}
