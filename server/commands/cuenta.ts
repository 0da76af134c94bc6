import { AppError } from '../../shared/errors';
import { formatMadrid } from '../../shared/rules/fechas';
import {
  type ClaveApi,
  type ClaveCreada,
  ClaveCreateInput,
  type Cuenta,
  type CuentaResponse,
  EmpresaPatch,
  NifEmpresa,
  Plan as PlanCuenta,
  RegistroInput,
  Rol,
  SesionInput,
  type SesionResponse,
} from '../../shared/schemas/cuenta';
import { cadena } from '../../shared/schemas/envio';
import { z } from '../../shared/schemas/zod';
import type { Services } from '../deps';
import { comprobarCuenta, crearClave, listarClaves, revocarClave } from '../domain/accounts/api-keys';
import { cambiarPlan, confirmarEmail, crearCuenta, editarEmpresa, prepararCuenta, prepararReenvioConfirmacion, reenviarConfirmacion } from '../domain/accounts/cuentas';
import { cuentaSinConfirmar, obtenerCuota } from '../domain/accounts/cuota';
import { abrirSesion, cerrarSesion, comprobarCredenciales, type QuienEntra } from '../domain/accounts/sessions';
import { leerUsuario } from '../domain/accounts/usuarios';
import type { Plan } from '../domain/context';
import { listarCorreosGuardados } from '../domain/correo/guardados';
import { escritura } from '../domain/plan';
import { presentClave, presentCuenta, presentUsuario } from '../domain/presenters/cuenta';
import { gastar, type RateLimits, turnoContrasena } from '../limits';
import { command } from './command';

/** A session to hand to the browser (the web front door sets it as an HttpOnly cookie). */
export interface SesionAbierta {
  token: string;
  expiresAt: Date;
}

/**
 * Signs in `user` of `account` on this device: the new session and what the
 * app gets with it. `db` is the command's transaction (`{ db: trx, ... }`),
 * so the session opens with the writes that let the user in, or not at all.
 */
export async function entrarComo(
  ctx: Pick<Services, 'db' | 'sedeControlUrl'>,
  user: QuienEntra['user'],
  account: QuienEntra['account'],
  now: Date,
): Promise<{ respuesta: SesionResponse; sesion: SesionAbierta }> {
  const sesion = await abrirSesion(ctx.db, user, now);
  return { respuesta: { usuario: presentUsuario(user), cuenta: presentCuenta(account), sede_control_url: ctx.sedeControlUrl }, sesion };
}

export function demasiadas(segundos: number, mensaje: string): AppError {
  return new AppError('demasiadas_peticiones', mensaje, { headers: { 'Retry-After': String(segundos) } });
}

export const verCuentaCommand = command({
  nombre: 'ver_cuenta',
  descripcion: 'La empresa de la cuenta, su plan y la cuota mensual de DeCA del entorno.',
  acceso: 'lectura',
  permiso: 'plan',
  entrada: z.object({}),
  preparar: async (ctx): Promise<Plan<CuentaResponse>> => {
    const { cuenta, entorno } = ctx.quien;
    const cuota = await obtenerCuota(ctx.db, cuenta, entorno, ctx.clock.now());
    return { valor: { cuenta: { ...presentCuenta(cuenta), entorno, cuota } } };
  },
});

export const registrarCuentaCommand = command({
  nombre: 'registrar_cuenta',
  descripcion: 'Alta de una empresa y su primer usuario (administrador) desde la aplicación; abre su sesión.',
  acceso: 'publico',
  entrada: RegistroInput,
  preparar: async (ctx, input): Promise<Plan<{ respuesta: SesionResponse; sesion: SesionAbierta }>> => {
    const espera = await gastar(ctx.limits.registroIp, ctx.quien.ip);
    if (espera !== null) throw demasiadas(espera, `Demasiadas altas desde esta conexión. Espere ${Math.ceil(espera / 60)} min o escríbanos.`);
    const now = ctx.clock.now();
    const cuenta = await prepararCuenta(ctx.db, { ...input, confirmar: { siteUrl: ctx.siteUrl, now } });
    // The account, its user and this device's session: all or nothing.
    return escritura(async (trx) => {
      const { account, user } = await crearCuenta(trx, cuenta);
      if (!user) throw new Error('registro sin usuario');
      return entrarComo({ db: trx, sedeControlUrl: ctx.sedeControlUrl }, user, account, now);
    });
  },
});

export const iniciarSesionCommand = command({
  nombre: 'iniciar_sesion',
  descripcion: 'Entrada en la aplicación con correo y contraseña.',
  acceso: 'publico',
  entrada: SesionInput,
  preparar: async (ctx, { email, password }): Promise<Plan<{ respuesta: SesionResponse; sesion: SesionAbierta }>> => {
    const found = await bajoLimites(ctx.limits, email, ctx.quien.ip, () => comprobarCredenciales(ctx.db, email, password));
    if (!found) throw new AppError('no_autenticado', 'Correo o contraseña incorrectos.');
    const { user, account } = found;
    return escritura((trx) => entrarComo({ db: trx, sedeControlUrl: ctx.sedeControlUrl }, user, account, ctx.clock.now()));
  },
});

