/**
 * A bit stream, and the two text codes the signed summary of a DeCA issued
 * with no coverage writes its names, places, NIFs and plates in
 * (shared/rules/resumen-offline.ts): every bit saved is a smaller QR to scan
 * through a cab window.
 *
 * - Text (names, places, goods): a Huffman code made for Spanish names
 *   (below); a character no table has is written as its code point. Spanish
 *   names take 5 to 6 bits a character (bench/qr-resumen.ts), against 8 in UTF-8.
 * - Code (NIFs, plates): 6 bits for a digit, a capital, a space, «-», «.» or «/».
 *
 * Pure code, the same on the phone that writes and the server that reads.
 */

/** Bits written most significant first; `bytes()` pads the last byte with zeros. */
export class EscritorBits {
  private readonly bits: number[] = [];

  get length(): number {
    return this.bits.length;
  }

  /** `v` (0 ≤ v < 2^n, n ≤ 48) in `n` bits. */
  escribir(v: number, n: number): void {
    for (let i = n - 1; i >= 0; i--) this.bits.push(Math.floor(v / 2 ** i) % 2);
  }

  /** A non-negative integer up to 2^49, in groups of 7 bits, each after a bit saying whether another follows. */
  varint(v: number): void {
    let resto = v;
    do {
      const grupo = resto % 128;
      resto = Math.floor(resto / 128);
      this.escribir(resto > 0 ? 1 : 0, 1);
      this.escribir(grupo, 7);
    } while (resto > 0);
  }

  bytes(): Uint8Array {
    const out = new Uint8Array(Math.ceil(this.bits.length / 8));
    this.bits.forEach((b, i) => {
      out[i >> 3]! |= b << (7 - (i & 7));
    });
    return out;
  }
}

/** Reads what EscritorBits wrote; reading past the end sets `agotado` (the reader then refuses the whole). */
export class LectorBits {
  private pos = 0;
  agotado = false;

  constructor(private readonly datos: Uint8Array) {}

  leer(n: number): number {
    let v = 0;
    for (let i = 0; i < n; i++, this.pos++) {
      const byte = this.datos[this.pos >> 3];
      if (byte === undefined) {
        this.agotado = true;
        return 0;
      }
      v = v * 2 + ((byte >> (7 - (this.pos & 7))) & 1);
    }
    return v;
  }

  varint(): number {
    let v = 0;
    for (let k = 0; k < 7; k++) {
      const sigue = this.leer(1);
      v += this.leer(7) * 128 ** k;
      if (!sigue) return v;
    }
    this.agotado = true;
    return 0;
  }

  /** Whether all was read and only the zero padding of the last byte is left (one text, one reading). */
  terminado(): boolean {
    const resto = this.datos.length * 8 - this.pos;
    return !this.agotado && resto < 8 && this.leer(resto) === 0;
  }
}

// The text code: a Huffman code for Spanish names, one for each kind of
// character before (a lower-case letter, a capital, anything else), so
// «Transportes» spends few bits on its capital after a space and «SL» few on
// its second one. The codes come from the weights below (per 100,000: how
// often each character follows in names, places and goods, Spanish letter
// frequencies underneath); a weight changed is another code, so these never
// change: a new table would be a new summary format.

