import { createDocument, type ZodOpenApiOperationObject, type ZodOpenApiPathsObject, type ZodOpenApiResponseObject, type ZodOpenApiResponsesObject } from 'zod-openapi';
import { CODIGO_STATUS, ErrorBody } from '../../shared/errors';
import { AgendaEmpresa, AgendaEmpresaInput, AgendaList, AgendaLugar, AgendaLugarInput, AgendaQuery, AgendaVehiculo, AgendaVehiculoInput } from '../../shared/schemas/agenda';
import { CuentaResponse, type Entorno } from '../../shared/schemas/cuenta';
import {
  ArchivarInput,
  CambiosList,
  CaminoQuery,
  ControlInput,
  ControlRegistrado,
  DatosPedidos,
  DecaCreada,
  DecaEliminada,
  DecaEnviada,
  DecaInput,
  DecaList,
  DecaListQuery,
  DecaPatch,
  DecaRespuesta,
  DecaValidada,
  DescargasList,
  DocumentosCamino,
  SustituirInput,
} from '../../shared/schemas/deca';
import { FotoBase64Input, FotoLeida } from '../../shared/schemas/fotos';
import { ClaveIdempotencia } from '../../shared/schemas/idempotencia';
import { Importacion, ImportarQuery } from '../../shared/schemas/importar';
import { EntregaList, EntregaResultado, EVENTOS, Webhook, WebhookCreado, WebhookEliminado, WebhookInput, WebhookList, WebhookPatch, WebhookPayload } from '../../shared/schemas/webhook';
import { z } from '../../shared/schemas/zod';
import type { AnyCommand } from '../commands/command';
import { buscarAgenda, guardarAgenda } from '../commands/agenda';
import { verCuenta } from '../commands/cuenta';
import {
  archivarDeca,
  controlCarretera,
  crearDeca,
  descargasDeca,
  documentosCamino,
  eliminarDeca,
  emitirDeca,
  enviarDeca,
  finServicio,
  historialDeca,
  listarDecas,
  modificarDeca,
  pdfDeca,
  pedirDatos,
  qrDeca,
  sustituirDeca,
  verDeca,
} from '../commands/decas';
import { leerAlbaran } from '../commands/fotos';
import { exportarCsv, importarCsv } from '../commands/importar';
import { cambiarWebhook, crearWebhook, eliminarWebhook, entregasWebhook, listarWebhooks, probarWebhook, reenviarEntrega, verWebhook } from '../commands/webhooks';

/** How an operation answers when it succeeds. */
type Exito = { estado: number; descripcion: string } & ({ json: z.ZodType } | { tipo: 'application/pdf' | 'image/png' | 'text/csv' });

/** How the body of a request is sent: JSON, or a file (multipart form field, or the raw bytes). */
type Cuerpo = { json: z.ZodType; ejemplo?: unknown } | { archivo: string; tipos: string[]; json?: z.ZodType; descripcion: string };

/**
 * One operation of the API: its path (OpenAPI style, under `{base_url}`),
 * the command it runs (its Spanish description, access level and input),
 * and what it takes and answers. The same table names every route the
 * server registers under the API (a test checks both ways).
 */
export interface OperacionApi {
  metodo: 'get' | 'post' | 'patch' | 'delete';
  ruta: string;
  comando: AnyCommand;
  resumen: string;
  etiqueta: 'DeCA' | 'Cuenta' | 'Agenda' | 'Importación' | 'Fotos' | 'Webhooks';
  cuerpo?: Cuerpo;
  consulta?: z.ZodObject;
  exito: Exito[];
  /** 409 codes of its own state machine, when it has one. */
  conflictos?: (keyof typeof CODIGO_STATUS)[];
  /** Path parameters other than a DeCA's `id`. */
  parametros?: Record<string, string>;
  extension?: true;
}

const json = (schema: z.ZodType, descripcion: string, estado = 200): Exito => ({ estado, descripcion, json: schema });

const DE_DECA = ['emitido', 'pendiente', 'sustituido', 'servicio_finalizado', 'en_curso'] as const;