/**
 * A password check under the sign-in limits (`ip` null: from a signed-in
 * session): the turn is spent before `comprobar` runs, so parallel tries
 * cannot all get through, and given back when it finds the password right
 * (not null); 429 when the limits refuse the turn now.
 */
export async function bajoLimites<T>(limits: RateLimits, email: string, ip: string | null, comprobar: () => Promise<T | null>): Promise<T | null> {
  const turno = await turnoContrasena(limits, email, ip);
  if (turno.espera !== null) throw esperarTurno(turno);
  const r = await comprobar();
  if (r !== null) await turno.acierto();
  return r;
}

/** 429 for a password check the sign-in limits refuse now. */
function esperarTurno(t: { espera: number; motivo: 'conexion' | 'correo' }): AppError {
  return t.motivo === 'correo'
    ? demasiadas(t.espera, `Hay muchos intentos de entrar con este correo ahora mismo. Espere ${t.espera} s y vuelva a probar.`)
    : demasiadas(t.espera, `Demasiados intentos fallidos desde esta conexión. Espere ${Math.ceil(t.espera / 60)} min y vuelva a probar, o restablezca la contraseña.`);
}

export const cerrarSesionCommand = command({
  nombre: 'cerrar_sesion',
  descripcion: 'Cierra una sesión de la aplicación.',
  acceso: 'publico',
  entrada: z.object({ token: cadena().max(200).optional() }),
  preparar: async (_ctx, { token }): Promise<Plan<{ sesion_cerrada: true }>> => {
    const respuesta = { sesion_cerrada: true as const };
    if (!token) return { valor: respuesta };
    return escritura(async (trx) => {
      await cerrarSesion(trx, token);
      return respuesta;
    });
  },
});

/** The signed-in user (a web session), or 403: API keys have no user. */
export function usuarioDe(actor: { userId: number | null }): number {
  if (actor.userId === null) throw new AppError('prohibido', 'Esto es de la aplicación web: inicie sesión con su usuario.');
  return actor.userId;
}

export const verSesionCommand = command({
  nombre: 'ver_sesion',
  descripcion: 'Quién ha iniciado sesión en la aplicación, y su cuenta.',
  acceso: 'lectura',
  entrada: z.object({}),
  preparar: async (ctx): Promise<Plan<SesionResponse>> => {
    const user = await leerUsuario(ctx.db, usuarioDe(ctx.quien));
    return { valor: { usuario: presentUsuario(user), cuenta: presentCuenta(ctx.quien.cuenta), sede_control_url: ctx.sedeControlUrl } };
  },
});

export const confirmarEmailCommand = command({
  nombre: 'confirmar_email',
  descripcion: 'Abre el enlace de confirmación del correo de una cuenta.',
  acceso: 'publico',
  entrada: z.object({ token: cadena().max(200) }),
  // The link is looked up by the update that spends it: when it finds none, nothing was written.
  preparar: async (ctx, { token }): Promise<Plan<SesionResponse>> =>
    escritura(async (trx) => {
      const r = await confirmarEmail(trx, token, ctx.clock.now());
      if (!r) throw new AppError('no_encontrado', 'Este enlace de confirmación no existe o ya se sustituyó por otro más reciente. Pida uno nuevo en Cuenta.');
      return { usuario: presentUsuario(r.user), cuenta: presentCuenta(r.account) };
    }),
});

export const reenviarConfirmacionCommand = command({
  nombre: 'reenviar_confirmacion',
  descripcion: 'Envía de nuevo el enlace que confirma el correo del usuario.',
  acceso: 'escritura',
  entrada: z.object({}),
  preparar: async (ctx): Promise<Plan<{ enviado_a: string }>> => {
    const user = await prepararReenvioConfirmacion(ctx.db, usuarioDe(ctx.quien));
    return escritura(async (trx) => ({ enviado_a: (await reenviarConfirmacion(trx, ctx.quien.cuenta, user, ctx.siteUrl, ctx.clock.now())).email }));
  },
});

export const listarClavesCommand = command({
  nombre: 'listar_claves',
  descripcion: 'Las claves de API de la cuenta (nunca el secreto).',
  acceso: 'lectura',
  permiso: 'integraciones',
  entrada: z.object({}),
  preparar: async (ctx): Promise<Plan<{ claves: ClaveApi[] }>> => ({ valor: { claves: (await listarClaves(ctx.db, ctx.quien.accountId)).map(presentClave) } }),
});

export const crearClaveCommand = command({
  nombre: 'crear_clave',
  descripcion: 'Crea una clave de API; se muestra una sola vez.',
  acceso: 'admin',
  entrada: ClaveCreateInput,
  preparar: async (ctx, input): Promise<Plan<ClaveCreada>> => {
    if (input.entorno === 'produccion' && !ctx.quien.cuenta.confirmada_at) throw cuentaSinConfirmar('crear claves de API de producción');
    // The actor's own account: it exists (accounts are never deleted).
    const accountId = ctx.quien.accountId;
    return escritura(async (trx) => {
      const { row, key } = await crearClave(trx, { accountId, entorno: input.entorno, soloLectura: input.solo_lectura, nombre: input.nombre ?? null });
      return { clave: presentClave(row), key };
    });
  },
});

