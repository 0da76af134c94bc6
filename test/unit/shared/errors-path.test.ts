import { describe, expect, it } from 'vitest';
import { formatPath, parsePath } from '../../../shared/errors';

describe('formatPath and parsePath', () => {
  it.each([[['envios', 2, 'peso']], [['cargador_nif']], [['envios', 0]], [[]]] as PropertyKey[][][])('round-trips %j', (ruta) => {
    expect(parsePath(formatPath(ruta))).toEqual(ruta);
  });
  it('names a field as the API does', () => {
    expect(formatPath(['envios', 2, 'peso'])).toBe('envios[2].peso');
    expect(parsePath('envios[12].nota')).toEqual(['envios', 12, 'nota']);
  });
});
