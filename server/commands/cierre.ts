import type { Readable } from 'node:stream';
import { AppError } from '../../shared/errors';
import { formatMadrid } from '../../shared/rules/fechas';
import { normalizarNif } from '../../shared/rules/nif';
import { CONSERVACION_DECA_TEXTO } from '../../shared/rules/privacidad';
import { CerrarCuentaInput, type CuentaCerrada } from '../../shared/schemas/cuenta';
import { cadena } from '../../shared/schemas/envio';
import type { ExportacionVista } from '../../shared/schemas/publico';
import { z } from '../../shared/schemas/zod';
import type { Services } from '../deps';
import { type CuentaCerradaResultado, cerrarCuenta, cuentaPorCerrar, primerAdministrador } from '../domain/accounts/cierre';
import { type ExportacionEncontrada, type ExportacionHecha, exportacionPorToken, exportarCuenta, marcarExportacionDescargada } from '../domain/accounts/exportacion';
import { verifyPassword } from '../domain/accounts/passwords';
import { leerUsuario } from '../domain/accounts/usuarios';
import type { Plan } from '../domain/context';
import { escritura } from '../domain/plan';
import { command } from './command';
import { bajoLimites, usuarioDe } from './cuenta';

/**
 * The closure's plan, its export already written: the writes in the command
 * layer's transaction, and once committed every cached API key of the
 * account dropped in this process (the database's NOTIFY drops the others').
 */
function planDeCierre<T>(ctx: Services, accountId: number, exportacion: ExportacionHecha, destinatario: string, presentar: (r: CuentaCerradaResultado) => T): Plan<T> {
  return {
    aplicar: async (trx) => {
      const r = await cerrarCuenta(trx, { accountId, exportacion, destinatario, siteUrl: ctx.siteUrl, now: ctx.clock.now() });
      return { valor: presentar(r), tocadas: r.borradas, despues: () => ctx.caches.claves.invalidateWhere((c) => c.account.id === accountId) };
    },
  };
}

export const cerrarCuentaCommand = command({
  nombre: 'cerrar_cuenta',
  descripcion:
    'Cierra la cuenta (un administrador, con su contraseña y el NIF de la empresa): envía al administrador un enlace a todos sus datos, revoca las claves, cierra las sesiones y borra lo que la ley no obliga a conservar. Las DeCA emitidas se conservan hasta que acabe su plazo.',
  acceso: 'admin',
  entrada: CerrarCuentaInput,
  preparar: async (ctx, { password, nif }): Promise<Plan<CuentaCerrada>> => {
    const yo = await leerUsuario(ctx.db, usuarioDe(ctx.quien));
    const account = await cuentaPorCerrar(ctx.db, ctx.quien.accountId);
    // The password is checked under the sign-in limits, as a password change's is.
    const correcta = await bajoLimites(ctx.limits, yo.email, null, async () => ((await verifyPassword(password, yo.password_hash)) ? true : null));
    const campos: Record<string, string> = {};
    if (!correcta) campos.password = 'No es su contraseña';
    if (nif !== normalizarNif(account.nif)) campos.nif = `Escriba el NIF de la empresa, ${account.nif}, para confirmar`;
    if (campos.password || campos.nif) {
      throw new AppError('validacion', campos.password ? 'La contraseña no es correcta: la cuenta sigue abierta.' : 'El NIF no es el de la empresa: la cuenta sigue abierta.', { campos });
    }
    const exportacion = await exportarCuenta(ctx, account);
    return planDeCierre(ctx, account.id, exportacion, yo.email, (r) => ({
      sesion_cerrada: true as const,
      cerrada_at: formatMadrid(r.cerradaAt),
      exportacion: { enviada_a: r.enviadaA, caduca_at: formatMadrid(r.caducaAt) },
      decas_conservadas: r.decasConservadas,
      conservacion: CONSERVACION_DECA_TEXTO,
    }));
  },
});

