import {
  createDocument,
  type oas31,
  type ZodOpenApiObject,
  type ZodOpenApiOperationObject,
  type ZodOpenApiOverride,
  type ZodOpenApiPathsObject,
  type ZodOpenApiResponseObject,
  type ZodOpenApiResponsesObject,
} from 'zod-openapi';
import type { Etiqueta, NombreCabecera } from '../../shared/api/operaciones';
import { CODIGO_STATUS, ErrorBody } from '../../shared/errors';
import type { Entorno } from '../../shared/schemas/cuenta';
import { ClaveIdempotencia } from '../../shared/schemas/idempotencia';
import { EventoEntrega, WebhookPayload } from '../../shared/schemas/webhook';
import { z } from '../../shared/schemas/zod';
import { FIRMA_HEADER } from '../../shared/webhook-signature';
import type { AnyCommand } from '../commands/command';
import { OPERACIONES_API, type OperacionApi } from '../commands/operaciones';

/**
 * The response headers of the API, each declared once under
 * `components.headers` and referenced where it is sent. `siempre`: every
 * answer it is declared on carries it (`required`); where that differs for
 * one answer, the answer gets an inline copy with its own `required`.
 * Numbers travel as text, as any header does; the schema says what the text holds.
 */
const CABECERAS = {
  'X-Request-Id': {
    siempre: true,
    descripcion: 'Identificador de esta petición, el mismo que `error.request_id`: cítelo si escribe a soporte',
    esquema: { type: 'string', pattern: '^req_[A-Za-z0-9_-]{16}$', maxLength: 20, example: 'req_3kT9vQ2mXw7LbN4p' },
  },
  'RateLimit-Limit': { siempre: true, descripcion: 'Peticiones por minuto que admite la clave', esquema: { type: 'integer', minimum: 1, example: 120 } },
  'RateLimit-Remaining': { siempre: true, descripcion: 'Peticiones que quedan en la ventana actual', esquema: { type: 'integer', minimum: 0, example: 119 } },
  'RateLimit-Reset': { siempre: true, descripcion: 'Segundos hasta que la ventana se renueva', esquema: { type: 'integer', minimum: 1, example: 60 } },
  RateLimit: {
    siempre: true,
    descripcion: 'Lo mismo como campo del borrador IETF httpapi-ratelimit-headers: `"minuto";r=<quedan>;t=<segundos>`',
    esquema: { type: 'string', pattern: '^"minuto";r=\\d+;t=\\d+$', maxLength: 64, example: '"minuto";r=119;t=60' },
  },
  'RateLimit-Policy': {
    siempre: true,
    descripcion: 'La política del límite (borrador IETF): `"minuto";q=<peticiones>;w=<segundos>`',
    esquema: { type: 'string', pattern: '^"minuto";q=\\d+;w=\\d+$', maxLength: 64, example: '"minuto";q=120;w=60' },
  },
  'Retry-After': {
    siempre: false,
    descripcion: 'Segundos que esperar antes de reintentar: en 429 `demasiadas_peticiones` (no en `limite_plan`), en 503 y en los 409 `en_curso` y `conflicto`, que se resuelven solos',
    esquema: { type: 'integer', minimum: 0, example: 30 },
  },
  'Idempotent-Replayed': {
    siempre: false,
    descripcion: '`true` cuando la respuesta repite la de una petición anterior con la misma `Idempotency-Key` (o, al crear, la misma `ref_externa`): no se ha vuelto a hacer nada',
    esquema: { type: 'string', enum: ['true'] },
  },
  Location: { siempre: true, descripcion: 'URL del recurso creado', esquema: { type: 'string', format: 'uri', maxLength: 2048, example: 'https://deca.example/api/v1/decas/12' } },
  ETag: {
    siempre: true,
    descripcion: 'Etiqueta de esta versión del documento: su SHA-256 en hexadecimal, entre comillas',
    esquema: { type: 'string', pattern: '^"[0-9a-f]{64}"$', maxLength: 66 },
  },
  'Content-Disposition': {
    siempre: true,
    descripcion: 'Nombre con el que guardar el archivo',
    esquema: { type: 'string', maxLength: 200, example: 'inline; filename="DeCA-2026-000012-v1.pdf"' },
  },
  'Efti-Gate-Id': {
    siempre: true,
    descripcion: 'UIL del conjunto de datos eFTI, 1.ª parte: la pasarela nacional (EFTI_GATE_ID)',
    esquema: { type: 'string', pattern: '^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$', maxLength: 63, example: 'ES' },
  },
  'Efti-Platform-Id': {
    siempre: true,
    descripcion: 'UIL, 2.ª parte: esta plataforma (EFTI_PLATFORM_ID)',
    esquema: { type: 'string', pattern: '^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$', maxLength: 63, example: 'deca.example' },
  },
  'Efti-Dataset-Id': {
    siempre: true,
    descripcion: 'UIL, 3.ª parte: el conjunto de datos; el mismo en todas las versiones de la DeCA y en las que la sustituyen',
    esquema: { type: 'string', pattern: '^[0-9a-f]{32}$', maxLength: 32, example: '3f0c9a4e5b7d4e21a8f6c1d2e3b4a596' },
  },
  'Efti-Subsets': {
    siempre: true,
    descripcion: 'Los subconjuntos eFTI (Reglamento Delegado (UE) 2024/2024) cuyos datos lleva, separados por comas',
    esquema: { type: 'string', pattern: '^[A-Z]{2}[0-9]{2}[a-z]?(,[A-Z]{2}[0-9]{2}[a-z]?)*$', maxLength: 100, example: 'ES01' },
  },
  'WWW-Authenticate': {
    siempre: true,
    descripcion: 'El esquema que pide la API (RFC 6750): `Bearer` con el entorno en `realm`, y `error="invalid_token"` si llegó una clave que aquí no vale (desconocida, revocada o del otro entorno)',
    esquema: { type: 'string', pattern: '^Bearer realm="DeCA (produccion|pruebas)"(, error="invalid_token")?$', maxLength: 80, example: 'Bearer realm="DeCA produccion", error="invalid_token"' },
  },
} satisfies Record<NombreCabecera, { siempre: boolean; descripcion: string; esquema: oas31.SchemaObject }>;

