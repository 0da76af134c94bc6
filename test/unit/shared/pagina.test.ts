/**
 * Finding the page in a photo and flattening it, on pictures drawn here
 * pixel by pixel: a bright quadrilateral on a darker surface, with lines of
 * «ink» on it.
 */
import { describe, expect, it } from 'vitest';
import { aplanar, aplicar, buscarPagina, type Cuadrilatero, type Gris, homografia } from '../../../shared/imagen/pagina';

/** Is (x, y) inside the convex quadrilateral q (corners clockwise)? */
function dentro(q: Cuadrilatero, x: number, y: number): boolean {
  return q.every(([ax, ay], k) => {
    const [bx, by] = q[(k + 1) % 4]!;
    return (bx - ax) * (y - ay) - (by - ay) * (x - ax) >= 0;
  });
}

/** A photo: a surface of grey `fondo`, the page `q` of grey `papel` on it with horizontal text lines (in page coordinates) every 24 px. */
function foto(width: number, height: number, q: Cuadrilatero, fondo = 70, papel = 225): Gris {
  const data = new Uint8Array(width * height);
  const haciaPagina = homografia(q, [
    [0, 0],
    [1000, 0],
    [1000, 1414],
    [0, 1414],
  ]);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (!dentro(q, x, y)) {
        data[y * width + x] = fondo + ((x * 7 + y * 13) % 9); // a little grain
        continue;
      }
      const [u, v] = aplicar(haciaPagina, [x, y]);
      const tinta = u > 100 && u < 800 && v > 100 && v < 1300 && v % 48 < 14;
      data[y * width + x] = tinta ? 40 : papel;
    }
  }
  return { data, width, height };
}

const PAGINA: Cuadrilatero = [
  [92, 61],
  [371, 78],
  [352, 452],
  [60, 430],
];

describe('buscarPagina', () => {
  it('finds the corners of a turned, slanted page on a darker surface within 2% of the picture', () => {
    const q = buscarPagina(foto(420, 500, PAGINA));
    expect(q).not.toBeNull();
    q!.forEach(([x, y], k) => {
      expect(Math.abs(x - PAGINA[k]![0]), `corner ${k} x`).toBeLessThan(10);
      expect(Math.abs(y - PAGINA[k]![1]), `corner ${k} y`).toBeLessThan(10);
    });
  });

  it('finds nothing in a photo that is all page, nor in one whose «page» is a lit half of the frame', () => {
    const llena = foto(300, 400, [
      [0, 0],
      [299, 0],
      [299, 399],
      [0, 399],
    ]);
    expect(buscarPagina(llena)).toBeNull();
    const mitad = foto(300, 400, [
      [0, 0],
      [299, 0],
      [299, 200],
      [0, 200],
    ]);
    expect(buscarPagina(mitad)).toBeNull();
  });

  it('finds nothing where the «page» barely stands out from the surface', () => {
    expect(buscarPagina(foto(420, 500, PAGINA, 200, 215))).toBeNull();
  });
});

describe('aplanar', () => {
  it('flattens the page: its text lines come out level, across the whole width', () => {
    const g = foto(420, 500, PAGINA);
    const q = buscarPagina(g)!;
    const plano = aplanar(g, q, 300, 424);
    // The middle row of each text line is ink from one end of the text to the other, the middle of each gap paper:
    // a line left slanted or bent would cross into the gap at one end.
    const fila = (v: number) => Math.round((v * 423) / 1414);
    const tramo = (y: number) => plano.data.subarray(y * 300 + Math.round((110 * 299) / 1000), y * 300 + Math.round((790 * 299) / 1000));
    for (let v = 144; v < 1290; v += 48) {
      expect(tramo(fila(v + 7)).filter((p) => p < 130).length / tramo(0).length, `line at ${v}`).toBeGreaterThan(0.97);
      expect(tramo(fila(v + 31)).filter((p) => p < 130).length, `gap after ${v}`).toBe(0);
    }
  });
});

describe('homografia', () => {
  it('maps the four corners it was given, and back', () => {
    const a: Cuadrilatero = [
      [0, 0],
      [99, 0],
      [99, 140],
      [0, 140],
    ];
    const hm = homografia(a, PAGINA);
    const vuelta = homografia(PAGINA, a);
    a.forEach((p, k) => {
      const [x, y] = aplicar(hm, p);
      expect(x).toBeCloseTo(PAGINA[k]![0], 6);
      expect(y).toBeCloseTo(PAGINA[k]![1], 6);
      const [u, v] = aplicar(vuelta, [x, y]);
      expect(u).toBeCloseTo(p[0], 6);
      expect(v).toBeCloseTo(p[1], 6);
    });
  });
});
