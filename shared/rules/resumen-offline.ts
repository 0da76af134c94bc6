/**
 * The signed summary a DeCA issued with no coverage carries in its QR, after
 * its ficha URL: `<ficha>?o=<summary and signature>`. The summary holds the
 * art. 6 data an inspector checks at the roadside (number, both parties'
 * names and NIFs, date, plates, first origin and destination, goods, weight,
 * driver), a hash of the full data and the device's issue time; the
 * signature is the device's (ECDSA P-256, SHA-256, over the summary's
 * bytes). The server can then vouch for the document before the device has
 * synced.
 *
 * The QR is read from a phone's screen through a cab window: the summary is
 * bits (shared/rules/bits.ts), and the summary and signature go in base41
 * (shared/rules/base41.ts), which the QR stores in its alphanumeric mode.
 * With the longest realistic names the code stays at version 14 at level M
 * (`npx tsx bench/qr-resumen.ts`); when the texts do not fit in
 * BITS_RESUMEN they are cut, the least needed first, and the summary says
 * which. Summaries of the first format (`<base64url text>.<signature>`) are
 * still read: phones in the field carry them.
 *
 * Pure code (the signing itself is WebCrypto's, on the device; the check,
 * the server's): the same encoding on both sides.
 */

import type { DecaDatos } from '../schemas/deca';
import { base41, desdeBase41 } from './base41';
import { EscritorBits, escribirCodigo, escribirTexto, LectorBits, leerCodigo, leerTexto } from './bits';
import { CAMPOS_EFTI } from './campos-deca';
import { diasEntre, sumarDias } from './fechas';
import { concatBytes, sha256, utf8Bytes } from './hmac-sha256';
import type { UnidadCantidad } from './peso';
import { problemaDeTexto } from './texto';

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
  /** The first shipment's goods; null when there are none, or in a summary of the first format (it did not carry them). */
  naturaleza: string | null;
  /** How many shipments the DeCA has; null in a summary of the first format. */
  envios: number | null;
  /** The weight the summary vouches for (pesoDeEnvios), or null. */
  peso: { valor: number; unidad: UnidadCantidad } | null;
  /** The driver; null when not given, or in a summary of the first format. */
  conductor: string | null;
  /** SHA-256 of the full data (huellaDatos), first 12 bytes, base64url. */
  huella: string;
  /** When the device issued it (its clock). */
  emitida_at: Date;
  /** The texts the summary carries cut short (the document the device keeps has them whole). */
  cortados: CampoTexto[];
  /**
   * 1: base64url text of fields between separators, names and places cut to a
   * fixed length (what phones wrote until the goods went into the QR: still
   * read, those DeCAs are on the road); 2: the compact one (codificarResumen).
   */
  formato: 1 | 2;
}

/** The texts of a summary, in the order the compact format writes them; the first four in the code for NIFs and plates. */
export const CAMPOS_TEXTO = ['cargador_nif', 'transp_nif', 'matricula', 'remolque', 'cargador_nombre', 'transp_nombre', 'origen', 'destino', 'naturaleza', 'conductor'] as const;
export type CampoTexto = (typeof CAMPOS_TEXTO)[number];
const CODIGOS = 4;

/** Names and places cut to this many characters in a summary of the first format. */
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

/**
 * A name or place of a decoded summary as a reader should see it: one the
 * summary carries cut short says so with «…» (the full text is in the
 * document the device keeps).
 */
