import Router from '@koa/router';
import { rutaKoa } from '../../../shared/api/rutas';
import { CSRF_HEADER, ESTADO_APP, type NombreApp, type OperacionesApp, RUTAS_APP } from '../../../shared/api/rutas-app';
import { AppError } from '../../../shared/errors';
import { autenticarSesion } from '../../commands/autenticacion';
import { cerrarCuentaCommand } from '../../commands/cierre';
import { type AnyCommand, type Command, ejecutar } from '../../commands/command';
import { cambiarContrasenaCommand, olvidoContrasenaCommand, restablecerContrasenaCommand, verRestablecimientoCommand } from '../../commands/contrasena';
import {
  cerrarSesionCommand,
  crearClaveCommand,
  editarEmpresaCommand,
  iniciarSesionCommand,
  listarClavesCommand,
  reenviarConfirmacionCommand,
  registrarCuentaCommand,
  revocarClaveCommand,
  type SesionAbierta,
  verSesionCommand,
} from '../../commands/cuenta';
import { listarDispositivosCommand, registrarDispositivoCommand, reservarNumerosCommand, revocarDispositivoCommand } from '../../commands/dispositivos';
import {
  aceptarInvitacionCommand,
  anularInvitacionCommand,
  cambiarRolUsuarioCommand,
  invitarUsuarioCommand,
  listarUsuariosCommand,
  quitarUsuarioCommand,
  verInvitacionCommand,
} from '../../commands/usuarios';
import type { AppDeps } from '../../deps';
import { type AppContext, type AppMiddleware, type AppState, visitanteOf } from '../context';
import { jsonBody } from '../middleware/body';
import { correr, entrada } from '../run';
import { clearSessionCookie, SESSION_COOKIE, setSessionCookie } from '../session-cookie';

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

/** A command's answer that also opens a session: the body, and the session the cookie carries. */
type ConSesion<R> = { respuesta: R; sesion: SesionAbierta };
/** What a command answers for an endpoint whose body is `B`: `B`, or `B` with the session it opens. */
type Salida<B> = B | ConSesion<B>;

/** The command of each endpoint of the table (shared/api/rutas-app.ts). */
const COMANDOS_APP = {
  registrar_cuenta: registrarCuentaCommand,
  iniciar_sesion: iniciarSesionCommand,
  ver_sesion: verSesionCommand,
  cerrar_sesion: cerrarSesionCommand,
  olvido_contrasena: olvidoContrasenaCommand,
  ver_restablecimiento: verRestablecimientoCommand,
  restablecer_contrasena: restablecerContrasenaCommand,
  cambiar_contrasena: cambiarContrasenaCommand,
  editar_empresa: editarEmpresaCommand,
  cerrar_cuenta: cerrarCuentaCommand,
  reenviar_confirmacion: reenviarConfirmacionCommand,
  listar_claves: listarClavesCommand,
  crear_clave: crearClaveCommand,
  revocar_clave: revocarClaveCommand,
  listar_usuarios: listarUsuariosCommand,
  invitar_usuario: invitarUsuarioCommand,
  cambiar_rol_usuario: cambiarRolUsuarioCommand,
  quitar_usuario: quitarUsuarioCommand,
  anular_invitacion: anularInvitacionCommand,
  listar_dispositivos: listarDispositivosCommand,
  registrar_dispositivo: registrarDispositivoCommand,
  revocar_dispositivo: revocarDispositivoCommand,
  reservar_numeros: reservarNumerosCommand,
  ver_invitacion: verInvitacionCommand,
  aceptar_invitacion: aceptarInvitacionCommand,
} satisfies Record<NombreApp, AnyCommand>;

/** What a command answers. */
type SalidaDe<C> = C extends Command<infer _S, infer O, infer _A> ? O : never;
/** The endpoints whose command answers other than the table says (none: the compiler names any here). */
type Discrepan = { [K in NombreApp]: SalidaDe<(typeof COMANDOS_APP)[K]> extends Salida<OperacionesApp[K]['salida']> ? never : K }[NombreApp];
const ningunaDiscrepa: [Discrepan] extends [never] ? true : Discrepan = true;
void ningunaDiscrepa;

/** Signing out takes the session from its cookie, whatever the body says. */
const ENTRADA_DE_COOKIE: ReadonlySet<NombreApp> = new Set(['cerrar_sesion']);

/** A command's answer that ends the session: the cookie goes. */
const cierraSesion = (valor: unknown): boolean => typeof valor === 'object' && valor !== null && 'sesion_cerrada' in valor;

const abreSesion = (valor: unknown): valor is ConSesion<unknown> => typeof valor === 'object' && valor !== null && 'sesion' in valor && 'respuesta' in valor;

/**
 * Endpoints of the web application (not the public API): sign-up, sign-in,
 * sign-out, current user, e-mail confirmation, closing the account, API keys, the account's users
 * and invitations, the devices that issue with no coverage — each a command,
 * mounted from the table in one loop. A `publico` command runs for the
 * visitor; any other needs the session cookie. Every write needs the CSRF
 * header, sign-in included (login CSRF).
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

  /** A command's input: the path's parameters, with the JSON body of a write (its own `entrada`, so a non-object is refused as 422). */
  const entradaDe = (ctx: AppContext & { params: Record<string, string> }, nombre: NombreApp): unknown =>
    ENTRADA_DE_COOKIE.has(nombre) ? { token: ctx.cookies.get(SESSION_COOKIE) } : ctx.method === 'GET' ? { ...ctx.params } : entrada(ctx);

  router.use(csrf, jsonBody(16 * 1024));

  for (const nombre of Object.keys(RUTAS_APP) as NombreApp[]) {
    const [metodo, ruta] = RUTAS_APP[nombre];
    const cmd: AnyCommand = COMANDOS_APP[nombre];
    const publico = cmd.acceso === 'publico';
    const manejar = async (ctx: AppContext & { params: Record<string, string> }) => {
      const input = entradaDe(ctx, nombre);
      const valor = publico ? (await ejecutar(services, cmd, visitanteOf(ctx, config.trustProxy), input)).valor : await correr(ctx, services, cmd as Parameters<typeof correr>[2], input);
      if (cierraSesion(valor)) clearSessionCookie(ctx, secure);
      ctx.status = ESTADO_APP[nombre] ?? 200;
      if (abreSesion(valor)) {
        setSessionCookie(ctx, valor.sesion.token, valor.sesion.expiresAt, secure);
        ctx.body = valor.respuesta;
      } else ctx.body = valor;
    };
    if (publico) router[metodo](rutaKoa(ruta), manejar);
    else router[metodo](rutaKoa(ruta), session, manejar);
  }
  return router;
}
