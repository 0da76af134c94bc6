import { AppError } from '../shared/errors';
import { CAPACIDAD_SELLO } from '../shared/pdf/deca-pdf-data';
import { callAdminSocket } from './admin/admin-socket';
import { type Flags, runAdminCommand } from './admin/commands';
import { createClock } from './clock';
import type { LoteDeBarrido, LoteDePdfs } from './commands/blobs';
import { type Config, ConfigError, loadConfig } from './config';
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

/** One administration command, run wherever the data is; its JSON result. */
type Orden = (command: string, flags: Flags) => Promise<unknown>;

/**
 * Runs `fn` with a way to run commands: with the embedded database held by
 * a running server, through that server's admin socket (DATA_DIR is never
 * opened twice); otherwise on the database, opened here for the run.
 */
async function conOrdenes<T>(config: Config, fn: (orden: Orden) => Promise<T>): Promise<T> {
  if (!config.databaseUrl) {
    const socket = readLock(config.dataDir)?.socket;
    if (socket) {
      return fn(async (command, flags) => {
        const reply = await callAdminSocket(socket, command, flags);
        if (!reply.ok) throw Object.assign(new Error(reply.error?.mensaje ?? 'error'), { body: reply.error });
        return reply.result;
      });
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
        clock: createClock(config.fakeNow),
        log: createLogger('silent'),
        renderPdf: () => Promise.reject(new Error('la CLI no genera PDF')),
        capacidadSello: CAPACIDAD_SELLO,
        listener: false,
      });
      try {
        return await fn((command, flags) => runAdminCommand(services, command, flags));
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

const mb = (bytes: number) => `${(bytes / 1_048_576).toFixed(1)} MB`;

/**
 * `blobs:migrate`: batch after batch until no PDF bytes are left in the
 * database, a line of progress on stderr after each; one JSON total on
 * stdout. Stopped at any point (Ctrl-C), it starts over where it was when run again.
 */
async function moverPorLotes(orden: Orden, flags: Flags): Promise<Omit<LoteDePdfs, 'siguiente'>> {
  const total = { movidos: 0, bytes: 0, omitidos: [] as LoteDePdfs['omitidos'], quedan: 0 };
  let despues = typeof flags.despues === 'string' ? flags.despues : null;
  for (;;) {
    const r = (await orden('blobs:migrate', { ...flags, ...(despues ? { despues } : {}) })) as LoteDePdfs;
    total.movidos += r.movidos;
    total.bytes += r.bytes;
    total.omitidos.push(...r.omitidos);
    total.quedan = r.quedan;
    process.stderr.write(
      `blobs:migrate: ${total.movidos} PDF movidos al almacén (${mb(total.bytes)}); quedan ${r.quedan} en la base de datos` +
        `${total.omitidos.length ? `, ${total.omitidos.length} omitidos porque sus bytes no coinciden con su SHA-256` : ''}\n`,
    );
    if (!r.siguiente) return total;
    despues = r.siguiente;
  }
}

/**
 * `blobs:gc`: page after page to the store's end, a line of progress on
 * stderr after each; one JSON total on stdout. Stopped at any point, it can
 * start again from the last `siguiente` (`--despues`), or from the start.
 */
async function barrerPorLotes(orden: Orden, flags: Flags): Promise<Omit<LoteDeBarrido, 'siguiente'>> {
  const total = { revisados: 0, borrados: 0, bytes: 0 };
  let despues = typeof flags.despues === 'string' ? flags.despues : null;
  for (;;) {
    const r = (await orden('blobs:gc', { ...flags, ...(despues ? { despues } : {}) })) as LoteDeBarrido;
    total.revisados += r.revisados;
    total.borrados += r.borrados;
    total.bytes += r.bytes;
    process.stderr.write(`blobs:gc: ${total.revisados} PDF revisados, ${total.borrados} borrados (${mb(total.bytes)})${r.siguiente ? `; sigue tras ${r.siguiente}` : ''}\n`);
    if (!r.siguiente) return total;
    despues = r.siguiente;
  }
}

/** The commands the CLI runs batch after batch. */
const POR_LOTES: Record<string, (orden: Orden, flags: Flags) => Promise<unknown>> = { 'blobs:migrate': moverPorLotes, 'blobs:gc': barrerPorLotes };

/**
 * Administration CLI (README: Puesta en marcha). With the embedded database it never opens
 * DATA_DIR while a server holds it: the command goes through that server's
 * admin socket instead.
 */
async function cli(argv: string[]): Promise<unknown> {
  const [command, ...rest] = argv;
  if (!command) throw new AppError('peticion_invalida', 'Falta la orden: account:create, key:create, key:revoke, plan:set, mail:list, user:reset-password, account:close, blobs:migrate o blobs:gc.');
  const flags = parseFlags(rest);
  const config = loadConfig();
  const porLotes = POR_LOTES[command];
  return conOrdenes(config, (orden) => (porLotes ? porLotes(orden, flags) : orden(command, flags)));
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
