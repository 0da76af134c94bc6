import { describe, expect, it } from 'vitest';
import { esDecaDelConductor, queVeElConductor, veTodasLasDecas } from '../../../shared/rules/roles';

describe('which DeCAs a user sees and changes', () => {
  it('lets administrators, the office and API keys see every DeCA of the account, and a driver only theirs', () => {
    expect(veTodasLasDecas('admin')).toBe(true);
    expect(veTodasLasDecas('oficina')).toBe(true);
    expect(veTodasLasDecas(null)).toBe(true);
    expect(veTodasLasDecas('conductor')).toBe(false);
  });

  const pepe = { userId: 7, matriculas: ['1234BCD'] };

  it('gives a driver the DeCAs they made, whatever their vehicle', () => {
    expect(esDecaDelConductor(pepe, { creado_por_user_id: 7, matricula: '9999ZZZ' })).toBe(true);
    expect(esDecaDelConductor(pepe, { creado_por_user_id: 7, matricula: null })).toBe(true);
  });

  it('gives a driver the DeCAs of a vehicle assigned to them, however the plate is written', () => {
    expect(esDecaDelConductor(pepe, { creado_por_user_id: null, matricula: '1234BCD' })).toBe(true);
    expect(esDecaDelConductor(pepe, { creado_por_user_id: 8, matricula: '1234 bcd' })).toBe(true);
    expect(esDecaDelConductor({ userId: 7, matriculas: ['1234-bcd'] }, { creado_por_user_id: 8, matricula: '1234BCD' })).toBe(true);
  });

  it('keeps from a driver another driver’s DeCA and an office one that does not name their vehicle', () => {
    expect(esDecaDelConductor(pepe, { creado_por_user_id: 8, matricula: '5678FGH' })).toBe(false);
    expect(esDecaDelConductor(pepe, { creado_por_user_id: null, matricula: '5678FGH' })).toBe(false);
    expect(esDecaDelConductor(pepe, { creado_por_user_id: null, matricula: null })).toBe(false);
    // A driver with no plates assigned sees only what they made; an empty plate matches nothing.
    expect(esDecaDelConductor({ userId: 7, matriculas: [] }, { creado_por_user_id: null, matricula: '1234BCD' })).toBe(false);
    expect(esDecaDelConductor({ userId: 7, matriculas: [''] }, { creado_por_user_id: null, matricula: '' })).toBe(false);
  });

  it('tells a driver what their list holds', () => {
    expect(queVeElConductor([])).toMatch(/^Ve las DeCA que ha hecho usted\. .*«Usuarios»/);
    expect(queVeElConductor(['1234BCD'])).toContain('su vehículo 1234BCD');
    expect(queVeElConductor(['1234BCD', '5678FGH'])).toContain('sus vehículos 1234BCD, 5678FGH');
  });
});
