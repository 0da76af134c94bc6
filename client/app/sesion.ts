import { type Permiso, puede } from '../../shared/rules/roles';
import type { CerrarCuentaInput, Cuenta, CuentaCerrada, EmpresaPatch, Entorno, RegistroInput, SesionInput, SesionResponse, Usuario } from '../../shared/schemas/cuenta';
import { type Api, ApiError, createApi, llamarApp } from '../data/api';
import { pedirEnvioEnSegundoPlano } from '../data/cola-fondo';
import { guardarParaElCamino } from '../data/consultas';
import { borrarBasesDeUsuario, type DecaDb, dbName, onDbAviso, openDecaDb } from '../data/db';
import { alEncolar } from '../data/outbox';
import { type EstadoSync, SyncEngine } from '../data/sync';
import { navegar } from './router';
import { store } from './store';

export interface Sesion {
  usuario: Usuario;
  cuenta: Cuenta;
  /** Where the PDF/A goes after a roadside check, as the server is configured (kept for offline use). */
  sede_control_url?: string;
}

/** What a signed-in screen works with: this user's and environment's database, API and sync engine. */
export interface Contexto {
  sesion: Sesion;
  entorno: Entorno;
  db: DecaDb;
  api: Api;
  sync: SyncEngine;
}

const K_SESION = 'deca.sesion';
const K_ENTORNO = 'deca.entorno';

function leer<T>(k: string): T | null {
  try {
    const v = localStorage.getItem(k);
    return v ? (JSON.parse(v) as T) : null;
  } catch {
    return null;
  }
}

/**
 * Who is signed in, remembered on the device so the app opens with no network
 * (the cookie itself is HttpOnly and checked by the server on each call).
 */
export const sesion = store<Sesion | null>(leer<Sesion>(K_SESION));
/** The environment chosen on this device, kept as plain text (a reload must never fall back to production unseen). */
function entornoGuardado(): Entorno {
  try {
    return localStorage.getItem(K_ENTORNO) === 'pruebas' ? 'pruebas' : 'produccion';
  } catch {
    return 'produccion';
  }
}

export const entorno = store<Entorno>(entornoGuardado());
/** The server said the session is over: queued work is kept until the user signs in again. */
export const sesionCaducada = store(false);
export const estadoSync = store<EstadoSync>({ fase: 'inactivo' });
export const contexto = store<Contexto | null>(null);
/** Another tab opened a newer database schema: this tab closed its connection and must reload. */
export const otraVersion = store(false);
onDbAviso(() => otraVersion.set(true));

let actual: Contexto | null = null;
let ultimoCamino = 0;

/** Keep the issued DeCAs of ±7 days (PDF + QR) on the device; at most once a minute unless something was just sent. */
async function paraElCamino(ctx: Contexto, forzar = false): Promise<void> {
  if (!navigator.onLine || sesionCaducada.get() || (!forzar && Date.now() - ultimoCamino < 60_000)) return;
  ultimoCamino = Date.now();
  try {
    await guardarParaElCamino(ctx.api, ctx.db);
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) sesionCaducada.set(true);
  }
}

let ultimaAgenda = 0;

/**
 * Refresh the device's copy of the address book (the form's suggestions, offline too): at most
 * every 10 minutes, or at once after something was sent. Its code loads only when needed.
 */
async function paraLaAgenda(ctx: Contexto, forzar = false): Promise<void> {
  if (!navigator.onLine || sesionCaducada.get() || (!forzar && Date.now() - ultimaAgenda < 600_000)) return;
  ultimaAgenda = Date.now();
  try {
    const { refrescarAgenda } = await import('../data/agenda');
    await refrescarAgenda(ctx.api, ctx.db);
  } catch (err) {
    ultimaAgenda = 0; // try again on the next chance
    if (err instanceof ApiError && err.status === 401) sesionCaducada.set(true);
  }
}

/**
 * With coverage: keep this device registered and holding numbers to issue
 * with no coverage, and check what it issued so against the server's PDF.
 * Its code loads only here.
 */
