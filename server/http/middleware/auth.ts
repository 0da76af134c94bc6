import { CSRF_HEADER } from '../../../shared/api/rutas-app';
import { AppError } from '../../../shared/errors';
import type { Entorno } from '../../../shared/schemas/cuenta';
import { autenticarPorClave, autenticarSesion } from '../../commands/autenticacion';
import type { Services } from '../../deps';
import type { Actor, Canal } from '../../domain/actor';
import { isLimited } from '../../limits';
import { clientIp } from '../client-ip';
import { type AppContext, type AppMiddleware, actorOf } from '../context';
import { rateLimitHeaders } from '../rate-limit-headers';
import { SESSION_COOKIE, setSessionCookie } from '../session-cookie';

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

/**
 * The challenge every 401 carries (RFC 9110 §11.6.1, RFC 6750 §3): the Bearer
 * scheme and the environment's realm (its keys are not valid in the other
 * one), plus `error="invalid_token"` when a key came and is not valid here —
 * unknown, revoked or of the other environment. Without a key, no error code.
 */
function desafioBearer(entorno: Entorno, clavePresentada: boolean): string {
  return `Bearer realm="DeCA ${entorno}"${clavePresentada ? ', error="invalid_token"' : ''}`;
}

export interface AuthOptions {
  /** Proxies in front (TRUST_PROXY): see clientIp. */
  trustProxy: number;
  secureCookies: boolean;
  /** A front door for API keys only (MCP): no session cookie is read, and the actor's `canal` is this one. */
  soloClave?: { canal: Canal };
}

/**
 * Spend `points` units (one request's, by default) of the per-minute rate
 * limit of `bucket` at once and set the RateLimit fields to what is left;
 * past the limit, 429 `demasiadas_peticiones` with Retry-After. `porQue`
 * words a refusal of several points: what was refused, and what was left
 * before it (the points stay spent, as any refused request's does).
 */
async function spend(ctx: AppContext, services: Services, bucket: string, points = 1, porQue?: (quedaban: number, espera: string) => string): Promise<void> {
  const limit = services.limits.api.points;
  try {
    const res = await services.limits.api.consume(bucket, points);
    ctx.set(rateLimitHeaders(limit, res));
  } catch (err) {
    if (!isLimited(err)) throw err;
    const headers = rateLimitHeaders(limit, err);
    const espera = headers['RateLimit-Reset'] ?? '60';
    const mensaje = porQue ? porQue(Math.max(0, limit - (err.consumedPoints - points)), espera) : `Ha superado ${limit} peticiones por minuto. Espere ${espera} s y reintente.`;
    throw new AppError('demasiadas_peticiones', mensaje, { headers: { ...headers, 'Retry-After': espera } });
  }
}

/** The rate-limit bucket of an authenticated actor: its API key's, or its web user's. */
const cubetaDe = (actor: Pick<Actor, 'keyId' | 'userId'>): string => (actor.keyId !== null ? `key:${actor.keyId}` : `user:${actor.userId}`);

/**
 * The calls of a JSON-RPC batch (MCP) beyond the first, spent all at once
 * from the budget authenticate spent the first one from: each call costs one
 * request of the per-minute limit, as if it had come alone. All or nothing:
 * when fewer are left, 429 with Retry-After before any call runs, and the
 * RateLimit fields say 0 left (the store counts what was asked, as it does
 * for any refused request), so nothing of the batch is half done.
 */
export async function gastarLlamadas(ctx: AppContext, services: Services, llamadas: number): Promise<void> {
  if (llamadas <= 1) return;
  const limit = services.limits.api.points;
  await spend(
    ctx,
    services,
    cubetaDe(actorOf(ctx)),
    llamadas - 1,
    // `quedaban` is after the first call's point (spent by authenticate): the batch met one more.
    (quedaban, espera) =>
      `Este lote trae ${llamadas} llamadas JSON-RPC y cada una cuenta como una petición del límite de ${limit} por minuto, pero solo quedaban ${quedaban + 1}: no se ha ejecutado ninguna. Espere ${espera} s o envíe lotes más pequeños.`,
  );
}

/**
 * Authenticate an API request by key (`Authorization: Bearer` or
 * `X-API-Key`) or, for the web app, by session cookie (writes must carry the
 * CSRF header), then spend one unit of the per-minute rate limit. Every
 * answer carries the RateLimit fields; failed attempts spend the caller IP's
 * budget, which slows key guessing. What the actor may do is the commands'
 * business (a read-only key is refused there, whatever the front door).
 */
export function authenticate(services: Services, opts: AuthOptions, entorno: Entorno): AppMiddleware {
  return async (ctx, next) => {
    ctx.state.entorno = entorno;
    const key = presentedKey(ctx);
    const noAutenticado = (mensaje: string) => new AppError('no_autenticado', mensaje, { headers: { 'WWW-Authenticate': desafioBearer(entorno, key !== null) } });

    if (key !== null) {
      const clave = await autenticarPorClave(services, key, entorno, opts.soloClave?.canal ?? 'api');
      if (clave.estado === 'desconocida' || clave.estado === 'revocada' || clave.estado === 'cuenta_cerrada') {
        await spend(ctx, services, `ip:${clientIp(ctx, opts.trustProxy)}`);
        throw noAutenticado(
          clave.estado === 'cuenta_cerrada'
            ? clave.mensaje
            : clave.estado === 'revocada'
              ? 'Esta clave de API está revocada. Cree otra en la aplicación, en «Cuenta» → «Claves de API».'
              : 'La clave de API no es válida. Revise que la ha copiado entera.',
        );
      }
      if (clave.estado === 'otro_entorno') {
        await spend(ctx, services, `ip:${clientIp(ctx, opts.trustProxy)}`);
        throw noAutenticado(
          `Esta clave es del entorno de ${ENTORNO_TEXTO[clave.entorno]}, no del de ${ENTORNO_TEXTO[entorno]}. Use una clave ${entorno === 'produccion' ? 'dg_live_' : 'dg_test_'} o la ruta de su entorno.`,
        );
      }
      await spend(ctx, services, cubetaDe(clave.actor));
      await clave.anotarUso();
      ctx.state.actor = clave.actor;
      return next();
    }

    if (opts.soloClave) {
      await spend(ctx, services, `ip:${clientIp(ctx, opts.trustProxy)}`);
      throw noAutenticado('Falta la clave de API: envíela en «Authorization: Bearer <clave>» o en «X-API-Key».');
    }
    const token = ctx.cookies.get(SESSION_COOKIE);
    const session = token ? await autenticarSesion(services, token, entorno) : null;
    if (!session || !token) {
      await spend(ctx, services, `ip:${clientIp(ctx, opts.trustProxy)}`);
      throw noAutenticado(token ? 'La sesión ha caducado. Vuelva a iniciar sesión.' : 'Falta la clave de API: envíela en «Authorization: Bearer <clave>» o en «X-API-Key».');
    }
    if (!SAFE.has(ctx.method) && !ctx.get(CSRF_HEADER)) {
      throw new AppError('csrf', `Falta la cabecera ${CSRF_HEADER}: las escrituras con sesión web deben llevarla.`);
    }
    if (session.renovadaHasta) setSessionCookie(ctx, token, session.renovadaHasta, opts.secureCookies);
    await spend(ctx, services, cubetaDe(session.actor));
    ctx.state.actor = session.actor;
    return next();
  };
}
