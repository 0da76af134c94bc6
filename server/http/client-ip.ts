import type { AppContext } from './context';

/**
 * The client's address in an `X-Forwarded-For` value that passed through
 * `proxies` proxies of ours: each appends the address it saw, so the client is
 * the `proxies`-th entry from the right; everything left of it was written by
 * the client and is never trusted. With fewer entries than proxies (a request
 * that came in through an inner proxy), the leftmost entry: every entry there
 * was written by one of ours. Null for an empty header or no proxies.
 */
export function direccionReenviada(header: string, proxies: number): string | null {
  if (proxies < 1) return null;
  const saltos = header
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  return saltos[Math.max(0, saltos.length - proxies)] ?? null;
}

/**
 * The caller's IP: the socket's, or with TRUST_PROXY=N (N proxies in front)
 * the N-th address from the right of X-Forwarded-For. Never trust the header otherwise.
 */
export function clientIp(ctx: AppContext, trustProxy: number): string {
  return direccionReenviada(ctx.get('x-forwarded-for'), trustProxy) ?? ctx.req.socket.remoteAddress ?? 'desconocida';
}
