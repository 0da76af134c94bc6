/**
 * Extension: the proof of delivery of a DeCA's shipment. The driver's phone
 * collects it at the end of the transport, with coverage or without (kept on
 * the device with its Idempotency-Key and sent when the network comes back),
 * and the server keeps it with a sealed receipt («Justificante de entrega»).
 */
import { Aviso } from '../errors';
import { normalizarNif } from '../rules/nif';
import { Canal } from './deca';
import { cadena, MAX_ENVIOS, textoOpcional } from './envio';
import { z } from './zod';

export const RESULTADOS_ENTREGA = ['entregada', 'rechazada'] as const;
export const ResultadoEntrega = z.enum(RESULTADOS_ENTREGA).meta({ description: '«entregada» (el destinatario la recibe y firma) o «rechazada» (no la acepta: diga el motivo)' });
export type ResultadoEntrega = z.infer<typeof ResultadoEntrega>;

/** At most this many photos of the delivery. */
export const MAX_FOTOS_ENTREGA = 3;
/** Long side, in px, a delivery photo is shrunk to on the phone before it is kept or sent. */
export const LADO_FOTO_ENTREGA = 1600;
/** Largest delivery photo, as bytes of JPEG (a 1600 px JPEG at the phone's quality is 200–600 KB). */
export const FOTO_ENTREGA_MAXIMA = 1024 * 1024;
/** Its base64 text, with room for a `data:` prefix. */
export const BASE64_FOTO_ENTREGA = Math.ceil((FOTO_ENTREGA_MAXIMA * 4) / 3) + 64;
/** The body of POST /decas/{id}/entregas, in KB: three photos at their largest, the signature and the fields. */
export const LIMITE_ENTREGA_KB = Math.ceil((MAX_FOTOS_ENTREGA * BASE64_FOTO_ENTREGA) / 1024) + 256;

/** A signature's size: enough for any name drawn with a finger, little enough to draw in a PDF at once. */
export const MAX_TRAZOS = 100;
export const MAX_PUNTOS = 4000;

export const LONGITUD_ENTREGA = { receptor_nombre: 200, receptor_documento: 20, reservas: 2000, motivo_rechazo: 2000 } as const;

const coordenada = z.number().min(0).max(1);
const Punto = z.array(coordenada).length(2).meta({ description: '[x, y], fracciones del ancho y el alto del recuadro de firma; (0, 0) arriba a la izquierda' });

/** The signature as drawn: strokes of points, normalised to the pad, with the pad's aspect ratio to draw it undistorted. */
export const Firma = z
  .object({
    proporcion: z.number().min(0.2).max(10).meta({ description: 'Ancho / alto del recuadro donde se firmó (p. ej. 2.5)' }),
    trazos: z
      .array(z.array(Punto).min(1).max(MAX_PUNTOS))
      .min(1, 'La firma está vacía')
      .max(MAX_TRAZOS, `Máximo ${MAX_TRAZOS} trazos`)
      .refine((t) => t.reduce((n, s) => n + s.length, 0) <= MAX_PUNTOS, `Máximo ${MAX_PUNTOS} puntos en la firma`)
      .meta({ description: 'Cada trazo (dedo apoyado hasta levantarlo) como lista de puntos, ya suavizados' }),
  })
  .meta({ id: 'FirmaEntrega', description: 'La firma del destinatario como trazos vectoriales' });
export type Firma = z.infer<typeof Firma>;

export const Posicion = z
  .object({
    lat: z.number().min(-90).max(90),
    lon: z.number().min(-180).max(180),
    precision_m: z.number().min(0).max(100_000).optional().meta({ description: 'Radio de precisión en metros, si el dispositivo lo da' }),
  })
  .meta({ id: 'PosicionEntrega', description: 'Dónde estaba el teléfono, solo si el conductor lo permitió' });
export type Posicion = z.infer<typeof Posicion>;

const MENSAJE_HORA = 'Fecha y hora ISO 8601 con zona';

const EnvioEntrega = z
  .number()
  .int()
  .min(0)
  .max(MAX_ENVIOS - 1)
  .optional()
  .meta({ description: 'Índice del envío en `envios` (0 el primero); sin él, la entrega es de todos los envíos de la DeCA' });

