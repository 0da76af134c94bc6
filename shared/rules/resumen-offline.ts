/**
 * The signed summary a DeCA issued with no coverage carries in its QR, after
 * its ficha URL: `<ficha>?o=<summary>.<signature>`. The summary holds the art.
 * 6 data an inspector checks at the roadside (number, both parties' names and
 * NIFs, date, plates, first origin and destination, total weight), a hash of
 * the full data and the device's issue time; the signature is the device's
 * (ECDSA P-256, SHA-256, over the summary's text as it is in the URL). The
 * server can then vouch for the document before the device has synced.
 *
 * Pure code (the signing itself is WebCrypto's, on the device; the check,
 * the server's): the same encoding on both sides.
 */

import type { DecaDatos } from '../schemas/deca';
import { sha256, utf8Bytes } from './hmac-sha256';

export interface ResumenOffline {
  numero: string;
  cargador_nombre: string;
  cargador_nif: string;
  transp_nombre: string;
  transp_nif: string;
  /** `YYYY-MM-DD`. */
  fecha: string;
  matricula: string;
  remolque: string | null;
  origen: string;
  destino: string;
  /** Total weight of the shipments in kg (shipments counted in other units are left out), or null. */
  peso_kg: number | null;
  /** SHA-256 of the full data (huellaDatos), first 12 bytes, base64url. */
  huella: string;
  /** When the device issued it (its clock). */
  emitida_at: Date;
}

const VERSION = 1;
/** Names and places are cut to this many characters in the summary; the hash covers them whole. */
export const LARGO_NOMBRE = 24;
export const LARGO_LUGAR = 20;

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

export function base64url(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    const quedan = bytes.length - i;
    out += B64[(n >> 18) & 63]! + B64[(n >> 12) & 63]! + (quedan > 1 ? B64[(n >> 6) & 63]! : '') + (quedan > 2 ? B64[n & 63]! : '');
  }
  return out;
}

/** The bytes of a base64url text, or null when it is not one. */
export function desdeBase64url(s: string): Uint8Array | null {
  if (!/^[A-Za-z0-9_-]*$/.test(s) || s.length % 4 === 1) return null;
  const out = new Uint8Array(Math.floor((s.length * 3) / 4));
  let bits = 0;
  let acc = 0;
  let j = 0;
  for (const ch of s) {
    acc = (acc << 6) | B64.indexOf(ch);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[j++] = (acc >> bits) & 0xff;
    }
  }
  return out;
}

/** UTF-8 bytes as text; null when they are not valid UTF-8. */
function textoUtf8(b: Uint8Array): string | null {
  let s = '';
  for (let i = 0; i < b.length; ) {
    const c = b[i]!;
    const n = c < 0x80 ? 0 : c >= 0xc2 && c < 0xe0 ? 1 : c >= 0xe0 && c < 0xf0 ? 2 : c >= 0xf0 && c < 0xf5 ? 3 : -1;
    if (n < 0 || i + n > b.length - 1) return null; // not a lead byte, or the sequence runs past the end
    let cp = n === 0 ? c : c & (0x3f >> n);
    for (let k = 1; k <= n; k++) {
      const d = b[i + k];
      if (d === undefined || (d & 0xc0) !== 0x80) return null;
      cp = (cp << 6) | (d & 0x3f);
    }
    if ((n === 2 && cp < 0x800) || (n === 3 && (cp < 0x10000 || cp > 0x10ffff)) || (cp >= 0xd800 && cp <= 0xdfff)) return null;
    s += String.fromCodePoint(cp);
    i += n + 1;
  }
  return s;
}

const cortar = (s: string, n: number) => [...s].slice(0, n).join('');

/**
 * A name (LARGO_NOMBRE) or place (LARGO_LUGAR) of a decoded summary as a
 * reader should see it: one that fills its whole length may have been cut,
 * and says so with «…» (the full text is in the document the device keeps).
 */
export function paraLeer(texto: string, largo: number): string {
  return [...texto].length >= largo ? `${texto.trimEnd()}…` : texto;
}

