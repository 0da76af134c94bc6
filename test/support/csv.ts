import { COLUMNAS_CSV } from '../../shared/rules/csv-deca';

/** The import's header row, with `;`. */
export const CABECERA = COLUMNAS_CSV.join(';');

/**
 * One shipment row with the spec's columns, a complete DeCA; `over` by column
 * name. With commas every cell is quoted (names and addresses hold commas), as
 * a spreadsheet does.
 */
export function filaCsv(over: Record<string, string> = {}, separador = ';'): string {
  const base: Record<string, string> = {
    ref_externa: 'PED-1',
    referencia: '',
    fecha_transporte: '23/11/2026',
    cargador: 'Frutas Peñalara, S.A.',
    cargador_nif: 'A58818501',
    cargador_domicilio: 'Camí Vell 3, Lleida',
    transportista: 'Transportes Núñez, S.L.',
    transportista_nif: 'B12345674',
    origen: 'Lleida',
    destino: 'Málaga',
    mercancia: 'Piñones',
    peso: '18.250,5',
    unidad: 'kg',
    tipo_vehiculo: '',
    matricula: '1234 BCD',
    remolque: '',
    autorizacion_especial: '',
    conductor: 'José Muñoz',
    conductor_tel: '',
    observaciones: '',
    ...over,
  };
  return COLUMNAS_CSV.map((c) => (separador === ',' ? `"${(base[c] ?? '').replace(/"/g, '""')}"` : (base[c] ?? ''))).join(separador);
}
