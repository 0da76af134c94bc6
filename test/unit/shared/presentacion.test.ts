import { describe, expect, it } from 'vitest';
import { nombreCampo, valorLegible } from '../../../shared/rules/presentacion';

describe('field values in words', () => {
  it.each([
    ['fecha_transporte', '2026-11-24', '24/11/2026'],
    ['tipo_vehiculo', 'rigido', 'rígido'],
    ['tipo_vehiculo', 'articulado', 'articulado'],
    ['envios[0].peso', 24500, '24.500'],
    ['matricula', '1234BCD', '1234BCD'],
    ['matricula_remolque', null, '(vacío)'],
    ['referencia', '', '(vacío)'],
  ])('%s = %j → %s', (campo, valor, texto) => {
    expect(valorLegible(campo, valor)).toBe(texto);
  });

  it('writes shipments in a line each, with the weight the Spanish way', () => {
    expect(
      valorLegible('envios', [
        { origen: 'Almería', destino: 'Zaragoza', naturaleza: 'Fruta', peso: 24500, unidad: 'kg' },
        { origen: 'Lleida', destino: null, naturaleza: null, peso: 1.5, unidad: 't' },
      ]),
    ).toBe('Almería → Zaragoza · Fruta · 24.500 kg; Lleida → ¿? · 1,5 t');
    expect(valorLegible('envios', [])).toBe('(ninguno)');
  });

  it('names a field path for people', () => {
    expect(nombreCampo('envios[1].peso')).toBe('Envío 2 · Peso o cantidad');
    expect(nombreCampo('cargador_nif')).toBe('Cargador · NIF');
    expect(nombreCampo('matricula')).toBe('Matrícula (tractora o rígido)');
  });
});