export const revocarClaveCommand = command({
  nombre: 'revocar_clave',
  descripcion: 'Revoca una clave de API al momento, en todos los servidores.',
  acceso: 'admin',
  entrada: z.object({ id: z.coerce.number().int().positive() }),
  preparar: async (ctx, { id }): Promise<Plan<{ clave: ClaveApi }>> => ({
    aplicar: async (trx) => {
      const row = await revocarClave(trx, id, ctx.quien.accountId, ctx.clock.now());
      return { valor: { clave: presentClave(row) }, despues: () => ctx.caches.claves.invalidate(row.id) };
    },
  }),
});

export const editarEmpresaCommand = command({
  nombre: 'editar_empresa',
  descripcion: 'Cambia el nombre, el NIF o el domicilio de la empresa: figuran en las DeCA que se emitan a partir de ahora.',
  acceso: 'admin',
  entrada: EmpresaPatch,
  preparar: async (ctx, patch): Promise<Plan<{ cuenta: Cuenta }>> => ({
    aplicar: async (trx) => {
      const account = await editarEmpresa(trx, ctx.quien.accountId, patch);
      return { valor: { cuenta: presentCuenta(account) }, despues: () => ctx.caches.claves.invalidateWhere((c) => c.account.id === account.id) };
    },
  }),
});

// ——— The operator's commands (the CLI) ———

const Id = z.coerce.number().int().positive();

export const crearCuentaOperadorCommand = command({
  nombre: 'account:create',
  descripcion: 'Crea una cuenta (y su administrador con --email y --password), ya confirmada.',
  acceso: 'operador',
  entrada: z
    .object({
      company: cadena().trim().min(1, 'Obligatorio'),
      nif: NifEmpresa,
      address: cadena().trim().optional(),
      role: Rol.default('transportista'),
      plan: PlanCuenta.default('free'),
      email: z.email('Correo electrónico no válido').optional(),
      password: cadena().min(10, 'La contraseña debe tener al menos 10 caracteres').optional(),
    })
    .refine((f) => Boolean(f.email) === Boolean(f.password), { message: '--email y --password van juntos', path: ['password'] }),
  preparar: async (ctx, f): Promise<Plan<{ cuenta: Cuenta }>> => {
    const cuenta = await prepararCuenta(ctx.db, { nombre: f.company, nif: f.nif, domicilio: f.address ?? null, rol: f.role, plan: f.plan, email: f.email ?? null, password: f.password ?? null });
    return escritura(async (trx) => ({ cuenta: presentCuenta((await crearCuenta(trx, cuenta)).account) }));
  },
});

export const crearClaveOperadorCommand = command({
  nombre: 'key:create',
  descripcion: 'Crea una clave de API de una cuenta; se muestra una sola vez.',
  acceso: 'operador',
  entrada: z.object({ account: Id, env: z.enum(['live', 'test']), 'read-only': z.boolean().default(false), name: cadena().optional() }),
  preparar: async (ctx, f): Promise<Plan<{ key: string; id: number }>> => {
    await comprobarCuenta(ctx.db, f.account);
    return escritura(async (trx) => {
      const { row, key } = await crearClave(trx, { accountId: f.account, entorno: f.env === 'live' ? 'produccion' : 'pruebas', soloLectura: f['read-only'], nombre: f.name ?? null });
      return { key, id: row.id };
    });
  },
});

export const revocarClaveOperadorCommand = command({
  nombre: 'key:revoke',
  descripcion: 'Revoca una clave de API.',
  acceso: 'operador',
  entrada: z.object({ id: Id }),
  preparar: async (ctx, { id }): Promise<Plan<{ revocada: true }>> => ({
    aplicar: async (trx) => {
      await revocarClave(trx, id, null, ctx.clock.now());
      return { valor: { revocada: true as const }, despues: () => ctx.caches.claves.invalidate(id) };
    },
  }),
});

export const cambiarPlanCommand = command({
  nombre: 'plan:set',
  descripcion: 'Cambia el plan de una cuenta.',
  acceso: 'operador',
  entrada: z.object({ account: Id, plan: PlanCuenta }),
  preparar: async (ctx, f): Promise<Plan<{ cuenta: Cuenta }>> => ({
    aplicar: async (trx) => {
      const account = await cambiarPlan(trx, f.account, f.plan);
      return { valor: { cuenta: presentCuenta(account) }, despues: () => ctx.caches.claves.invalidateWhere((c) => c.account.id === account.id) };
    },
  }),
});

export const listarCorreosCommand = command({
  nombre: 'mail:list',
  descripcion: 'El correo guardado (enviado o no), el más antiguo primero.',
  acceso: 'operador',
  entrada: z.object({ to: cadena().optional() }),
  preparar: async (ctx, f) => {
    const rows = await listarCorreosGuardados(ctx.db, f.to);
    return { valor: { correos: rows.map((r) => ({ to: r.destinatario, subject: r.asunto, text: r.texto, created_at: formatMadrid(r.created_at) })) } };
  },
});
