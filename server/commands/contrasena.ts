import { AppError } from '../../shared/errors';
import { formatMadrid } from '../../shared/rules/fechas';
import { CambiarContrasenaInput, OlvidoInput, type OlvidoResponse, RestablecerInput, type RestablecimientoPublico, SesionInput, type SesionResponse } from '../../shared/schemas/cuenta';
import { z } from '../../shared/schemas/zod';
import { fijarContrasena, pedirRestablecimiento, RESTABLECER_MINUTOS, restablecerContrasena, restablecerPorOperador, restablecimientoAbierto, usuarioConCorreo } from '../domain/accounts/contrasena';
import { hashPassword, verifyPassword } from '../domain/accounts/passwords';
import { leerUsuario } from '../domain/accounts/usuarios';
import type { Plan } from '../domain/context';
import { escritura } from '../domain/plan';
import { gastar } from '../limits';
import { command } from './command';
import { bajoLimites, demasiadas, entrarComo, type SesionAbierta, usuarioDe } from './cuenta';
import { Token } from './usuarios';

/** The one answer to a reset request, whether or not the address has a user. */
export const RESPUESTA_OLVIDO: OlvidoResponse = {
  mensaje: `Si hay una cuenta con ese correo, le hemos enviado un enlace para elegir una contraseña nueva. Vale ${RESTABLECER_MINUTOS} minutos; mire también en el correo no deseado.`,
};

export const olvidoContrasenaCommand = command({
  nombre: 'olvido_contrasena',
  descripcion: 'Envía al correo, si tiene usuario, un enlace de un solo uso para elegir una contraseña nueva; la respuesta es la misma exista o no.',
  acceso: 'publico',
  entrada: OlvidoInput,
  preparar: async (ctx, { email }): Promise<Plan<OlvidoResponse>> => {
    // Both limits are spent for any address, known or not: a 429 tells nothing either.
    const espera = (await gastar(ctx.limits.restablecerIp, ctx.quien.ip)) ?? (await gastar(ctx.limits.restablecerEmail, email));
    if (espera !== null) throw demasiadas(espera, `Ya se han pedido varios enlaces. Espere ${Math.ceil(espera / 60)} min y vuelva a pedirlo, o use el último que le llegó.`);
    return escritura(async (trx) => {
      await pedirRestablecimiento(trx, email, ctx.siteUrl, ctx.clock.now());
      return RESPUESTA_OLVIDO;
    });
  },
});

export const verRestablecimientoCommand = command({
  nombre: 'ver_restablecimiento',
  descripcion: 'Lo que muestra un enlace para restablecer la contraseña antes de usarlo: el correo y hasta cuándo vale.',
  acceso: 'publico',
  entrada: Token,
  preparar: async (ctx, { token }): Promise<Plan<{ restablecimiento: RestablecimientoPublico }>> => {
    const { user, expiresAt } = await restablecimientoAbierto(ctx.db, token, ctx.clock.now());
    return { valor: { restablecimiento: { email: user.email, expires_at: formatMadrid(expiresAt) } } };
  },
});

export const restablecerContrasenaCommand = command({
  nombre: 'restablecer_contrasena',
  descripcion: 'Elige una contraseña nueva con el enlace del correo (una sola vez, 30 minutos): cierra todas las sesiones del usuario y abre la de este dispositivo.',
  acceso: 'publico',
  entrada: RestablecerInput,
  preparar: async (ctx, { token, password }): Promise<Plan<{ respuesta: SesionResponse; sesion: SesionAbierta }>> => {
    const now = ctx.clock.now();
    // An unknown, used or expired link is refused before the slow hash; spending it stays in the transaction.
    await restablecimientoAbierto(ctx.db, token, now);
    const passwordHash = await hashPassword(password);
    return escritura(async (trx) => {
      const { user, account } = await restablecerContrasena(trx, token, passwordHash, now);
      return entrarComo({ db: trx, sedeControlUrl: ctx.sedeControlUrl }, user, account, now);
    });
  },
});

export const cambiarContrasenaCommand = command({
  nombre: 'cambiar_contrasena',
  descripcion: 'Cambia la contraseña del usuario con sesión, dada la actual: cierra sus otras sesiones.',
  acceso: 'escritura',
  entrada: CambiarContrasenaInput,
  preparar: async (ctx, { actual, password }): Promise<Plan<{ respuesta: SesionResponse; sesion: SesionAbierta }>> => {
    const userId = usuarioDe(ctx.quien);
    const yo = await leerUsuario(ctx.db, userId);
    // The current password is checked under the sign-in limits (per user, and per e-mail from anywhere).
    const correcta = await bajoLimites(ctx.limits, yo.email, null, async () => ((await verifyPassword(actual, yo.password_hash)) ? true : null));
    if (!correcta) {
      throw new AppError('validacion', 'La contraseña actual no es correcta.', { campos: { actual: 'No es la contraseña actual' } });
    }
    const passwordHash = await hashPassword(password);
    const now = ctx.clock.now();
    return escritura(async (trx) => {
      const { user, account } = await fijarContrasena(trx, userId, passwordHash);
      // Every session ended with the change: this device gets a new one.
      return entrarComo({ db: trx, sedeControlUrl: ctx.sedeControlUrl }, user, account, now);
    });
  },
});

// ——— The operator's command (the CLI) ———

export const restablecerContrasenaOperadorCommand = command({
  nombre: 'user:reset-password',
  descripcion: 'Un enlace de un solo uso (30 minutos) para que el usuario elija una contraseña nueva; cierra ya todas sus sesiones.',
  acceso: 'operador',
  entrada: z.object({ email: SesionInput.shape.email }),
  preparar: async (ctx, { email }) => {
    const now = ctx.clock.now();
    const user = await usuarioConCorreo(ctx.db, email);
    return escritura(async (trx) => {
      const r = await restablecerPorOperador(trx, user, ctx.siteUrl, now);
      return { email: r.email, enlace: r.url, caduca_at: formatMadrid(r.expiresAt), sesiones_cerradas: r.sesiones };
    });
  },
});
