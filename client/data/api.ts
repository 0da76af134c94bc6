import type { EntradaDe, SalidaDe } from '../../shared/api/operaciones';
import { API_BASE, type NombreOperacion, RUTAS, rutaCon } from '../../shared/api/rutas';
import { APP_BASE, CSRF_HEADER, type NombreApp, type OperacionesApp, RUTAS_APP } from '../../shared/api/rutas-app';
import type { Entorno } from '../../shared/schemas/cuenta';

/** The server answered with the documented error body (spec: Errors). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly codigo: string,
    mensaje: string,
    readonly campos: Record<string, string> = {},
    readonly avisos: { campo: string | null; codigo: string; mensaje: string }[] = [],
    readonly retryAfterS: number | null = null,
  ) {
    super(mensaje);
    this.name = 'ApiError';
  }
}

/** No answer at all: offline, DNS, connection reset, or the request was cut. */
export class NetworkError extends Error {
  constructor(cause?: unknown) {
    super('Sin conexión con el servidor.', { cause });
    this.name = 'NetworkError';
  }
}

export interface Respuesta<T> {
  status: number;
  data: T;
  /** `Idempotent-Replayed: true`: an earlier request with the same key already did this. */
  replayed: boolean;
}

export interface OpcionesPeticion {
  body?: unknown;
  idempotencyKey?: string;
  signal?: AbortSignal;
  /** Deadline for this request, answer included (default TIEMPO_MAXIMO_MS). */
  timeoutMs?: number;
}

/** Typed access to one environment's API with the web session cookie. */
export interface Api {
  readonly entorno: Entorno;
  readonly base: string;
  /**
   * Operation `nombre` of the operation table (shared/api) with its input —
   * path parameters, body and query fields in one object — typed by the
   * table, as is the answer. `opts.body` sends a form instead (a file upload).
   */
  llamar<N extends NombreOperacion>(nombre: N, entrada: EntradaDe<N>, opts?: OpcionesPeticion): Promise<Respuesta<SalidaDe<N>>>;
  /** The bytes a file operation answers (a PDF, a QR). */
  bytes<N extends NombreOperacion>(nombre: N, entrada: EntradaDe<N>, signal?: AbortSignal): Promise<ArrayBuffer>;
  /** The URL of operation `nombre` for `entrada` (its path and query): for a link, a download or an upload with progress. */
  url<N extends NombreOperacion>(nombre: N, entrada: EntradaDe<N>): string;
}

/**
 * Method, path and request options of operation `nombre` for `entrada`: the
 * path's parameters go in the path, the rest in the query of a GET or DELETE
 * (absent values left out) or as the JSON body of any other method.
 */
export function peticionDe(nombre: NombreOperacion, entrada: object, opts: OpcionesPeticion = {}): [string, string, OpcionesPeticion] {
  return peticion(RUTAS[nombre], entrada, opts);
}

function peticion(deTabla: readonly [string, string, 'consulta'?], entrada: object, opts: OpcionesPeticion): [string, string, OpcionesPeticion] {
  const [metodo, plantilla, enConsulta] = deTabla;
  const [ruta, resto] = rutaCon(plantilla, entrada as Record<string, unknown>);
  if (metodo === 'get' || metodo === 'delete' || enConsulta) {
    const consulta = new URLSearchParams();
    for (const [k, v] of Object.entries(resto)) if (v !== undefined && v !== null) consulta.set(k, String(v));
    const q = consulta.toString();
    return [metodo.toUpperCase(), q ? `${ruta}?${q}` : ruta, opts];
  }
  return [metodo.toUpperCase(), ruta, { body: resto, ...opts }];
}

/**
 * Turn a non-2xx answer into an ApiError. The body is checked with the shared
 * ErrorBody schema, loaded on demand so zod stays out of the first screen's JS.
 * If that chunk cannot be loaded (the connection dropped before the service
 * worker had it), the answer counts as not received: a NetworkError, retried
 * later with the same Idempotency-Key, never a refusal the user must fix.
 */
export async function errorDeRespuesta(res: Response): Promise<ApiError | NetworkError> {
  const retry = Number(res.headers.get('Retry-After'));
  const retryAfterS = Number.isFinite(retry) && retry > 0 ? retry : null;
  let json: unknown = null;
  try {
    json = await res.json();
  } catch {
    /* not JSON (a proxy page, an empty body) */
  }
  let ErrorBody: typeof import('./esquemas').ErrorBody;
  try {
    ({ ErrorBody } = await import('./esquemas'));
  } catch (err) {
    return new NetworkError(err);
  }
  const parsed = ErrorBody.safeParse(json);
  if (parsed.success) {
    const e = parsed.data.error;
    return new ApiError(res.status, e.codigo, e.mensaje, e.campos, e.avisos, retryAfterS);
  }
  return new ApiError(res.status, res.status >= 500 ? 'error_interno' : 'desconocido', `El servidor respondió ${res.status}.`, {}, [], retryAfterS);
}

/** How long a request may take, answer included, before it counts as not answered (and is retried with its key). */
export const TIEMPO_MAXIMO_MS = 30_000;