async function paraSinCobertura(ctx: Contexto): Promise<void> {
  if (!navigator.onLine || sesionCaducada.get()) return;
  // Real numbers wait for the account's e-mail to be confirmed (the server refuses them before):
  // until then this asks nothing, and a new user's first screen loads nothing for it.
  if (ctx.entorno === 'produccion' && !ctx.sesion.cuenta.confirmada) return;
  try {
    const { mantenerReservas } = await import('../data/dispositivo');
    await mantenerReservas(ctx.db, ctx.entorno);
    // Only a device that issued with no coverage has anything to check (and loads the code for it).
    if ((await ctx.db.emitidas.filter((e) => e.coincide === undefined).count()) > 0) {
      const { comprobarEmitidas } = await import('../data/comprobar-emitidas');
      await comprobarEmitidas(ctx.api, ctx.db);
    }
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) sesionCaducada.set(true);
  }
}

/** (Re)build the context when the user or the environment changes; data of another user or environment is never mixed in. */
function montar(): void {
  const s = sesion.get();
  const e = entorno.get();
  if (actual && s && actual.sesion.usuario.id === s.usuario.id && actual.entorno === e) {
    const recienConfirmada = !actual.sesion.cuenta.confirmada && s.cuenta.confirmada;
    actual = { ...actual, sesion: s };
    contexto.set(actual);
    // The e-mail was just confirmed: take the numbers for issuing with no coverage now, not at the next sync.
    if (recienConfirmada) void paraSinCobertura(actual);
    return;
  }
  if (actual) {
    actual.sync.stop();
    actual.db.close();
  }
  actual = null;
  if (s) {
    const db = openDecaDb(dbName(s.usuario.id, e));
    ultimaAgenda = 0; // another user's or environment's address book: fetch it at the first chance
    const api = createApi(e);
    const sync = new SyncEngine({ db, api });
    const ctx: Contexto = { sesion: s, entorno: e, db, api, sync };
    let antes: EstadoSync['fase'] = 'inactivo';
    sync.onEstado((st) => {
      estadoSync.set(st);
      if (st.fase === 'sesion') sesionCaducada.set(true);
      // Work waits for the network or for time: let the browser move it even if the app is closed by then.
      if (st.fase === 'esperando' || st.fase === 'sin-conexion') void pedirEnvioEnSegundoPlano();
      // Just finished sending: newly issued DeCAs should be kept for the road at once.
      if (st.fase === 'inactivo' && actual?.db === db) {
        void paraElCamino(actual, antes === 'enviando');
        void paraLaAgenda(actual, antes === 'enviando');
        void paraSinCobertura(actual);
      }
      antes = st.fase;
    });
    alEncolar(() => void sync.drain());
    actual = ctx;
    sync.start((wake) => {
      const onVisible = () => {
        if (document.visibilityState === 'visible') wake();
      };
      window.addEventListener('online', wake);
      document.addEventListener('visibilitychange', onVisible);
      return () => {
        window.removeEventListener('online', wake);
        document.removeEventListener('visibilitychange', onVisible);
      };
    });
  }
  contexto.set(actual);
}
sesion.subscribe(montar);
entorno.subscribe(montar);
montar();

function guardar(s: Sesion | null): void {
  if (s) localStorage.setItem(K_SESION, JSON.stringify(s));
  else localStorage.removeItem(K_SESION);
  sesion.set(s);
}

/**
 * Whether the signed-in user's role allows something (the server refuses it
 * anyway: this only keeps the screens from offering it).
 */
export function permitido(permiso: Permiso): boolean {
  const s = sesion.get();
  return !!s && puede(s.usuario.rol, permiso);
}

/** Switch between production and the test environment; the screen goes back to the list (a number means another DeCA there). */
export function cambiarEntorno(e: Entorno): void {
  localStorage.setItem(K_ENTORNO, e);
  entorno.set(e);
  navegar('/');
}

const f: typeof fetch = (...a) => fetch(...a);

/**
 * A session just opened: the app switches to it at once (and, given `ir`, to that screen in the
 * same step), then tidies up. Nothing moves the user after that switch: a DeCA opened while the
 * tidying finishes stays open.
 */
async function abierta(r: SesionResponse, ir?: string): Promise<void> {
  const antes = sesion.get();
  guardar({ usuario: r.usuario, cuenta: r.cuenta, ...(r.sede_control_url ? { sede_control_url: r.sede_control_url } : {}) });
  if (ir) navegar(ir, { replace: true });
  sesionCaducada.set(false);
  if (actual) {
    const { olvidarSiRevocado } = await import('../data/dispositivo');
    await olvidarSiRevocado(actual.db);
  }
  // Same user after an expiry: replay what waited for the sign-in.
  if (antes?.usuario.id === r.usuario.id) await actual?.sync.reanudar();
}

