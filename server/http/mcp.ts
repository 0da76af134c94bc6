/**
 * The MCP endpoint (spec: Authentication, point 6): streamable HTTP, JSON-RPC
 * 2.0, at `/mcp` (production) and `/demo/mcp` (test environment), with the
 * same API keys, permissions, rate limit (one point per JSON-RPC message,
 * batches included: unPuntoPorLlamada) and quota as the REST API. Stateless:
 * each POST gets its own server and transport, so any number of processes
 * can serve it. Every tool is a command of the one command layer; its input
 * schema is the command's shared zod schema, its result the same object the
 * REST call answers, and a refusal is a tool result with `isError` carrying
 * the REST error body (`codigo`, `mensaje`, `campos`) so that a model can
 * correct its input. Each DeCA is also a resource: `deca://{numero}` (JSON)
 * and `deca://{numero}/pdf` (the PDF), and its deliveries `deca://{numero}/entregas`
 * (JSON, as the tool ver_entregas gives them).
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { MAX_BATCH_SIZE } from '@modelcontextprotocol/sdk/server/requestBody.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  type Resource,
  type Tool,
  type ToolAnnotations,
} from '@modelcontextprotocol/sdk/types.js';
import compose from 'koa-compose';
import { ClaveIdempotenciaMcp } from '../../shared/api/operaciones';
import { AppError, validationError } from '../../shared/errors';
import type { Entorno } from '../../shared/schemas/cuenta';
import { z } from '../../shared/schemas/zod';
import { ejecutar } from '../commands/command';
import { listarDecasCommand, pdfDecaCommand, type ResultadoCrear, verDecaCommand } from '../commands/decas';
import { verEntregasCommand } from '../commands/entregas';
import { HERRAMIENTAS_API, type HerramientaApi } from '../commands/operaciones';
import { comoNoDisponible } from '../db/errores';
import type { AppDeps } from '../deps';
import type { Actor } from '../domain/actor';
import { type AppContext, type AppMiddleware, actorOf } from './context';
import { authenticate, gastarLlamadas } from './middleware/auth';
import { jsonBody, MB } from './middleware/body';
import { errorBody, errorInterno } from './middleware/errors';
import { fotoDeBase64 } from './middleware/subida';

type Json = Record<string, unknown>;

/**
 * What MCP adds to a tool besides the table: arguments that are not the
 * command's input (a photo in base64, the idempotency key), and a result
 * that is not the command's own. Only the tools that need it.
 */
interface Adaptador {
  /** The command's input from the tool's arguments, and the idempotency key they carry. */
  adaptar?: (args: Json) => { input: unknown; clave?: string | null };
  /** The tool's result from the command's. */
  responder?: (valor: never) => Json;
}

