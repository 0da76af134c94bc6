/**
 * Cuts a TrueType font down to the glyphs one document uses, keeping every
 * glyph id (the PDF maps CIDs to glyph ids one to one, `/CIDToGIDMap
 * /Identity`): the outlines of the glyphs not used are emptied, and only
 * the tables a PDF reader uses for a CIDFontType2 are kept (ISO 32000-1,
 * 9.9: head, hhea, hmtx, loca, glyf, maxp, and cvt/fpgm/prep when present;
 * no cmap, names or layout tables). A DeCA uses some 60–90 of the 415 glyphs
 * of our cut of DejaVu Sans, so each embedded font drops to about a third.
 *
 * Pure bytes in and out (no Node), so the app can embed fonts alike.
 */

/** A font read once: its tables, and where each glyph's outline lies. */
export interface FuenteTtf {
  tablas: Map<string, Uint8Array>;
  /** Glyph i's outline is `glyf[inicios[i] .. inicios[i + 1])`. */
  inicios: Uint32Array;
  numGlyphs: number;
}

/** The tables a PDF reader needs from an embedded CIDFontType2 program, in tag order. */
const TABLAS_PDF = ['cvt ', 'fpgm', 'glyf', 'head', 'hhea', 'hmtx', 'loca', 'maxp', 'prep'];

const etiqueta = (b: Uint8Array, o: number) => String.fromCharCode(b[o]!, b[o + 1]!, b[o + 2]!, b[o + 3]!);

/** Reads the table directory, `maxp` and `loca` of a TrueType font. */
export function leerTtf(bytes: Uint8Array): FuenteTtf {
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (v.getUint32(0) !== 0x00010000) throw new Error('no es una fuente TrueType');
  const tablas = new Map<string, Uint8Array>();
  const n = v.getUint16(4);
  for (let i = 0; i < n; i++) {
    const e = 12 + i * 16;
    const offset = v.getUint32(e + 8);
    tablas.set(etiqueta(bytes, e), bytes.subarray(offset, offset + v.getUint32(e + 12)));
  }
  const head = tablas.get('head');
  const maxp = tablas.get('maxp');
  const loca = tablas.get('loca');
  if (!head || !maxp || !loca || !tablas.get('glyf')) throw new Error('a la fuente le faltan tablas (head, maxp, loca, glyf)');
  const numGlyphs = new DataView(maxp.buffer, maxp.byteOffset).getUint16(4);
  const larga = new DataView(head.buffer, head.byteOffset).getInt16(50) === 1;
  const l = new DataView(loca.buffer, loca.byteOffset, loca.byteLength);
  const inicios = new Uint32Array(numGlyphs + 1);
  for (let i = 0; i <= numGlyphs; i++) inicios[i] = larga ? l.getUint32(i * 4) : l.getUint16(i * 2) * 2;
  return { tablas, inicios, numGlyphs };
}

/** The glyphs a composite glyph is built from (flags of the `glyf` table, OpenType spec). */
function componentes(glyf: Uint8Array, inicio: number, fin: number): number[] {
  if (fin - inicio < 10) return [];
  const v = new DataView(glyf.buffer, glyf.byteOffset, glyf.byteLength);
  if (v.getInt16(inicio) >= 0) return [];
  const out: number[] = [];
  let p = inicio + 10;
  for (;;) {
    const flags = v.getUint16(p);
    out.push(v.getUint16(p + 2));
    p += 4 + (flags & 0x0001 ? 4 : 2); // ARG_1_AND_2_ARE_WORDS
    if (flags & 0x0008)
      p += 2; // WE_HAVE_A_SCALE
    else if (flags & 0x0040)
      p += 4; // WE_HAVE_AN_X_AND_Y_SCALE
    else if (flags & 0x0080) p += 8; // WE_HAVE_A_TWO_BY_TWO
    if (!(flags & 0x0020)) return out; // MORE_COMPONENTS
  }
}

/**
 * The font with only `usados` (and .notdef, and the parts of composite
 * glyphs) keeping their outlines; `loca` in the short format when it fits.
 * Tables are written in tag order, each 4-byte aligned with its checksum,
 * and `head.checkSumAdjustment` set, as the spec asks.
 */