export function paraLeer(r: ResumenOffline, campo: CampoTexto): string {
  const texto = r[campo] ?? '';
  return r.cortados.includes(campo) ? `${texto.trimEnd()}…` : texto;
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

/** The eFTI extensions of each shipment (migration 0027's time). */
const DEL_ENVIO_EFTI = ['destinatario_nombre', 'destinatario_nif'];

/**
 * The data without the eFTI extensions left empty: a device whose app is
 * older than those fields hashes data without their keys, the server (and a
 * newer app) with them null; both must hash the same DeCA alike, or a DeCA
 * issued with no coverage by a phone not yet updated would be refused.
 */
function sinExtensionesVacias(datos: Record<string, unknown>): Record<string, unknown> {
  const vacio = (v: unknown) => v === null || v === undefined;
  const out = Object.fromEntries(Object.entries(datos).filter(([k, v]) => !((CAMPOS_EFTI as readonly string[]).includes(k) && vacio(v))));
  if (Array.isArray(datos.envios)) {
    out.envios = datos.envios.map((e) =>
      e && typeof e === 'object' ? Object.fromEntries(Object.entries(e as Record<string, unknown>).filter(([k, v]) => !(DEL_ENVIO_EFTI.includes(k) && vacio(v)))) : e,
    );
  }
  return out;
}

/** The hash of a DeCA's full data that the summary carries (SHA-256 of its canonical JSON, first 12 bytes, base64url). */
export function huellaDatos(datos: Record<string, unknown>): string {
  return base64url(sha256(utf8Bytes(jsonCanonico(sinExtensionesVacias(datos)))).subarray(0, 12));
}

/**
 * The weight a summary vouches for: the sum of the weighed shipments when
 * they share a unit; else the shipments weighed in kg or t, in kg; else none.
 */
export function pesoDeEnvios(envios: readonly Pick<DecaDatos['envios'][number], 'peso' | 'unidad'>[]): ResumenOffline['peso'] {
  const pesados = envios.filter((e) => e.peso !== null);
  const unidades = new Set(pesados.map((e) => e.unidad));
  const masa = pesados.filter((e) => e.unidad === 'kg' || e.unidad === 't');
  const [una] = unidades;
  const suma = (es: typeof pesados, kg: boolean) => Math.round(es.reduce((s, e) => s + e.peso! * (kg && e.unidad === 't' ? 1000 : 1), 0) * 1000) / 1000;
  if (una && unidades.size === 1) return { valor: suma(pesados, false), unidad: una };
  return masa.length ? { valor: suma(masa, true), unidad: 'kg' } : null;
}

/** The summary of a DeCA's data as it will be issued (normalised: shared/rules/datos-deca.ts), its texts whole. */
export function resumenDeDatos(numero: string, d: DecaDatos, emitidaAt: Date): ResumenOffline {
  const primero = d.envios[0];
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
    naturaleza: primero?.naturaleza ?? null,
    envios: d.envios.length,
    peso: pesoDeEnvios(d.envios),
    conductor: d.conductor_nombre,
    huella: huellaDatos(d),
    emitida_at: emitidaAt,
    cortados: [],
    formato: 2,
  };
}

// The compact format.
const FORMATO = 2;
/** Days are counted from here, as seconds are (Unix time; 32 bits last until 2106). */
const DIA_EPOCA = '1970-01-01';
const UNIDADES_QR: readonly UnidadCantidad[] = ['kg', 't', 'm3', 'l', 'palets', 'bultos', 'unidades', 'contenedores'];
/**
 * The most bits a summary takes (its texts are cut to fit): with its
 * signature and a ficha URL of 61 characters (`https://`, a 15-character
 * host, `/d/` and the token), a QR of version 14 at level M; a host up to 50
 * characters longer still fits version 15.
 */
export const BITS_RESUMEN = 1784;
/**
 * Which texts give way first when they do not fit, and down to how many
 * characters (the longest of a group first): names, goods and driver down to
 * 40, the driver, goods and names down to 24, places down to 24, then all.
 * The places are what an inspector most needs whole, and the driver least.
 */
const TRAMOS: [readonly CampoTexto[], number][] = [
  [['cargador_nombre', 'transp_nombre', 'naturaleza', 'conductor'], 40],
  [['conductor'], 0],
  [['naturaleza', 'cargador_nombre', 'transp_nombre'], 24],
  [['origen', 'destino'], 24],
  [CAMPOS_TEXTO, 0],
];
/** No text is written longer than this. */
const LARGO_MAXIMO = 80;

const cortar = (s: string, n: number) => [...s].slice(0, n).join('');

