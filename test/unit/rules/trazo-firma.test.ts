import { describe, expect, it } from 'vitest';
import { DISTANCIA_MINIMA, hayFirma, normalizarTrazo, rutaFirma } from '../../../shared/rules/trazo-firma';

describe('normalizarTrazo', () => {
  it('keeps points as fractions of the pad, rounded, clamped to its edges', () => {
    expect(
      normalizarTrazo(
        [
          { x: 0, y: 0 },
          { x: 100, y: 50 },
          { x: 400, y: 200 },
          { x: 450, y: -20 },
        ],
        400,
        200,
      ),
    ).toEqual([
      [0, 0],
      [0.25, 0.25],
      [1, 1],
      [1, 0],
    ]);
    expect(normalizarTrazo([{ x: 1, y: 2 }], 3, 7)).toEqual([[0.3333, 0.2857]]);
  });

  it('drops points that do not move the line, but ends where the finger lifted', () => {
    // A finger held still sends many points about the same place.
    const quieto = Array.from({ length: 30 }, (_, i) => ({ x: 200 + (i % 2) * 0.2, y: 100 }));
    const t = normalizarTrazo([{ x: 0, y: 100 }, ...quieto, { x: 200.5, y: 100.4 }], 400, 200);
    expect(t.length).toBe(2);
    expect(t[0]).toEqual([0, 0.5]);
    expect(t[1]).toEqual([0.5013, 0.502]);
    // Every kept point is at least the minimum distance (in the pad's proportions) from the previous one.
    const largo = normalizarTrazo(
      Array.from({ length: 200 }, (_, i) => ({ x: i * 0.7, y: Math.sin(i / 10) * 50 + 100 })),
      400,
      200,
    );
    for (let i = 1; i < largo.length - 1; i++) {
      const dx = (largo[i]![0] - largo[i - 1]![0]) * 1;
      const dy = (largo[i]![1] - largo[i - 1]![1]) * 0.5;
      expect(Math.hypot(dx, dy)).toBeGreaterThanOrEqual(DISTANCIA_MINIMA - 1e-4);
    }
    expect(largo.length).toBeLessThan(200);
  });

  it('gives nothing for no points or a pad with no size', () => {
    expect(normalizarTrazo([], 100, 100)).toEqual([]);
    expect(normalizarTrazo([{ x: 1, y: 1 }], 0, 100)).toEqual([]);
  });
});

describe('rutaFirma', () => {
  it('draws quadratic curves through the midpoints, each point the control of its curve', () => {
    const d = rutaFirma(
      [
        [
          [0, 0],
          [0.5, 1],
          [1, 0],
          [1, 1],
        ],
      ],
      100,
      10,
    );
    expect(d).toBe('M0 0L25 5Q50 10 75 5Q100 0 100 5L100 10');
  });

  it('scales the same strokes to any box, several strokes in one path', () => {
    const trazos = [
      [
        [0.1, 0.2],
        [0.3, 0.4],
      ],
      [[0.5, 0.5]],
    ] as [number, number][][];
    expect(rutaFirma(trazos, 200, 100)).toBe('M20 20L60 40M100 50l0.01 0');
    expect(rutaFirma(trazos, 400, 200)).toBe('M40 40L120 80M200 100l0.01 0');
    expect(rutaFirma([[]], 10, 10)).toBe('');
  });
});

describe('hayFirma', () => {
  it('tells a signature from a stray touch', () => {
    expect(hayFirma([])).toBe(false);
    expect(
      hayFirma([
        [[0.5, 0.5]],
        [
          [0.2, 0.2],
          [0.21, 0.2],
        ],
      ]),
    ).toBe(false);
    expect(
      hayFirma([
        [
          [0.1, 0.5],
          [0.4, 0.6],
          [0.8, 0.4],
        ],
      ]),
    ).toBe(true);
  });
});
