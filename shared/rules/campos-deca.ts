/**
 * The fields that make up the document itself (printed on the PDF), in print
 * order. Apart from shared/schemas/deca.ts, which re-exports them, so that the
 * app's list and sign-in screens read them without bringing zod (~26 KB gzip).
 */
export const CAMPOS_DATOS = [
  'cargador_nombre',
  'cargador_nif',
  'cargador_domicilio',
  'transp_nombre',
  'transp_nif',
  'transp_domicilio',
  'fecha_transporte',
  'tipo_vehiculo',
  'matricula',
  'matricula_remolque',
  'autorizacion_especial',
  'conductor_nombre',
  'conductor_tel',
  'observaciones',
  'referencia',
  'envios',
] as const;
export type CampoDatos = (typeof CAMPOS_DATOS)[number];