/** JSON Schema of a shared zod schema as a tool input or output (what a client sends / receives). */
function esquema(s: z.ZodType, io: 'input' | 'output'): Json {
  const { $schema: _, $ref, $defs, ...json } = z.toJSONSchema(s, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as Json & { $ref?: string; $defs?: Record<string, Json> };
  // A schema with its own id comes as a reference to its definition: clients want the object itself.
  const propio = typeof $ref === 'string' ? /^#\/\$defs\/(.+)$/.exec($ref)?.[1] : undefined;
  const raiz = propio && $defs?.[propio] ? $defs[propio] : json;
  return { type: 'object', ...raiz, ...($defs && Object.keys($defs).length ? { $defs } : {}) };
}

/** The idempotency key among a tool's arguments, checked as the REST header is: 422 `validacion` naming `clave_idempotencia`. */
function claveDe(clave_idempotencia: unknown): string | null {
  const r = z.object({ clave_idempotencia: ClaveIdempotenciaMcp }).safeParse({ clave_idempotencia });
  if (!r.success) throw validationError(r.error.issues);
  return r.data.clave_idempotencia ?? null;
}

const ADAPTADORES: Record<string, Adaptador> = {
  leer_albaran: { adaptar: (args) => ({ input: { foto: fotoDeBase64(args.imagen_base64) } }) },
  crear_deca: {
    adaptar: ({ clave_idempotencia, solo_validar: _, ...input }) => ({ input, clave: claveDe(clave_idempotencia) }),
    responder: (r: ResultadoCrear) => {
      if (r.tipo !== 'creada') throw new Error('crear_deca sin solo_validar no valida');
      return { deca: r.deca, avisos: r.avisos };
    },
  },
};

/** What a tool returns: the operation's first JSON answer, unless the table says otherwise. */
function salidaDe(h: HerramientaApi): z.ZodType {
  if (h.salida) return h.salida;
  const json = h.operacion.exito.find((e) => 'json' in e);
  if (!json || !('json' in json)) throw new Error(`La herramienta ${h.comando.nombre} no tiene respuesta JSON que devolver`);
  return json.json;
}

/** The tool list of each kind of key, built once from the operation table. */
const LISTA: Record<'lectura' | 'todas', Tool[]> = (() => {
  const tools = HERRAMIENTAS_API.map((h): Tool & { lectura: boolean } => ({
    name: h.comando.nombre,
    title: h.titulo,
    description: h.descripcion,
    inputSchema: esquema(h.entrada ?? h.comando.entrada, 'input') as Tool['inputSchema'],
    outputSchema: esquema(salidaDe(h), 'output') as Tool['outputSchema'],
    annotations: { title: h.titulo, ...h.anotaciones },
    lectura: h.lectura,
  }));
  const sinMarca = ({ lectura: _, ...t }: Tool & { lectura: boolean }): Tool => t;
  return { lectura: tools.filter((t) => t.lectura).map(sinMarca), todas: tools.map(sinMarca) };
})();
const POR_NOMBRE = new Map(HERRAMIENTAS_API.map((h) => [h.comando.nombre, h]));

/** A tool's result from its command's: its adapter's, or the operation's envelope (`{ deca }`), or the result itself. */
function resultadoDe(h: HerramientaApi, valor: unknown): Json {
  const responder = ADAPTADORES[h.comando.nombre]?.responder as ((v: unknown) => Json) | undefined;
  if (responder) return responder(valor);
  return h.operacion.envoltorio && h.comando === h.operacion.comando ? { [h.operacion.envoltorio]: valor } : (valor as Json);
}

/**
 * A refusal as the tool result a model reads: the REST error body, as JSON
 * text. The idempotency key is named as the tool's argument, not as REST's
 * header (a key reused for another DeCA is refused below the doors).
 */
function resultadoDeError(err: AppError, requestId: string): CallToolResult {
  const body = errorBody(err, requestId);
  const { 'Idempotency-Key': clave, ...campos } = body.error.campos;
  if (clave !== undefined) body.error.campos = { ...campos, clave_idempotencia: clave };
  return { isError: true, content: [{ type: 'text', text: JSON.stringify(body) }] };
}

const RECURSO = /^deca:\/\/(\d{4}-\d{6})(?:\/(pdf|entregas))?$/;
/**
 * A JSON-RPC error answer. Not an McpError: the SDK sends an error's message as it is, and
 * McpError's already carries «MCP error <code>:», which the client adds again.
 */
const errorRpc = (code: number, mensaje: string, data?: Json) => Object.assign(new Error(mensaje), { code, data });
/**
 * A resource request that met the database out of reach: JSON-RPC has no
 * «unavailable», so an internal error whose data carries REST's code and
 * when to retry (`no_disponible`, `retry_after` in seconds).
 */
function sinBaseDeDatos(err: unknown): Error | null {
  const e = comoNoDisponible(err);
  return e ? errorRpc(ErrorCode.InternalError, e.message, { codigo: e.codigo, retry_after: Number(e.headers['Retry-After'] ?? 5) }) : null;
}
/** MCP's «resource not found». */
const noEncontrado = (uri: string) => errorRpc(-32002, `No existe el recurso ${uri} en esta cuenta y entorno.`, { uri });

/** One MCP server for one request of `actor`. */
function servidor(deps: AppDeps, actor: Actor, { log, requestId }: Pick<AppContext['state'], 'log' | 'requestId'>): Server {
  const { services } = deps;
  const server = new Server(
    { name: 'deca', title: 'DeCA — documentos de control del transporte', version: '1.0.0' },
    {
      capabilities: { tools: {}, resources: {} },
      instructions:
        'Servicio de documentos de control administrativo (DeCA) del transporte de mercancías por carretera en España. Use ver_cuenta para saber qué lado ocupa la cuenta, buscar_agenda para datos ya usados, validar_deca para saber qué falta y crear_deca (con clave_idempotencia) para crear y emitir. Pregunte al usuario lo que no sepa; nunca invente NIF, matrículas ni pesos.',
    },
  );

  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: actor.soloLectura ? LISTA.lectura : LISTA.todas }));

  server.setRequestHandler(CallToolRequestSchema, async (req): Promise<CallToolResult> => {
    const h = POR_NOMBRE.get(req.params.name);
    if (!h) throw errorRpc(ErrorCode.InvalidParams, `No existe la herramienta ${req.params.name}.`);
    const args = (req.params.arguments ?? {}) as Json;
    try {
      if (actor.soloLectura && !h.lectura) {
        throw new AppError('solo_lectura', `Esta clave es de solo lectura: ${h.comando.nombre} necesita una clave de lectura y escritura.`);
      }
      const adaptar = ADAPTADORES[h.comando.nombre]?.adaptar;
      const { input, clave } = adaptar ? adaptar(args) : { input: args, clave: null };
      const r = await ejecutar(services, h.comando, actor, input, { idempotencyKey: clave ?? null });
      const body = resultadoDe(h, r.valor);
      return { structuredContent: body, content: [{ type: 'text', text: JSON.stringify(body) }] };
    } catch (err) {
      if (err instanceof AppError) return resultadoDeError(err, requestId);
      const noDisponible = comoNoDisponible(err);
      if (noDisponible) return resultadoDeError(noDisponible, requestId);
      log.error({ err, herramienta: h.comando.nombre }, 'MCP tool failed');
      return resultadoDeError(errorInterno(requestId), requestId);
    }
  });

  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({
    resourceTemplates: [
      { uriTemplate: 'deca://{numero}', name: 'deca', title: 'DeCA (JSON)', description: 'Una DeCA de la cuenta por su número AAAA-NNNNNN, como la devuelve ver_deca.', mimeType: 'application/json' },
      { uriTemplate: 'deca://{numero}/pdf', name: 'deca_pdf', title: 'PDF de una DeCA', description: 'El PDF/A sellado de la versión vigente de una DeCA emitida.', mimeType: 'application/pdf' },
      {
        uriTemplate: 'deca://{numero}/entregas',
        name: 'deca_entregas',
        title: 'Entregas de una DeCA',
        description: 'Las entregas (o rechazos) anotadas de una DeCA, como las devuelve ver_entregas (extensión).',
        mimeType: 'application/json',
      },
    ],
  }));

  server.setRequestHandler(ListResourcesRequestSchema, async (req) => {
    const { valor } = await ejecutar(services, listarDecasCommand, actor, { limite: 50, ...(req.params?.cursor ? { despues_de: req.params.cursor } : {}) }).catch((err: unknown) => {
      if (err instanceof AppError) throw errorRpc(ErrorCode.InvalidParams, err.message, { campos: err.campos });
      throw sinBaseDeDatos(err) ?? err;
    });
    const resources: Resource[] = valor.decas.flatMap((d) => [
      { uri: `deca://${d.numero}`, name: `DeCA ${d.numero}`, mimeType: 'application/json', description: `${d.estado}, transporte del ${d.fecha_transporte ?? '—'}` },
      ...(d.estado === 'pendiente' ? [] : [{ uri: `deca://${d.numero}/pdf`, name: `PDF de la DeCA ${d.numero}`, mimeType: 'application/pdf' }]),
    ]);
    return { resources, ...(valor.siguiente ? { nextCursor: valor.siguiente } : {}) };
  });

  server.setRequestHandler(ReadResourceRequestSchema, async (req) => {
    const uri = req.params.uri;
    const m = RECURSO.exec(uri);
    if (!m) throw noEncontrado(uri);
    try {
      if (m[2] === 'entregas') {
        const { valor } = await ejecutar(services, verEntregasCommand, actor, { id: m[1] });
        return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(valor) }] };
      }
      if (m[2]) {
        const { valor } = await ejecutar(services, pdfDecaCommand, actor, { id: m[1] });
        return { contents: [{ uri, mimeType: 'application/pdf', blob: Buffer.from(valor.pdf).toString('base64') }] };
      }
      const { valor } = await ejecutar(services, verDecaCommand, actor, { id: m[1] });
      return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify({ deca: valor }) }] };
    } catch (err) {
      if (err instanceof AppError && (err.codigo === 'no_encontrado' || err.codigo === 'pendiente')) throw noEncontrado(uri);
      throw sinBaseDeDatos(err) ?? err;
    }
  });
  return server;
}

