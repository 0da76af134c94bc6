import { Aviso } from '../errors';
import type { CampoDatos } from '../rules/campos-deca';
import { CP_MAXIMO, normalizarPais, problemaCodigoPostal, problemaPais } from '../rules/direccion';
import { isFechaValida } from '../rules/fechas';
import { normalizarMatricula } from '../rules/matricula';
import { normalizarNif } from '../rules/nif';
import { Rol } from './cuenta';
import { cadena, Envio, EnvioInput, MAX_ENVIOS, textoOpcional } from './envio';
import { z } from './zod';

export const ESTADOS = ['pendiente', 'emitido', 'sustituido'] as const;
export const Estado = z.enum(ESTADOS);
export type Estado = z.infer<typeof Estado>;

export const TipoVehiculo = z.enum(['rigido', 'articulado']);
export type TipoVehiculo = z.infer<typeof TipoVehiculo>;

export const Canal = z.enum(['api', 'web', 'mcp', 'importacion']);
export type Canal = z.infer<typeof Canal>;

/** The fields that make up the document itself, in print order (shared/rules/campos-deca.ts, zod-free for the app's first screen). */
export { CAMPOS_DATOS, type CampoDatos } from '../rules/campos-deca';

const FECHA_NO_VALIDA = 'Fecha no válida: use AAAA-MM-DD, p. ej. 2026-11-21';
const fecha = cadena({ max: 10 })
  .trim()
  .max(10, FECHA_NO_VALIDA)
  .refine((s) => s === '' || isFechaValida(s), FECHA_NO_VALIDA)
  .transform((s) => (s === '' ? undefined : s));

const nif = (max: number) => textoOpcional(max).transform((s) => (s === undefined ? s : normalizarNif(s)));
const matricula = textoOpcional(20).transform((s) => (s === undefined ? s : normalizarMatricula(s)));

const PAIS_NO_VALIDO = 'País no válido: use el código ISO de dos letras (ES, FR, PT, DE…)';
/** An ISO 3166-1 alpha-2 code of shared/rules/direccion.ts, in upper case; "" counts as not given. */
export const PaisIso = cadena({ max: 10 })
  .max(10, PAIS_NO_VALIDO)
  .transform(normalizarPais)
  .check((ctx) => {
    const problema = ctx.value === '' ? null : problemaPais(ctx.value);
    if (problema) ctx.issues.push({ code: 'custom', message: problema, input: ctx.value });
  })
  .transform((s) => (s === '' ? undefined : s))
  .optional()
  .meta({ maxLength: 10 });
/** A postcode as written, spaces collapsed and in upper case; whether it is a Spanish one is checked with its country (`comprobarCodigosPostales`). */
export const CodigoPostal = textoOpcional(CP_MAXIMO).transform((s) => (s === undefined ? s : s.replace(/\s+/g, ' ').toUpperCase()));

/** Longest text each field takes (the form shows a counter as the text nears it). */
export const LONGITUD_MAXIMA = {
  cargador_nombre: 200,
  cargador_nif: 20,
  cargador_domicilio: 300,
  transp_nombre: 200,
  transp_nif: 20,
  transp_domicilio: 300,
  autorizacion_especial: 200,
  observaciones: 2000,
  conductor_nombre: 200,
  conductor_tel: 40,
  referencia: 100,
  ref_externa: 100,
  cargador_cp: CP_MAXIMO,
  cargador_municipio: 100,
  cargador_provincia: 100,
  transp_cp: CP_MAXIMO,
  transp_municipio: 100,
  transp_provincia: 100,
} as const;
const L = LONGITUD_MAXIMA;

/**
 * A party's address in parts (extension, for eFTI: ES01 asks for postcode,
 * city, province and country; the free `*_domicilio` line stays, it is what
 * the document prints). None is printed on the PDF.
 */
const direccion = (quien: string) => ({
  cp: CodigoPostal.meta({ description: `${quien}: código postal (extensión, eFTI); 5 cifras si el país es ES o no se indica` }),
  municipio: textoOpcional(100).meta({ description: `${quien}: municipio (extensión, eFTI)` }),
  provincia: textoOpcional(100).meta({ description: `${quien}: provincia o región (extensión, eFTI)` }),
  pais: PaisIso.meta({ description: `${quien}: país del domicilio, código ISO de dos letras (extensión, eFTI); si falta, se entiende ES` }),
});
const dirCargador = direccion('Cargador contractual');
const dirTransp = direccion('Transportista efectivo');