const DESCRIPCION_ESTADO: Record<number, string> = {
  400: 'Cuerpo que no es JSON o petición mal formada',
  401: 'Sin clave, clave desconocida o revocada',
  403: 'La clave es de solo lectura, o la acción no está permitida',
  404: 'No existe en esta cuenta y entorno',
  409: 'El estado no permite la acción',
  413: 'El cuerpo supera el límite',
  422: 'Datos no válidos: `campos` nombra cada uno',
  429: 'Límite por minuto (cabecera `Retry-After`) o del plan',
  503: 'La base de datos no está al alcance ahora mismo (conexión perdida o rechazada): nada se ha guardado, salvo que el mensaje diga que no se sabe; reintente tras `Retry-After` con la misma `Idempotency-Key`. Extensión de este servicio',
};

/** A `$ref` to a header of `components.headers`, or an inline copy where this answer sends it more (or less) often than the component says. */
function cabecera(nombre: NombreCabecera, siempre: boolean = CABECERAS[nombre].siempre): oas31.HeaderObject | oas31.ReferenceObject {
  const c = CABECERAS[nombre];
  if (siempre === c.siempre) return { $ref: `#/components/headers/${nombre}` };
  return { description: c.descripcion, required: siempre, schema: c.esquema };
}

/** The headers of `components.headers`, as declared. */
const componentesCabeceras = (): Record<string, oas31.HeaderObject> =>
  Object.fromEntries(Object.entries(CABECERAS).map(([nombre, c]) => [nombre, { description: c.descripcion, required: c.siempre, schema: c.esquema }]));

const LIMITE: NombreCabecera[] = ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'RateLimit', 'RateLimit-Policy'];

/**
 * What every answer of the API carries (middleware/request-id.ts), and the
 * rate limit's fields, set by authentication (middleware/auth.ts) before
 * anything can refuse the request — except a 403 of the firewall (a POST
 * without Content-Length, refused before authentication) or of a web session
 * without its CSRF header, and a 503 met while authenticating.
 */
