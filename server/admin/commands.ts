import { AppError, validationError } from '../../shared/errors';
import { borrarHuerfanosCommand, moverPdfsCommand } from '../commands/blobs';
import { cerrarCuentaOperadorCommand } from '../commands/cierre';
import { type AnyCommand, ejecutar } from '../commands/command';
import { restablecerContrasenaOperadorCommand } from '../commands/contrasena';
import { cambiarPlanCommand, crearClaveOperadorCommand, crearCuentaOperadorCommand, listarCorreosCommand, revocarClaveOperadorCommand } from '../commands/cuenta';
import type { Services } from '../deps';

export type Flags = Record<string, string | boolean>;

/** The administration commands (`npm run cli -- …`, documented in the README), by name. */
const ORDENES: Record<string, AnyCommand> = Object.fromEntries(
  [
    crearCuentaOperadorCommand,
    crearClaveOperadorCommand,
    revocarClaveOperadorCommand,
    cambiarPlanCommand,
    listarCorreosCommand,
    restablecerContrasenaOperadorCommand,
    moverPdfsCommand,
    borrarHuerfanosCommand,
    cerrarCuentaOperadorCommand,
  ].map((c) => [c.nombre, c as AnyCommand]),
);

/**
 * Run an administration command as the operator. The CLI runs
 * it directly on the database, or through a running server's admin socket
 * when the embedded database is already open there; either way it is the
 * same command and the output is the same JSON. Field errors name the flags.
 */
export async function runAdminCommand(services: Services, command: string, flags: Flags): Promise<unknown> {
  const cmd = ORDENES[command];
  if (!cmd) {
    throw new AppError('peticion_invalida', `Orden desconocida «${command}». Órdenes: ${Object.keys(ORDENES).join(', ')}.`);
  }
  try {
    return (await ejecutar(services, cmd, { operador: true }, flags)).valor;
  } catch (err) {
    if (err instanceof AppError && err.codigo === 'validacion') {
      throw validationError(Object.entries(err.campos).map(([campo, message]) => ({ path: [`--${campo}`], message })));
    }
    throw err;
  }
}