/**
 * A postcode with its country in the same body: a Spanish one (country ES or
 * not given) must be one. A change that sends the postcode alone is judged as
 * Spanish: the message says to send the country too when it is not.
 */
export function comprobarCodigosPostales(v: Record<string, unknown>, ctx: z.RefinementCtx): void {
  for (const lado of ['cargador', 'transp'] as const) {
    const cp = v[`${lado}_cp`];
    if (typeof cp !== 'string') continue;
    const pais = v[`${lado}_pais`];
    const problema = problemaCodigoPostal(cp, typeof pais === 'string' ? pais : null, `${lado}_pais`);
    if (problema) ctx.addIssue({ code: 'custom', path: [`${lado}_cp`], message: problema });
  }
}

/** Field shapes shared by create and modify (descriptions feed OpenAPI and the MCP tools). */
const camposEntrada = {
  cargador_nombre: textoOpcional(L.cargador_nombre).meta({ description: 'Cargador contractual: nombre o razón social' }),
  cargador_nif: nif(L.cargador_nif).meta({ description: 'Cargador contractual: NIF' }),
  cargador_domicilio: textoOpcional(L.cargador_domicilio).meta({ description: 'Cargador contractual: domicilio' }),
  transp_nombre: textoOpcional(L.transp_nombre).meta({ description: 'Transportista efectivo: nombre o razón social' }),
  transp_nif: nif(L.transp_nif).meta({ description: 'Transportista efectivo: NIF' }),
  transp_domicilio: textoOpcional(L.transp_domicilio).meta({
    description: 'Transportista efectivo: domicilio (extensión: el art. 6 lo pide; si falta se avisa)',
  }),
  cargador_cp: dirCargador.cp,
  cargador_municipio: dirCargador.municipio,
  cargador_provincia: dirCargador.provincia,
  cargador_pais: dirCargador.pais,
  transp_cp: dirTransp.cp,
  transp_municipio: dirTransp.municipio,
  transp_provincia: dirTransp.provincia,
  transp_pais: dirTransp.pais,
  fecha_transporte: fecha.optional().meta({ description: 'Fecha del transporte, AAAA-MM-DD' }),
  tipo_vehiculo: TipoVehiculo.optional().meta({ description: 'rigido o articulado; con remolque es articulado' }),
  matricula: matricula.meta({ description: 'Matrícula del tractor o del vehículo rígido' }),
  matricula_remolque: matricula.meta({ description: 'Matrícula del remolque o semirremolque' }),
  matricula_pais: PaisIso.meta({
    description: 'Extensión (eFTI): país de matriculación del vehículo, código ISO de dos letras; si falta, ES cuando la matrícula es de una serie española',
  }),
  remolque_pais: PaisIso.meta({
    description: 'Extensión (eFTI): país de matriculación del remolque, código ISO de dos letras; si falta, ES cuando la matrícula es de una serie española',
  }),
  autorizacion_especial: textoOpcional(L.autorizacion_especial).meta({ description: 'Autorización especial de circulación' }),
  observaciones: textoOpcional(L.observaciones, { multilinea: true }).meta({ description: 'Observaciones' }),
  conductor_nombre: textoOpcional(L.conductor_nombre).meta({ description: 'Conductor' }),
  conductor_tel: textoOpcional(L.conductor_tel).meta({ description: 'Teléfono del conductor (no aparece en la página pública)' }),
  referencia: textoOpcional(L.referencia).meta({ description: 'Referencia interna' }),
  envios: z
    .array(EnvioInput)
    .max(MAX_ENVIOS, `Máximo ${MAX_ENVIOS} envíos por DeCA`)
    .optional()
    .meta({ description: `Envíos (1 a ${MAX_ENVIOS}), todos con el mismo cargador y transportista` }),
};

/**
 * Extension: a DeCA the app issued on a device with no coverage, sent when the
 * network came back. The server issues it with the number and token the
 * device had reserved, and keeps the device's issue time (its PDF shows it).
 */
