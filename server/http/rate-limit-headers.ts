import type { RateLimiterRes } from 'rate-limiter-flexible';
import { API_WINDOW_S } from '../limits';

/**
 * The RateLimit fields of the IETF httpapi draft plus the older
 * RateLimit-Limit/Remaining/Reset trio that many clients still read.
 */
export function rateLimitHeaders(limit: number, res: RateLimiterRes): Record<string, string> {
  const remaining = Math.max(0, res.remainingPoints);
  const reset = Math.max(1, Math.ceil(res.msBeforeNext / 1000));
  return {
    'RateLimit-Policy': `"minuto";q=${limit};w=${API_WINDOW_S}`,
    RateLimit: `"minuto";r=${remaining};t=${reset}`,
    'RateLimit-Limit': String(limit),
    'RateLimit-Remaining': String(remaining),
    'RateLimit-Reset': String(reset),
  };
}
