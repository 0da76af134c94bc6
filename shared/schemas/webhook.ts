import { Entorno } from './cuenta';
import { Deca } from './deca';
import { cadena } from './envio';
import { z } from './zod';

/** Every event a webhook can subscribe to (spec: Events), in lifecycle order. */
export const EVENTOS = [
  'deca.creado',
  'deca.emitido',
  'deca.modificado',
  'deca.sustituido',
  'deca.completado',
  'deca.fin_servicio',
  'deca.descargado',
  // Extension: a roadside check recorded (POST /decas/{id}/control); `data.control` carries the agent's code.
  'deca.control',
  // Extension: a proof of delivery (POST /decas/{id}/entregas); `data.entrega` carries it, without signature or photos.
  'deca.entregado',
  'deca.entrega_rechazada',
] as const;
export const Evento = z.enum(EVENTOS);
export type Evento = z.infer<typeof Evento>;

/** What a delivery can carry: a DeCA event, or the `ping` of POST /webhooks/{id}/probar. */
export const EventoEntrega = z.enum([...EVENTOS, 'ping']);
export type EventoEntrega = z.infer<typeof EventoEntrega>;

export const URL_MAX = 2048;
export const DESCRIPCION_MAX = 200;

const nombresEventos = EVENTOS.join(', ');

/**
 * `eventos` of a webhook: known names, or `["*"]` alone for all of them.
 * Repeated names are dropped; order is the lifecycle order.
 */
export const EventosSuscritos = z
  .array(cadena({ max: 40 }).meta({ enum: [...EVENTOS, '*'] }), { error: 'Indique una lista de eventos, p. ej. ["deca.emitido"] o ["*"]' })
  .min(1, 'Indique al menos un evento, o ["*"] para todos')
  .max(EVENTOS.length, `Como mucho ${EVENTOS.length} eventos, cada uno una vez, o ["*"] para todos`)
  .superRefine((list, ctx) => {
    if (list.includes('*') && list.length > 1) {
      ctx.addIssue({ code: 'custom', message: '"*" ya incluye todos los eventos: envíelo solo, ["*"]' });
      return;
    }
    list.forEach((e, i) => {
      if (e !== '*' && !(EVENTOS as readonly string[]).includes(e)) {
        ctx.addIssue({ code: 'custom', path: [i], message: `Evento desconocido «${e}». Válidos: ${nombresEventos} o "*"` });
      }
    });
  })
  .transform((list) => (list.includes('*') ? ['*'] : EVENTOS.filter((e) => list.includes(e))))
  .meta({ description: `Eventos suscritos: nombres (${nombresEventos}) o ["*"] para todos` });

const descripcion = cadena()
  .trim()
  .max(DESCRIPCION_MAX, `Máximo ${DESCRIPCION_MAX} caracteres`)
  .transform((s) => (s === '' ? null : s));

/** POST /webhooks. The address is checked further on the server (https, public address). */
export const WebhookInput = z
  .object({
    url: cadena({ error: 'Indique la url del receptor, p. ej. https://ejemplo.es/deca' })
      .trim()
      .min(1, 'Obligatorio')
      .max(URL_MAX, `Máximo ${URL_MAX} caracteres`)
      .meta({ description: 'URL https:// que recibirá los eventos por POST' }),
    eventos: EventosSuscritos.default(['*']),
    descripcion: descripcion.nullish().meta({ description: 'Texto libre para reconocerlo' }),
  })
  .meta({ id: 'WebhookInput' });
export type WebhookInput = z.input<typeof WebhookInput>;
export type WebhookInputParsed = z.output<typeof WebhookInput>;

/** PATCH /webhooks/{id}: pause or resume (`activo`); `eventos` and `descripcion` may also change. */
export const WebhookPatch = z
  .object({
    activo: z.boolean({ error: 'activo debe ser true (activo) o false (pausado)' }).optional().meta({ description: 'true: activo; false: pausado' }),
    eventos: EventosSuscritos.optional(),
    descripcion: descripcion.nullish(),
  })
  .refine((p) => p.activo !== undefined || p.eventos !== undefined || p.descripcion !== undefined, {
    message: 'Indique qué cambiar: activo, eventos o descripcion',
    path: ['activo'],
  })
  .meta({ id: 'WebhookPatch' });
export type WebhookPatch = z.input<typeof WebhookPatch>;

