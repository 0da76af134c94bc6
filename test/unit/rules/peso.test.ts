import { describe, expect, it } from 'vitest';
import { avisosDeca } from '../../../shared/rules/emision';
import { cargaInverosimil, formatPeso, parsePeso } from '../../../shared/rules/peso';
import { CAMPOS_DATOS, type DecaDatos, DecaInput } from '../../../shared/schemas/deca';

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

  it.each([['24.500'], ['24.500,5'], ['1,5'], ['1.500.000'], ['0,1234']])('round-trips %j through parsePeso', (texto) => {
    const r = parsePeso(texto);
    expect(r.ok).toBe(true);
    if (r.ok) expect(formatPeso(r.valor)).toBe(texto);
  });
});

describe('cargaInverosimil: a load no road vehicle carries', () => {
  it('warns of 23.800 t and suggests kg, where 23.800 kg fits', () => {
    const m = cargaInverosimil(23800, 't');
    expect(m).toContain('23.800 t es más de lo que lleva un vehículo por carretera');
    expect(m).toContain('hasta 44 t');
    expect(m).toContain('¿Quería decir 23.800 kg?');
  });
  it('warns of 240.000 kg with no unit to suggest (in t it would be worse)', () => {
    const m = cargaInverosimil(240000, 'kg');
    expect(m).toContain('240.000 kg');
    expect(m).not.toContain('Quería decir');
  });
  it('takes a missing unit as kg', () => {
    expect(cargaInverosimil(50000, null)).toContain('50.000 kg');
  });
  it.each([
    [24500, 'kg'],
    [44000, 'kg'],
    [44, 't'],
    [0.5, 't'],
    [90000, 'l'],
    [2000, 'palets'],
  ] as const)('accepts %s %s', (valor, unidad) => {
    expect(cargaInverosimil(valor, unidad)).toBeNull();
  });
  it('accepts an exceptional load with a special permit, up to its own limit', () => {
    expect(cargaInverosimil(120, 't', { autorizacionEspecial: true })).toBeNull();
    expect(cargaInverosimil(120, 't')).toContain('120 t');
    expect(cargaInverosimil(23800, 't', { autorizacionEspecial: true })).toContain('incluso con autorización especial');
  });
});

describe('avisosDeca names the shipment whose load is implausible', () => {
  it('gives carga_inverosimil on envios[1].peso only', () => {
    const base = DecaInput.parse({
      envios: [
        { peso: '24.500', unidad: 'kg' },
        { peso: '23.800', unidad: 't' },
      ],
      emitir: false,
    });
    const datos = { ...Object.fromEntries(CAMPOS_DATOS.map((c) => [c, null])), transp_domicilio: 'Calle Mayor 1', envios: base.envios } as unknown as DecaDatos;
    const avisos = avisosDeca(datos).filter((a) => a.codigo === 'carga_inverosimil');
    expect(avisos).toHaveLength(1);
    expect(avisos[0]?.campo).toBe('envios[1].peso');
  });
});

describe('parsePeso on text far longer than any weight', () => {
  it('refuses it as not a number without running its patterns (a 4 MB «weight» is one request away)', () => {
    expect(parsePeso('1'.repeat(1001))).toEqual({ ok: false, motivo: 'escriba el peso como número, p. ej. 24.500 o 24500,5' });
    expect(parsePeso(` ${'1'.repeat(30)} kg `)).toMatchObject({ ok: false, motivo: 'peso no plausible' });
  });
});