export const EmisionOfflineInput = z
  .object({
    dispositivo_id: z.number().int().positive(),
    numero: z
      .string()
      .regex(/^\d{4}-\d{6}$/, 'Número no válido')
      .meta({ maxLength: 11 }),
    token: z
      .string()
      .regex(/^[\w-]{32}$/, 'Enlace no válido')
      .meta({ maxLength: 32 }),
    emitida_at: z.iso.datetime({ offset: true, message: 'Fecha y hora ISO 8601 con zona' }).max(40, 'Fecha y hora ISO 8601 con zona'),
    qr: z
      .string()
      .max(800)
      // The compact format (base41), or the first one (base64url summary and signature), which phones in the field still carry.
      .regex(/^(?:[0-9A-Z$*/:-]+|[\w-]+\.[\w-]+)$/, 'Resumen firmado no válido')
      .optional()
      .meta({ description: 'El parámetro `o` del QR que el dispositivo firmó (resumen y firma): el PDF del servidor lleva el mismo QR' }),
  })
  .meta({ description: 'Extensión (aplicación con sesión): emitida en un dispositivo sin cobertura con un número reservado' });

/**
 * Extension: the number a device of the app reserved, for a DeCA the app
 * creates with coverage: the device's series reads 1, 2, 3… whether it issues
 * with coverage or without. The server takes it when it is still that
 * device's (of the signed-in user, unused, unexpired, of this year), else the
 * account's next number, as for any other client.
 */
export const ReservaDispositivoInput = z
  .object({
    dispositivo_id: z.number().int().positive(),
    numero: z
      .string()
      .regex(/^\d{4}-\d{6}$/, 'Número no válido')
      .meta({ maxLength: 11 }),
  })
  .meta({ description: 'Extensión (aplicación con sesión): el número reservado del dispositivo que ha de llevar la DeCA; si ya no es suyo, lleva el siguiente de la cuenta' });

/**
 * The fields of POST /decas, before the checks that span several of them: what
 * a door that takes the DeCA input with a field more or less (the MCP tool)
 * builds on (zod refuses `.omit` on a refined object), then refines the same way.
 */
export const CamposDecaInput = z.object({
  ref_externa: textoOpcional(L.ref_externa).meta({ description: 'Referencia propia, única por cuenta: reenviarla no duplica' }),
  emisor_rol: Rol.optional().meta({ description: 'Lado que ocupa quien llama; por defecto el de la cuenta' }),
  ...camposEntrada,
  emitir: z.boolean().default(true).meta({ description: 'false: queda pendiente y se devuelve el enlace para la otra parte' }),
  solo_validar: z.boolean().default(false).meta({ description: 'true: solo valida, no guarda nada' }),
  pedir_datos_email: z.email('Correo electrónico no válido').max(254, 'Máximo 254 caracteres').optional().meta({
    description: 'Con emitir false, se envía a este correo el enlace para completar',
  }),
  emision_offline: EmisionOfflineInput.optional(),
  reserva_dispositivo: ReservaDispositivoInput.optional(),
  foto_id: z.number().int().positive().optional().meta({
    description: 'Extensión: el foto_id que devolvió POST /fotos; la foto del albarán queda con la DeCA (GET /decas/{id}/foto). Ha de ser de la misma cuenta y entorno, y de ninguna otra DeCA',
  }),
});

/** Request body of POST /decas. All fields optional at schema level; completeness is checked on issue. */
export const DecaInput = CamposDecaInput.superRefine(comprobarCodigosPostales).meta({ id: 'DecaInput' });
export type DecaInput = z.input<typeof DecaInput>;
export type DecaInputParsed = z.output<typeof DecaInput>;

/** The document data of a DeCA, normalised (null = not given). */
export type DecaDatos = {
  [K in Exclude<CampoDatos, 'envios' | 'tipo_vehiculo'>]: string | null;
} & { tipo_vehiculo: TipoVehiculo | null; envios: Envio[] };

/** The same shape with every field also accepting null (null clears a field on modify). */
function nullableShape<T extends Record<string, z.ZodType>>(shape: T): { [K in keyof T]: z.ZodNullable<T[K]> } {
  return Object.fromEntries(Object.entries(shape).map(([k, s]) => [k, s.nullable()])) as { [K in keyof T]: z.ZodNullable<T[K]> };
}

/**
 * Body of PATCH /decas/{id}: the fields to change (null or "" clears one),
 * `motivo` (required when the DeCA is issued: method 1) and `emitir`.
 */
export const DecaPatch = z
  .object({
    ref_externa: textoOpcional(L.ref_externa).nullable(),
    ...nullableShape(camposEntrada),
    motivo: textoOpcional(500, { multilinea: true }).meta({ description: 'Motivo del cambio; obligatorio si la DeCA está emitida' }),
    emitir: z.boolean().optional().meta({ description: 'true: emitir tras aplicar los cambios (DeCA pendiente)' }),
  })
  .superRefine(comprobarCodigosPostales)
  .meta({ id: 'DecaPatch' });
