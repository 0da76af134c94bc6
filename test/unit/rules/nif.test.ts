import { describe, expect, it } from 'vitest';
import { normalizarNif, validarNif } from '../../../shared/rules/nif';

// Every valid example below was checked by hand against the algorithm:
// 12345678 mod 23 = 14 → Z; 1234567 mod 23 = 19 → L; CIF B1234567:
// 2+6+1+5 (odd, doubled) + 2+4+6 (even) = 26 → 4; and so on.

describe('normalizarNif', () => {
  it.each([
    ['12345678z', '12345678Z'],
    [' 12.345.678-Z ', '12345678Z'],
    ['x-1234567-l', 'X1234567L'],
    ['ESB12345674', 'B12345674'],
    ['es b-12.345.674', 'B12345674'],
    ['ES 12345678Z', '12345678Z'],
    ['12\u00a0345\u00a0678Z', '12345678Z'],
    ['', ''],
  ])('%j → %j', (entrada, esperado) => {
    expect(normalizarNif(entrada)).toBe(esperado);
  });

  it('does not strip letters that are part of the NIF itself', () => {
    expect(normalizarNif('E12345678')).toBe('E12345678');
    expect(normalizarNif('S2800155J')).toBe('S2800155J');
  });
});

describe('validarNif: valid identifiers', () => {
  it.each([
    // DNI
    ['12345678Z', 'dni'],
    ['00000000T', 'dni'],
    ['99999999R', 'dni'],
    ['12.345.678-z', 'dni'],
    // NIE: X=0, Y=1, Z=2
    ['X1234567L', 'nie'],
    ['Y1234567X', 'nie'],
    ['Z1234567R', 'nie'],
    ['x-1234567-l', 'nie'],
    // K, L, M: DNI algorithm on the 7 digits
    ['K1234567L', 'dni'],
    ['L1234567L', 'dni'],
    ['M1234567L', 'dni'],
    // CIF with numeric control (A, B, E, H)
    ['B12345674', 'cif'],
    ['A58818501', 'cif'],
    ['ESA58818501', 'cif'],
    ['E12345674', 'cif'],
    ['H12345674', 'cif'],
    // CIF with letter control (N, P, Q, R, S, W)
    ['Q2826000H', 'cif'],
    ['P2800000H', 'cif'],
    ['S2800155J', 'cif'],
    ['N0032484H', 'cif'],
    ['W0184081H', 'cif'],
    ['R0800323H', 'cif'],
    // CIF where either form is accepted (C, D, F, G, J, U, V)
    ['G12345674', 'cif'],
    ['G1234567D', 'cif'],
    ['J12345674', 'cif'],
    ['V1234567D', 'cif'],
  ] as const)('%s is a valid %s', (nif, tipo) => {
    const r = validarNif(nif);
    expect(r).toEqual({ tipo, normalizado: normalizarNif(nif), valido: true });
  });
});

describe('validarNif: known format, wrong control character (caller makes it an aviso)', () => {
  it.each([
    ['12345678A', 'dni', 'la letra de control no corresponde (debería ser Z)'],
    ['00000000R', 'dni', 'la letra de control no corresponde (debería ser T)'],
    ['X1234567A', 'nie', 'la letra de control no corresponde (debería ser L)'],
    ['Y1234567L', 'nie', 'la letra de control no corresponde (debería ser X)'],
    ['Z1234567L', 'nie', 'la letra de control no corresponde (debería ser R)'],
    ['K1234567A', 'dni', 'la letra de control no corresponde (debería ser L)'],
    ['B12345675', 'cif', 'el dígito de control no corresponde (debería ser 4)'],
    ['A58818502', 'cif', 'el dígito de control no corresponde (debería ser 1)'],
    // A and B must end in a digit, even if the letter matches the digit's letter
    ['B1234567D', 'cif', 'el dígito de control no corresponde (debería ser 4)'],
    // Q and P must end in a letter, even if the digit is the right one
    ['Q28260008', 'cif', 'la letra de control no corresponde (debería ser H)'],
    ['P2800000J', 'cif', 'la letra de control no corresponde (debería ser H)'],
    ['S2800155E', 'cif', 'la letra de control no corresponde (debería ser J)'],
    ['G12345675', 'cif', 'el carácter de control no corresponde (debería ser 4 o D)'],
    ['G1234567E', 'cif', 'el carácter de control no corresponde (debería ser 4 o D)'],
  ] as const)('%s → %s, %s', (nif, tipo, motivo) => {
    expect(validarNif(nif)).toEqual({ tipo, normalizado: nif, valido: false, motivo });
  });

  it('flags every wrong DNI letter and always suggests the right one', () => {
    for (const letra of 'TRWAGMYFPDXBNJSQVHLCKE') {
      const r = validarNif(`12345678${letra}`);
      expect(r.tipo).toBe('dni');
      expect(r.valido).toBe(false);
      expect(r.motivo).toContain('debería ser Z');
    }
  });
});

describe('validarNif: unknown format (tipo null)', () => {
  it.each([
    [''],
    ['   '],
    ['hola'],
    ['1234567Z'], // 7 digits
    ['123456789Z'], // 9 digits
    ['123456789'],
    ['X12345678L'], // NIE with 8 digits
    ['X123456L'], // NIE with 6 digits
    ['I12345674'], // I is not an entity letter
    ['O12345674'],
    ['T12345674'],
    ['B1234567'], // no control
    ['B123456745'],
    ['12345678Ñ'],
    ['ÑX1234567L'],
    ['FR12345678901'], // foreign VAT
  ])('%j is not a Spanish NIF', (nif) => {
    const r = validarNif(nif);
    expect(r.tipo).toBeNull();
    expect(r.valido).toBe(false);
    expect(r.motivo).toMatch(/formato no reconocido|falta el NIF/);
  });

  it('says which letter is missing when only the 8 DNI digits were written', () => {
    expect(validarNif('12345678')).toEqual({
      tipo: null,
      normalizado: '12345678',
      valido: false,
      motivo: 'formato no reconocido: falta la letra del DNI (sería Z)',
    });
  });

  it('reports an empty input as missing', () => {
    expect(validarNif(' ').motivo).toBe('falta el NIF');
  });
});
