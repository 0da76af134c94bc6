import { fechaEs } from './fechas';
import { formatPeso } from './peso';

/** Labels of the DeCA fields, as the app's form and the public pages show them. */
export const ETIQUETAS: Record<string, string> = {
  ref_externa: 'Su referencia',
  cargador_nombre: 'Nombre o razón social',
  cargador_nif: 'NIF',
  cargador_domicilio: 'Domicilio',
  transp_nombre: 'Nombre o razón social',
  transp_nif: 'NIF',
  transp_domicilio: 'Domicilio',
  fecha_transporte: 'Fecha del transporte',
  tipo_vehiculo: 'Tipo de vehículo',
  matricula: 'Matrícula (tractora o rígido)',
  matricula_remolque: 'Matrícula del remolque',
  autorizacion_especial: 'Autorización especial',
  conductor_nombre: 'Conductor',
  conductor_tel: 'Teléfono del conductor',
  observaciones: 'Observaciones',
  referencia: 'Referencia interna',
  cargador_cp: 'Código postal',
  cargador_municipio: 'Municipio',
  cargador_provincia: 'Provincia o región',
  cargador_pais: 'País del domicilio',
  transp_cp: 'Código postal',
  transp_municipio: 'Municipio',
  transp_provincia: 'Provincia o región',
  transp_pais: 'País del domicilio',
  matricula_pais: 'País de la matrícula',
  remolque_pais: 'País de la matrícula del remolque',
  envios: 'Envíos',
  origen: 'Origen',
  destino: 'Destino',
  naturaleza: 'Mercancía',
  peso: 'Peso o cantidad',
  unidad: 'Unidad',
  nota: 'Nota',
  destinatario_nombre: 'Destinatario',
  destinatario_nif: 'NIF del destinatario',
  motivo: 'Motivo del cambio',
  foto_id: 'Foto del albarán',
  // The history's entry of a delivery (extension): `entrega`, or `envios[i].entrega` for one shipment.
  entrega: 'Entrega',
};

/** A field path in words: `envios[1].peso` → «Envío 2 · Peso o cantidad», `cargador_nif` → «Cargador · NIF». */
export function nombreCampo(path: string): string {
  const m = /^envios\[(\d+)\]\.(\w+)$/.exec(path);
  if (m) return `Envío ${Number(m[1]) + 1} · ${ETIQUETAS[m[2]!] ?? m[2]}`;
  const lado = path.startsWith('cargador_') ? 'Cargador · ' : path.startsWith('transp_') ? 'Transportista · ' : '';
  return lado + (ETIQUETAS[path] ?? path);
}

const VEHICULO: Record<string, string> = { rigido: 'rígido', articulado: 'articulado' };

/** One shipment in a line: `Almería → Zaragoza · Palés de fruta · 24.500 kg`. */
function envioLegible(e: unknown): string {
  if (!e || typeof e !== 'object') return String(e);
  const x = e as Record<string, unknown>;
  const peso = typeof x.peso === 'number' ? `${formatPeso(x.peso)} ${typeof x.unidad === 'string' ? x.unidad : 'kg'}` : null;
  return [`${x.origen ?? '¿?'} → ${x.destino ?? '¿?'}`, x.naturaleza, peso].filter(Boolean).join(' · ');
}

/**
 * A field's value in words, for histories and change notes: Spanish dates
 * (`24/11/2026`), weights (`24.500 kg`), «rígido», shipments in a line,
 * «(vacío)» for nothing.
 */
export function valorLegible(path: string, valor: unknown): string {
  if (valor === null || valor === undefined || valor === '') return '(vacío)';
  const campo = /\.(\w+)$/.exec(path)?.[1] ?? path;
  if (campo === 'fecha_transporte' && typeof valor === 'string') return fechaEs(valor);
  if (campo === 'tipo_vehiculo' && typeof valor === 'string') return VEHICULO[valor] ?? valor;
  if (campo === 'peso' && typeof valor === 'number') return formatPeso(valor);
  if (Array.isArray(valor)) return valor.length === 0 ? '(ninguno)' : valor.map(envioLegible).join('; ');
  if (typeof valor === 'object') return envioLegible(valor);
  return String(valor);
}