/** POST /decas/{id}/entregas: what the phone collected. */
export const EntregaInput = z
  .object({
    envio: EnvioEntrega,
    resultado: ResultadoEntrega,
    receptor_nombre: textoOpcional(LONGITUD_ENTREGA.receptor_nombre).meta({ description: 'Nombre de quien recibe; obligatorio si se entrega' }),
    receptor_documento: textoOpcional(LONGITUD_ENTREGA.receptor_documento)
      .transform((s) => (s === undefined ? s : normalizarNif(s)))
      .meta({ description: 'DNI o NIE de quien recibe (opcional; si la letra de control no cuadra se guarda igual, con un aviso)' }),
    firma: Firma.optional().meta({ description: 'Obligatoria si se entrega' }),
    reservas: textoOpcional(LONGITUD_ENTREGA.reservas, { multilinea: true }).meta({ description: 'Reservas del destinatario (mercancía dañada, bultos que faltan…)' }),
    sin_reservas: z.boolean().optional().meta({ description: 'true: recibida conforme, sin reservas. Al entregar, diga `reservas` o `sin_reservas: true`' }),
    motivo_rechazo: textoOpcional(LONGITUD_ENTREGA.motivo_rechazo, { multilinea: true }).meta({ description: 'Por qué no se acepta; obligatorio si se rechaza' }),
    fotos: z
      .array(cadena({ max: BASE64_FOTO_ENTREGA }).max(BASE64_FOTO_ENTREGA, 'La foto supera 1 MB').meta({ maxLength: BASE64_FOTO_ENTREGA }))
      .max(MAX_FOTOS_ENTREGA, `Máximo ${MAX_FOTOS_ENTREGA} fotos`)
      .optional()
      .meta({ description: `Hasta ${MAX_FOTOS_ENTREGA} fotos de la entrega, JPEG de hasta ${LADO_FOTO_ENTREGA} px y 1 MB cada una, en base64 (con o sin el prefijo data:image/jpeg;base64,)` }),
    registrada_at: z.iso.datetime({ offset: true, message: MENSAJE_HORA }).max(40, MENSAJE_HORA).meta({ description: 'Hora del teléfono al recoger la entrega (aunque se envíe más tarde)' }),
    posicion: Posicion.optional(),
  })
  .superRefine((e, ctx) => {
    if (e.resultado === 'entregada') {
      if (!e.receptor_nombre) ctx.addIssue({ code: 'custom', path: ['receptor_nombre'], message: 'Escriba el nombre de quien recibe' });
      if (!e.firma) ctx.addIssue({ code: 'custom', path: ['firma'], message: 'Falta la firma de quien recibe' });
      if (e.sin_reservas && e.reservas) ctx.addIssue({ code: 'custom', path: ['sin_reservas'], message: 'Con reservas escritas no puede ser «sin reservas»' });
      if (!e.sin_reservas && !e.reservas) ctx.addIssue({ code: 'custom', path: ['reservas'], message: 'Escriba las reservas o marque «sin reservas»' });
      if (e.motivo_rechazo) ctx.addIssue({ code: 'custom', path: ['motivo_rechazo'], message: 'Una entrega aceptada no lleva motivo de rechazo' });
    } else if (!e.motivo_rechazo) {
      ctx.addIssue({ code: 'custom', path: ['motivo_rechazo'], message: 'Escriba por qué no se acepta la entrega' });
    }
  })
  .meta({ id: 'EntregaDecaInput', description: 'Extensión: la entrega (o el rechazo) de un envío, recogida en el teléfono del conductor' });
export type EntregaInput = z.input<typeof EntregaInput>;
export type EntregaInputParsed = z.output<typeof EntregaInput>;

const fechaHora = z.string().meta({ description: 'AAAA-MM-DD HH:MM:SS, hora de Madrid' });