const EJEMPLO_DECA = {
  ref_externa: 'PED-2026-0042',
  fecha_transporte: '2026-11-25',
  cargador_nombre: 'Frutas Peñalara, S.A.',
  cargador_nif: 'A58818501',
  cargador_domicilio: 'Camí Vell 3, 25001 Lleida',
  matricula: '1234 BCD',
  matricula_remolque: 'R-5678-BBC',
  conductor_nombre: 'José Ángel Muñoz',
  envios: [{ origen: 'Lleida', destino: 'Mercamálaga, Málaga', naturaleza: 'Fruta de hueso en palés', peso: 18250, unidad: 'kg' }],
  emitir: true,
};

const agenda = (tipo: 'empresas' | 'vehiculos' | 'lugares', nombre: string, entrada: z.ZodType, salida: z.ZodType): OperacionApi[] => [
  {
    metodo: 'get',
    ruta: `/agenda/${tipo}`,
    comando: buscarAgenda,
    resumen: `Buscar ${nombre} en la agenda`,
    etiqueta: 'Agenda',
    consulta: AgendaQuery,
    exito: [json(AgendaList, `${nombre[0]!.toUpperCase()}${nombre.slice(1)} de la agenda, las más usadas primero`)],
  },
  {
    metodo: 'post',
    ruta: `/agenda/${tipo}`,
    comando: guardarAgenda,
    resumen: `Guardar ${nombre.replace(/s$/, '').replace(/e$/, '')} en la agenda`,
    etiqueta: 'Agenda',
    cuerpo: { json: entrada },
    exito: [json(z.object({ entrada: salida }), 'La entrada guardada')],
  },
];

