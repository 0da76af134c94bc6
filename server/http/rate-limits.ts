import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { createPgPool, type Database } from '../db/open';

export const API_POINTS = 120;
export const API_WINDOW_S = 60;

/** The limiters of the service. On PostgreSQL they share the count across processes. */
export interface RateLimits {
  /** 120 requests a minute per API key or web user (spec: Limits). */
  api: RateLimiterAbstract;
  /** Failed sign-ins per e-mail: 10 in 15 minutes, then wait. */
  loginEmail: RateLimiterAbstract;
  /** Failed sign-ins per IP: 50 in 15 minutes. */
  loginIp: RateLimiterAbstract;
  /** Completion-link posts per link: 60 in 10 minutes (autosave included). */
  completarToken: RateLimiterAbstract;
  /** Completion-link posts per IP: 300 in 10 minutes. */
  completarIp: RateLimiterAbstract;
  /** Release the limiters' own connections. */
  close(): Promise<void>;
}

/**
 * PostgreSQL store on a server database (several processes share counts);
 * memory on the embedded one, which only ever has one process (the DATA_DIR
 * lock). RateLimiterPostgres cannot take a PGlite handle (LIBRARIES.md).
 */
export function createRateLimits(database: Database, opts: { apiPoints?: number | undefined } = {}): RateLimits {
  // Counters go through their own small pool without synchronous commit: every
  // API request updates one, and waiting for a WAL flush each time made the
  // rate limiter the slowest part of a read. A crash may lose the last few
  // milliseconds of counts, which is harmless for a per-minute limit.
  const pool =
    database.kind === 'postgres'
      ? createPgPool(database.connectionString, database.schema, { max: 4, settings: { synchronous_commit: 'off' } })
      : null;
  const make = (keyPrefix: string, points: number, duration: number): RateLimiterAbstract =>
    pool
      ? new RateLimiterPostgres({
          storeClient: pool,
          storeType: 'pool',
          tableName: 'rate_limits',
          tableCreated: true,
          keyPrefix,
          points,
          duration,
        })
      : new RateLimiterMemory({ keyPrefix, points, duration });
  return {
    api: make('api', opts.apiPoints ?? API_POINTS, API_WINDOW_S),
    loginEmail: make('login_email', 10, 15 * 60),
    loginIp: make('login_ip', 50, 15 * 60),
    completarToken: make('completar_token', 60, 10 * 60),
    completarIp: make('completar_ip', 300, 10 * 60),
    close: async () => {
      await pool?.end();
    },
  };
}

/** A rejection because the limit was reached (not a store failure). */
export function isLimited(err: unknown): err is RateLimiterRes {
  return err instanceof RateLimiterRes;
}

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
