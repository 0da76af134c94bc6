/** Labels of the DeCA fields, as the form shows them. */
export const ETIQUETAS: Record<string, string> = {
  ref_externa: 'Referencia propia (ref_externa)',
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
  envios: 'Envíos',
  origen: 'Origen',
  destino: 'Destino',
  naturaleza: 'Mercancía',
  peso: 'Peso o cantidad',
  unidad: 'Unidad',
  nota: 'Nota',
  motivo: 'Motivo del cambio',
};

/** A field path in words: `envios[1].peso` → «Envío 2 · Peso o cantidad», `cargador_nif` → «Cargador · NIF». */
export function nombreCampo(path: string): string {
  const m = /^envios\[(\d+)\]\.(\w+)$/.exec(path);
  if (m) return `Envío ${Number(m[1]) + 1} · ${ETIQUETAS[m[2]!] ?? m[2]}`;
  const lado = path.startsWith('cargador_') ? 'Cargador · ' : path.startsWith('transp_') ? 'Transportista · ' : '';
  return lado + (ETIQUETAS[path] ?? path);
}