export const cerrarCuentaOperadorCommand = command({
  nombre: 'account:close',
  descripcion:
    'Cierra una cuenta como «Cerrar la cuenta» de la aplicación (sin contraseña): exporta sus datos, envía el enlace a su primer administrador y lo imprime; revoca claves, sesiones y dispositivos y borra lo que no hay que conservar.',
  acceso: 'operador',
  entrada: z.object({ account: z.coerce.number().int().positive() }),
  preparar: async (ctx, f) => {
    const account = await cuentaPorCerrar(ctx.db, f.account);
    const destinatario = await primerAdministrador(ctx.db, account.id);
    const exportacion = await exportarCuenta(ctx, account);
    return planDeCierre(ctx, account.id, exportacion, destinatario, (r) => ({
      cerrada_at: formatMadrid(r.cerradaAt),
      enlace: r.enlace,
      caduca_at: formatMadrid(r.caducaAt),
      enviada_a: r.enviadaA,
      decas_conservadas: r.decasConservadas,
      decas_borradas: r.borradas.length,
      bytes: exportacion.bytes,
    }));
  },
});

// ——— The export's link (public pages: /p/exportacion/{token}) ———

const Token = z.object({ token: cadena().max(100) });

const sinExportacion = () => new AppError('no_encontrado', 'Este enlace no corresponde a ningún archivo de datos. Compruebe que está completo.');

/** What the link's page shows, from the export as found. */
function vista(e: ExportacionEncontrada, now: Date): ExportacionVista {
  if (e.descargada_at) return { estado: 'descargada', empresa: e.empresa, descargada_at: e.descargada_at };
  if (e.caduca_at <= now) return { estado: 'caducada', empresa: e.empresa, caduca_at: e.caduca_at };
  return { estado: 'lista', empresa: e.empresa, bytes: e.bytes, caduca_at: e.caduca_at };
}

export const verExportacionCommand = command({
  nombre: 'ver_exportacion',
  descripcion: 'La página del enlace a los datos de una cuenta cerrada: si se puede descargar, o por qué no.',
  acceso: 'publico',
  entrada: Token,
  preparar: async (ctx, { token }): Promise<Plan<ExportacionVista>> => {
    const e = await exportacionPorToken(ctx.db, token);
    if (!e) throw sinExportacion();
    return { valor: vista(e, ctx.clock.now()) };
  },
});

/** The ZIP to send, while the link is valid and unused. */
export interface ArchivoExportado {
  flujo: Readable;
  bytes: number;
  nombre: string;
}

export const descargarExportacionCommand = command({
  nombre: 'descargar_exportacion',
  descripcion: 'El archivo ZIP de los datos de una cuenta cerrada, mientras su enlace vale (7 días, una descarga completa).',
  acceso: 'publico',
  entrada: Token,
  preparar: async (ctx, { token }): Promise<Plan<ArchivoExportado>> => {
    const e = await exportacionPorToken(ctx.db, token);
    if (!e) throw sinExportacion();
    const v = vista(e, ctx.clock.now());
    if (v.estado === 'descargada') throw new AppError('no_encontrado', `Este archivo ya se descargó el ${formatMadrid(v.descargada_at)}: el enlace servía una sola vez.`);
    if (v.estado === 'caducada') throw new AppError('no_encontrado', `Este enlace caducó el ${formatMadrid(v.caduca_at)} y el archivo se ha borrado.`);
    const abierto = await ctx.exportaciones.abrir(e.archivo);
    if (!abierto) throw new AppError('no_encontrado', 'El archivo de este enlace ya no está en el servidor.');
    const dia = formatMadrid(e.created_at).slice(0, 10);
    return { valor: { ...abierto, nombre: `DeCA-datos-${dia}.zip` } };
  },
});

export const exportacionDescargadaCommand = command({
  nombre: 'exportacion_descargada',
  descripcion: 'Anota que el archivo de un enlace se ha enviado entero: el enlace deja de servir.',
  acceso: 'publico',
  entrada: Token,
  preparar: async (ctx, { token }): Promise<Plan<{ anotada: boolean }>> => {
    const e = await exportacionPorToken(ctx.db, token);
    if (!e || e.descargada_at) return { valor: { anotada: false } };
    return escritura(async (trx) => ({ anotada: await marcarExportacionDescargada(trx, e.id, ctx.clock.now()) }));
  },
});