function cabecerasComunes(estado: number): Record<string, oas31.HeaderObject | oas31.ReferenceObject> {
  const limite = estado !== 403 && estado !== 503;
  return { 'X-Request-Id': cabecera('X-Request-Id'), ...Object.fromEntries(LIMITE.map((n) => [n, cabecera(n, limite)])) };
}

/** `Retry-After` by status: always on a 503; on a 429 or 409 only for the codes that pass by themselves. */
const REINTENTO: Record<number, boolean> = { 409: false, 429: false, 503: true };

/** The name under `components.responses` of each error answer: declared once, referenced by every operation that can meet it. */
const RESPUESTA_ERROR: Record<number, string> = {
  400: 'PeticionMalFormada',
  401: 'NoAutenticado',
  403: 'SinPermiso',
  404: 'NoEncontrado',
  409: 'Conflicto',
  413: 'DemasiadoGrande',
  422: 'Validacion',
  429: 'DemasiadasPeticiones',
  503: 'NoDisponible',
};

/** The codes of a status, as `CODIGO_STATUS` lists them, quoted for a description. */
const codigosDe = (estado: number): string[] => Object.entries(CODIGO_STATUS).flatMap(([c, s]) => (s === estado ? [c] : []));
const citar = (codigos: readonly string[]) => codigos.map((c) => `\`${c}\``).join(', ');

/** The error answer of a status, with the codes it can carry, its headers and an example: one entry of `components.responses`. */
function respuestaError(estado: number): ZodOpenApiResponseObject {
  const todos = codigosDe(estado);
  // 409: which of its codes an operation can return is said in the operation's own description.
  const codigo = estado === 409 ? 'conflicto' : (todos[0] ?? 'error_interno');
  const reintento = REINTENTO[estado];
  return {
    description:
      estado === 409
        ? `${DESCRIPCION_ESTADO[estado]}: los códigos que puede devolver cada operación, en su descripción. \`en_curso\` y \`conflicto\` se resuelven solos: reintente tras \`Retry-After\`.`
        : `${DESCRIPCION_ESTADO[estado] ?? 'Error'}. Códigos: ${citar(todos)}.`,
    headers: {
      ...cabecerasComunes(estado),
      ...(reintento !== undefined ? { 'Retry-After': cabecera('Retry-After', reintento) } : {}),
      ...(estado === 401 ? { 'WWW-Authenticate': cabecera('WWW-Authenticate') } : {}),
    },
    content: {
      'application/json': {
        schema: ErrorBody,
        example: {
          error: { codigo, mensaje: 'Explicación en español de lo que ha pasado y qué hacer.', campos: estado === 422 ? { matricula: 'Obligatorio' } : {}, avisos: [], request_id: 'req_01JD…' },
        },
      },
    },
  };
}

/** The error answers of `components.responses`, by name. */
const componentesRespuestas = (): Record<string, ZodOpenApiResponseObject> => Object.fromEntries(Object.entries(RESPUESTA_ERROR).map(([estado, nombre]) => [nombre, respuestaError(Number(estado))]));

/** The schema of a path parameter as its command reads it (its limits included), or a plain string. */
function parametroDeRuta(cmd: AnyCommand, nombre: string): z.ZodType {
  const buscar = (s: z.ZodType): z.ZodType | undefined => {
    if (s instanceof z.ZodObject) return s.shape[nombre] as z.ZodType | undefined;
    if (s instanceof z.ZodIntersection) return buscar(s.def.left as z.ZodType) ?? buscar(s.def.right as z.ZodType);
    // The agenda's kinds: each option of the union reads the path the same way.
    if (s instanceof z.ZodUnion) return buscar(s.options[0] as z.ZodType);
    return undefined;
  };
  return buscar(cmd.entrada) ?? z.string();
}

