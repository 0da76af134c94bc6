import { AppError } from '../../../shared/errors';
import type { Entorno } from '../../../shared/schemas/cuenta';
import type { Clock } from '../../clock';
import type { Database } from '../../db/open';
import { buscarClave, marcarClaveUsada } from '../../domain/accounts/api-keys';
import { leerSesion } from '../../domain/accounts/sessions';
import type { Canal } from '../../domain/actor';
import type { AppContext, AppMiddleware } from '../context';
import { isLimited, rateLimitHeaders, type RateLimits } from '../rate-limits';
import { clientIp } from '../client-ip';
import { CSRF_HEADER, SESSION_COOKIE, setSessionCookie } from '../session-cookie';

const ENTORNO_TEXTO: Record<Entorno, string> = { produccion: 'producción (/api/v1)', pruebas: 'pruebas (/demo/api/v1)' };

function presentedKey(ctx: AppContext): string | null {
  const auth = ctx.get('authorization');
  if (auth) {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(auth);
    return m?.[1] ?? '';
  }
  const header = ctx.get('x-api-key');
  return header ? header.trim() : null;
}

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

export interface AuthDeps {
  database: Database;
  clock: Clock;
  limits: RateLimits;
  trustProxy: boolean;
  secureCookies: boolean;
}

/**
 * Authenticate an API request by key (`Authorization: Bearer` or `X-API-Key`)
 * or, for the web app, by session cookie, then spend one unit of the
 * per-minute rate limit. Every answer carries the RateLimit fields; failed
 * attempts spend the caller IP's budget, which slows key guessing.
 */
export function authenticate(deps: AuthDeps, entorno: Entorno, canal: Canal = 'api'): AppMiddleware {
  const limit = deps.limits.api.points;

  async function spend(ctx: AppContext, bucket: string): Promise<void> {
    try {
      const res = await deps.limits.api.consume(bucket);
      ctx.set(rateLimitHeaders(limit, res));
    } catch (err) {
      if (!isLimited(err)) throw err;
      const headers = rateLimitHeaders(limit, err);
      throw new AppError(
        'demasiadas_peticiones',
        `Ha superado ${limit} peticiones por minuto. Espere ${headers['RateLimit-Reset']} s y reintente.`,
        { headers: { ...headers, 'Retry-After': headers['RateLimit-Reset'] ?? '60' } },
      );
    }
  }

  return async (ctx, next) => {
    ctx.state.entorno = entorno;
    const now = deps.clock.now();
    const db = deps.database.db;
    const key = presentedKey(ctx);

    if (key !== null) {
      const found = key ? await buscarClave(db, key) : null;
      if (!found || found.key.revocada_at) {
        await spend(ctx, `ip:${clientIp(ctx, deps.trustProxy)}`);
        throw new AppError(
          'no_autenticado',
          found ? 'Esta clave de API está revocada. Cree otra en Integraciones.' : 'La clave de API no es válida. Revise que la ha copiado entera.',
        );
      }
      if (found.key.entorno !== entorno) {
        await spend(ctx, `ip:${clientIp(ctx, deps.trustProxy)}`);
        throw new AppError(
          'no_autenticado',
          `Esta clave es del entorno de ${ENTORNO_TEXTO[found.key.entorno]}, no del de ${ENTORNO_TEXTO[entorno]}. Use una clave ${entorno === 'produccion' ? 'dg_live_' : 'dg_test_'} o la ruta de su entorno.`,
        );
      }
      await spend(ctx, `key:${found.key.id}`);
      await marcarClaveUsada(db, found.key, now);
      ctx.state.account = found.account;
      ctx.state.actor = {
        accountId: found.account.id,
        entorno,
        canal,
        keyId: found.key.id,
        userId: null,
        soloLectura: found.key.solo_lectura,
        etiqueta: `${found.key.prefijo}…`,
      };
      return next();
    }

    const token = ctx.cookies.get(SESSION_COOKIE);
    const session = token ? await leerSesion(db, token, now) : null;
    if (!session || !token) {
      await spend(ctx, `ip:${clientIp(ctx, deps.trustProxy)}`);
      throw new AppError(
        'no_autenticado',
        token
          ? 'La sesión ha caducado. Vuelva a iniciar sesión.'
          : 'Falta la clave de API: envíela en «Authorization: Bearer <clave>» o en «X-API-Key».',
      );
    }
    if (!SAFE.has(ctx.method) && !ctx.get(CSRF_HEADER)) {
      throw new AppError('csrf', `Falta la cabecera ${CSRF_HEADER}: las escrituras con sesión web deben llevarla.`);
    }
    if (session.renewedUntil) setSessionCookie(ctx, token, session.renewedUntil, deps.secureCookies);
    await spend(ctx, `user:${session.user.id}`);
    ctx.state.account = session.account;
    ctx.state.actor = {
      accountId: session.account.id,
      entorno,
      canal: 'web',
      keyId: null,
      userId: session.user.id,
      soloLectura: false,
      etiqueta: session.user.email,
    };
    ctx.state.user = session.user;
    return next();
  };
}

/** 403 `solo_lectura` for any write made with a read-only key. */
export function requireWriteAccess(): AppMiddleware {
  return async (ctx, next) => {
    if (!SAFE.has(ctx.method) && ctx.state.actor?.soloLectura) {
      throw new AppError('solo_lectura', 'Esta clave es de solo lectura: use una clave de lectura y escritura para cambiar datos.');
    }
    await next();
  };
}