export type DecaPatch = z.input<typeof DecaPatch>;
export type DecaPatchParsed = z.output<typeof DecaPatch>;

/** Body of POST /decas/{id}/sustituir: the changes for the new DeCA, and the reason. */
export const SustituirInput = z
  .object({
    ref_externa: textoOpcional(L.ref_externa).nullable(),
    ...nullableShape(camposEntrada),
    motivo: textoOpcional(500, { multilinea: true }).meta({ description: 'Motivo de la sustitución (obligatorio)' }),
    reserva_dispositivo: ReservaDispositivoInput.optional(),
  })
  .superRefine(comprobarCodigosPostales)
  .meta({ id: 'SustituirInput' });
export type SustituirInputParsed = z.output<typeof SustituirInput>;

export const ArchivarInput = z.object({
  archivado: z.boolean({ error: 'Indique archivado: true para archivar o false para desarchivar' }),
});

/** An e-mail address to send a DeCA, or a completion link, to. */
export const CorreoDestino = z.email('Correo electrónico no válido').max(254);
/** POST /decas/{id}/pedir-datos: the link is always answered; with `email` it is also sent there. */
export const PedirDatosInput = z.object({ email: CorreoDestino.optional() });
/** POST /decas/{id}/enviar. */
export const EnviarInput = z.object({ email: CorreoDestino });

/** Link to another DeCA (replacement chain). */
export const DecaRef = z.object({ id: z.number().int(), numero: z.string(), ficha: z.string() }).meta({ id: 'DecaRef' });
export type DecaRef = z.infer<typeof DecaRef>;

export const DecaUrls = z
  .object({
    pdf: z.string(),
    qr_png: z.string(),
    conductor: z.string(),
    completar: z.string().nullable(),
    ficha: z.string(),
  })
  .meta({ id: 'DecaUrls' });
export type DecaUrls = z.infer<typeof DecaUrls>;

const fechaHora = z.string().meta({ description: 'AAAA-MM-DD HH:MM:SS, hora de Madrid' });

/** The DeCA as every endpoint returns it (and as webhooks deliver it). */
export const Deca = z
  .object({
    id: z.number().int(),
    numero: z.string().regex(/^\d{4}-\d{6}$/),
    estado: Estado,
    version: z.number().int().min(1),
    ref_externa: z.string().nullable(),
    emisor_rol: Rol,
    canal: Canal,
    cargador_nombre: z.string().nullable(),
    cargador_nif: z.string().nullable(),
    cargador_domicilio: z.string().nullable(),
    transp_nombre: z.string().nullable(),
    transp_nif: z.string().nullable(),
    transp_domicilio: z.string().nullable(),
    cargador_cp: z.string().nullable(),
    cargador_municipio: z.string().nullable(),
    cargador_provincia: z.string().nullable(),
    cargador_pais: z.string().nullable(),
    transp_cp: z.string().nullable(),
    transp_municipio: z.string().nullable(),
    transp_provincia: z.string().nullable(),
    transp_pais: z.string().nullable(),
    fecha_transporte: z.string().nullable(),
    tipo_vehiculo: TipoVehiculo.nullable(),
    matricula: z.string().nullable(),
    matricula_remolque: z.string().nullable(),
    matricula_pais: z.string().nullable(),
    remolque_pais: z.string().nullable(),
    autorizacion_especial: z.string().nullable(),
    conductor_nombre: z.string().nullable(),
    conductor_tel: z.string().nullable(),
    observaciones: z.string().nullable(),
    referencia: z.string().nullable(),
    envios: z.array(Envio),
    urls: DecaUrls,
    pdf_sha256: z.string().nullable(),
    pdf_bytes: z.number().int().nullable(),
    emitido_at: fechaHora.nullable(),
    modificado_at: fechaHora.meta({ description: 'Último cambio (creación incluida): lo que filtra modificado_desde' }),
    created_at: fechaHora,
    fin_servicio_at: fechaHora.nullable(),
    sustituye_a: DecaRef.nullable(),
    sustituido_por: DecaRef.nullable(),
    archivado: z.boolean(),
    descargas: z.number().int(),
    emision_offline: z
      .object({
        dispositivo: z.string().meta({ description: 'Nombre del dispositivo que la emitió' }),
        emitida_at: fechaHora.meta({ description: 'Hora del dispositivo al emitirla (la del PDF)' }),
        recibida_at: fechaHora.meta({ description: 'Cuando la recibió el servidor' }),
      })
      .nullable()
      .meta({ description: 'Extensión: emitida sin cobertura en un dispositivo; null si no' }),
  })
  .meta({ id: 'Deca' });
