import { AppError } from '../../shared/errors';

/** A unique index refused a write (PostgreSQL and PGlite both report SQLSTATE 23505 and the index's name). */
export function violacionUnica(err: unknown): { constraint: string | null } | null {
  const e = err as { code?: unknown; constraint?: unknown } | null;
  if (!e || typeof e !== 'object' || e.code !== '23505') return null;
  return { constraint: typeof e.constraint === 'string' ? e.constraint : null };
}

/**
 * SQLSTATEs that say the session is gone, or that none can be had, whatever
 * the statement was: besides class 08 (connection exception), 57P01
 * admin_shutdown (`pg_terminate_backend`, a fast shutdown, a failover),
 * 57P02 crash_shutdown, 57P03 cannot_connect_now (starting, in recovery),
 * 57P04 database_dropped, 57P05 idle_session_timeout and 25P03
 * idle_in_transaction_session_timeout (both end the session), 53300
 * too_many_connections, 3D000 the database does not exist (dropped, being
 * restored).
 */
const SQLSTATE_SIN_SESION = new Set(['57P01', '57P02', '57P03', '57P04', '57P05', '25P03', '53300', '3D000']);

/** Socket and name-resolution failures on the way to the database (Node's `err.code`). */
const RED = new Set(['ECONNREFUSED', 'ECONNRESET', 'ECONNABORTED', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

/**
 * The only failures that carry nothing but a message: node-postgres and
 * pg-pool raise these as plain `Error`s with no code (a socket that ended
 * under a query, a client already broken or closed, a pool waiting too long
 * or already ended), and Kysely one after `destroy()`. Compared whole, never
 * by pattern.
 */
const MENSAJES_SIN_CODIGO = new Set([
  'Connection terminated unexpectedly',
  'Connection terminated',
  'Connection terminated due to connection timeout',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
  'Cannot use a pool after calling end on the pool',
  'driver has already been destroyed',
]);

/** Errors raised while a connection was being obtained (marked by the pools of db/open.ts). */
const alConectar = new WeakSet<object>();

/**
 * Mark `err` as raised while obtaining a connection: whatever it says (the
 * database refuses connections — SQLSTATE 55000, which other statements also
 * use —, a password was changed, the host is unreachable), the request
 * never reached the database, so it is a 503, not a bug.
 */
export function marcarAlConectar<E>(err: E): E {
  if (err && typeof err === 'object') alConectar.add(err);
  return err;
}

/**
 * A COMMIT whose connection was lost before its answer, and whose outcome
 * could not be learnt afterwards (db/commit-outcome.ts asks the server): the
 * change may or may not be saved.
 */
export class CommitIncierto extends Error {
  override name = 'CommitIncierto';
  constructor(
    /** The transaction's id, for the log. */
    readonly xid: string,
    cause: unknown,
  ) {
    super(`La transacción ${xid} se confirmó sin respuesta del servidor y no se ha podido saber si quedó guardada.`, { cause });
  }
}

/**
 * Whether `err` means the database could not be reached or the connection
 * was lost: by SQLSTATE class and code, Node's socket codes, the mark of a
 * failed connect, or (only where node-postgres gives nothing else) the exact
 * messages above. Its causes are looked at too (pg-pool wraps a connect
 * timeout). The one classifier every front door uses.
 */
export function sinConexion(err: unknown): boolean {
  for (let e = err, i = 0; e && typeof e === 'object' && i < 4; e = (e as { cause?: unknown }).cause, i++) {
    if (e instanceof CommitIncierto || alConectar.has(e)) return true;
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && (code.startsWith('08') || SQLSTATE_SIN_SESION.has(code) || RED.has(code))) return true;
    if (code === undefined && e instanceof Error && MENSAJES_SIN_CODIGO.has(e.message)) return true;
  }
  return false;
}

/** Seconds a client is told to wait (Retry-After) when the database is out of reach. */
export const REINTENTAR_EN_S = 5;

/**
 * The answer to a request that met `err`, when `err` is a lost or refused
 * database connection: 503 `no_disponible` with Retry-After. A COMMIT whose
 * outcome is unknown says so, and how to learn it without doing the change
 * twice (the same Idempotency-Key). Null for anything else.
 */
export function comoNoDisponible(err: unknown): AppError | null {
  if (!sinConexion(err)) return null;
  const headers = { 'Retry-After': String(REINTENTAR_EN_S) };
  if (err instanceof CommitIncierto) {
    return new AppError(
      'no_disponible',
      'Se perdió la conexión con la base de datos al guardar y no se sabe si el cambio quedó hecho. Repita la petición con la misma clave de idempotencia (Idempotency-Key): si se guardó, recibirá ese resultado; si no, se hará ahora.',
      { headers },
    );
  }
  return new AppError('no_disponible', 'La base de datos no responde; vuelva a intentarlo en unos segundos.', { headers });
}

/**
 * Run `fn` again while it fails for want of the database (backing off from
 * 100 ms to 2 s), until it succeeds, fails otherwise, `hasta` (epoch ms)
 * passes or `signal` aborts; then its last error is thrown. For the workers'
 * bookkeeping after an action that must not be repeated just because the
 * note of it could not be written (a webhook sent, a mail handed over).
 */
export async function reintentarSinConexion<T>(fn: () => Promise<T>, opts: { hasta: number; signal?: AbortSignal }): Promise<T> {
  for (let espera = 100; ; espera = Math.min(espera * 2, 2_000)) {
    try {
      return await fn();
    } catch (err) {
      if (!sinConexion(err) || Date.now() + espera >= opts.hasta || opts.signal?.aborted) throw err;
      await new Promise<void>((resolve) => {
        const fin = () => {
          clearTimeout(t);
          opts.signal?.removeEventListener('abort', fin);
          resolve();
        };
        const t = setTimeout(fin, espera);
        opts.signal?.addEventListener('abort', fin, { once: true });
      });
    }
  }
}
