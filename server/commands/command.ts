import type { Transaction } from 'kysely';
import { AppError, validationError } from '../../shared/errors';
import { mensajeSinPermiso, puede, type Permiso } from '../../shared/rules/roles';
import type { z } from '../../shared/schemas/zod';
import { violacionUnica } from '../db/errores';
import type { DB } from '../db/schema';
import type { Services } from '../deps';
import type { Actor, Operador, Visitante } from '../domain/actor';
import { conIdempotencia, huella, idempotenciaDistinta, type ClaveCliente, type RegistroIdempotencia, type Repeticion } from '../domain/idempotencia';
import { gastar } from '../limits';

/**
 * Who may run a command:
 * - `lectura`: any key or session of the account (read-only keys included);
 * - `escritura`: a read-write key or a session (spec: a read-only key gets 403 `solo_lectura`);
 * - `admin`: a signed-in administrator of the account;
 * - `publico`: anyone, no account (the inspector, the other party on a link);
 * - `operador`: the command line, which has the data directory anyway.
 */
export type Acceso = 'lectura' | 'escritura' | 'admin' | 'publico' | 'operador';

/** The one acting, by access level. */
export type Quien<A extends Acceso> = A extends 'publico' ? Visitante : A extends 'operador' ? Operador : Actor;

/** What a command's body gets: the services, who acts, and the request as received. */
export interface Contexto<A extends Acceso> extends Services {
  quien: Quien<A>;
  /** The input exactly as received (before parsing): which fields were sent, unknown fields. */
  crudo: unknown;
  /**
   * Record the result under the request's Idempotency-Key, inside the
   * change's own transaction (called just before it commits). A no-op when
   * the request carries no key.
   */
  registrar(trx: Transaction<DB>, registro: RegistroIdempotencia): Promise<void>;
  /**
   * The request's Idempotency-Key and fingerprint, when the command honours
   * it: what a create keeps on its DeCA for good, so a replay after the key's
   * record expired still returns that DeCA.
   */
  claveCliente: ClaveCliente | null;
}

/**
 * A use case: its input schema, who may run it, whether it honours
 * `Idempotency-Key`, and its body. It returns the one representation of its
 * resource, whatever front door called it. Transactions are opened by its
 * body (account commands) or by the domain functions it calls (DeCA
 * commands, which render outside the transaction): see docs/ARCHITECTURE.md.
 */
export interface Command<S extends z.ZodType, O, A extends Acceso> {
  /** Stable name: idempotency fingerprints derive from it, and each MCP tool bears the name of the command it runs. */
  nombre: string;
  /** What it does, in Spanish (MCP tools and OpenAPI show it). */
  descripcion: string;
  acceso: A;
  /** What a signed-in user's role must allow (shared/rules/roles.ts); API keys act for the whole account. */
  permiso?: Permiso;
  entrada: S;
  /**
   * When the input fails its schema: the issues to report, given the ones
   * the schema found (e.g. also what is missing to issue, so one round of
   * fixes is enough).
   */
  completarErrores?: (ctx: Contexto<A>, crudo: unknown, issues: readonly Issue[]) => Issue[];
  /**
   * For a command that honours `Idempotency-Key`: whether this input does
   * (e.g. `solo_validar` stores nothing), and how a repeat of an earlier
   * request is answered from what that request recorded.
   */
  idempotencia?: {
    aplica?: (input: z.output<S>) => boolean;
    repetir: (ctx: Contexto<A>, anterior: Repeticion) => Promise<O>;
    /** What of the input the fingerprint covers, when the input is bytes (a photo's hash, not its 2 MB as JSON). */
    resumen?: (crudo: unknown) => unknown;
  };
  run(ctx: Contexto<A>, input: z.output<S>): Promise<O>;
}

/** A schema problem: where and what. */
export type Issue = { path: ReadonlyArray<PropertyKey>; message: string };

/** Type-checked command definition (the generic parameters come from the object). */
export function command<S extends z.ZodType, O, A extends Acceso>(def: Command<S, O, A>): Command<S, O, A> {
  return def;
}

/** Any command (for registries: MCP tools, documentation). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyCommand = Command<z.ZodType, any, Acceso>;

export interface Ejecucion<O> {
  valor: O;
  /** An earlier request with the same Idempotency-Key did this: `valor` is its result. */
  repetida: boolean;
}

const sinRegistro = async (): Promise<void> => {};

