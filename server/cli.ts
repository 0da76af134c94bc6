import { AppError } from '../shared/errors';
import { CAPACIDAD_SELLO } from '../shared/pdf/deca-pdf-data';
import { callAdminSocket } from './admin/admin-socket';
import { type Flags, runAdminCommand } from './admin/commands';
import { createClock } from './clock';
import { ConfigError, loadConfig } from './config';
import { acquireDataDirLock, DataDirLockedError, readLock } from './db/lock';
import { migrateToLatest, openDatabase } from './db/open';
import { createLogger } from './log';
import { createServices } from './services';

/** `--company "X" --read-only` → { company: 'X', 'read-only': true }. */
export function parseFlags(args: string[]): Flags {
  const out: Flags = {};
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? '';
    if (!arg.startsWith('--')) throw new AppError('peticion_invalida', `Argumento inesperado «${arg}»: use --nombre valor.`);
    const eq = arg.indexOf('=');
    if (eq > 0) {
      out[arg.slice(2, eq)] = arg.slice(eq + 1);
      continue;
    }
    const next = args[i + 1];
    if (next === undefined || next.startsWith('--')) out[arg.slice(2)] = true;
    else {
      out[arg.slice(2)] = next;
      i++;
    }
  }
  return out;
}

/**
 * Administration CLI (README: Puesta en marcha). With the embedded database it never opens
 * DATA_DIR while a server holds it: the command goes through that server's
 * admin socket instead.
 */
async function cli(argv: string[]): Promise<unknown> {
  const [command, ...rest] = argv;
  if (!command) throw new AppError('peticion_invalida', 'Falta la orden: account:create, key:create, key:revoke, plan:set, mail:list o user:reset-password.');
  const flags = parseFlags(rest);
  const config = loadConfig();
  const clock = createClock(config.fakeNow);

  if (!config.databaseUrl) {
    const holder = readLock(config.dataDir);
    if (holder?.socket) {
      const reply = await callAdminSocket(holder.socket, command, flags);
      if (!reply.ok) throw Object.assign(new Error(reply.error?.mensaje ?? 'error'), { body: reply.error });
      return reply.result;
    }
  }
  const release = config.databaseUrl ? () => {} : acquireDataDirLock(config.dataDir, 'cli');
  try {
    const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
    try {
      await migrateToLatest(database.db);
      // No LISTEN and no PDF renderer: the operator's commands neither cache nor render.
      const services = await createServices({
        config,
        database,
        clock,
        log: createLogger('silent'),
        renderPdf: () => Promise.reject(new Error('la CLI no genera PDF')),
        capacidadSello: CAPACIDAD_SELLO,
        listener: false,
      });
      try {
        return await runAdminCommand(services, command, flags);
      } finally {
        await services.close();
      }
    } finally {
      await database.close();
    }
  } finally {
    release();
  }
}

cli(process.argv.slice(2)).then(
  (result) => {
    process.stdout.write(`${JSON.stringify(result)}\n`);
    process.exit(0);
  },
  (err: unknown) => {
    let error: unknown;
    if (err instanceof AppError) error = { codigo: err.codigo, mensaje: err.message, campos: err.campos };
    else if (err && typeof err === 'object' && 'body' in err) error = (err as { body: unknown }).body;
    else if (err instanceof ConfigError || err instanceof DataDirLockedError) error = { codigo: 'configuracion', mensaje: err.message };
    else error = { codigo: 'error_interno', mensaje: err instanceof Error ? err.message : String(err) };
    process.stderr.write(`${JSON.stringify({ error })}\n`);
    process.exit(1);
  },
);