/** Everything but the texts; `cortados` is one bit a text. */
function escribirFijos(w: EscritorBits, r: ResumenOffline, cortados: Set<CampoTexto>): void {
  const m = /^(\d{4})-(\d{6})$/.exec(r.numero);
  const segundos = Math.floor(r.emitida_at.getTime() / 1000);
  const huella = desdeBase64url(r.huella);
  const anio = Number(m?.[1]);
  const dia = r.fecha ? diasEntre(DIA_EPOCA, r.fecha) + 1 : 0;
  if (!m || anio < 2000 || anio > 2255 || segundos < 0 || segundos >= 2 ** 32 || dia < 0 || dia >= 2 ** 16 || huella?.length !== 12) {
    throw new Error(`Resumen no representable: ${r.numero}, ${r.fecha}, ${r.emitida_at.toISOString()}`);
  }
  w.escribir(FORMATO, 8);
  w.escribir(anio - 2000, 8);
  w.escribir(Number(m[2]), 20);
  w.escribir(segundos, 32);
  w.escribir(dia, 16);
  for (const b of huella) w.escribir(b, 8);
  w.escribir(Math.min(r.envios ?? 0, 63), 6);
  w.escribir(r.peso ? 1 : 0, 1);
  if (r.peso) {
    w.escribir(UNIDADES_QR.indexOf(r.peso.unidad), 3);
    w.varint(Math.round(r.peso.valor * 1000));
  }
  for (const c of CAMPOS_TEXTO) w.escribir(cortados.has(c) ? 1 : 0, 1);
}

function escribirCampo(w: EscritorBits, c: CampoTexto, s: string): void {
  if (CAMPOS_TEXTO.indexOf(c) < CODIGOS) escribirCodigo(w, s);
  else escribirTexto(w, s);
}

function bitsDeCampo(c: CampoTexto, s: string): number {
  const w = new EscritorBits();
  escribirCampo(w, c, s);
  return w.length;
}

/**
 * The summary's bytes, what the device signs: its data in bits, the texts in
 * the order of CAMPOS_TEXTO, cut (TRAMOS) until the whole fits in
 * BITS_RESUMEN.
 */
export function codificarResumen(r: ResumenOffline): Uint8Array {
  const textos = Object.fromEntries(CAMPOS_TEXTO.map((c) => [c, cortar(r[c] ?? '', LARGO_MAXIMO)])) as Record<CampoTexto, string>;
  const largos = Object.fromEntries(CAMPOS_TEXTO.map((c) => [c, [...textos[c]].length])) as Record<CampoTexto, number>;
  const bits = Object.fromEntries(CAMPOS_TEXTO.map((c) => [c, bitsDeCampo(c, textos[c])])) as Record<CampoTexto, number>;
  const fijos = new EscritorBits();
  escribirFijos(fijos, r, new Set());
  const total = () => fijos.length + CAMPOS_TEXTO.reduce((s, c) => s + bits[c], 0);
  for (const [campos, hasta] of TRAMOS) {
    while (total() > BITS_RESUMEN) {
      const c = campos.reduce<CampoTexto | null>((a, x) => (largos[x] > hasta && (a === null || largos[x] > largos[a]) ? x : a), null);
      if (c === null) break;
      largos[c]--;
      textos[c] = cortar(textos[c], largos[c]);
      bits[c] = bitsDeCampo(c, textos[c]);
    }
  }
  const w = new EscritorBits();
  escribirFijos(w, r, new Set(CAMPOS_TEXTO.filter((c) => textos[c] !== (r[c] ?? ''))));
  for (const c of CAMPOS_TEXTO) escribirCampo(w, c, textos[c]);
  return w.bytes();
}

/** A summary of the compact format back from its bytes, or null when they are not one. */
export function decodificarResumen(bytes: Uint8Array): ResumenOffline | null {
  const l = new LectorBits(bytes);
  if (l.leer(8) !== FORMATO) return null;
  const anio = 2000 + l.leer(8);
  const serie = l.leer(20);
  const emitida = new Date(l.leer(32) * 1000);
  const dia = l.leer(16);
  const huella = base64url(new Uint8Array(12).map(() => l.leer(8)));
  const envios = l.leer(6);
  const unidad = l.leer(1) ? UNIDADES_QR[l.leer(3)] : null;
  const peso = unidad ? { valor: l.varint() / 1000, unidad } : null;
  const cortados = CAMPOS_TEXTO.filter(() => l.leer(1) === 1);
  const textos: Partial<Record<CampoTexto, string>> = {};
  for (const [i, c] of CAMPOS_TEXTO.entries()) {
    const t = i < CODIGOS ? leerCodigo(l) : leerTexto(l);
    if (t === null || problemaDeTexto(t)) return null;
    textos[c] = t;
  }
  if (serie > 999_999 || unidad === undefined || !l.terminado()) return null;
  const t = textos as Record<CampoTexto, string>;
  return {
    numero: `${anio}-${String(serie).padStart(6, '0')}`,
    cargador_nombre: t.cargador_nombre,
    cargador_nif: t.cargador_nif,
    transp_nombre: t.transp_nombre,
    transp_nif: t.transp_nif,
    fecha: dia === 0 ? '' : sumarDias(DIA_EPOCA, dia - 1),
    matricula: t.matricula,
    remolque: t.remolque || null,
    origen: t.origen,
    destino: t.destino,
    naturaleza: t.naturaleza || null,
    envios,
    peso,
    conductor: t.conductor || null,
    huella,
    emitida_at: emitida,
    cortados,
    formato: 2,
  };
}