/** Hosts this server answers to: SITE_URL's, and loopback (a local client). */
function hostsPermitidos(siteUrl: string): (host: string) => boolean {
  const propio = new URL(siteUrl).hostname.toLowerCase();
  const locales = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);
  return (host) => {
    const nombre = host.toLowerCase().replace(/:\d+$/, '');
    return nombre === propio || locales.has(nombre);
  };
}

/**
 * `Host` and `Origin` checked against SITE_URL (DNS-rebinding protection: a
 * web page on another name must not reach a local server through a browser).
 */
function comprobarOrigen(siteUrl: string): AppMiddleware {
  const permitido = hostsPermitidos(siteUrl);
  return async (ctx, next) => {
    const host = ctx.get('host');
    const origin = ctx.get('origin');
    let origenBueno = true;
    if (origin) {
      try {
        origenBueno = permitido(new URL(origin).host);
      } catch {
        origenBueno = false;
      }
    }
    if (!host || !permitido(host) || !origenBueno) {
      throw new AppError('prohibido', `Este servidor MCP solo atiende a ${new URL(siteUrl).host} (cabeceras Host y Origin).`);
    }
    await next();
  };
}

/**
 * Every JSON-RPC message of a batch spends its own point of the per-minute
 * limit, as if it had come alone (authenticate spent the first). A batch
 * larger than what is left is refused whole, before any of its calls runs —
 * 429 `demasiadas_peticiones` with Retry-After, its points spent as any
 * refused request's — rather than run in part with errors for the rest:
 * nothing half done for the client to reconcile. A batch no budget could
 * ever hold (more messages than the limit, or than the SDK's 100) is 413.
 */