function operacion(op: OperacionApi): ZodOpenApiOperationObject {
  const path: Record<string, z.ZodType> = {};
  for (const [, nombre] of op.ruta.matchAll(/\{(\w+)\}/g)) {
    const descripcion = op.parametros?.[nombre!] ?? (op.etiqueta === 'Webhooks' ? 'Id del webhook' : 'Id numérico o número AAAA-NNNNNN de la DeCA');
    path[nombre!] = parametroDeRuta(op.comando, nombre!).meta({
      description: descripcion,
      example: nombre === 'id' ? (op.etiqueta === 'Webhooks' ? '3' : op.etiqueta === 'Agenda' ? '42' : '2026-000012') : nombre === 'n' ? '1' : 'ent_3',
    });
  }
  // Only a command that records its result honours Idempotency-Key (commands/command.ts); the others run again.
  const idempotente = op.comando.idempotencia !== undefined;
  const responses: Record<string, ZodOpenApiResponseObject | oas31.ReferenceObject> = {};
  for (const e of op.exito) {
    const propias = Object.entries(e.cabeceras ?? {}).map(([n, siempre]) => [n, cabecera(n as NombreCabecera, siempre)]);
    responses[`${e.estado}`] = {
      description: e.descripcion,
      headers: { ...cabecerasComunes(e.estado), ...(idempotente ? { 'Idempotent-Replayed': cabecera('Idempotent-Replayed') } : {}), ...Object.fromEntries(propias) },
      content: 'json' in e ? { 'application/json': { schema: e.json } } : { [e.tipo]: { schema: { type: 'string', format: 'binary' } } },
    };
  }
  // 503 `no_disponible` (an extension): any operation may meet the database out of reach.
  const errores = new Set([401, 422, 429, 503]);
  if (op.cuerpo) {
    errores.add(413);
    if ('json' in op.cuerpo && !('archivo' in op.cuerpo)) errores.add(400);
  }
  if (op.comando.acceso === 'escritura' || op.comando.permiso) errores.add(403);
  if (op.ruta.includes('{')) errores.add(404);
  // A request whose Idempotency-Key another one is still running is told to retry (409 `en_curso`, Retry-After).
  const conflictos = [...new Set([...(op.conflictos ?? []), ...(idempotente ? (['en_curso'] as const) : [])])];
  if (conflictos.length) errores.add(409);
  for (const e of [...errores].sort()) responses[`${e}`] = { $ref: `#/components/responses/${RESPUESTA_ERROR[e]}` };
  // A GET that sends an ETag answers If-None-Match (middleware/conditional.ts): 304, no body.
  const conEtag = op.metodo === 'get' && op.exito.some((e) => e.cabeceras?.ETag);
  if (conEtag) {
    responses['304'] = {
      description: 'No ha cambiado: `If-None-Match` coincide con su `ETag` (o es `*`). Sin cuerpo; use la copia que ya tiene',
      // The 200's own headers come along (the ETag, and the file name the route set before the answer became a 304).
      headers: { ...cabecerasComunes(304), ...Object.fromEntries(Object.entries(op.exito.find((e) => e.cabeceras?.ETag)?.cabeceras ?? {}).map(([n, s]) => [n, cabecera(n as NombreCabecera, s)])) },
    };
  }

  let requestBody: ZodOpenApiOperationObject['requestBody'];
  if (op.cuerpo && 'archivo' in op.cuerpo) {
    const content: Record<string, { schema: z.ZodType | { type: 'string'; format: 'binary' } }> = {};
    for (const t of op.cuerpo.tipos) {
      content[t] = { schema: t === 'multipart/form-data' ? z.object({ [op.cuerpo.archivo]: z.string().meta({ format: 'binary' }) }) : { type: 'string', format: 'binary' } };
    }
    if (op.cuerpo.json) content['application/json'] = { schema: op.cuerpo.json };
    requestBody = { required: true, description: op.cuerpo.descripcion, content };
  } else if (op.cuerpo) {
    requestBody = { required: true, content: { 'application/json': { schema: op.cuerpo.json, ...(op.cuerpo.ejemplo ? { example: op.cuerpo.ejemplo } : {}) } } };
  }
  return {
    // The agenda's three kinds share their commands: the kind tells them apart.
    operationId: op.nombre,
    summary: op.resumen,
    description: `${op.comando.descripcion}${conflictos.length ? `\n\nConflictos (409): ${citar(conflictos)}.` : ''}${op.extension ? '\n\nExtensión de este servicio (no está en la especificación).' : ''}`,
    tags: [op.etiqueta],
    requestParams: {
      ...(Object.keys(path).length ? { path: z.object(path) } : {}),
      ...(op.consulta ? { query: op.consulta } : {}),
      ...(idempotente || conEtag
        ? {
            header: z.object({
              ...(idempotente
                ? {
                    'Idempotency-Key': ClaveIdempotencia.optional().meta({
                      description:
                        'De 1 a 255 caracteres ASCII visibles (p. ej. un UUID). Una repetición con la misma clave devuelve el mismo resultado sin repetir la acción (`Idempotent-Replayed: true`): la de una creación, para siempre; la de otros cambios, 8 días',
                    }),
                  }
                : {}),
              ...(conEtag
                ? {
                    'If-None-Match': z.string().max(1024).optional().meta({
                      description: 'El `ETag` de la copia que ya tiene (o varios, separados por comas, o `*`): si coincide, 304 sin cuerpo',
                      example: '"9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"',
                    }),
                  }
                : {}),
            }),
          }
        : {}),
    },
    ...(requestBody ? { requestBody } : {}),
    responses: responses as ZodOpenApiResponsesObject,
  };
}

