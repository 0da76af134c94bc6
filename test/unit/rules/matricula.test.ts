import { describe, expect, it } from 'vitest';
import { clasificarMatricula, normalizarMatricula } from '../../../shared/rules/matricula';

describe('normalizarMatricula', () => {
  it.each([
    ['1234 bcd', '1234BCD'],
    ['1234-BCD', '1234BCD'],
    ['  1234bcd  ', '1234BCD'],
    ['M-1234-AB', 'M1234AB'],
    ['m 1234 ab', 'M1234AB'],
    ['R-1234-BCD', 'R1234BCD'],
    ['gc–1234–a', 'GC1234A'], // en dash, as pasted from a word processor
    ['1234\u00a0BCD', '1234BCD'],
    ['', ''],
  ])('%j → %j', (entrada, esperado) => {
    expect(normalizarMatricula(entrada)).toBe(esperado);
  });
});

describe('clasificarMatricula', () => {
  it.each([
    // actual (since 2000)
    ['1234BCD', '1234BCD', 'actual'],
    ['0000 bbb', '0000BBB', 'actual'],
    ['9999-ZZZ', '9999ZZZ', 'actual'],
    ['1234 XYZ', '1234XYZ', 'actual'],
    // provincial, 1971–2000
    ['M-1234-AB', 'M1234AB', 'provincial'],
    ['B-1234-Z', 'B1234Z', 'provincial'],
    ['GC-1234-A', 'GC1234A', 'provincial'],
    ['Z-1234-BC', 'Z1234BC', 'provincial'],
    ['PM-1234-AE', 'PM1234AE', 'provincial'],
    ['CC-1234-A', 'CC1234A', 'provincial'],
    ['H-1234-AB', 'H1234AB', 'provincial'],
    ['C-1234-AB', 'C1234AB', 'provincial'],
    ['SS-0001-A', 'SS0001A', 'provincial'],
    // provincial, numeric only (before 1971)
    ['M-123456', 'M123456', 'provincial'],
    ['B-1234', 'B1234', 'provincial'],
    ['TF-98765', 'TF98765', 'provincial'],
    // remolque
    ['R-1234-BCD', 'R1234BCD', 'remolque'],
    ['r 0001 bbb', 'R0001BBB', 'remolque'],
    // especial: lettered series
    ['E-1234-BCD', 'E1234BCD', 'especial'],
    ['H-1234-BCD', 'H1234BCD', 'especial'],
    ['P-1234-BCD', 'P1234BCD', 'especial'],
    ['S-1234-BCD', 'S1234BCD', 'especial'],
    ['V-1234-BCD', 'V1234BCD', 'especial'],
    ['C-1234-BCD', 'C1234BCD', 'especial'],
    // especial: diplomatic and state bodies
    ['CD-123-456', 'CD123456', 'especial'],
    ['CC 123456', 'CC123456', 'especial'],
    ['OI-1234', 'OI1234', 'especial'],
    ['TA 12345', 'TA12345', 'especial'],
    ['ET-123456', 'ET123456', 'especial'],
    ['EA 12345', 'EA12345', 'especial'],
    ['FN-1234', 'FN1234', 'especial'],
    ['PGC 1234 A', 'PGC1234A', 'especial'],
    ['CNP-1234-AB', 'CNP1234AB', 'especial'],
    ['DGP 12345', 'DGP12345', 'especial'],
    ['MF 12345', 'MF12345', 'especial'],
    ['MMA-1234', 'MMA1234', 'especial'],
    ['PME 1234 B', 'PME1234B', 'especial'],
  ] as const)('%j → %s (%s)', (entrada, normalizada, tipo) => {
    expect(clasificarMatricula(entrada)).toEqual({ normalizada, tipo, valida: true });
  });

  it.each([
    // a prefixed series is one letter longer than a provincial plate: the longer pattern wins
    ['R1234BCD', 'remolque'],
    ['E1234BCD', 'especial'],
    ['M1234AB', 'provincial'],
    ['H1234BCD', 'especial'],
    ['H1234BC', 'provincial'],
    ['C1234BCD', 'especial'],
    ['C1234BC', 'provincial'],
  ] as const)('ambiguous prefix: %s is %s', (entrada, tipo) => {
    expect(clasificarMatricula(entrada).tipo).toBe(tipo);
  });

  it.each([
    ['1234ABC', /sin vocales, Ñ ni Q/], // vowels are not used in the current series
    ['1234BCQ', /sin vocales, Ñ ni Q/],
    ['1234 BÑD', /sin vocales, Ñ ni Q/],
    ['R1234ABC', /serie española/], // trailer series has no vowels either
    ['E1234AEI', /serie española/],
    ['X-1234-AB', /serie española/], // X is no province
    ['QQ-1234-A', /serie española/],
    ['R-1234-AB', /serie española/], // R and E are series prefixes, not provinces
    ['E-1234-AB', /serie española/],
    ['M-1234-ABC', /serie española/], // provincial has at most 2 letters
    ['M-123-AB', /serie española/], // provincial letters follow exactly 4 digits
    ['M-1234567', /serie española/], // numeric series had at most 6 digits
    ['M-123', /serie española/], // 1–3 digit numeric plates are treated as typos
    ['12-AB-34', /serie española/], // Portuguese
    ['AB123CD', /serie española/], // French SIV
    ['B-AB-1234', /serie española/], // German
    ['', /falta la matrícula/],
    ['  - ', /falta la matrícula/],
    ['1234.BCD', /solo puede llevar letras y cifras/],
    ['1234/BCD', /solo puede llevar letras y cifras/],
    ['ABC', /no parece una matrícula/],
    ['A1', /no parece una matrícula/],
    ['123456', /no parece una matrícula/],
    ['ABCDEFGH', /no parece una matrícula/],
    ['AB12345678901', /no parece una matrícula/],
  ])('%j is desconocida', (entrada, motivo) => {
    const r = clasificarMatricula(entrada);
    expect(r.tipo).toBe('desconocida');
    expect(r.valida).toBe(false);
    expect(r.motivo).toMatch(motivo);
    expect(r.normalizada).toBe(normalizarMatricula(entrada));
  });

  it('accepts every province code in the old alphanumeric series', () => {
    const provincias = 'A AB AL AV B BA BI BU C CA CC CE CO CR CS CU GC GI GR GU H HU IB J L LE LO LU M MA ML MU NA O OR OU P PM PO S SA SE SG SO SS T TE TF TO V VA VI Z ZA';
    for (const p of provincias.split(' ')) {
      expect(clasificarMatricula(`${p}-1234-AB`), p).toMatchObject({ tipo: 'provincial', valida: true });
    }
  });
});
