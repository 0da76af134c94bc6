import { webcrypto } from 'node:crypto';
import { expect } from 'vitest';
import { fichaUrl } from '../../server/domain/decas/urls';
import { datosDeEntrada } from '../../shared/rules/datos-deca';
import { codificarResumen, type ResumenOffline, resumenDeDatos, urlConResumen } from '../../shared/rules/resumen-offline';
import type { Entorno } from '../../shared/schemas/cuenta';
import { DecaInput } from '../../shared/schemas/deca';
import { type ClavePublica, Dispositivo, ReservasRespuesta } from '../../shared/schemas/dispositivo';
import type { TestApp } from './app';
import { decaCompleta } from './decas';

/** A device's key pair as the app makes it (ECDSA P-256), its public half as JWK. */
export async function clavePublica(): Promise<ClavePublica> {
  const par = await webcrypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify']);
  const jwk = await webcrypto.subtle.exportKey('jwk', par.publicKey);
  return { kty: 'EC', crv: 'P-256', x: jwk.x!, y: jwk.y! };
}

/** A device's key pair: its public half as registering sends it, and its private key to sign with (non-extractable, as on the phone). */
export async function parDeClaves(): Promise<{ publica: ClavePublica; privada: CryptoKey }> {
  const par = await webcrypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign', 'verify']);
  const jwk = await webcrypto.subtle.exportKey('jwk', par.publicKey);
  return { publica: { kty: 'EC', crv: 'P-256', x: jwk.x!, y: jwk.y! }, privada: par.privateKey };
}

/** A summary of `numero`'s DeCA (the data of decaCompleta) as the device signs it, dated `emitidaAt`. */
export function resumenDe(numero: string, emitidaAt: Date): ResumenOffline {
  return resumenDeDatos(numero, datosDeEntrada(DecaInput.parse(decaCompleta())), emitidaAt);
}

/**
 * A phone as the app sets it up, signed in with `cookie`: a key pair, its
 * public key registered, numbers reserved for `entorno`.
 */
export async function movilConReservas(app: TestApp, cookie: string, entorno: Entorno): Promise<ReservasRespuesta & { id: number; privada: CryptoKey }> {
  const csrf = { 'X-DeCA-CSRF': '1' };
  const { publica, privada } = await parDeClaves();
  const reg = await app.request('POST', '/app/api/dispositivos', { cookie, headers: csrf, body: { nombre: 'Android · Chrome', clave_publica: publica } });
  expect(reg.status, reg.text).toBe(201);
  const { id } = Dispositivo.parse(reg.body.dispositivo);
  const res = await app.request('POST', `/app/api/dispositivos/${id}/reservas`, { cookie, headers: csrf, body: { entorno } });
  expect(res.status, res.text).toBe(200);
  return { ...ReservasRespuesta.parse(res.body), id, privada };
}

/** The URL a device's QR holds: the ficha of its reserved `token` (on `base`) with the summary signed by `privada`. */
export async function qrFirmado(base: string, token: string, privada: CryptoKey, r: ResumenOffline): Promise<string> {
  const resumen = codificarResumen(r);
  const firma = new Uint8Array(await webcrypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, privada, resumen));
  return urlConResumen(fichaUrl(base, token), resumen, firma);
}

/**
 * The QR a phone shows for a DeCA it issued with no coverage, made against a
 * running server at `base` (an e2e server, the screenshots' one) as the app
 * makes it: signed in as `email`, a key pair registered, production numbers
 * reserved, the summary of `cuerpo` (a POST /decas body) signed for the first
 * one, issued now. The site's URL in the answer is the server's own.
 */
export async function qrSinCobertura(base: string, cuenta: { email: string; password: string }, cuerpo: unknown): Promise<string> {
  const csrf = { 'X-DeCA-CSRF': '1', 'content-type': 'application/json' };
  const pedir = async (ruta: string, body: unknown, cookie?: string) => {
    const res = await fetch(`${base}${ruta}`, { method: 'POST', headers: { ...csrf, ...(cookie ? { cookie } : {}) }, body: JSON.stringify(body) });
    if (!res.ok) throw new Error(`${ruta}: ${res.status} ${await res.text()}`);
    return res;
  };
  const sesion = await pedir('/app/api/sesion', cuenta);
  const cookie = sesion.headers
    .getSetCookie()
    .map((c) => c.split(';')[0]!)
    .join('; ');
  const { publica, privada } = await parDeClaves();
  const { id } = Dispositivo.parse(((await (await pedir('/app/api/dispositivos', { nombre: 'Android · Chrome', clave_publica: publica }, cookie)).json()) as { dispositivo: unknown }).dispositivo);
  const { reservas } = ReservasRespuesta.parse(await (await pedir(`/app/api/dispositivos/${id}/reservas`, { entorno: 'produccion' }, cookie)).json());
  const [r] = reservas;
  if (!r) throw new Error('sin números reservados');
  const datos = datosDeEntrada(DecaInput.parse(cuerpo));
  // In whole seconds, as the phone signs it, and not before the reservation's instant.
  const emitidaAt = new Date(Math.ceil(Date.now() / 1000) * 1000);
  return qrFirmado(base, r.token, privada, resumenDeDatos(r.numero, datos, emitidaAt));
}
