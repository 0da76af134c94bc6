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
  invitar,
  leerUsuario,
  listarUsuarios,
  presentInvitacion,
  presentUsuarioCuenta,
  quitarUsuario,
} from '../domain/accounts/usuarios';
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
  run: async (ctx): Promise<UsuariosResponse> => {
    const r = await listarUsuarios(ctx.db, ctx.quien.accountId, ctx.clock.now());
    return { usuarios: r.usuarios.map(presentUsuarioCuenta), invitaciones: r.invitaciones.map(presentInvitacion) };
  },
});

export const invitarUsuarioCommand = command({
  nombre: 'invitar_usuario',
  descripcion: 'Invita por correo a una persona a la cuenta con una función (administrador, oficina o conductor).',
  acceso: 'admin',
  permiso: 'usuarios',
  entrada: InvitarInput,
  run: async (ctx, input): Promise<{ invitacion: Invitacion }> => {
    const { cuenta, userId } = ctx.quien;
    const row = await ctx.db.transaction().execute(async (trx) => {
      // `admin` access: a signed-in administrator, so there is a user.
      const invita = await leerUsuario(trx, userId!);
      return invitar(trx, cuenta, invita, input, ctx.siteUrl, ctx.clock.now());
    });
    return { invitacion: presentInvitacion(row) };
  },
});

export const cambiarRolUsuarioCommand = command({
  nombre: 'cambiar_rol_usuario',
  descripcion: 'Cambia la función de un usuario de la cuenta, o las matrículas que conduce (un conductor ve las DeCA que hace y las de esas matrículas); vale desde su siguiente petición.',
  acceso: 'admin',
  permiso: 'usuarios',
  entrada: CambiarRolInput,
  run: async (ctx, { id, rol, matriculas }): Promise<{ usuario: UsuarioCuenta }> => {
    const row = await ctx.db.transaction().execute(async (trx) => {
      let user = rol !== undefined ? await cambiarRol(trx, ctx.quien.accountId, id, rol) : null;
      if (matriculas !== undefined) user = await asignarMatriculas(trx, ctx.quien.accountId, id, matriculas);
      return user!;
    });
    return { usuario: presentUsuarioCuenta(row) };
  },
});

export const quitarUsuarioCommand = command({
  nombre: 'quitar_usuario',
  descripcion: 'Quita un usuario de la cuenta: sus sesiones terminan al momento.',
  acceso: 'admin',
  permiso: 'usuarios',
  entrada: Id,
  run: async (ctx, { id }): Promise<{ usuario: UsuarioCuenta }> => {
    const row = await ctx.db.transaction().execute((trx) => quitarUsuario(trx, ctx.quien.accountId, id));
    return { usuario: presentUsuarioCuenta(row) };
  },
});

export const anularInvitacionCommand = command({
  nombre: 'anular_invitacion',
  descripcion: 'Retira una invitación pendiente: su enlace deja de funcionar.',
  acceso: 'admin',
  permiso: 'usuarios',
  entrada: Id,
  run: async (ctx, { id }): Promise<{ invitacion: Invitacion }> => {
    const row = await ctx.db.transaction().execute((trx) => anularInvitacion(trx, ctx.quien.accountId, id));
    return { invitacion: presentInvitacion(row) };
  },
});

export const verInvitacionCommand = command({
  nombre: 'ver_invitacion',
  descripcion: 'Lo que muestra un enlace de invitación antes de aceptarlo: empresa, correo y función.',
  acceso: 'publico',
  entrada: Token,
  run: async (ctx, { token }): Promise<{ invitacion: InvitacionPublica }> => {
    const { invitacion, account } = await invitacionAbierta(ctx.db, token, ctx.clock.now());
    return { invitacion: { empresa: account.nombre, email: invitacion.email, rol: invitacion.rol, expires_at: formatMadrid(invitacion.expires_at) } };
  },
});

export const aceptarInvitacionCommand = command({
  nombre: 'aceptar_invitacion',
  descripcion: 'Acepta una invitación: crea el usuario con su contraseña y abre su sesión.',
  acceso: 'publico',
  entrada: AceptarInvitacionInput,
  run: async (ctx, { token, password }): Promise<{ respuesta: SesionResponse; sesion: SesionAbierta }> => {
    const now = ctx.clock.now();
    const { user, account } = await ctx.db.transaction().execute((trx) => aceptarInvitacion(trx, token, password, now));
    return entrarComo(ctx, user, account, now);
  },
});
