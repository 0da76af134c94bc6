import { Readable } from 'node:stream';
import type { AppMiddleware } from '../context';

/** The opaque part of an entity tag (`"x"` or `W/"x"`), or null when the text is not one. */
function opaca(etag: string): string | null {
  const m = /^\s*(?:W\/)?("[^"]*")\s*$/.exec(etag);
  return m ? m[1]! : null;
}

/**
 * Whether an `If-None-Match` field matches the representation whose entity
 * tag is `etag` (RFC 9110 §13.1.2): `*` matches any current representation;
 * otherwise one tag of the list must match by weak comparison (§8.8.3.2: the
 * `W/` of either side is ignored, the quoted text compared octet by octet).
 * Commas may appear inside a tag, so the list is read tag by tag, not split.
 */
export function ifNoneMatchCoincide(campo: string, etag: string): boolean {
  const actual = opaca(etag);
  if (actual === null) return false;
  if (campo.trim() === '*') return true;
  for (const m of campo.matchAll(/(?:W\/)?("[^"]*")/g)) if (m[1] === actual) return true;
  return false;
}

/**
 * Conditional GET (RFC 9110 §13.2): a GET or HEAD whose 200 answer carries an
 * `ETag` that the request's `If-None-Match` matches is answered 304 Not
 * Modified instead, with the same headers (ETag, Cache-Control…) and no body.
 * The request is still authenticated, counted and run as usual: only the
 * bytes are saved. A request without the field costs nothing more.
 */
export function conditionalGet(): AppMiddleware {
  return (ctx, next) => {
    const campo = ctx.get('if-none-match');
    if (!campo || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) return next();
    return next().then(() => {
      const etag = ctx.response.get('ETag');
      if (ctx.status !== 200 || typeof etag !== 'string' || !ifNoneMatchCoincide(campo, etag)) return;
      if (ctx.body instanceof Readable) ctx.body.destroy();
      ctx.status = 304;
      ctx.body = null;
    });
  };
}