/** Every operation under `/api/v1` (and `/demo/api/v1`), in the spec's order, extensions marked. */
export const OPERACIONES: OperacionApi[] = [
  {
    metodo: 'post',
    ruta: '/decas',
    comando: crearDeca,
    resumen: 'Crear (y emitir) una DeCA',
    etiqueta: 'DeCA',
    cuerpo: { json: DecaInput, ejemplo: EJEMPLO_DECA },
    exito: [
      json(DecaCreada, 'Creada (y emitida si `emitir` y está completa); cabecera `Location`', 201),
      json(z.union([DecaCreada, DecaValidada]), 'Repetición de una petición con la misma `Idempotency-Key` (`Idempotent-Replayed: true`), o `solo_validar`'),
    ],
    conflictos: ['ref_externa_usada', 'cuenta_incompleta', 'cuenta_sin_confirmar'],
  },
  { metodo: 'get', ruta: '/decas', comando: listarDecas, resumen: 'Listar DeCA', etiqueta: 'DeCA', consulta: DecaListQuery, exito: [json(DecaList, 'Una página de DeCA; `siguiente` lleva a la próxima')] },
  { metodo: 'get', ruta: '/decas/{id}', comando: verDeca, resumen: 'Ver una DeCA', etiqueta: 'DeCA', exito: [json(DecaRespuesta, 'La DeCA')] },
  { metodo: 'patch', ruta: '/decas/{id}', comando: modificarDeca, resumen: 'Modificar una DeCA (método 1)', etiqueta: 'DeCA', cuerpo: { json: DecaPatch }, exito: [json(DecaRespuesta, 'La DeCA modificada (nueva versión si estaba emitida)')], conflictos: [...DE_DECA, 'sin_cambios', 'conflicto'] },
  { metodo: 'delete', ruta: '/decas/{id}', comando: eliminarDeca, resumen: 'Eliminar una DeCA pendiente', etiqueta: 'DeCA', exito: [json(DecaEliminada, 'Eliminada')], conflictos: ['emitido', 'sustituido'] },
  { metodo: 'post', ruta: '/decas/{id}/emitir', comando: emitirDeca, resumen: 'Emitir una DeCA pendiente', etiqueta: 'DeCA', exito: [json(DecaRespuesta, 'Emitida: número, PDF y QR')], conflictos: ['emitido', 'sustituido', 'cuenta_incompleta', 'cuenta_sin_confirmar'] },
  { metodo: 'post', ruta: '/decas/{id}/sustituir', comando: sustituirDeca, resumen: 'Sustituir una DeCA (método 2)', etiqueta: 'DeCA', cuerpo: { json: SustituirInput }, exito: [json(DecaRespuesta, 'La DeCA nueva, con otro número')], conflictos: [...DE_DECA] },
  { metodo: 'post', ruta: '/decas/{id}/fin', comando: finServicio, resumen: 'Marcar el fin del servicio', etiqueta: 'DeCA', exito: [json(DecaRespuesta, 'La DeCA con `fin_servicio_at`')], conflictos: ['pendiente', 'sustituido', 'servicio_finalizado'] },
  { metodo: 'post', ruta: '/decas/{id}/archivar', comando: archivarDeca, resumen: 'Archivar o desarchivar', etiqueta: 'DeCA', cuerpo: { json: ArchivarInput }, exito: [json(DecaRespuesta, 'La DeCA con `archivado`')] },
  { metodo: 'get', ruta: '/decas/{id}/cambios', comando: historialDeca, resumen: 'Historial de cambios', etiqueta: 'DeCA', exito: [json(CambiosList, 'Cada cambio con su autor, canal y campos (antes → después)')] },
  { metodo: 'get', ruta: '/decas/{id}/descargas', comando: descargasDeca, resumen: 'Aperturas de la ficha pública', etiqueta: 'DeCA', exito: [json(DescargasList, 'Quién abrió la ficha, el PDF o el QR, sin robots')] },
  { metodo: 'get', ruta: '/decas/{id}/pdf', comando: pdfDeca, resumen: 'PDF de la DeCA', etiqueta: 'DeCA', exito: [{ estado: 200, descripcion: 'El PDF/A de la última versión, sellado; `ETag` = su SHA-256', tipo: 'application/pdf' }], conflictos: ['pendiente'] },
  { metodo: 'get', ruta: '/decas/{id}/qr.png', comando: qrDeca, resumen: 'QR de la DeCA', etiqueta: 'DeCA', exito: [{ estado: 200, descripcion: 'El QR de la ficha pública, en PNG', tipo: 'image/png' }], conflictos: ['pendiente'] },
  { metodo: 'post', ruta: '/decas/{id}/pedir-datos', comando: pedirDatos, resumen: 'Pedir sus datos a la otra parte', etiqueta: 'DeCA', cuerpo: { json: z.object({ email: z.email().optional() }) }, exito: [json(DatosPedidos, 'El enlace para completar (y el correo, si se dio)')], conflictos: ['emitido', 'sustituido'], extension: true },
  { metodo: 'post', ruta: '/decas/{id}/enviar', comando: enviarDeca, resumen: 'Enviar la DeCA por correo', etiqueta: 'DeCA', cuerpo: { json: z.object({ email: z.email() }) }, exito: [json(DecaEnviada, 'Correo encolado con el PDF, y el texto para el conductor')], conflictos: ['pendiente'], extension: true },
  { metodo: 'post', ruta: '/decas/{id}/control', comando: controlCarretera, resumen: 'Anotar un control en carretera', etiqueta: 'DeCA', cuerpo: { json: ControlInput }, exito: [json(ControlRegistrado, 'El control anotado y dónde enviar el PDF/A')], conflictos: ['pendiente'], extension: true },
  { metodo: 'get', ruta: '/camino', comando: documentosCamino, resumen: 'Documentos para el camino', etiqueta: 'DeCA', consulta: CaminoQuery, exito: [json(DocumentosCamino, 'Las DeCA emitidas de ±7 días, para guardarlas sin conexión')], extension: true },
  { metodo: 'get', ruta: '/cuenta', comando: verCuenta, resumen: 'La cuenta y su cuota', etiqueta: 'Cuenta', exito: [json(CuentaResponse, 'Empresa, plan y cuota del mes del entorno')] },
  ...agenda('empresas', 'empresas', AgendaEmpresaInput, AgendaEmpresa),
  ...agenda('vehiculos', 'vehículos', AgendaVehiculoInput, AgendaVehiculo),
  ...agenda('lugares', 'lugares', AgendaLugarInput, AgendaLugar),
  {
    metodo: 'post',
    ruta: '/importar',
    comando: importarCsv,
    resumen: 'Importar un CSV',
    etiqueta: 'Importación',
    consulta: ImportarQuery,
    cuerpo: { archivo: 'csv', tipos: ['multipart/form-data', 'text/csv'], descripcion: 'El CSV (campo `csv` de un formulario, o el cuerpo entero), hasta 5 MB, UTF-8 o Windows-1252' },
    exito: [json(Importacion, 'Resultado por DeCA, con sus líneas y errores')],
  },
  { metodo: 'get', ruta: '/decas.csv', comando: exportarCsv, resumen: 'Exportar la lista a CSV', etiqueta: 'Importación', consulta: DecaListQuery.omit({ limite: true, despues_de: true }), exito: [{ estado: 200, descripcion: 'Las DeCA del listado en las columnas de la importación', tipo: 'text/csv' }], extension: true },
  {
    metodo: 'post',
    ruta: '/fotos',
    comando: leerAlbaran,
    resumen: 'Leer la foto de un albarán',
    etiqueta: 'Fotos',
    cuerpo: { archivo: 'foto', tipos: ['multipart/form-data'], json: FotoBase64Input, descripcion: 'La foto (JPEG, PNG, WebP o HEIC) en el campo `foto` (hasta 2 MB), o en JSON `imagen_base64`' },
    exito: [json(FotoLeida, 'Propuesta de DeCA para revisar, con la confianza de cada campo; no se crea nada')],
  },
  { metodo: 'get', ruta: '/webhooks', comando: listarWebhooks, resumen: 'Listar webhooks', etiqueta: 'Webhooks', exito: [json(WebhookList, 'Los webhooks del entorno')] },
  { metodo: 'post', ruta: '/webhooks', comando: crearWebhook, resumen: 'Crear un webhook', etiqueta: 'Webhooks', cuerpo: { json: WebhookInput }, exito: [json(WebhookCreado, 'Creado; el secreto solo se muestra ahora', 201)], conflictos: ['limite_webhooks'] },
  { metodo: 'get', ruta: '/webhooks/{id}', comando: verWebhook, resumen: 'Ver un webhook', etiqueta: 'Webhooks', exito: [json(z.object({ webhook: Webhook }), 'El webhook')] },
  { metodo: 'patch', ruta: '/webhooks/{id}', comando: cambiarWebhook, resumen: 'Cambiar, pausar o reanudar', etiqueta: 'Webhooks', cuerpo: { json: WebhookPatch }, exito: [json(z.object({ webhook: Webhook }), 'El webhook cambiado')] },
  { metodo: 'delete', ruta: '/webhooks/{id}', comando: eliminarWebhook, resumen: 'Eliminar un webhook', etiqueta: 'Webhooks', exito: [json(WebhookEliminado, 'Eliminado')] },
  { metodo: 'get', ruta: '/webhooks/{id}/entregas', comando: entregasWebhook, resumen: 'Entregas de un webhook', etiqueta: 'Webhooks', exito: [json(EntregaList, 'Cada entrega con su estado, intentos y próximo reintento')] },
  { metodo: 'post', ruta: '/webhooks/{id}/probar', comando: probarWebhook, resumen: 'Enviar un ping de prueba', etiqueta: 'Webhooks', exito: [json(EntregaResultado, 'El intento hecho ahora')] },
  {
    metodo: 'post',
    ruta: '/webhooks/{id}/entregas/{entrega}/reenviar',
    comando: reenviarEntrega,
    resumen: 'Reenviar una entrega',
    etiqueta: 'Webhooks',
    parametros: { entrega: 'Id de la entrega' },
    exito: [json(EntregaResultado, 'El intento hecho ahora')],
  },
];

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