/** Between the fields of a first-format summary: a control character no text of a DeCA may hold. */
const SEP = '\u001f';
const VERSION = 1;

/** A summary of the first format back from its text, or null when it is not one. */
export function decodificarResumenV1(texto: string): ResumenOffline | null {
  const bytes = texto.length <= 1000 ? desdeBase64url(texto) : null;
  const plano = bytes && textoUtf8(bytes);
  const c = plano?.split(SEP);
  if (c?.length !== 14 || c[0] !== String(VERSION)) return null;
  const [, numero, cn, cnif, tn, tnif, fecha, mat, rem, origen, destino, peso, huella, emitida] = c;
  if (!/^\d{4}-\d{6}$/.test(numero!) || !/^\d{8}$/.test(fecha!) || !/^[0-9a-z]{1,8}$/.test(emitida!) || !/^[\w-]{1,43}$/.test(huella!)) return null;
  const kg = peso === '' ? null : Number(peso);
  if (kg !== null && !Number.isFinite(kg)) return null;
  const r: Omit<ResumenOffline, 'cortados'> = {
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
    naturaleza: null,
    envios: null,
    peso: kg === null ? null : { valor: kg, unidad: 'kg' },
    conductor: null,
    huella: huella!,
    emitida_at: new Date(parseInt(emitida!, 36) * 1000),
    formato: 1,
  };
  // A name or place that fills its whole length may have been cut.
  const largo = (campo: CampoTexto) => (campo === 'origen' || campo === 'destino' ? LARGO_LUGAR : LARGO_NOMBRE);
  const cortados = (['cargador_nombre', 'transp_nombre', 'origen', 'destino'] as const).filter((campo) => [...r[campo]].length >= largo(campo));
  return { ...r, cortados };
}

/** The `o` parameter: the summary and its signature, in base41. */
export const parametroResumen = (resumen: Uint8Array, firma: Uint8Array): string => base41(concatBytes(resumen, firma));

/** The ficha URL that the QR of an offline-issued DeCA carries. */
export function urlConResumen(ficha: string, resumen: Uint8Array, firma: Uint8Array): string {
  return conResumen(ficha, parametroResumen(resumen, firma));
}

/** The ficha URL with an `o` parameter already made. */
export const conResumen = (ficha: string, o: string): string => `${ficha}?o=${o}`;

/** What a URL's `o` parameter holds: the summary, the bytes its signature covers, and the signature. */
export interface ResumenFirmado {
  resumen: ResumenOffline;
  firmado: Uint8Array;
  firma: Uint8Array;
}

const FIRMA = 64;

/** The summary and signature of a URL's `o` parameter, of either format; null when it is neither. */
export function leerParametro(o: string): ResumenFirmado | null {
  if (o.length > 1000) return null;
  if (o.includes('.')) {
    const [texto, firma, ...resto] = o.split('.');
    const bytes = firma !== undefined && resto.length === 0 ? desdeBase64url(firma) : null;
    const resumen = texto && bytes?.length === FIRMA ? decodificarResumenV1(texto) : null;
    return resumen && bytes ? { resumen, firmado: utf8Bytes(texto!), firma: bytes } : null;
  }
  const bytes = desdeBase41(o);
  if (!bytes || bytes.length <= FIRMA) return null;
  const firmado = bytes.slice(0, -FIRMA);
  const resumen = decodificarResumen(firmado);
  return resumen && { resumen, firmado, firma: bytes.slice(-FIRMA) };
}
