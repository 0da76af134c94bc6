import { type RateLimiterAbstract, RateLimiterMemory, RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import { createPgPool, type Database } from './db/open';
import type { Logger } from './log';

export const API_POINTS = 120;
export const API_WINDOW_S = 60;
/** Once an e-mail's 10 checks in 15 minutes are spent, one more every this many seconds. */
export const LOGIN_GOTEO_S = 3;

/** What the API's per-minute limit is asked: its size, and to spend points of a key (RateLimiterRes, thrown past the limit). */
export interface LimiteApi {
  readonly points: number;
  consume(key: string, points?: number): Promise<RateLimiterRes>;
}

/** Points of the shared count a process holds for one key, spent here without asking the store. */
interface Arriendo {
  quedan: number;
  /** When the store's window, and with it the lease, ends (ms since the epoch). */
  hasta: number;
  /** The store's remaining and consumed points when the lease was taken. */
  restantes: number;
  consumidos: number;
}

/**
 * The per-minute limit of a shared store, taken in leases: the first request
 * of a key in a process spends `lote` points of the store at once, and the
 * next `lote − 1` are counted here, with no round trip to the database.
 * Never more than the limit is served: every point served was spent in the
 * store first. The price is the other way: points a process leased and did
 * not use before the window ended are lost, so with P processes a key may be
 * refused up to P × (lote − 1) requests before its limit (with one process,
 * and for the RateLimit fields, the count is exact). A lease that meets the
 * limit takes what was left, if that is enough for the request, and gives
 * back the rest; a refusal is remembered until the store's window ends.
 */
export class LimiteEnLotes implements LimiteApi {
  private readonly arriendos = new Map<string, Arriendo>();
  /** Keys the store refused, until its window ends: refused again here, with no round trip. */
  private readonly rechazos = new Map<string, { hasta: number; consumidos: number }>();
  private readonly tomando = new Map<string, Promise<unknown>>();
  private llamadas = 0;

  constructor(
    private readonly store: RateLimiterAbstract,
    readonly lote: number,
    private readonly now: () => number = Date.now,
  ) {}

  get points(): number {
    return this.store.points;
  }

  async consume(key: string, points = 1): Promise<RateLimiterRes> {
    // Requests of one key that arrive together wait for one lease instead of taking one each.
    for (let enCurso = this.tomando.get(key); enCurso; enCurso = this.tomando.get(key)) await enCurso.catch(() => undefined);
    const t = this.now();
    // Now and then, forget the leases and refusals whose window has ended (keys that stopped calling).
    if (++this.llamadas % 10_000 === 0) {
      for (const [k, v] of this.arriendos) if (v.hasta <= t) this.arriendos.delete(k);
      for (const [k, v] of this.rechazos) if (v.hasta <= t) this.rechazos.delete(k);
    }
    const rechazo = this.rechazos.get(key);
    if (rechazo && rechazo.hasta > t) {
      rechazo.consumidos += points;
      throw new RateLimiterRes(0, rechazo.hasta - t, rechazo.consumidos, false);
    }
    this.rechazos.delete(key);
    const a = this.arriendos.get(key);
    if (a && a.hasta > t && a.quedan >= points) {
      a.quedan -= points;
      return new RateLimiterRes(a.restantes + a.quedan, a.hasta - t, a.consumidos - a.quedan, false);
    }
    const tomar = this.tomar(key, points, t, a && a.hasta > t ? a.quedan : 0);
    this.tomando.set(key, tomar);
    try {
      return await tomar;
    } finally {
      this.tomando.delete(key);
    }
  }

  /** A new lease for `points` more than the `tengo` points still leased (one round trip). */
  private async tomar(key: string, points: number, t: number, tengo: number): Promise<RateLimiterRes> {
    this.arriendos.delete(key);
    const pedir = Math.max(points - tengo, this.lote);
    try {
      const res = await this.store.consume(key, pedir);
      return this.arrendar(key, tengo + pedir - points, t, res.remainingPoints, res.consumedPoints, res.msBeforeNext, res.isFirstInDuration);
    } catch (err) {
      if (!(err instanceof RateLimiterRes)) throw err;
      // The lease met the limit: keep what was left before it if the request fits, give the rest back.
      const habia = Math.max(0, this.points - (err.consumedPoints - pedir));
      if (tengo + habia >= points) {
        if (pedir > habia) await this.store.reward(key, pedir - habia);
        return this.arrendar(key, tengo + habia - points, t, 0, this.points, err.msBeforeNext, false);
      }
      // Refused: its own points stay spent, as any refused request's.
      const devolver = Math.max(0, pedir - Math.max(0, points - tengo));
      if (devolver > 0) await this.store.reward(key, devolver);
      const consumidos = err.consumedPoints - devolver;
      this.rechazos.set(key, { hasta: t + err.msBeforeNext, consumidos });
      throw new RateLimiterRes(0, err.msBeforeNext, consumidos, false);
    }
  }

  private arrendar(key: string, quedan: number, t: number, restantes: number, consumidos: number, ms: number, primero: boolean): RateLimiterRes {
    if (quedan > 0) this.arriendos.set(key, { quedan, hasta: t + ms, restantes, consumidos });
    return new RateLimiterRes(restantes + quedan, ms, consumidos - quedan, primero);
  }
}

/** Points leased at a time: a tenth of a minute's budget at most, so that a lease never holds much of it. */
export const loteDe = (points: number): number => Math.max(1, Math.min(10, Math.floor(points / 12)));

/** The limiters of the service. On PostgreSQL they share the count across processes. */
export interface RateLimits {
  /** 120 requests a minute per API key or web user (spec: Limits); on PostgreSQL taken in leases (LimiteEnLotes). */
  api: LimiteApi;
  /**
   * Password checks per e-mail and source IP together: 10 in 15 minutes. A
   * point is spent before the check (consume is atomic, so parallel tries
   * cannot all pass) and given back when the password is right.
   */
  loginEmailIp: RateLimiterAbstract;
  /**
   * Password checks per e-mail from anywhere: 10 in 15 minutes, then only
   * `loginEmailGoteo`'s trickle. Never a long lock: a stranger who knows the
   * address cannot keep its owner out for more than a few seconds.
   */
  loginEmail: RateLimiterAbstract;
  /** Once `loginEmail` is spent: one check per e-mail every 3 seconds. */
  loginEmailGoteo: RateLimiterAbstract;
  /** Password checks per IP: 50 in 15 minutes (a right password gives its point back). */
  loginIp: RateLimiterAbstract;
  /** Password reset requests per e-mail (known or not): 5 an hour. */
  restablecerEmail: RateLimiterAbstract;
  /** Password reset requests per IP: 20 an hour. */
  restablecerIp: RateLimiterAbstract;
  /** Completion-link posts per link: 60 in 10 minutes (autosave included). */
  completarToken: RateLimiterAbstract;
  /** Completion-link posts per IP: 300 in 10 minutes (the consignee's signing link spends from it too). */
  completarIp: RateLimiterAbstract;
  /** Posts on one «Firmar en su móvil» link: 20 in its 30 minutes (a form re-shown with errors a few times). */
  firmaToken: RateLimiterAbstract;
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
  const pool = database.kind === 'postgres' ? createPgPool(database.connectionString, database.schema, { max: 4, settings: { synchronous_commit: 'off' }, log: opts.log, nombre: 'rate-limit' }) : null;
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
  const apiPoints = opts.apiPoints ?? API_POINTS;
  const api = make('api', apiPoints, API_WINDOW_S);
  return {
    // Every API request spends a point: on a shared store, a round trip each unless leased.
    api: pool ? new LimiteEnLotes(api, loteDe(apiPoints)) : api,
    loginEmailIp: make('login_email_ip', 10, 15 * 60),
    loginEmail: make('login_email', 10, 15 * 60),
    loginEmailGoteo: make('login_email_goteo', 1, LOGIN_GOTEO_S),
    loginIp: make('login_ip', 50, 15 * 60),
    restablecerEmail: make('restablecer_email', 5, 60 * 60),
    restablecerIp: make('restablecer_ip', 20, 60 * 60),
    completarToken: make('completar_token', 60, 10 * 60),
    completarIp: make('completar_ip', 300, 10 * 60),
    firmaToken: make('firma_token', 20, 30 * 60),
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

/** A password check the sign-in limits allow, or how long to wait and whose limit it is. */
export type TurnoContrasena =
  | { espera: null /** The password was right: give back what the check spent, so only failures count. */; acierto(): Promise<void> }
  | { espera: number; motivo: 'conexion' | 'correo' };

/**
 * Take a turn to check a password for `email` from `ip` (null: from a
 * signed-in session, counted per user). The points are spent before the
 * check with the limiters' atomic consume, so any number of parallel tries
 * gets at most as many checks as the limits allow:
 * - per IP (50 in 15 min) and per e-mail and IP together (10 in 15 min): the
 *   one guessing waits 15 minutes, nobody else does;
 * - per e-mail from anywhere: 10 in 15 minutes, then one every
 *   LOGIN_GOTEO_S seconds; a wait here is never longer than that, so the
 *   owner on a new device gets in within seconds.
 * A turn refused by the e-mail's limit gives back its IP points.
 */
export async function turnoContrasena(limits: RateLimits, email: string, ip: string | null): Promise<TurnoContrasena> {
  const par = `${email}|${ip ?? 'sesion'}`;
  const [esperaIp, esperaPar] = await Promise.all([ip === null ? null : gastar(limits.loginIp, ip), gastar(limits.loginEmailIp, par)]);
  if (esperaIp !== null || esperaPar !== null) {
    // Whichever of the two allowed the try gets its point back: this try checks nothing.
    await Promise.all([esperaIp === null && ip !== null && limits.loginIp.reward(ip, 1), esperaPar === null && limits.loginEmailIp.reward(par, 1)]);
    return { espera: Math.max(esperaIp ?? 0, esperaPar ?? 0), motivo: 'conexion' };
  }
  let delCupo = true;
  if ((await gastar(limits.loginEmail, email)) !== null) {
    delCupo = false;
    const espera = await gastar(limits.loginEmailGoteo, email);
    if (espera !== null) {
      await Promise.all([limits.loginEmailIp.reward(par, 1), ip !== null && limits.loginIp.reward(ip, 1)]);
      return { espera, motivo: 'correo' };
    }
  }
  return {
    espera: null,
    acierto: async () => {
      await Promise.all([limits.loginEmailIp.delete(par), ip !== null && limits.loginIp.reward(ip, 1), delCupo && limits.loginEmail.reward(email, 1)]);
    },
  };
}