async function enviar(fetchFn: typeof fetch, method: string, url: string, opts: OpcionesPeticion, accept: string): Promise<Response> {
  const headers: Record<string, string> = { Accept: accept };
  if (method !== 'GET' && method !== 'HEAD') headers[CSRF_HEADER] = '1';
  if (opts.idempotencyKey) headers['Idempotency-Key'] = opts.idempotencyKey;
  let body: string | FormData | undefined;
  // A form (a photo, a file) goes as multipart: the browser writes its Content-Type and boundary.
  if (opts.body instanceof FormData) body = opts.body;
  else if (opts.body !== undefined || method === 'POST') {
    // Every POST must carry a body, `{}` at least (spec: Endpoints).
    body = JSON.stringify(opts.body ?? {});
    headers['Content-Type'] = 'application/json';
  }
  // A stalled connection (a tunnel, a captive portal) must not hold the queue: every request has a deadline.
  const plazo = AbortSignal.timeout(opts.timeoutMs ?? TIEMPO_MAXIMO_MS);
  // (AbortSignal.any is missing before Safari 17.4: there the caller's own signal wins.)
  const signal = !opts.signal ? plazo : typeof AbortSignal.any === 'function' ? AbortSignal.any([opts.signal, plazo]) : opts.signal;
  try {
    return await fetchFn(url, { method, headers, body, credentials: 'same-origin', cache: 'no-store', signal });
  } catch (err) {
    // Cancelled by the caller: not a network failure. Past the deadline: as if no answer came.
    if ((err as Error)?.name === 'AbortError' && opts.signal?.aborted) throw err;
    throw new NetworkError(err);
  }
}

/** JSON call to any path of the site (the web endpoints under /app/api use it too). */
export async function pedirJson<T>(fetchFn: typeof fetch, method: string, url: string, opts: OpcionesPeticion = {}): Promise<Respuesta<T>> {
  const res = await enviar(fetchFn, method, url, opts, 'application/json');
  if (!res.ok) throw await errorDeRespuesta(res);
  let data: T;
  try {
    data = (await res.json()) as T;
  } catch (err) {
    // The connection dropped while the body was arriving: same as no answer.
    throw new NetworkError(err);
  }
  return { status: res.status, data, replayed: res.headers.get('Idempotent-Replayed') === 'true' };
}

/**
 * One of the app's own endpoints (`/app/api`, shared/api/rutas-app.ts) by
 * name, with the web session cookie: input and answer typed by the table.
 */
export function llamarApp<N extends NombreApp>(fetchFn: typeof fetch, nombre: N, entrada: OperacionesApp[N]['entrada'], opts: OpcionesPeticion = {}): Promise<Respuesta<OperacionesApp[N]['salida']>> {
  const [method, path, o] = peticion(RUTAS_APP[nombre], entrada, opts);
  return pedirJson(fetchFn, method, `${APP_BASE}${path}`, o);
}

/** The URL of one of the app's own endpoints, for a GET read by a hook. */
export const urlApp = <N extends NombreApp>(nombre: N, entrada: OperacionesApp[N]['entrada']): string => `${APP_BASE}${peticion(RUTAS_APP[nombre], entrada, {})[1]}`;

/** The API of one environment (`/api/v1` or `/demo/api/v1`); `fetchFn` is replaceable in tests. */
export function createApi(entorno: Entorno, fetchFn: typeof fetch = (...a) => fetch(...a), defecto: { timeoutMs?: number } = {}): Api {
  const base = API_BASE[entorno];
  return {
    entorno,
    base,
    llamar(nombre, entrada, opts) {
      const [method, path, o] = peticionDe(nombre, entrada, opts);
      return pedirJson(fetchFn, method, `${base}${path}`, { timeoutMs: defecto.timeoutMs, ...o });
    },
    url: (nombre, entrada) => `${base}${peticionDe(nombre, entrada)[1]}`,
    async bytes(nombre, entrada, signal) {
      const [, path] = peticionDe(nombre, entrada);
      const res = await enviar(fetchFn, 'GET', `${base}${path}`, { signal, timeoutMs: defecto.timeoutMs && defecto.timeoutMs * 2 }, '*/*');
      if (!res.ok) throw await errorDeRespuesta(res);
      try {
        return await res.arrayBuffer();
      } catch (err) {
        throw new NetworkError(err);
      }
    },
  };
}

/** Worth retrying later with the same Idempotency-Key (nothing the user must fix). */
export function esTransitorio(err: unknown): boolean {
  if (err instanceof NetworkError) return true;
  if (!(err instanceof ApiError)) return false;
  // A 409 sent with Retry-After (`en_curso`, `conflicto`: another request was changing the same thing) clears by itself.
  const conflictoPasajero = err.status === 409 && (err.retryAfterS !== null || err.codigo === 'en_curso' || err.codigo === 'conflicto');
  return err.status >= 500 || err.status === 408 || (err.status === 429 && err.codigo !== 'limite_plan') || conflictoPasajero;
}