function unPuntoPorLlamada(services: AppDeps['services']): AppMiddleware {
  return async (ctx, next) => {
    const body = ctx.state.body;
    const llamadas = Array.isArray(body) ? body.length : 1;
    const maximo = Math.min(MAX_BATCH_SIZE, services.limits.api.points);
    if (llamadas > maximo) {
      throw new AppError('demasiado_grande', `Un lote JSON-RPC admite como mucho ${maximo} llamadas y este trae ${llamadas}: no se ha ejecutado ninguna. Divídalo en lotes más pequeños.`);
    }
    await gastarLlamadas(ctx, services, llamadas);
    await next();
  };
}

/** `/mcp` and `/demo/mcp`: POST only (stateless: no stream to resume, no session to close). */
export function mountMcp(deps: AppDeps, ruta: string, entorno: Entorno): AppMiddleware {
  const { config, services } = deps;
  const cadena = compose([
    comprobarOrigen(config.siteUrl),
    async (ctx: AppContext, next: () => Promise<void>) => {
      if (ctx.method !== 'POST') {
        ctx.set('Allow', 'POST');
        throw new AppError('metodo_no_permitido', 'Este servidor MCP no guarda sesiones: envíe cada mensaje JSON-RPC por POST.');
      }
      await next();
    },
    authenticate(services, { trustProxy: config.trustProxy, secureCookies: false, soloClave: { canal: 'mcp' } }, entorno),
    // A photo for leer_albaran travels as base64 (2 MB → 2.7 MB) inside the JSON-RPC message.
    jsonBody(4 * MB),
    unPuntoPorLlamada(services),
    async (ctx: AppContext) => {
      const server = servidor(deps, actorOf(ctx), ctx.state);
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      ctx.respond = false;
      ctx.res.on('close', () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(ctx.req, ctx.res, ctx.state.body);
    },
  ] as AppMiddleware[]);
  return async (ctx, next) => {
    if (ctx.path === ruta) return cadena(ctx, next);
    return next();
  };
}
