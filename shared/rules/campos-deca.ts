/**
 * The fields that make up the document itself: those printed on the PDF, in
 * print order, then the extensions the eFTI dataset takes and the PDF does
 * not print (the parties' addresses in parts, the plates' countries). Apart from shared/schemas/deca.ts, which re-exports them, so that the
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
  'cargador_cp',
  'cargador_municipio',
  'cargador_provincia',
  'cargador_pais',
  'transp_cp',
  'transp_municipio',
  'transp_provincia',
  'transp_pais',
  'matricula_pais',
  'remolque_pais',
  'envios',
] as const;
export type CampoDatos = (typeof CAMPOS_DATOS)[number];

/** The fields of CAMPOS_DATOS the PDF does not print: what the eFTI dataset takes besides (docs/efti.md). */
export const CAMPOS_EFTI = [
  'cargador_cp',
  'cargador_municipio',
  'cargador_provincia',
  'cargador_pais',
  'transp_cp',
  'transp_municipio',
  'transp_provincia',
  'transp_pais',
  'matricula_pais',
  'remolque_pais',
] as const satisfies readonly CampoDatos[];
export type CampoEfti = (typeof CAMPOS_EFTI)[number];
