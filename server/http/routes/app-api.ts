import Router from '@koa/router';
import { AppError } from '../../../shared/errors';
import { ejecutar } from '../../commands/command';
import { cerrarSesion, crearClave, editarEmpresa, iniciarSesion, listarClaves, reenviarConfirmacion, registrarCuenta, revocarClave, verSesion, type SesionAbierta } from '../../commands/cuenta';
import { cambiarContrasena, olvidoContrasena, restablecerContrasena, verRestablecimiento } from '../../commands/contrasena';
import { listarDispositivos, registrarDispositivo, reservarNumeros, revocarDispositivo } from '../../commands/dispositivos';
import { aceptarInvitacion, anularInvitacion, cambiarRolUsuario, invitarUsuario, listarUsuarios, quitarUsuario, verInvitacion } from '../../commands/usuarios';
import type { AppDeps } from '../../deps';
import { autenticarSesion } from '../../commands/autenticacion';
import { visitanteOf, type AppContext, type AppMiddleware, type AppState } from '../context';
import { jsonBody } from '../middleware/body';
import { correr, entrada } from '../run';
import { CSRF_HEADER, SESSION_COOKIE, clearSessionCookie, setSessionCookie } from '../session-cookie';

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Endpoints of the web application (not the public API): sign-up, sign-in,
 * sign-out, current user, e-mail confirmation, API keys, the account's users
 * and invitations, the devices that issue with no coverage, each a command.
 * Every write needs the CSRF header, sign-in included (login CSRF).
 */