const MINUSCULAS = 'abcdefghijklmnopqrstuvwxyzñáéíóúüçàèòï';
const MAYUSCULAS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZÑÁÉÍÓÚÜÇÀÈÒÏ';
const CIFRAS = '0123456789';
const SIGNOS = ' .,-/()&\'ºª":;+·_!?@#%';
/** Spanish letter frequencies (per 10,000), in the order of MINUSCULAS and MAYUSCULAS. */
const LETRAS = [1253, 142, 468, 586, 1368, 69, 101, 70, 625, 44, 2, 497, 315, 671, 868, 251, 88, 687, 798, 463, 393, 90, 1, 22, 90, 52, 31, 50, 43, 72, 83, 17, 2, 3, 1, 1, 1, 1];
/** How often a space, «.», «,», «-», «/», «(», «)» and the rest follow, per context. */
const SIGNOS_TRAS = {
  minuscula: [14000, 1200, 1200, 300, 100, 50, 300],
  mayuscula: [5000, 5000, 1000, 500, 100, 50, 200],
  otro: [3000, 1000, 500, 1000, 500, 1000, 100],
} as const;
/** Per context: the share of lower-case letters, capitals, each digit, the end of the text, and each rarer sign or a code point. */
const REPARTO = {
  minuscula: { minusculas: 78, mayusculas: 0.5, cifra: 100, fin: 3000, raro: 10 },
  mayuscula: { minusculas: 45, mayusculas: 40, cifra: 200, fin: 2000, raro: 10 },
  otro: { minusculas: 30, mayusculas: 40, cifra: 1500, fin: 2000, raro: 20 },
} as const;

type Contexto = keyof typeof REPARTO;
const SIMBOLOS = ['', '', ...MINUSCULAS, ...MAYUSCULAS, ...CIFRAS, ...SIGNOS];
const FIN = 0;
const PUNTO_DE_CODIGO = 1;

interface Codigo {
  /** Each symbol's code and its length in bits. */
  codigos: { codigo: number; bits: number }[];
  /** How many codes of each length, and the symbols by (length, index): what a canonical Huffman decoder reads. */
  cuantos: number[];
  orden: number[];
}

/** A canonical Huffman code for these weights: merges the two lightest (the older on a tie), codes by (length, symbol). */
function huffman(pesos: number[]): Codigo {
  let nodos = pesos.map((peso, i) => ({ peso, orden: i, hojas: [i] }));
  const bits = pesos.map(() => 0);
  let siguiente = pesos.length;
  while (nodos.length > 1) {
    nodos.sort((x, y) => x.peso - y.peso || x.orden - y.orden);
    const [a, b] = nodos as [(typeof nodos)[0], (typeof nodos)[0]];
    for (const h of [...a.hojas, ...b.hojas]) bits[h]!++;
    nodos = [...nodos.slice(2), { peso: a.peso + b.peso, orden: siguiente++, hojas: [...a.hojas, ...b.hojas] }];
  }
  const orden = pesos.map((_, i) => i).sort((x, y) => bits[x]! - bits[y]! || x - y);
  const cuantos = new Array<number>(Math.max(...bits) + 1).fill(0);
  for (const b of bits) cuantos[b]!++;
  const codigos = pesos.map(() => ({ codigo: 0, bits: 0 }));
  let codigo = 0;
  let largo = 0;
  for (const i of orden) {
    codigo *= 2 ** (bits[i]! - largo);
    largo = bits[i]!;
    codigos[i] = { codigo: codigo++, bits: largo };
  }
  return { codigos, cuantos, orden };
}

function pesosDe(c: Contexto): number[] {
  const r = REPARTO[c];
  const signos = SIGNOS_TRAS[c];
  return SIMBOLOS.map((ch, i) => {
    if (i === FIN) return r.fin;
    if (i === PUNTO_DE_CODIGO) return r.raro;
    const m = MINUSCULAS.indexOf(ch);
    if (m >= 0) return Math.max(1, Math.round(LETRAS[m]! * r.minusculas));
    const M = MAYUSCULAS.indexOf(ch);
    if (M >= 0) return Math.max(1, Math.round(LETRAS[M]! * r.mayusculas));
    if (CIFRAS.includes(ch)) return r.cifra;
    return signos[SIGNOS.indexOf(ch)] ?? r.raro;
  });
}

const CODIGOS: Record<Contexto, Codigo> = { minuscula: huffman(pesosDe('minuscula')), mayuscula: huffman(pesosDe('mayuscula')), otro: huffman(pesosDe('otro')) };

