import { randomBytes } from 'node:crypto';
import type { Logger } from '../../log';
import type { AppMiddleware } from '../context';

/** Random bytes taken 12 at a time from a pool refilled in one call: a small randomBytes per request was a visible cost. */
const POOL = 12 * 256;
let pool = Buffer.alloc(0);
let offset = POOL;

/** A fresh `req_…` id for every request (96 random bits). */
export function newRequestId(): string {
  if (offset >= pool.length) {
    pool = randomBytes(POOL);
    offset = 0;
  }
  const id = pool.toString('base64url', offset, offset + 12);
  offset += 12;
  return `req_${id}`;
}

/**
 * The path as logged: the token of a one-time link (completing a DeCA's
 * data, confirming an e-mail, accepting an invitation, resetting a password,
 * a closed account's data, the consignee signing on their phone) is a secret, and a log line is read by people who
 * must not be able to use it.
 */
export function rutaParaLog(path: string): string {
  return path.replace(/^(\/(?:completar|f|confirmar|invitacion|restablecer|p\/exportacion|app\/api\/invitacion|app\/api\/contrasena\/restablecer)\/)[^/]+/, '$1[oculto]');
}

/**
 * Outermost middleware: the `X-Request-Id` header is set before anything else
 * runs, so every answer carries it (errors and 404s included), and one log
 * line per request names it.
 */
export function withRequestId(log: Logger): AppMiddleware {
  return async (ctx, next) => {
    const requestId = newRequestId();
    ctx.state.requestId = requestId;
    ctx.state.log = log.child({ req_id: requestId });
    ctx.set('X-Request-Id', requestId);
    const start = performance.now();
    try {
      await next();
    } finally {
      ctx.state.log.info({ method: ctx.method, path: rutaParaLog(ctx.path), status: ctx.status, ms: Math.round(performance.now() - start) }, 'request');
    }
  };
}