/** JSON with its object keys sorted at every level: one text for the same data on every side. */
function jsonCanonico(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(jsonCanonico).join(',')}]`;
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o)
      .filter((k) => o[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${jsonCanonico(o[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}

/** The hash of a DeCA's full data that the summary carries (SHA-256 of its canonical JSON, first 12 bytes, base64url). */
export function huellaDatos(datos: Record<string, unknown>): string {
  return base64url(sha256(utf8Bytes(jsonCanonico(datos))).subarray(0, 12));
}

/**
 * The summary of a DeCA's data as it will be issued (normalised: shared/rules/datos-deca.ts):
 * its first shipment's places, and the weight of the shipments counted in kg or t.
 */
export function resumenDeDatos(numero: string, d: DecaDatos, emitidaAt: Date): ResumenOffline {
  const primero = d.envios[0];
  let kg: number | null = null;
  for (const e of d.envios) {
    if (e.peso === null || (e.unidad !== 'kg' && e.unidad !== 't')) continue;
    kg = (kg ?? 0) + (e.unidad === 't' ? e.peso * 1000 : e.peso);
  }
  return {
    numero,
    cargador_nombre: d.cargador_nombre ?? '',
    cargador_nif: d.cargador_nif ?? '',
    transp_nombre: d.transp_nombre ?? '',
    transp_nif: d.transp_nif ?? '',
    fecha: d.fecha_transporte ?? '',
    matricula: d.matricula ?? '',
    remolque: d.matricula_remolque,
    origen: primero?.origen ?? '',
    destino: primero?.destino ?? '',
    peso_kg: kg === null ? null : Math.round(kg * 1000) / 1000,
    huella: huellaDatos(d),
    emitida_at: emitidaAt,
  };
}

/** Between the summary's fields: a control character no text of a DeCA may hold (it is taken out if one does). */
const SEP = '\u001f';

/**
 * The summary's text: its fields in a fixed order between separators, as
 * base64url of the UTF-8 (a QR read from a screen must stay small: names and
 * places are cut, the date and time written compactly).
 */
export function codificarResumen(r: ResumenOffline): string {
  const t = (s: string) => s.split(SEP).join(' ');
  const campos = [
    String(VERSION),
    r.numero,
    t(cortar(r.cargador_nombre, LARGO_NOMBRE)),
    t(r.cargador_nif),
    t(cortar(r.transp_nombre, LARGO_NOMBRE)),
    t(r.transp_nif),
    r.fecha.replaceAll('-', ''),
    t(r.matricula),
    t(r.remolque ?? ''),
    t(cortar(r.origen, LARGO_LUGAR)),
    t(cortar(r.destino, LARGO_LUGAR)),
    r.peso_kg === null ? '' : String(r.peso_kg),
    r.huella,
    Math.floor(r.emitida_at.getTime() / 1000).toString(36),
  ];
  return base64url(utf8Bytes(campos.join(SEP)));
}

/** The summary back from its text, or null when it is not one (wrong version, shape or encoding). */
export function decodificarResumen(texto: string): ResumenOffline | null {
  const bytes = texto.length <= 1000 ? desdeBase64url(texto) : null;
  const plano = bytes && textoUtf8(bytes);
  const c = plano?.split(SEP);
  if (!c || c.length !== 14 || c[0] !== String(VERSION)) return null;
  const [, numero, cn, cnif, tn, tnif, fecha, mat, rem, origen, destino, peso, huella, emitida] = c;
  if (!/^\d{4}-\d{6}$/.test(numero!) || !/^\d{8}$/.test(fecha!) || !/^[0-9a-z]{1,8}$/.test(emitida!) || !/^[\w-]{1,43}$/.test(huella!)) return null;
  const kg = peso === '' ? null : Number(peso);
  if (kg !== null && !Number.isFinite(kg)) return null;
  return {
    numero: numero!,
    cargador_nombre: cn!,
    cargador_nif: cnif!,
    transp_nombre: tn!,
    transp_nif: tnif!,
    fecha: `${fecha!.slice(0, 4)}-${fecha!.slice(4, 6)}-${fecha!.slice(6)}`,
    matricula: mat!,
    remolque: rem || null,
    origen: origen!,
    destino: destino!,
    peso_kg: kg,
    huella: huella!,
    emitida_at: new Date(parseInt(emitida!, 36) * 1000),
  };
}

/** What the device signs: the summary's text, as UTF-8 (it is ASCII). */
export const datosAFirmar = (resumen: string): Uint8Array => utf8Bytes(resumen);

/** The ficha URL that the QR of an offline-issued DeCA carries. */
export function urlConResumen(ficha: string, resumen: string, firma: Uint8Array): string {
  return conResumen(ficha, parametroResumen(resumen, firma));
}

/** The `o` parameter: the summary and its signature. */
export const parametroResumen = (resumen: string, firma: Uint8Array): string => `${resumen}.${base64url(firma)}`;

/** The ficha URL with an `o` parameter already made. */
export const conResumen = (ficha: string, o: string): string => `${ficha}?o=${o}`;

/** The summary and signature of a URL's `o` parameter, or null. */
export function partirParametro(o: string): { resumen: string; firma: Uint8Array } | null {
  const [resumen, firma, ...resto] = o.split('.');
  const bytes = firma !== undefined && resto.length === 0 ? desdeBase64url(firma) : null;
  return resumen && bytes && bytes.length === 64 ? { resumen, firma: bytes } : null;
}
