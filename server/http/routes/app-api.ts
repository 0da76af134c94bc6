import Router from '@koa/router';
import { AppError } from '../../../shared/errors';
import {
  ClaveCreateInput,
  RegistroInput,
  SesionInput,
  type ClaveApi,
  type ClaveCreada,
  type SesionResponse,
} from '../../../shared/schemas/cuenta';
import { z } from '../../../shared/schemas/zod';
import type { AppDeps } from '../../app';
import type { UserRow } from '../../db/schema';
import { crearClave, listarClaves, revocarClave } from '../../domain/accounts/api-keys';
import { crearCuenta } from '../../domain/accounts/cuentas';
import { DUMMY_HASH, verifyPassword } from '../../domain/accounts/passwords';
import { abrirSesion, cerrarSesion, leerSesion } from '../../domain/accounts/sessions';
import { clientIp } from '../client-ip';
import { actorOf, type AppContext, type AppMiddleware, type AppState } from '../context';
import { jsonBody } from '../middleware/body';
import { parse } from '../parse';
import { presentClave, presentCuenta, presentUsuario } from '../presenters/cuenta';
import { isLimited } from '../rate-limits';
import { CSRF_HEADER, SESSION_COOKIE, clearSessionCookie, setSessionCookie } from '../session-cookie';

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Endpoints of the web application (not the public API): sign-up, sign-in,
 * sign-out, current user and API keys. Every write needs the CSRF header,
 * sign-in included (login CSRF).
 */
export function createAppApiRouter(deps: AppDeps): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/app/api' });
  const db = deps.database.db;
  const secure = deps.config.siteUrl.startsWith('https:');

  const csrf: AppMiddleware = async (ctx, next) => {
    if (!SAFE.has(ctx.method) && !ctx.get(CSRF_HEADER)) {
      throw new AppError('csrf', `Falta la cabecera ${CSRF_HEADER}: esta petición debe venir de la aplicación.`);
    }
    await next();
  };

  const session: AppMiddleware = async (ctx, next) => {
    const token = ctx.cookies.get(SESSION_COOKIE);
    const s = token ? await leerSesion(db, token, deps.clock.now()) : null;
    if (!s || !token) {
      throw new AppError('no_autenticado', token ? 'La sesión ha caducado. Vuelva a iniciar sesión.' : 'Inicie sesión para continuar.');
    }
    if (s.renewedUntil) setSessionCookie(ctx, token, s.renewedUntil, secure);
    ctx.state.account = s.account;
    ctx.state.actor = {
      accountId: s.account.id,
      entorno: 'produccion',
      canal: 'web',
      keyId: null,
      userId: s.user.id,
      soloLectura: false,
      etiqueta: s.user.email,
    };
    ctx.state.user = s.user;
    await next();
  };

  const userOf = (ctx: AppContext): UserRow => {
    const user = ctx.state.user;
    if (!user) throw new Error('session middleware did not run');
    return user;
  };

  router.use(csrf, jsonBody(16 * 1024));

  router.post('/registro', async (ctx) => {
    const input = parse(RegistroInput, ctx.state.body);
    const { account, user } = await db.transaction().execute((trx) => crearCuenta(trx, input));
    if (!user) throw new Error('registro sin usuario');
    const { token, expiresAt } = await abrirSesion(db, user, deps.clock.now());
    setSessionCookie(ctx, token, expiresAt, secure);
    const body: SesionResponse = { usuario: presentUsuario(user), cuenta: presentCuenta(account) };
    ctx.status = 201;
    ctx.body = body;
  });

  router.post('/sesion', async (ctx) => {
    const { email, password } = parse(SesionInput, ctx.state.body);
    const ip = clientIp(ctx, deps.config.trustProxy);
    const [byEmail, byIp] = await Promise.all([deps.limits.loginEmail.get(email), deps.limits.loginIp.get(ip)]);
    const blocked = [
      [byEmail, deps.limits.loginEmail.points],
      [byIp, deps.limits.loginIp.points],
    ].find(([res, points]) => res && typeof res === 'object' && res.consumedPoints >= (points as number));
    if (blocked) {
      const res = blocked[0] as NonNullable<typeof byEmail>;
      const wait = Math.max(1, Math.ceil(res.msBeforeNext / 1000));
      throw new AppError('demasiados_intentos', `Demasiados intentos fallidos. Espere ${Math.ceil(wait / 60)} min y vuelva a probar.`, {
        headers: { 'Retry-After': String(wait) },
      });
    }
    const user = await db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
    const ok = await verifyPassword(password, user?.password_hash ?? DUMMY_HASH);
    if (!user || !ok) {
      await Promise.all([
        deps.limits.loginEmail.penalty(email).catch((e: unknown) => { if (!isLimited(e)) throw e; }),
        deps.limits.loginIp.penalty(ip).catch((e: unknown) => { if (!isLimited(e)) throw e; }),
      ]);
      throw new AppError('credenciales', 'Correo o contraseña incorrectos.');
    }
    await deps.limits.loginEmail.delete(email);
    const account = await db.selectFrom('accounts').selectAll().where('id', '=', user.account_id).executeTakeFirstOrThrow();
    const { token, expiresAt } = await abrirSesion(db, user, deps.clock.now());
    setSessionCookie(ctx, token, expiresAt, secure);
    const body: SesionResponse = { usuario: presentUsuario(user), cuenta: presentCuenta(account) };
    ctx.body = body;
  });

  router.get('/sesion', session, async (ctx) => {
    const account = ctx.state.account;
    if (!account) throw new Error('session middleware did not run');
    const body: SesionResponse = { usuario: presentUsuario(userOf(ctx)), cuenta: presentCuenta(account) };
    ctx.body = body;
  });

  router.delete('/sesion', async (ctx) => {
    const token = ctx.cookies.get(SESSION_COOKIE);
    if (token) await cerrarSesion(db, token);
    clearSessionCookie(ctx, secure);
    ctx.body = { sesion_cerrada: true };
  });

  router.get('/claves', session, async (ctx) => {
    const rows = await listarClaves(db, actorOf(ctx).accountId);
    const claves: ClaveApi[] = rows.map(presentClave);
    ctx.body = { claves };
  });

  router.post('/claves', session, async (ctx) => {
    if (userOf(ctx).rol !== 'admin') throw new AppError('prohibido', 'Solo un administrador de la cuenta puede crear claves.');
    const input = parse(ClaveCreateInput, ctx.state.body);
    const accountId = actorOf(ctx).accountId;
    const { row, key } = await db
      .transaction()
      .execute((trx) => crearClave(trx, { accountId, entorno: input.entorno, soloLectura: input.solo_lectura, nombre: input.nombre ?? null }));
    const body: ClaveCreada = { clave: presentClave(row), key };
    ctx.status = 201;
    ctx.body = body;
  });

  router.delete('/claves/:id', session, async (ctx) => {
    if (userOf(ctx).rol !== 'admin') throw new AppError('prohibido', 'Solo un administrador de la cuenta puede revocar claves.');
    const { id } = parse(z.object({ id: z.coerce.number().int().positive() }), ctx.params);
    const accountId = actorOf(ctx).accountId;
    const row = await db.transaction().execute((trx) => revocarClave(trx, id, accountId, deps.clock.now()));
    ctx.body = { clave: presentClave(row) };
  });

  return router;
}