/**
 * The headers of a webhook delivery (domain/webhooks/entregas.ts builds them, the outbox runner sends them),
 * as the receiver reads them: the request parameters of each `webhooks` entry.
 */
const cabecerasEntrega = (evento: EventoEntrega) =>
  z.object({
    'X-Deca-Evento': z.literal(evento).meta({ description: 'El nombre del evento, el mismo que `evento` del cuerpo' }),
    'X-Deca-Entrega': z
      .string()
      .regex(/^ev_[A-Za-z0-9_-]+$/)
      .max(64)
      .meta({ description: 'Id de la entrega, el mismo en cada reintento e igual a `id` del cuerpo: úselo para no procesarla dos veces', example: 'ev_Qm3kT9vQ2mXw7LbN4pRs8uYz' }),
    [FIRMA_HEADER]: z
      .string()
      .regex(/^t=\d+,v1=[0-9a-f]{64}$/)
      .max(100)
      .meta({
        description:
          '`t=<segundos unix>,v1=<firma>`: la firma es el HMAC-SHA256 en hexadecimal, con el secreto del webhook (entero, `whsec_` incluido), de `t` + `.` + el cuerpo tal cual llega; compárela en tiempo constante y rechace un `t` a más de 300 s de su reloj',
      }),
    'User-Agent': z.literal('DeCA-Webhooks/1.0').meta({ description: 'Quién envía la entrega' }),
    // Standard Webhooks (standardwebhooks.com), for its libraries: `new Webhook(secreto).verify(cuerpo, cabeceras)`.
    'webhook-id': z
      .string()
      .regex(/^ev_[A-Za-z0-9_-]+$/)
      .max(64)
      .meta({ description: 'Standard Webhooks: el mismo valor que `X-Deca-Entrega` (igual en cada reintento)', example: 'ev_Qm3kT9vQ2mXw7LbN4pRs8uYz' }),
    'webhook-timestamp': z
      .string()
      .regex(/^\d{1,12}$/)
      .max(12)
      .meta({ description: 'Standard Webhooks: segundos unix de este intento (el `t` de `X-Deca-Firma`)', example: '1764237600' }),
    'webhook-signature': z
      .string()
      .regex(/^v1,[A-Za-z0-9+/]{43}=$/)
      .max(100)
      .meta({
        description:
          'Standard Webhooks: `v1,<firma>`, el HMAC-SHA256 en base64 de `webhook-id` + `.` + `webhook-timestamp` + `.` + el cuerpo, con la clave que el texto del secreto tras `whsec_` codifica en base64; la librería `standardwebhooks` la comprueba con el secreto tal cual se mostró',
      }),
  });

/** One event as its receiver sees it: the POST we send, its headers, and what each answer does. */
function entregaWebhook(evento: EventoEntrega): ZodOpenApiOperationObject {
  return {
    operationId: `recibir_${evento.replace(/\W/g, '_')}`,
    summary: evento === 'ping' ? 'Prueba (POST /webhooks/{id}/probar)' : `Evento ${evento}`,
    description: 'Entrega firmada en `X-Deca-Firma` (véase la cabecera). Responda 2xx en 10 s; si no, se reintenta a 1 min, 5 min, 30 min, 2 h y 12 h con el mismo `X-Deca-Entrega`.',
    tags: ['Webhooks'],
    // Sent by this service to the receiver: no API key goes with it, the signature vouches for it.
    security: [],
    requestParams: { header: cabecerasEntrega(evento) },
    requestBody: { required: true, content: { 'application/json': { schema: WebhookPayload } } },
    responses: {
      '2XX': { description: 'Recibida: no se vuelve a enviar' },
      '410': { description: 'El receptor ya no existe: la entrega falla y el webhook se pausa' },
      default: { description: 'Cualquier otra respuesta, o ninguna en 10 s: se reintenta' },
    },
  };
}