/** A delivery as GET /decas/{id}/entregas and the webhooks give it. */
export const Entrega = z
  .object({
    n: z.number().int().min(1).meta({ description: 'Número de la entrega en su DeCA (1, 2…): el de /decas/{id}/entregas/{n}/pdf' }),
    envio: z.number().int().nullable().meta({ description: 'Índice del envío; null si es de todos' }),
    resultado: ResultadoEntrega,
    receptor_nombre: z.string().nullable(),
    receptor_documento: z.string().nullable(),
    firma: Firma.nullable(),
    reservas: z.string().nullable(),
    sin_reservas: z.boolean(),
    motivo_rechazo: z.string().nullable(),
    fotos: z.number().int().min(0).max(MAX_FOTOS_ENTREGA).meta({ description: 'Cuántas fotos se guardaron (salen en el justificante)' }),
    posicion: Posicion.nullable(),
    registrada_at: fechaHora.meta({ description: 'Hora del teléfono al recogerla' }),
    recibida_at: fechaHora.meta({ description: 'Cuando la recibió el servidor' }),
    canal: Canal,
    pdf_sha256: z.string().meta({ description: 'SHA-256 del justificante sellado (lo que /verificar reconoce)' }),
    urls: z.object({
      pdf: z.url().meta({ description: 'El justificante (PDF/A sellado), con la clave de la cuenta' }),
      firma: z.url().nullable().meta({ description: 'La firma como imagen PNG (fondo transparente), con la clave de la cuenta; null sin firma' }),
      verificar: z.url().meta({ description: 'Página pública que confirma el justificante (su QR); sin firma ni fotos' }),
    }),
  })
  .meta({ id: 'EntregaDeca' });
export type Entrega = z.infer<typeof Entrega>;

/** POST /decas/{id}/entregas answer. */
export const EntregaCreada = z.object({ entrega: Entrega, avisos: z.array(Aviso) }).meta({ id: 'EntregaDecaCreada' });
export type EntregaCreada = z.infer<typeof EntregaCreada>;

/** GET /decas/{id}/entregas answer, first to last. */
export const EntregasList = z.object({ data: z.array(Entrega) }).meta({ id: 'EntregasDecaList' });
export type EntregasList = z.infer<typeof EntregasList>;

/** Minutes a «Firmar en su móvil» link is valid. */
export const MINUTOS_FIRMA_REMOTA = 30;

/** POST /decas/{id}/entregas/firma-remota: which shipment the consignee signs for on their own phone. */
export const FirmaRemotaInput = z
  .object({
    envio: EnvioEntrega,
  })
  .meta({ id: 'FirmaRemotaInput', description: 'Extensión: pedir un enlace para que el destinatario firme la entrega en su propio móvil' });
export type FirmaRemotaInput = z.input<typeof FirmaRemotaInput>;

export const ESTADOS_FIRMA_REMOTA = ['esperando', 'firmada', 'caducada', 'anulada'] as const;

/** A «Firmar en su móvil» link and what became of it. */
export const FirmaRemota = z
  .object({
    id: z.number().int().meta({ description: 'El de /decas/{id}/entregas/firma-remota/{solicitud}' }),
    envio: z.number().int().nullable().meta({ description: 'Índice del envío; null si es de todos' }),
    estado: z.enum(ESTADOS_FIRMA_REMOTA).meta({
      description: '«esperando» (aún no ha firmado), «firmada» (ver `entrega`), «caducada» (pasaron los 30 minutos) o «anulada» (se pidió otro enlace para el mismo envío)',
    }),
    url: z.url().nullable().meta({ description: 'El enlace que abre el destinatario (para el QR); solo en la respuesta que lo crea: el servicio no lo guarda' }),
    expira_at: fechaHora.meta({ description: 'Hasta cuándo vale el enlace' }),
    segundos_restantes: z.number().int().min(0).meta({ description: 'Segundos que le quedan al enlace (0 si ya no vale)' }),
    entrega: Entrega.nullable().meta({ description: 'La entrega que hizo su firma, cuando está firmada' }),
  })
  .meta({ id: 'FirmaRemota' });
export type FirmaRemota = z.infer<typeof FirmaRemota>;

/** POST /decas/{id}/entregas/firma-remota and GET …/{solicitud} answer. */
export const FirmaRemotaRespuesta = z.object({ firma_remota: FirmaRemota }).meta({ id: 'FirmaRemotaRespuesta' });
export type FirmaRemotaRespuesta = z.infer<typeof FirmaRemotaRespuesta>;
