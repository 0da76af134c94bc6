import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { createPgPool, type Database } from './db/open';
import type { Logger } from './log';

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
  /** Sign-ups per IP: 5 an hour (a fresh free quota each is not free for the taking). */
  registroIp: RateLimiterAbstract;
  /**
   * Public pages (ficha, PDF, QR, driver's page) per IP: 600 a minute. An
   * inspector opens a few; a flood past this gets 429.
   */
  publicoIp: RateLimiterAbstract;
  /**
   * Opens counted per IP (download log, `descargas`, `deca.descargado`): 60
   * in 10 minutes. Past it the page is still served, the open is not written.
   */
  aperturasIp: RateLimiterAbstract;
  /** Authenticity checks (a PDF uploaded and hashed) per IP: 30 in 10 minutes. */
  verificarIp: RateLimiterAbstract;
  /** Release the limiters' own connections. */
  close(): Promise<void>;
}

/**
 * PostgreSQL store on a server database (several processes share counts);
 * memory on the embedded one, which only ever has one process (the DATA_DIR
 * lock). RateLimiterPostgres cannot take a PGlite handle: it corrupts it.
 */
export function createRateLimits(database: Database, opts: { apiPoints?: number | undefined; log?: Logger } = {}): RateLimits {
  // Counters go through their own small pool without synchronous commit: every
  // API request updates one, and waiting for a WAL flush each time made the
  // rate limiter the slowest part of a read. A crash may lose the last few
  // milliseconds of counts, which is harmless for a per-minute limit.
  const pool =
    database.kind === 'postgres'
      ? createPgPool(database.connectionString, database.schema, { max: 4, settings: { synchronous_commit: 'off' }, log: opts.log, nombre: 'rate-limit' })
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
    registroIp: make('registro_ip', 5, 60 * 60),
    publicoIp: make('publico_ip', 600, 60),
    aperturasIp: make('aperturas_ip', 60, 10 * 60),
    verificarIp: make('verificar_ip', 30, 10 * 60),
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
 * Spend one point of `limiter` for `key`: null when allowed, else the seconds
 * to wait. A store failure is thrown (the caller's request fails rather than
 * silently losing the limit).
 */
export async function gastar(limiter: RateLimiterAbstract, key: string): Promise<number | null> {
  try {
    await limiter.consume(key);
    return null;
  } catch (err) {
    if (!isLimited(err)) throw err;
    return Math.max(1, Math.ceil(err.msBeforeNext / 1000));
  }
}