export type Deca = z.infer<typeof Deca>;

/** POST /decas answer. */
export const DecaCreada = z.object({ deca: Deca, avisos: z.array(Aviso) });
export type DecaCreada = z.infer<typeof DecaCreada>;

/** The answer of every call that acts on one DeCA (GET /decas/{id}, PATCH, emitir, sustituir, fin, archivar). */
export const DecaRespuesta = z.object({ deca: Deca });

/** DELETE /decas/{id}: a pending DeCA, gone for good. */
export const DecaEliminada = z.object({ eliminada: z.literal(true), id: z.number().int(), numero: z.string() });
export type DecaEliminada = z.infer<typeof DecaEliminada>;
export type DecaRespuesta = z.infer<typeof DecaRespuesta>;

/** POST /decas/{id}/pedir-datos: the completion link, and to whom it was e-mailed. */
export const DatosPedidos = z.object({
  completar: z.string().meta({ description: 'Enlace para que la otra parte complete sus datos' }),
  enviado_a: z.string().nullable().meta({ description: 'Correo al que se envió el enlace, o null' }),
});
export type DatosPedidos = z.infer<typeof DatosPedidos>;

/** POST /decas/{id}/enviar: to whom it was e-mailed, and the text for the driver's messaging app. */
export const DecaEnviada = z.object({
  enviado_a: z.string(),
  conductor: z.string().meta({ description: 'Página del conductor con el PDF y el QR' }),
  texto: z.string().meta({ description: 'Texto corto para la aplicación de mensajería del conductor' }),
  whatsapp_url: z.string(),
});
export type DecaEnviada = z.infer<typeof DecaEnviada>;

/** POST /decas with solo_validar: what would be created, and what is missing to issue. */
export const DecaValidada = z.object({
  valida: z.boolean(),
  lista_para_emitir: z.boolean(),
  faltan: z.record(z.string(), z.string()),
  datos: z.record(z.string(), z.unknown()),
  avisos: z.array(Aviso),
});
export type DecaValidada = z.infer<typeof DecaValidada>;

const booleanQuery = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

/** Query of GET /decas. */
export const DecaListQuery = z.object({
  estado: Estado.optional(),
  desde: fecha.optional().meta({ description: 'Fecha de transporte desde (incluida)' }),
  hasta: fecha.optional().meta({ description: 'Fecha de transporte hasta (incluida)' }),
  ref_externa: cadena().max(100).optional(),
  matricula: cadena().max(20).optional().meta({ description: 'Matrícula del vehículo o del remolque' }),
  // The spec's `matricula` is a plate, matched whole (what API clients already rely on); a desk's search box wants any part.
  matricula_contiene: cadena().max(20).optional().meta({ description: 'Extensión: parte de la matrícula del vehículo o del remolque, sin contar espacios ni guiones («34bc» encuentra 1234 BCD)' }),
  modificado_desde: cadena({ max: 40 })
    .max(40, 'Use AAAA-MM-DD o AAAA-MM-DD HH:MM:SS')
    .refine((s) => !Number.isNaN(Date.parse(s.includes('T') || s.length <= 10 ? s : s.replace(' ', 'T'))), 'Use AAAA-MM-DD o AAAA-MM-DD HH:MM:SS')
    .optional()
    .meta({ description: 'Solo las cambiadas desde ese instante (hora de Madrid si no lleva zona)' }),
  archivado: booleanQuery.optional().meta({ description: 'Extensión: filtrar por archivadas (true) o no archivadas (false)' }),
  q: cadena({ max: 100 }).max(100, 'Máximo 100 caracteres').optional().meta({
    description:
      'Extensión: texto libre, como el buscador de la aplicación: parte del número, la ref_externa, la referencia, el cargador, el transportista, el conductor, una matrícula, o el origen, destino o mercancía de un envío (sin distinguir mayúsculas)',
  }),
  limite: z.coerce.number().int().min(1, 'Mínimo 1').max(100, 'Máximo 100').default(50),
  despues_de: cadena().max(200).optional().meta({ description: 'El valor «siguiente» de la página anterior' }),
});
export type DecaListQuery = z.output<typeof DecaListQuery>;

export const DecaList = z.object({
  decas: z.array(Deca),
  siguiente: z.string().nullable().meta({ description: 'Pásalo como despues_de para la página siguiente; null si no hay más' }),
});
export type DecaList = z.infer<typeof DecaList>;

