import { randomBytes } from 'node:crypto';
import type { Logger } from '../../log';
import type { AppMiddleware } from '../context';

/** A fresh `req_…` id for every request. */
export function newRequestId(): string {
  return `req_${randomBytes(12).toString('base64url')}`;
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
      ctx.state.log.info(
        { method: ctx.method, path: ctx.path, status: ctx.status, ms: Math.round(performance.now() - start) },
        'request',
      );
    }
  };
}
