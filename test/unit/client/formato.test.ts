import { describe, expect, it } from 'vitest';
import { cuantos } from '../../../client/components/cuantos';
import { pesoConUnidad } from '../../../client/components/peso-con-unidad';

describe('counts and weights as the app writes them', () => {
  it('agrees the noun with its count, never «número(s)»', () => {
    expect(cuantos(1, 'número reservado', 'números reservados')).toBe('1 número reservado');
    expect(cuantos(10, 'número reservado', 'números reservados')).toBe('10 números reservados');
    expect(cuantos(0, 'cambio', 'cambios')).toBe('0 cambios');
  });

  it('writes a weight with its unit, from the server’s number or the text typed before the sync', () => {
    expect(pesoConUnidad(22400)).toBe('22.400 kg');
    expect(pesoConUnidad(24500.5, 'kg')).toBe('24.500,5 kg');
    expect(pesoConUnidad(2400)).toBe('2.400 kg');
    expect(pesoConUnidad('22400')).toBe('22.400 kg');
    expect(pesoConUnidad('1,5 t')).toBe('1,5 t');
    expect(pesoConUnidad('12', 'palets')).toBe('12 palets');
    expect(pesoConUnidad(1.5, 't')).toBe('1,5 t');
    // Nothing typed is nothing; text that is no weight is shown as typed rather than lost.
    expect(pesoConUnidad('')).toBe('');
    expect(pesoConUnidad(null)).toBe('');
    expect(pesoConUnidad('mucho')).toBe('mucho');
  });
});