export function createAppApiRouter({ config, services }: AppDeps): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/app/api' });
  const secure = config.siteUrl.startsWith('https:');

  const csrf: AppMiddleware = async (ctx, next) => {
    if (!SAFE.has(ctx.method) && !ctx.get(CSRF_HEADER)) {
      throw new AppError('csrf', `Falta la cabecera ${CSRF_HEADER}: esta petición debe venir de la aplicación.`);
    }
    await next();
  };

  /** The signed-in user as the actor (the app works on the production environment's account data). */
  const session: AppMiddleware = async (ctx, next) => {
    const token = ctx.cookies.get(SESSION_COOKIE);
    const s = token ? await autenticarSesion(services, token, 'produccion') : null;
    if (!s || !token) {
      throw new AppError('no_autenticado', token ? 'La sesión ha caducado. Vuelva a iniciar sesión.' : 'Inicie sesión para continuar.');
    }
    if (s.renovadaHasta) setSessionCookie(ctx, token, s.renovadaHasta, secure);
    ctx.state.actor = s.actor;
    await next();
  };

  const abrir = (ctx: AppContext, sesion: SesionAbierta) => setSessionCookie(ctx, sesion.token, sesion.expiresAt, secure);

  router.use(csrf, jsonBody(16 * 1024));

  router.post('/registro', async (ctx) => {
    const { valor } = await ejecutar(services, registrarCuenta, visitanteOf(ctx, config.trustProxy), ctx.state.body);
    abrir(ctx, valor.sesion);
    ctx.status = 201;
    ctx.body = valor.respuesta;
  });

  router.post('/sesion', async (ctx) => {
    const { valor } = await ejecutar(services, iniciarSesion, visitanteOf(ctx, config.trustProxy), ctx.state.body);
    abrir(ctx, valor.sesion);
    ctx.body = valor.respuesta;
  });

  router.get('/sesion', session, async (ctx) => {
    ctx.body = await correr(ctx, services, verSesion, {});
  });

  router.delete('/sesion', async (ctx) => {
    const { valor } = await ejecutar(services, cerrarSesion, visitanteOf(ctx, config.trustProxy), { token: ctx.cookies.get(SESSION_COOKIE) });
    clearSessionCookie(ctx, secure);
    ctx.body = valor;
  });

  // Passwords: a reset link by e-mail (the same answer for any address), the link's screen, and a change with the current one.
  router.post('/contrasena/olvido', async (ctx) => {
    const { valor } = await ejecutar(services, olvidoContrasena, visitanteOf(ctx, config.trustProxy), ctx.state.body);
    ctx.status = 202;
    ctx.body = valor;
  });

  router.get('/contrasena/restablecer/:token', async (ctx) => {
    const { valor } = await ejecutar(services, verRestablecimiento, visitanteOf(ctx, config.trustProxy), { token: ctx.params.token });
    ctx.body = valor;
  });

  router.post('/contrasena/restablecer/:token', async (ctx) => {
    const { valor } = await ejecutar(services, restablecerContrasena, visitanteOf(ctx, config.trustProxy), entrada(ctx));
    abrir(ctx, valor.sesion);
    ctx.body = valor.respuesta;
  });

  router.post('/contrasena', session, async (ctx) => {
    const valor = await correr(ctx, services, cambiarContrasena, ctx.state.body);
    abrir(ctx, valor.sesion);
    ctx.body = valor.respuesta;
  });

  router.patch('/cuenta', session, async (ctx) => {
    ctx.body = await correr(ctx, services, editarEmpresa, ctx.state.body);
  });

  router.post('/confirmacion', session, async (ctx) => {
    ctx.body = await correr(ctx, services, reenviarConfirmacion, {});
  });

  router.get('/claves', session, async (ctx) => {
    ctx.body = await correr(ctx, services, listarClaves, {});
  });

  router.post('/claves', session, async (ctx) => {
    ctx.status = 201;
    ctx.body = await correr(ctx, services, crearClave, ctx.state.body);
  });

  router.delete('/claves/:id', session, async (ctx) => {
    ctx.body = await correr(ctx, services, revocarClave, entrada(ctx));
  });

  router.get('/usuarios', session, async (ctx) => {
    ctx.body = await correr(ctx, services, listarUsuarios, {});
  });

  router.post('/usuarios', session, async (ctx) => {
    ctx.status = 201;
    ctx.body = await correr(ctx, services, invitarUsuario, ctx.state.body);
  });

  router.patch('/usuarios/:id', session, async (ctx) => {
    ctx.body = await correr(ctx, services, cambiarRolUsuario, entrada(ctx));
  });

  router.delete('/usuarios/:id', session, async (ctx) => {
    ctx.body = await correr(ctx, services, quitarUsuario, entrada(ctx));
  });

  router.delete('/invitaciones/:id', session, async (ctx) => {
    ctx.body = await correr(ctx, services, anularInvitacion, entrada(ctx));
  });

  // The user's devices, and the numbers each holds to issue with no coverage.
  router.get('/dispositivos', session, async (ctx) => {
    ctx.body = await correr(ctx, services, listarDispositivos, {});
  });

  router.post('/dispositivos', session, async (ctx) => {
    ctx.status = 201;
    ctx.body = await correr(ctx, services, registrarDispositivo, ctx.state.body);
  });

  router.delete('/dispositivos/:id', session, async (ctx) => {
    ctx.body = await correr(ctx, services, revocarDispositivo, entrada(ctx));
  });

  router.post('/dispositivos/:id/reservas', session, async (ctx) => {
    ctx.body = await correr(ctx, services, reservarNumeros, entrada(ctx));
  });

  // The invitation link: what it offers, and accepting it (a new user, signed in).
  router.get('/invitacion/:token', async (ctx) => {
    const { valor } = await ejecutar(services, verInvitacion, visitanteOf(ctx, config.trustProxy), { token: ctx.params.token });
    ctx.body = valor;
  });

  router.post('/invitacion/:token', async (ctx) => {
    const { valor } = await ejecutar(services, aceptarInvitacion, visitanteOf(ctx, config.trustProxy), entrada(ctx));
    abrir(ctx, valor.sesion);
    ctx.status = 201;
    ctx.body = valor.respuesta;
  });

  return router;
}