/** Formats of JSON Schema 2020-12 and of the OpenAPI format registry: any other (zod's `starts_with`, say) is dropped, its `pattern` kept. */
const FORMATOS = new Set([
  'date-time',
  'date',
  'time',
  'duration',
  'email',
  'idn-email',
  'hostname',
  'idn-hostname',
  'ipv4',
  'ipv6',
  'uri',
  'uri-reference',
  'iri',
  'iri-reference',
  'uuid',
  'uri-template',
  'json-pointer',
  'relative-json-pointer',
  'regex',
  'int32',
  'int64',
  'float',
  'double',
  'byte',
  'binary',
  'password',
]);
const soloFormatosEstandar: ZodOpenApiOverride = ({ jsonSchema }) => {
  if (typeof jsonSchema.format === 'string' && !FORMATOS.has(jsonSchema.format)) delete jsonSchema.format;
};

/** The document's tags, in the spec's order, each with what it groups. */
const ETIQUETAS: Record<Etiqueta, string> = {
  DeCA: 'Crear, emitir, modificar, sustituir, consultar, archivar y finalizar documentos de control, y sus PDF y QR',
  Cuenta: 'La empresa, su plan y la cuota del mes',
  Agenda: 'Empresas, vehículos y lugares que se repiten, para rellenar DeCA más deprisa',
  Importación: 'Crear DeCA desde un CSV, y exportar la lista con las mismas columnas',
  Fotos: 'Leer la foto de un albarán y proponer los datos de una DeCA',
  Webhooks: 'Avisos firmados a su servidor cuando cambia una DeCA, y las entregas hechas',
};

/** The OpenAPI 3.1 document of one environment's API, generated from the shared zod schemas. */
export function documentoOpenApi(siteUrl: string, entorno: Entorno): object {
  const paths: ZodOpenApiPathsObject = {};
  for (const op of OPERACIONES_API) (paths[op.ruta] ??= {})[op.metodo] = operacion(op);
  const webhooks: ZodOpenApiPathsObject = {};
  for (const evento of EventoEntrega.options) webhooks[evento] = { post: entregaWebhook(evento) };
  const base = `${siteUrl}${entorno === 'pruebas' ? '/demo' : ''}/api/v1`;
  const documento: ZodOpenApiObject = {
    openapi: '3.1.0',
    info: {
      title: `DeCA API${entorno === 'pruebas' ? ' (entorno de pruebas)' : ''}`,
      version: '1.0.0',
      contact: { name: 'DeCA', url: siteUrl },
      description:
        'Documentos de control del transporte de mercancías por carretera (Orden FOM/2861/2012, art. 6): crear, emitir, modificar, sustituir, consultar y archivar DeCA; agenda, importación CSV, lectura de fotos de albaranes y webhooks. ' +
        'Errores: siempre `{ "error": { codigo, mensaje, campos, avisos, request_id } }`. Límite: 120 peticiones por minuto y clave (cabeceras `RateLimit`).',
    },
    servers: [{ url: base, description: entorno === 'pruebas' ? 'Entorno de pruebas: datos sin validez' : 'Producción' }],
    security: [{ bearer: [] }, { apiKey: [] }],
    tags: Object.entries(ETIQUETAS).map(([name, description]) => ({ name, description })),
    paths,
    webhooks,
    components: {
      headers: componentesCabeceras(),
      responses: componentesRespuestas(),
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'Clave de API: `Authorization: Bearer dg_live_…` (o `dg_test_…` en pruebas)' },
        apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'La misma clave en la cabecera `X-API-Key`' },
      },
    },
  };
  return createDocument(documento, { override: soloFormatosEstandar });
}
