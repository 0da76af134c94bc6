import type { AppContext } from './context';

/**
 * The caller's IP: the socket's, or with TRUST_PROXY=1 the first address of
 * X-Forwarded-For (set by the proxy in front). Never trust the header otherwise.
 */
export function clientIp(ctx: AppContext, trustProxy: boolean): string {
  if (trustProxy) {
    const fwd = ctx.get('x-forwarded-for').split(',')[0]?.trim();
    if (fwd) return fwd;
  }
  return ctx.req.socket.remoteAddress ?? 'desconocida';
}