/** The context the next character is coded in: what this one is (only by the tables, the same on every side). */
const contextoTras = (ch: string): Contexto => (ch !== '' && MINUSCULAS.includes(ch) ? 'minuscula' : ch !== '' && MAYUSCULAS.includes(ch) ? 'mayuscula' : 'otro');

function escribirSimbolo(w: EscritorBits, c: Contexto, simbolo: number): void {
  const { codigo, bits } = CODIGOS[c].codigos[simbolo]!;
  w.escribir(codigo, bits);
}

/** A symbol of the canonical code of `c` (as zlib's puff reads one), or -1 past the end. */
function leerSimbolo(r: LectorBits, c: Contexto): number {
  const { cuantos, orden } = CODIGOS[c];
  let codigo = 0;
  let primero = 0;
  let indice = 0;
  for (let largo = 1; largo < cuantos.length && !r.agotado; largo++) {
    codigo += r.leer(1);
    const n = cuantos[largo]!;
    if (codigo - primero < n) return orden[indice + codigo - primero]!;
    indice += n;
    primero = (primero + n) * 2;
    codigo *= 2;
  }
  return -1;
}

export function escribirTexto(w: EscritorBits, s: string): void {
  let c: Contexto = 'otro';
  for (const ch of s) {
    const i = SIMBOLOS.indexOf(ch, 2);
    escribirSimbolo(w, c, i >= 2 ? i : PUNTO_DE_CODIGO);
    if (i < 2) w.escribir(ch.codePointAt(0)!, 21);
    c = contextoTras(ch);
  }
  escribirSimbolo(w, c, FIN);
}

/** A code point written as such must be one no table has (one text, one writing) and a Unicode scalar value. */
function puntoDeCodigo(r: LectorBits, tiene: (ch: string) => boolean): string | null {
  const cp = r.leer(21);
  if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return null;
  const ch = String.fromCodePoint(cp);
  return tiene(ch) ? null : ch;
}

/** A text as escribirTexto wrote it; null when the bits are not one (the caller refuses the whole). */
export function leerTexto(r: LectorBits): string | null {
  let s = '';
  let c: Contexto = 'otro';
  for (let n = 0; n < 1000; n++) {
    const i = leerSimbolo(r, c);
    if (i < 0) return null;
    if (i === FIN) return s;
    const ch = i === PUNTO_DE_CODIGO ? puntoDeCodigo(r, (x) => SIMBOLOS.indexOf(x, 2) >= 2) : SIMBOLOS[i]!;
    if (ch === null) return null;
    s += ch;
    c = contextoTras(ch);
  }
  return null;
}

// The code for NIFs and plates: a 6-bit symbol of CODIGO (0 ends), or the code point after ESCAPE.
const CODIGO = '\0 0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ-./';
const ESCAPE_CODIGO = CODIGO.length;

const indice = (tabla: string, ch: string, desde = 0) => (ch === '\0' || ch === '' ? -1 : tabla.indexOf(ch, desde));

export function escribirCodigo(w: EscritorBits, s: string): void {
  for (const ch of s) {
    const i = indice(CODIGO, ch, 1);
    w.escribir(i >= 0 ? i : ESCAPE_CODIGO, 6);
    if (i < 0) w.escribir(ch.codePointAt(0)!, 21);
  }
  w.escribir(0, 6);
}

export function leerCodigo(r: LectorBits): string | null {
  let s = '';
  for (let n = 0; n < 1000 && !r.agotado; n++) {
    const i = r.leer(6);
    if (i === 0) return s;
    if (i < ESCAPE_CODIGO) s += CODIGO[i]!;
    else if (i === ESCAPE_CODIGO) {
      const ch = puntoDeCodigo(r, (x) => indice(CODIGO, x) >= 0);
      if (ch === null) return null;
      s += ch;
    } else return null;
  }
  return null;
}