/** The documented error answer for a status, with the codes it can carry and an example. */
function respuestaError(estado: number, codigos?: readonly string[]): ZodOpenApiResponseObject {
  const todos = codigos ?? Object.entries(CODIGO_STATUS).flatMap(([c, s]) => (s === estado ? [c] : []));
  const codigo = todos[0] ?? 'error_interno';
  return {
    description: `${DESCRIPCION_ESTADO[estado] ?? 'Error'}. Códigos: ${todos.map((c) => `\`${c}\``).join(', ')}.`,
    content: {
      'application/json': {
        schema: ErrorBody,
        example: { error: { codigo, mensaje: 'Explicación en español de lo que ha pasado y qué hacer.', campos: estado === 422 ? { matricula: 'Obligatorio' } : {}, avisos: [], request_id: 'req_01JD…' } },
      },
    },
  };
}

function operacion(op: OperacionApi): ZodOpenApiOperationObject {
  const path: Record<string, z.ZodType> = {};
  for (const [, nombre] of op.ruta.matchAll(/\{(\w+)\}/g)) {
    const descripcion = op.parametros?.[nombre!] ?? (op.etiqueta === 'Webhooks' ? 'Id del webhook' : 'Id numérico o número AAAA-NNNNNN de la DeCA');
    path[nombre!] = z.string().meta({ description: descripcion, example: op.etiqueta === 'Webhooks' ? '3' : '2026-000012' });
  }
  const responses: Record<string, ZodOpenApiResponseObject> = {};
  for (const e of op.exito) {
    responses[`${e.estado}`] = {
      description: e.descripcion,
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
  if (op.conflictos?.length) errores.add(409);
  for (const e of [...errores].sort()) responses[`${e}`] = respuestaError(e, e === 409 ? op.conflictos : undefined);

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
  const idempotente = op.comando.idempotencia !== undefined || (op.metodo === 'post' && op.ruta.startsWith('/decas'));
  return {
    // The agenda's three kinds share their commands: the kind tells them apart.
    operationId: op.ruta.startsWith('/agenda/') ? `${op.comando.nombre}_${op.ruta.split('/')[2]}` : op.comando.nombre,
    summary: op.resumen,
    description: `${op.comando.descripcion}${op.extension ? '\n\nExtensión de este servicio (no está en la especificación).' : ''}`,
    tags: [op.etiqueta],
    requestParams: {
      ...(Object.keys(path).length ? { path: z.object(path) } : {}),
      ...(op.consulta ? { query: op.consulta } : {}),
      ...(idempotente
        ? { header: z.object({ 'Idempotency-Key': ClaveIdempotencia.optional().meta({ description: 'De 1 a 255 caracteres ASCII visibles (p. ej. un UUID). Una repetición con la misma clave devuelve el mismo resultado sin repetir la acción (`Idempotent-Replayed: true`): la de una creación, para siempre; la de otros cambios, 8 días' }) }) }
        : {}),
    },
    ...(requestBody ? { requestBody } : {}),
    responses: responses as ZodOpenApiResponsesObject,
  };
}

/** The OpenAPI 3.1 document of one environment's API, generated from the shared zod schemas. */
export function documentoOpenApi(siteUrl: string, entorno: Entorno): object {
  const paths: ZodOpenApiPathsObject = {};
  for (const op of OPERACIONES) (paths[op.ruta] ??= {})[op.metodo] = operacion(op);
  const webhooks: ZodOpenApiPathsObject = {};
  for (const evento of [...EVENTOS, 'ping'] as const) {
    webhooks[evento] = {
      post: {
        summary: `Evento ${evento}`,
        description:
          'Entrega firmada: cabecera `X-Deca-Firma: t=<segundos unix>,v1=<firma>`, la firma es el HMAC-SHA256 en hex, con el secreto del webhook, de `t` + `.` + el cuerpo tal cual; compárela en tiempo constante y rechace un `t` a más de 300 s. Responda 2xx en 10 s; si no, se reintenta a 1 min, 5 min, 30 min, 2 h y 12 h.',
        requestBody: { content: { 'application/json': { schema: WebhookPayload } } },
        responses: { '200': { description: 'Recibido' } },
      },
    };
  }
  const base = `${siteUrl}${entorno === 'pruebas' ? '/demo' : ''}/api/v1`;
  return createDocument({
    openapi: '3.1.0',
    info: {
      title: `DeCA API${entorno === 'pruebas' ? ' (entorno de pruebas)' : ''}`,
      version: '1.0.0',
      description:
        'Documentos de control del transporte de mercancías por carretera (Orden FOM/2861/2012, art. 6): crear, emitir, modificar, sustituir, consultar y archivar DeCA; agenda, importación CSV, lectura de fotos de albaranes y webhooks. ' +
        'Errores: siempre `{ "error": { codigo, mensaje, campos, avisos, request_id } }`. Límite: 120 peticiones por minuto y clave (cabeceras `RateLimit`).',
    },
    servers: [{ url: base, description: entorno === 'pruebas' ? 'Entorno de pruebas: datos sin validez' : 'Producción' }],
    security: [{ bearer: [] }, { apiKey: [] }],
    tags: ['DeCA', 'Cuenta', 'Agenda', 'Importación', 'Fotos', 'Webhooks'].map((name) => ({ name })),
    paths,
    webhooks,
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'Clave de API: `Authorization: Bearer dg_live_…` (o `dg_test_…` en pruebas)' },
        apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'La misma clave en la cabecera `X-API-Key`' },
      },
    },
  });
}
