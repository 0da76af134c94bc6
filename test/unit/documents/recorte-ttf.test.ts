import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type FuenteTtf, leerTtf, recortarTtf } from '../../../shared/pdf/recorte-ttf';

const ARCHIVO = new Uint8Array(readFileSync(new URL('../../../shared/pdf/fuentes/DejaVuSans-DeCA.ttf', import.meta.url)));
const glifo = (f: FuenteTtf, g: number) => f.tablas.get('glyf')!.subarray(f.inicios[g]!, f.inicios[g + 1]!);
const u32 = (b: Uint8Array, o: number) => new DataView(b.buffer, b.byteOffset, b.byteLength).getUint32(o);

/** The TrueType checksum of `b` (big-endian uint32 sum, zero-padded). */
function suma(b: Uint8Array): number {
  const p = new Uint8Array((b.length + 3) & ~3);
  p.set(b);
  let s = 0;
  for (let i = 0; i < p.length; i += 4) s = (s + u32(p, i)) >>> 0;
  return s;
}

describe('recortarTtf', () => {
  const fuente = leerTtf(ARCHIVO);
  // The first composite glyph of the font (an accented letter) and its first component.
  const compuesto = Array.from({ length: fuente.numGlyphs }, (_, g) => g).find((g) => glifo(fuente, g).length > 10 && new DataView(glifo(fuente, g).slice().buffer).getInt16(0) < 0)!;
  // Its components, read per the OpenType spec: flags, glyph index, arguments, transform; MORE_COMPONENTS.
  const componentes: number[] = [];
  {
    const v = new DataView(glifo(fuente, compuesto).slice().buffer);
    let p = 10;
    let flags: number;
    do {
      flags = v.getUint16(p);
      componentes.push(v.getUint16(p + 2));
      p += 4 + (flags & 1 ? 4 : 2) + (flags & 8 ? 2 : flags & 0x40 ? 4 : flags & 0x80 ? 8 : 0);
    } while (flags & 0x20);
  }

  it('keeps every glyph id, the outlines of the glyphs used (and .notdef, and the parts of composites), and empties the rest', () => {
    expect(compuesto).toBeGreaterThan(0);
    expect(componentes.length).toBeGreaterThan(1);
    const usados = [36, 37, 68, compuesto];
    const recortada = leerTtf(recortarTtf(fuente, usados));
    expect(recortada.numGlyphs).toBe(fuente.numGlyphs);
    const conContorno = new Set([0, ...usados, ...componentes]);
    for (let g = 0; g < fuente.numGlyphs; g++) {
      if (conContorno.has(g)) expect(Buffer.from(glifo(recortada, g)).equals(Buffer.from(glifo(fuente, g))), `glyph ${g}`).toBe(true);
      else expect(glifo(recortada, g).length, `glyph ${g}`).toBe(0);
    }
    for (const tabla of ['hmtx', 'hhea', 'maxp']) {
      expect(Buffer.from(recortada.tablas.get(tabla)!).equals(Buffer.from(fuente.tablas.get(tabla)!)), tabla).toBe(true);
    }
    // Only what a PDF reader takes from a CIDFontType2 program: no cmap, names or layout tables.
    expect([...fuente.tablas.keys()]).toEqual(expect.arrayContaining(['cmap', 'name', 'post', 'OS/2', 'GSUB']));
    expect([...recortada.tablas.keys()]).toEqual(['glyf', 'head', 'hhea', 'hmtx', 'loca', 'maxp']);
    expect(recortada.tablas.get('glyf')!.length).toBeLessThan(fuente.tablas.get('glyf')!.length / 10);
  });

  it('writes a valid file: sorted directory, each table’s checksum, and the whole-file adjustment in head', () => {
    const bytes = recortarTtf(fuente, [36, 37, 38]);
    const v = new DataView(bytes.buffer);
    const n = v.getUint16(4);
    const etiquetas: string[] = [];
    for (let i = 0; i < n; i++) {
      const e = 12 + i * 16;
      const tag = String.fromCharCode(...bytes.subarray(e, e + 4));
      etiquetas.push(tag);
      const datos = bytes.subarray(v.getUint32(e + 8), v.getUint32(e + 8) + v.getUint32(e + 12));
      const esperada = tag === 'head' ? suma(Object.assign(datos.slice(), { 8: 0, 9: 0, 10: 0, 11: 0 })) : suma(datos);
      expect(v.getUint32(e + 4), tag).toBe(esperada);
      expect(v.getUint32(e + 8) % 4, `${tag} aligned`).toBe(0);
    }
    expect(etiquetas).toEqual([...etiquetas].sort());
    expect(suma(bytes)).toBe(0xb1b0afba);
    // head: indexToLocFormat short (the cut glyf is small), and loca read back with it.
    const head = leerTtf(bytes).tablas.get('head')!;
    expect(new DataView(head.buffer, head.byteOffset).getInt16(50)).toBe(0);
    expect(leerTtf(bytes).tablas.get('loca')!.length).toBe((fuente.numGlyphs + 1) * 2);
  });

  it('leaves the font it was given untouched, even when it is a Buffer (whose slice() shares memory)', () => {
    const copia = Buffer.from(ARCHIVO);
    const f = leerTtf(copia);
    recortarTtf(f, [36]);
    recortarTtf(f, [37]);
    expect(copia.equals(Buffer.from(ARCHIVO))).toBe(true);
    expect(Buffer.from(recortarTtf(f, [36, 37])).equals(Buffer.from(recortarTtf(fuente, [36, 37])))).toBe(true);
  });

  it('refuses what is not a TrueType font', () => {
    expect(() => leerTtf(new TextEncoder().encode('%PDF-1.7 no es una fuente'))).toThrow(/no es una fuente TrueType/);
  });
});