export function recortarTtf(fuente: FuenteTtf, usados: Iterable<number>): Uint8Array {
  const glyf = fuente.tablas.get('glyf')!;
  const { inicios, numGlyphs } = fuente;
  const dentro = new Uint8Array(numGlyphs);
  const pendientes = [0, ...usados];
  while (pendientes.length) {
    const g = pendientes.pop()!;
    if (g >= numGlyphs || dentro[g]) continue;
    dentro[g] = 1;
    pendientes.push(...componentes(glyf, inicios[g]!, inicios[g + 1]!));
  }

  let tam = 0;
  for (let g = 0; g < numGlyphs; g++) if (dentro[g]) tam += alinear2(inicios[g + 1]! - inicios[g]!);
  const corta = tam / 2 <= 0xffff; // every glyph starts at an even offset
  const nuevoGlyf = new Uint8Array(tam);
  const nuevaLoca = new Uint8Array((numGlyphs + 1) * (corta ? 2 : 4));
  const loca = new DataView(nuevaLoca.buffer);
  const anotar = (g: number, offset: number) => (corta ? loca.setUint16(g * 2, offset / 2) : loca.setUint32(g * 4, offset));
  let p = 0;
  for (let g = 0; g < numGlyphs; g++) {
    anotar(g, p);
    if (!dentro[g]) continue;
    nuevoGlyf.set(glyf.subarray(inicios[g]!, inicios[g + 1]!), p);
    p += alinear2(inicios[g + 1]! - inicios[g]!);
  }
  anotar(numGlyphs, p);

  const head = new Uint8Array(fuente.tablas.get('head')!); // a copy (a Buffer's slice() would not be)
  const h = new DataView(head.buffer, head.byteOffset, head.byteLength);
  h.setUint32(8, 0); // checkSumAdjustment, set below
  h.setInt16(50, corta ? 0 : 1); // indexToLocFormat

  const nuevas: Record<string, Uint8Array> = { glyf: nuevoGlyf, loca: nuevaLoca, head };
  const tablas = TABLAS_PDF.flatMap((tag) => {
    const datos = nuevas[tag] ?? fuente.tablas.get(tag);
    return datos ? [[tag, datos] as const] : [];
  });
  const n = tablas.length;
  let total = 12 + n * 16;
  for (const [, datos] of tablas) total += alinear4(datos.length);
  const out = new Uint8Array(total);
  const v = new DataView(out.buffer);
  v.setUint32(0, 0x00010000);
  v.setUint16(4, n);
  const potencia = 2 ** Math.floor(Math.log2(n));
  v.setUint16(6, potencia * 16);
  v.setUint16(8, Math.log2(potencia));
  v.setUint16(10, n * 16 - potencia * 16);
  let offset = 12 + n * 16;
  let headOffset = 0;
  tablas.forEach(([tag, datos], i) => {
    const e = 12 + i * 16;
    for (let k = 0; k < 4; k++) out[e + k] = tag.charCodeAt(k);
    out.set(datos, offset);
    v.setUint32(e + 4, sumaDeControl(out, offset, datos.length));
    v.setUint32(e + 8, offset);
    v.setUint32(e + 12, datos.length);
    if (tag === 'head') headOffset = offset;
    offset += alinear4(datos.length);
  });
  v.setUint32(headOffset + 8, (0xb1b0afba - sumaDeControl(out, 0, out.length)) >>> 0);
  return out;
}

const alinear2 = (n: number) => (n + 1) & ~1;
const alinear4 = (n: number) => (n + 3) & ~3;

/** The TrueType checksum: the sum of the data as big-endian uint32s (zero-padded), mod 2^32. */
function sumaDeControl(b: Uint8Array, inicio: number, longitud: number): number {
  let suma = 0;
  const fin = inicio + alinear4(longitud);
  for (let i = inicio; i < fin; i += 4) suma = (suma + ((b[i]! << 24) | (b[i + 1]! << 16) | (b[i + 2]! << 8) | b[i + 3]!)) >>> 0;
  return suma;
}
