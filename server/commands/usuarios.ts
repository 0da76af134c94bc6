import { formatMadrid } from '../../shared/rules/fechas';
import {
  AceptarInvitacionInput,
  CambiarRolInput,
  type Invitacion,
  type InvitacionPublica,
  InvitarInput,
  type SesionResponse,
  type UsuarioCuenta,
  type UsuariosResponse,
} from '../../shared/schemas/cuenta';
import { cadena } from '../../shared/schemas/envio';
import { z } from '../../shared/schemas/zod';
import {
  aceptarInvitacion,
  anularInvitacion,
  asignarMatriculas,
  cambiarRol,
  invitacionAbierta,
  listarUsuarios,
  prepararAceptacion,
  prepararInvitacion,
  presentInvitacion,
  presentUsuarioCuenta,
  quitarUsuario,
} from '../domain/accounts/usuarios';
import { mapPlan } from '../domain/context';
import { escritura } from '../domain/plan';
import { command } from './command';
import { entrarComo, type SesionAbierta } from './cuenta';

const Id = z.object({ id: z.coerce.number().int().positive() });
/** The token of an e-mailed link (an invitation, a password reset). */
export const Token = z.object({ token: cadena().max(200) });

export const listarUsuariosCommand = command({
  nombre: 'listar_usuarios',
  descripcion: 'Los usuarios de la cuenta con su función, y las invitaciones pendientes.',
  acceso: 'admin',
  permiso: 'usuarios',
  entrada: z.object({}),
  preparar: async (ctx) => {
    const r = await listarUsuarios(ctx.db, ctx.quien.accountId, ctx.clock.now());
    const valor: UsuariosResponse = { usuarios: r.usuarios.map(presentUsuarioCuenta), invitaciones: r.invitaciones.map(presentInvitacion) };
    return { valor };
  },
});

export const invitarUsuarioCommand = command({
  nombre: 'invitar_usuario',
  descripcion: 'Invita por correo a una persona a la cuenta con una función (administrador, oficina o conductor); devuelve también el enlace, una sola vez, para copiarlo o compartirlo.',
  acceso: 'admin',
  permiso: 'usuarios',
  entrada: InvitarInput,
  preparar: async (ctx, input) => {
    const { cuenta, userId } = ctx.quien;
    // `admin` access: a signed-in administrator, so there is a user.
    const plan = await prepararInvitacion(ctx.db, cuenta, userId!, input, ctx.siteUrl, ctx.clock.now());
    return mapPlan(plan, ({ row, enlace }): { invitacion: Invitacion; enlace: string } => ({ invitacion: presentInvitacion(row), enlace }));
  },
});

export const cambiarRolUsuarioCommand = command({
  nombre: 'cambiar_rol_usuario',
  descripcion: 'Cambia la función de un usuario de la cuenta, o las matrículas que conduce (un conductor ve las DeCA que hace y las de esas matrículas); vale desde su siguiente petición.',
  acceso: 'admin',
  permiso: 'usuarios',
  entrada: CambiarRolInput,
  // The user's row is locked and the administrators counted inside the transaction: the checks hold until it commits.
  preparar: async (ctx, { id, rol, matriculas }) =>
    escritura(async (trx): Promise<{ usuario: UsuarioCuenta }> => {
      let user = rol !== undefined ? await cambiarRol(trx, ctx.quien.accountId, id, rol) : null;
      if (matriculas !== undefined) user = await asignarMatriculas(trx, ctx.quien.accountId, id, matriculas);
      // The schema asks for a role or plates, so one of them ran.
      return { usuario: presentUsuarioCuenta(user!) };
    }),
});

export const quitarUsuarioCommand = command({
  nombre: 'quitar_usuario',
  descripcion: 'Quita un usuario de la cuenta: sus sesiones terminan al momento.',
  acceso: 'admin',
  permiso: 'usuarios',
  entrada: Id,
  preparar: async (ctx, { id }) => escritura(async (trx): Promise<{ usuario: UsuarioCuenta }> => ({ usuario: presentUsuarioCuenta(await quitarUsuario(trx, ctx.quien.accountId, id)) })),
});

export const anularInvitacionCommand = command({
  nombre: 'anular_invitacion',
  descripcion: 'Retira una invitación pendiente: su enlace deja de funcionar.',
  acceso: 'admin',
  permiso: 'usuarios',
  entrada: Id,
  preparar: async (ctx, { id }) => escritura(async (trx): Promise<{ invitacion: Invitacion }> => ({ invitacion: presentInvitacion(await anularInvitacion(trx, ctx.quien.accountId, id)) })),
});

export const verInvitacionCommand = command({
  nombre: 'ver_invitacion',
  descripcion: 'Lo que muestra un enlace de invitación antes de aceptarlo: empresa, correo y función.',
  acceso: 'publico',
  entrada: Token,
  preparar: async (ctx, { token }) => {
    const { invitacion, account } = await invitacionAbierta(ctx.db, token, ctx.clock.now());
    const valor: { invitacion: InvitacionPublica } = {
      invitacion: { empresa: account.nombre, email: invitacion.email, rol: invitacion.rol, expires_at: formatMadrid(invitacion.expires_at) },
    };
    return { valor };
  },
});

export const aceptarInvitacionCommand = command({
  nombre: 'aceptar_invitacion',
  descripcion: 'Acepta una invitación: crea el usuario con su contraseña y abre su sesión.',
  acceso: 'publico',
  entrada: AceptarInvitacionInput,
  preparar: async (ctx, { token, password }) => {
    const now = ctx.clock.now();
    // The invitation is read and the password hashed before the transaction; the user and their session are written in it, together.
    const aceptacion = await prepararAceptacion(ctx.db, token, password, now);
    return escritura(async (trx): Promise<{ respuesta: SesionResponse; sesion: SesionAbierta }> => {
      const { user, account } = await aceptarInvitacion(trx, aceptacion, now);
      return entrarComo({ db: trx, sedeControlUrl: ctx.sedeControlUrl }, user, account, now);
    });
  },
});
