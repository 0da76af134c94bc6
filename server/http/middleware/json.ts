import type { AppMiddleware } from '../context';

/** A body already serialised, kept with the object it came from (a cached DeCA is the same object every time). */
const serializados = new WeakMap<object, Buffer>();

/**
 * JSON text of `{ [clave]: valor }`, computed once per `valor` object: the
 * presented DeCAs a process caches are answered again and again, and
 * serialising them was most of a GET's work.
 */
export function jsonDe(clave: string, valor: object): Buffer {
  let b = serializados.get(valor);
  if (!b) {
    b = Buffer.from(`{${JSON.stringify(clave)}:${JSON.stringify(valor)}}`);
    serializados.set(valor, b);
  }
  return b;
}

/**
 * Serialise an object body once, here, into bytes. Koa would stringify it
 * twice otherwise: once when compression (or anything else) asks its length,
 * and again to send it.
 */
export function serializeJson(): AppMiddleware {
  return async (ctx, next) => {
    await next();
    const body: unknown = ctx.body;
    if (body === null || typeof body !== 'object' || Buffer.isBuffer(body) || body instanceof Uint8Array || typeof (body as { pipe?: unknown }).pipe === 'function') return;
    // The object body already set Content-Type (JSON, or the route's own such as a manifest): a Buffer keeps it.
    const status = ctx.status;
    ctx.body = Buffer.from(JSON.stringify(body));
    ctx.status = status;
  };
}