/** `GET /camino` (extension): what a device keeps for the road, by the server's date. */
export const DocumentosCamino = z.object({
  hoy: z.string().meta({ description: 'La fecha del servidor (Madrid), YYYY-MM-DD' }),
  desde: z.string(),
  hasta: z.string(),
  documentos: z.array(
    z.object({
      deca: Deca,
      pdf: z.string().nullable().meta({ description: 'PDF vigente en base64; null si el dispositivo ya tiene esta versión' }),
      qr: z.string().nullable().meta({ description: 'QR (PNG) en base64; null si el dispositivo ya tiene esta versión' }),
    }),
  ),
});
export type DocumentosCamino = z.infer<typeof DocumentosCamino>;

/** `tengo` of `GET /camino`: `id.version` pairs, comma-separated. */
export const CaminoQuery = z.object({
  tengo: cadena()
    .max(6000)
    .regex(/^(\d{1,15}\.\d{1,6})(,\d{1,15}\.\d{1,6})*$/, 'Lista de id.versión separados por comas')
    .optional(),
});

/** Who made a change. */
export const Autor = z.object({
  tipo: z.enum(['usuario', 'clave', 'enlace', 'sistema']),
  id: z.number().int().nullable(),
  nombre: z.string().meta({ description: 'Correo del usuario, prefijo de la clave, o «otra parte (enlace)»' }),
});
export type Autor = z.infer<typeof Autor>;

export const TipoCambio = z.enum(['creacion', 'modificacion', 'emision', 'completado', 'sustitucion', 'fin_servicio', 'archivado', 'desarchivado', 'control', 'entrega']);
export type TipoCambio = z.infer<typeof TipoCambio>;

export const CampoCambiado = z.object({ campo: z.string(), antes: z.unknown(), despues: z.unknown() });
export type CampoCambiado = z.infer<typeof CampoCambiado>;

/** One entry of GET /decas/{id}/cambios. */
export const Cambio = z
  .object({
    version: z.number().int(),
    tipo: TipoCambio,
    motivo: z.string().nullable(),
    autor: Autor,
    canal: Canal,
    created_at: fechaHora,
    campos: z.array(CampoCambiado),
  })
  .meta({ id: 'Cambio' });
export type Cambio = z.infer<typeof Cambio>;

export const CambiosList = z.object({ cambios: z.array(Cambio) });
export type CambiosList = z.infer<typeof CambiosList>;

/** One open of a DeCA's public page or PDF (GET /decas/{id}/descargas), newest first. */
export const Descarga = z
  .object({
    fecha: fechaHora,
    recurso: z.enum(['ficha', 'pdf', 'conductor', 'qr']),
    version: z.number().int(),
    ip: z.string(),
    navegador: z.string(),
    robot: z.boolean().meta({ description: 'Vista previa o escáner de correo: anotada, no cuenta' }),
    motivo_robot: z.string().nullable(),
  })
  .meta({ id: 'Descarga' });
export type Descarga = z.infer<typeof Descarga>;
export const DescargasList = z.object({ descargas: z.array(Descarga) });
export type DescargasList = z.infer<typeof DescargasList>;

/** POST /decas/{id}/control (extension): the code an agent gave the driver at a roadside check. */
export const ControlInput = z.object({
  codigo: z
    .string({ error: 'Indique el código que le dio el agente' })
    .trim()
    .max(20, 'El código del agente son solo cifras (entre 4 y 20)')
    .regex(/^\d{4,20}$/, 'El código del agente son solo cifras (entre 4 y 20)')
    .meta({ description: 'Código numérico que el agente da al conductor' }),
});
export type ControlInput = z.input<typeof ControlInput>;

/** A roadside check as recorded: the code, when, and which version of the DeCA was shown. */
export const ControlCarretera = z
  .object({
    codigo: z.string(),
    registrado_at: z.string().meta({ description: 'YYYY-MM-DD HH:MM:SS (hora de Madrid)' }),
    version: z.number().int(),
  })
  .meta({ id: 'ControlCarretera' });
export type ControlCarretera = z.infer<typeof ControlCarretera>;

/** The answer of POST /decas/{id}/control: the DeCA, the check, and where the PDF/A must go. */
export const ControlRegistrado = z.object({
  deca: Deca,
  control: ControlCarretera,
  sede_url: z.string().meta({ description: 'Sede electrónica del Ministerio a la que enviar el PDF/A con el código' }),
});
export type ControlRegistrado = z.infer<typeof ControlRegistrado>;