/** Refuse an actor that may not run a command of this access level, or whose role does not allow it. */
export function autorizar(acceso: Acceso, quien: Actor | Visitante | Operador, permiso?: Permiso): void {
  if (acceso === 'publico' || acceso === 'operador') return;
  const actor = quien as Actor;
  if (acceso === 'escritura' && actor.soloLectura) {
    throw new AppError('solo_lectura', 'Esta clave es de solo lectura: use una clave de lectura y escritura para cambiar datos.');
  }
  if (acceso === 'admin' && (actor.userId === null || actor.rol !== 'admin')) {
    throw new AppError('prohibido', 'Solo un administrador de la cuenta puede hacer esto.');
  }
  if (permiso && actor.rol !== null && !puede(actor.rol, permiso)) {
    throw new AppError('prohibido', mensajeSinPermiso(actor.rol, permiso));
  }
}

/**
 * Run a command for `quien`: check the access level, parse the input with
 * its schema (422 `validacion` naming every field), and, when the request
 * carries an Idempotency-Key and the command honours it, run it at most once
 * per key: a repeat gets the first request's result (`repetida`), a different
 * request with the same key gets 422 `validacion` on `Idempotency-Key`.
 */
export async function ejecutar<S extends z.ZodType, O, A extends Acceso>(
  services: Services,
  cmd: Command<S, O, A>,
  quien: Quien<A>,
  crudo: unknown,
  opts: { idempotencyKey?: string | null } = {},
): Promise<Ejecucion<O>> {
  try {
    return await ejecutarUnaVez(services, cmd, quien, crudo, opts);
  } catch (err) {
    // Two requests wrote the same unique value at once and this one lost: the refusal the
    // earlier check would have given, or a conflict to retry; never a 500.
    const v = violacionUnica(err);
    if (v) throw POR_INDICE[v.constraint ?? '']?.() ?? conflictoSimultaneo();
    throw err;
  }
}

const conflictoSimultaneo = () =>
  new AppError('conflicto', 'Otra petición ha cambiado lo mismo a la vez. Reintente en un momento.', { headers: { 'Retry-After': '1' } });

/** Unique indexes whose refusal has its own documented answer. */
const POR_INDICE: Record<string, () => AppError> = {
  users_email_key: () => new AppError('email_registrado', 'Ya existe una cuenta con ese correo. Inicie sesión o use otro correo.', { campos: { email: 'Ya registrado' } }),
  decas_ref_externa_uq: () => new AppError('ref_externa_usada', 'Esa ref_externa ya es de otra DeCA de esta cuenta.', { campos: { ref_externa: 'Ya usada' } }),
};

async function ejecutarUnaVez<S extends z.ZodType, O, A extends Acceso>(
  services: Services,
  cmd: Command<S, O, A>,
  quien: Quien<A>,
  crudo: unknown,
  opts: { idempotencyKey?: string | null },
): Promise<Ejecucion<O>> {
  autorizar(cmd.acceso, quien, cmd.permiso);
  if (cmd.acceso === 'publico') await limitarVisitante(services, quien as Visitante);
  const ctx: Contexto<A> = { ...services, quien, crudo, registrar: sinRegistro, claveCliente: null };
  const parsed = cmd.entrada.safeParse(crudo);
  if (!parsed.success) throw validationError(cmd.completarErrores ? cmd.completarErrores(ctx, crudo, parsed.error.issues) : parsed.error.issues);
  const input = parsed.data as z.output<S>;

  const key = opts.idempotencyKey;
  const idem = cmd.idempotencia;
  if (!key || !idem || (idem.aplica && !idem.aplica(input)) || cmd.acceso === 'publico' || cmd.acceso === 'operador') {
    return { valor: await cmd.run(ctx, input), repetida: false };
  }
  const actor = quien as Actor;
  const claveCliente: ClaveCliente = { clave: key, huella: huella(cmd.nombre, idem.resumen ? idem.resumen(crudo) : crudo) };
  const r = await conIdempotencia(services.db, services.clock, actor, { clave: `hdr:${key}`, huella: claveCliente.huella }, (registrar) =>
    cmd.run({ ...ctx, registrar, claveCliente }, input),
  );
  if ('hecho' in r) return { valor: r.hecho, repetida: false };
  if (r.repeticion.distinta) throw idempotenciaDistinta();
  return { valor: await idem.repetir(ctx, r.repeticion), repetida: true };
}

/**
 * Public pages per IP (generous: an inspector opening a QR a few times is
 * never near it); past it, 429 with Retry-After.
 */
async function limitarVisitante(services: Services, v: Visitante): Promise<void> {
  const espera = await gastar(services.limits.publicoIp, v.ip);
  if (espera !== null) {
    throw new AppError('demasiadas_peticiones', `Demasiadas peticiones desde esta conexión. Espere ${espera} s.`, { headers: { 'Retry-After': String(espera) } });
  }
}
