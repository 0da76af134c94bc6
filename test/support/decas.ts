import type { DecaInput } from '../../shared/schemas/deca';

/** A complete DeCA input (every art. 6 datum), with accents, ready to issue. */
export function decaCompleta(over: Partial<DecaInput> = {}): DecaInput {
  return {
    cargador_nombre: 'Frutas Peñalara, S.A.',
    cargador_nif: 'A58818501',
    cargador_domicilio: 'Camí Vell 3, 25001 Lleida',
    transp_nombre: 'Transportes Núñez, S.L.',
    transp_nif: 'B12345674',
    transp_domicilio: 'Avda. de la Ilustración 7, 50012 Zaragoza',
    fecha_transporte: '2026-11-23',
    matricula: '1234 BCD',
    conductor_nombre: 'José Ángel Muñoz',
    conductor_tel: '+34 600 000 000',
    envios: [{ origen: 'Lleida', destino: 'Málaga', naturaleza: 'Piñones y ñoras', peso: '24.500,5' }],
    ...over,
  };
}
