import { describe, expect, it } from 'vitest';
import { compactar, normalizarTexto, textoDeBusqueda } from '../../../shared/rules/busqueda';

describe('normalizarTexto', () => {
  it.each([
    ['Transportes Pérez', 'transportes perez'],
    ['  ÑORAS   de\tMURCIA ', 'noras de murcia'],
    ['Camí de l’Àngel', 'cami de l’angel'],
    ['Façana Çà', 'facana ca'],
    ['ŞTEFAN Ő', 'stefan o'],
  ])('%j → %j', (entrada, salida) => expect(normalizarTexto(entrada)).toBe(salida));
});

describe('compactar', () => {
  it.each([
    ['1234 BCD', '1234bcd'],
    ['1234-bcd', '1234bcd'],
    ['R-5678-BBC', 'r5678bbc'],
    ['B-65.410.011', 'b65410011'],
    ['Málaga (Puerto)', 'malagapuerto'],
  ])('%j → %j', (entrada, salida) => expect(compactar(entrada)).toBe(salida));
});

describe('textoDeBusqueda', () => {
  it('holds every field normalised and compacted, so a query in either form is found in it', () => {
    const t = textoDeBusqueda(['Transportes Pérez, S.L.', 'B12345674', null, '1234 BCD']);
    for (const q of ['perez', 'transportes perez', 's.l.', 'b12345674', '1234 bcd', '1234bcd', 'perezsl']) {
      expect(t.includes(normalizarTexto(q)) || t.includes(compactar(q)), q).toBe(true);
    }
    expect(t).not.toContain('null');
    expect(t.includes('gomez')).toBe(false);
  });
});
