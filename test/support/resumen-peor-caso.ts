import { huellaDatos, type ResumenOffline } from '../../shared/rules/resumen-offline';

/**
 * The longest realistic summary of a DeCA issued with no coverage: the
 * longest company, place, goods and driver names seen on Spanish transport
 * documents, a trailer, a weight with decimals, several shipments. What the
 * QR's size is measured with (bench/qr-resumen.ts, the unit tests).
 */
export const RESUMEN_PEOR_CASO: ResumenOffline = {
  numero: '2027-000123',
  cargador_nombre: 'Cooperativa Agrícola San Isidro de Almería, S.C.A.',
  cargador_nif: 'F04012345',
  transp_nombre: 'Transportes Frigoríficos Hermanos Núñez Peñalara, S.L.',
  transp_nif: 'B12345674',
  fecha: '2027-06-10',
  matricula: '1234BCD',
  remolque: 'R5678BBC',
  origen: 'Polígono Industrial La Redonda, El Ejido (Almería)',
  destino: 'Mercazaragoza, Ctra. de Cogullada 65, Zaragoza',
  naturaleza: 'Frutas y hortalizas frescas en cajas refrigeradas',
  envios: 3,
  peso: { valor: 24500.5, unidad: 'kg' },
  conductor: 'José María Fernández-Villaverde Núñez',
  huella: huellaDatos({ numero: '2027-000123' }),
  emitida_at: new Date('2027-06-10T08:41:00Z'),
  cortados: [],
  formato: 2,
};

/** A ficha URL as the site makes it: `https://` and a 15-character host, `/d/` and a 32-character token. */
export const FICHA_PEOR_CASO = `https://deca.example.es/d/${'x'.repeat(32)}`;
