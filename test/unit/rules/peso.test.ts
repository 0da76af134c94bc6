import { describe, it, expect } from 'vitest';
import { formatPeso, parsePeso } from '../../../shared/rules/peso';

describe('parsePeso: accepted input', () => {
  it.each([
    // numbers
    [24500, 24500],
    [0.5, 0.5],
    [1e9, 1e9],
    // plain and Spanish-grouped integers
    ['24500', 24500],
    ['24.500', 24500],
    ['1.500.000', 1500000],
    ['1 500', 1500],
    ['1 500 000', 1500000],
    ['1\u00a0500', 1500],
    ['  24500  ', 24500],
    ['007', 7],
    // comma is always the decimal mark
    ['24.500,5', 24500.5],
    ['24500,5', 24500.5],
    ['1,5', 1.5],
    ['0,1234', 0.1234],
    ['1 500,25', 1500.25],
    ['24,500', 24.5],
    // a lone dot: thousands only when followed by exactly 3 digits after a 1–3 digit group
    ['1.5', 1.5],
    ['12.25', 12.25],
    ['999.999', 999999],
    ['0.500', 0.5],
    ['1234.500', 1234.5],
    ['1.2345', 1.2345],
  ] as const)('%j → %d', (entrada, valor) => {
    expect(parsePeso(entrada)).toEqual({ ok: true, valor });
  });

  it.each([
    ['2,5 t', 2.5, 't'],
    ['2,5t', 2.5, 't'],
    ['2,5 T', 2.5, 't'],
    ['3 tn', 3, 't'],
    ['3 Tm', 3, 't'],
    ['3 toneladas', 3, 't'],
    ['24500 kg', 24500, 'kg'],
    ['24.500kg', 24500, 'kg'],
    ['24.500 KGS', 24500, 'kg'],
    ['24500 kilos', 24500, 'kg'],
    ['1 500 kg.', 1500, 'kg'],
    ['33 m3', 33, 'm3'],
    ['33,5 m³', 33.5, 'm3'],
    ['1000 l', 1000, 'l'],
    ['1.000 litros', 1000, 'l'],
    ['12 palets', 12, 'palets'],
    ['1 palet', 1, 'palets'],
    ['12 pallets', 12, 'palets'],
    ['1 bulto', 1, 'bultos'],
    ['40 bultos', 40, 'bultos'],
    ['3 ud', 3, 'unidades'],
    ['3 uds.', 3, 'unidades'],
    ['300 unidades', 300, 'unidades'],
    ['1 contenedor', 1, 'contenedores'],
    ['2 contenedores', 2, 'contenedores'],
  ] as const)('%j → %d %s', (entrada, valor, unidad) => {
    expect(parsePeso(entrada)).toEqual({ ok: true, valor, unidad });
  });

  it('returns no unidad key when none was written', () => {
    const r = parsePeso('24.500');
    expect(r.ok && 'unidad' in r).toBe(false);
  });
});

describe('parsePeso: rejected input', () => {
  const formato = 'escriba el peso como número, p. ej. 24.500 o 24500,5';
  const cero = 'el peso debe ser mayor que cero';
  it.each([
    [0, cero],
    [-5, cero],
    [Number.NaN, formato],
    [Number.POSITIVE_INFINITY, formato],
    [1e9 + 1, 'peso no plausible'],
    ['0', cero],
    ['0,0', cero],
    ['0 kg', cero],
    ['-5', cero],
    ['-24.500,5', cero],
    ['- 5 kg', cero],
    ['1.000.000.001', 'peso no plausible'],
    ['99999999999', 'peso no plausible'],
    ['', 'falta el peso'],
    ['   ', 'falta el peso'],
    ['abc', formato],
    ['kg', formato],
    ['1,2,3', formato],
    ['1.2.3,4,5', formato],
    ['1.2.3', formato],
    ['1.50.000', formato],
    ['1.5000.000', formato],
    ['0.500.000', formato],
    ['1.500 000', formato],
    ['1 50', formato],
    ['12 5', formato],
    ['1,500.5', formato], // English grouping
    ['1.500,', formato],
    [',5', formato],
    ['5,', formato],
    ['+5', formato],
    ['1e3', formato],
    ['0x10', formato],
    ['5 kg kg', formato],
    ['-abc', formato],
    ['5 libras', 'unidad no reconocida: «libras»'],
    ['12 cajas', 'unidad no reconocida: «cajas»'],
  ] as const)('%j → %j', (entrada, motivo) => {
    expect(parsePeso(entrada)).toEqual({ ok: false, motivo });
  });
});

describe('formatPeso', () => {
  it.each([
    [24500, '24.500'],
    [24500.5, '24.500,5'],
    [1.5, '1,5'],
    [0.5, '0,5'],
    [0.1234, '0,1234'],
    [1, '1'],
    [999, '999'],
    [1000, '1.000'],
    [1500000, '1.500.000'],
    [1e9, '1.000.000.000'],
    [12.25, '12,25'],
    [24500.1, '24.500,1'],
    [0.1 + 0.2, '0,3'],
    [0.9999999, '1'],
    [0, '0'],
    [-1500.5, '-1.500,5'],
    [-0.0000001, '0'],
  ])('%d → %j', (valor, texto) => {
    expect(formatPeso(valor)).toBe(texto);
  });

  it.each([['24.500'], ['24.500,5'], ['1,5'], ['1.500.000'], ['0,1234']])(
    'round-trips %j through parsePeso',
    (texto) => {
      const r = parsePeso(texto);
      expect(r.ok).toBe(true);
      if (r.ok) expect(formatPeso(r.valor)).toBe(texto);
    },
  );
});