/** Sign in with e-mail and password (the server sets the HttpOnly session cookie). */
export async function entrar(input: SesionInput): Promise<void> {
  await abierta((await llamarApp(f, 'iniciar_sesion', input)).data);
}

/** Create the company account and its first user, signed in. */
export async function registrar(input: RegistroInput): Promise<void> {
  await abierta((await llamarApp(f, 'registrar_cuenta', input)).data);
}

/** Accept an invitation to an account: the new user, signed in, on the list. */
export async function entrarConInvitacion(token: string, password: string): Promise<void> {
  await abierta((await llamarApp(f, 'aceptar_invitacion', { token, password })).data, '/');
}

/** Choose a new password through a reset link: every other session of the user ends; signed in here, on the list. */
export async function entrarConContrasenaNueva(token: string, password: string): Promise<void> {
  await abierta((await llamarApp(f, 'restablecer_contrasena', { token, password })).data, '/');
}

/** Change the password given the current one: the user's other sessions end, this one goes on (a new cookie). */
export async function cambiarMiContrasena(actual: string, password: string): Promise<void> {
  await abierta((await llamarApp(f, 'cambiar_contrasena', { actual, password })).data);
}

/** An administrator changes the company data; the session's copy follows at once. */
export async function editarMiEmpresa(patch: EmpresaPatch): Promise<void> {
  const r = await llamarApp(f, 'editar_empresa', patch);
  const s = sesion.get();
  if (s) guardar({ ...s, cuenta: r.data.cuenta });
}

/**
 * Sign out, to the sign-in screen at the start (whoever signs in next begins at the list, not on the
 * screen the last user left). Unsent changes stay in this device's database and are sent at the next
 * sign-in of the same user.
 */
export async function salir(): Promise<void> {
  await llamarApp(f, 'cerrar_sesion', {}).catch(() => {});
  sesionCaducada.set(false);
  guardar(null);
  navegar('/', { replace: true });
}

/** The account was just closed here: what the signed-out screen tells the person happens next (kept until the page is reloaded). */
export const cierreReciente = store<(CuentaCerrada & { empresa: string }) | null>(null);

/**
 * An administrator closes the account (their password and the company's NIF
 * again): the server mails them the link to the data, ends every session and
 * keeps the issued DeCAs. Then this device lets go of the account too — its
 * databases (queued changes included: no session can send them any more)
 * — and shows the signed-out screen saying what happens next.
 */
export async function cerrarMiCuenta(input: CerrarCuentaInput): Promise<void> {
  const r = await llamarApp(f, 'cerrar_cuenta', input);
  const s = sesion.get();
  cierreReciente.set({ ...r.data, empresa: s?.cuenta.nombre ?? '' });
  sesionCaducada.set(false);
  guardar(null);
  navegar('/', { replace: true });
  // Another tab with the database open closes it when asked (openDecaDb's versionchange), so this does not wait for ever.
  if (s) await borrarBasesDeUsuario(s.usuario.id);
}

/** Send the e-mail confirmation link again; resolves with the address it went to. */
export async function pedirOtraConfirmacion(): Promise<string> {
  const r = await llamarApp(f, 'reenviar_confirmacion', {});
  return r.data.enviado_a;
}

let ultimaComprobacion = 0;

/**
 * Check the session with the server when online (on start, and when the user
 * comes back to the app, e.g. from the confirmation link of the e-mail); an
 * answer of 401 asks for a new sign-in but keeps all data.
 */
export async function comprobarSesion(): Promise<void> {
  if (!sesion.get() || !navigator.onLine) return;
  ultimaComprobacion = Date.now();
  try {
    const r = await llamarApp(f, 'ver_sesion', {});
    guardar({ usuario: r.data.usuario, cuenta: r.data.cuenta, ...(r.data.sede_control_url ? { sede_control_url: r.data.sede_control_url } : {}) });
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) sesionCaducada.set(true);
  }
}

/** Coming back to the app (tab shown again, network back) refreshes what the server knows; focus and visibility arriving together ask once. */
export function vigilarSesion(): void {
  const volver = () => {
    if (document.visibilityState === 'visible' && Date.now() - ultimaComprobacion > 2_000) void comprobarSesion();
  };
  document.addEventListener('visibilitychange', volver);
  addEventListener('focus', volver);
  addEventListener('online', volver);
}