const fechaHora = z.string().meta({ description: 'AAAA-MM-DD HH:MM:SS, hora de Madrid' });

/** A webhook as listed. The secret is never shown again after creation. */
export const Webhook = z
  .object({
    id: z.number().int(),
    url: z.string(),
    eventos: z.array(z.string()),
    descripcion: z.string().nullable(),
    activo: z.boolean(),
    pausa_motivo: z.string().nullable().meta({ description: 'Por qué está pausado, si lo pausó el servicio (410 Gone, fallos durante 5 días) o se pausó a mano' }),
    pausado_at: fechaHora.nullable(),
    fallando_desde: fechaHora.nullable().meta({ description: 'Primera entrega fallida desde la última correcta' }),
    secreto_prefijo: z.string().meta({ description: 'Inicio del secreto, para reconocerlo' }),
    created_at: fechaHora,
  })
  .meta({ id: 'Webhook' });
export type Webhook = z.infer<typeof Webhook>;

/** POST /webhooks answer: the only time `secreto` is shown. */
export const WebhookCreado = z.object({
  webhook: Webhook.extend({ secreto: z.string().startsWith('whsec_').meta({ description: 'Secreto de firma; solo se muestra ahora' }) }),
});
export type WebhookCreado = z.infer<typeof WebhookCreado>;

export const WebhookList = z.object({ webhooks: z.array(Webhook) });
export type WebhookList = z.infer<typeof WebhookList>;

export const EstadoEntrega = z.enum(['pendiente', 'entregada', 'fallida']);
export type EstadoEntrega = z.infer<typeof EstadoEntrega>;

/** One attempt to deliver: never the receiver's response body. */
export const IntentoEntrega = z
  .object({
    numero: z.number().int().min(1),
    at: fechaHora,
    status: z.number().int().nullable().meta({ description: 'Código HTTP de la respuesta, o null si no la hubo' }),
    error: z.string().nullable().meta({ description: 'Error de red, tiempo agotado o destino no permitido' }),
    duracion_ms: z.number().int(),
    proximo_intento_at: fechaHora.nullable(),
    manual: z.boolean().meta({ description: 'Reenvío a mano o prueba' }),
  })
  .meta({ id: 'IntentoEntrega' });
export type IntentoEntrega = z.infer<typeof IntentoEntrega>;

/** One delivery of one event to one webhook, with its result and its attempts (oldest first). */
export const Entrega = z
  .object({
    id: z.string().startsWith('ev_').meta({ description: 'Igual a X-Deca-Entrega y al id del cuerpo' }),
    evento: EventoEntrega,
    deca_id: z.number().int().nullable(),
    deca_numero: z.string().nullable().meta({ description: 'Número de la DeCA del evento (null en un ping)' }),
    creado_at: fechaHora,
    estado: EstadoEntrega,
    intento: z.number().int().meta({ description: 'Intentos hechos' }),
    ultimo_intento_at: fechaHora.nullable(),
    status: z.number().int().nullable(),
    error: z.string().nullable(),
    duracion_ms: z.number().int().nullable(),
    proximo_intento_at: fechaHora.nullable(),
    intentos: z.array(IntentoEntrega),
  })
  .meta({ id: 'Entrega' });
export type Entrega = z.infer<typeof Entrega>;

export const EntregaList = z.object({ entregas: z.array(Entrega) });
export type EntregaList = z.infer<typeof EntregaList>;

/** DELETE /webhooks/{id}: no more deliveries. */
export const WebhookEliminado = z.object({ eliminado: z.literal(true), id: z.number().int() });
export type WebhookEliminado = z.infer<typeof WebhookEliminado>;

/** POST /webhooks/{id}/probar and …/reenviar: the attempt made now. */
export const EntregaResultado = z.object({ ok: z.boolean(), entrega: Entrega });
export type EntregaResultado = z.infer<typeof EntregaResultado>;

/** The JSON body of a delivery (spec: Events, «Body shape»). */
export const WebhookPayload = z
  .object({
    id: z.string().startsWith('ev_'),
    evento: EventoEntrega,
    creado_at: z.string().meta({ description: 'ISO 8601 con desfase, hora de Madrid' }),
    entorno: Entorno,
    data: z.object({ deca: Deca.optional() }).loose(),
  })
  .meta({ id: 'WebhookPayload' });
export type WebhookPayload = z.infer<typeof WebhookPayload>;
