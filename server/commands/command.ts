import { AppError, validationError } from '../../shared/errors';
import { mensajeSinPermiso, type Permiso, puede } from '../../shared/rules/roles';
import type { z } from '../../shared/schemas/zod';
import type { Services } from '../deps';
import type { Actor, Operador, Pasarela, Visitante } from '../domain/actor';
import type { Escritura, Plan } from '../domain/context';
import { type ClaveCliente, claveCliente as claveDeCliente, claveRef, huella, idempotenciaDistinta, liberar, type Reclamo, type Repeticion, reclamar, registroDeClave } from '../domain/idempotencia';
import { escribirPlan } from '../domain/plan';
import { errorDeUnico } from '../domain/unicos';
import { gastar } from '../limits';

/**
 * Who may run a command:
 * - `lectura`: any key or session of the account (read-only keys included);
 * - `escritura`: a read-write key or a session (spec: a read-only key gets 403 `solo_lectura`);
 * - `admin`: a signed-in administrator of the account;
 * - `publico`: anyone, no account (the inspector, the other party on a link);
 * - `operador`: the command line, which has the data directory anyway;
 * - `pasarela`: a national eFTI gate whose signed request the door has checked (commands/efti.ts).
 */
export type Acceso = 'lectura' | 'escritura' | 'admin' | 'publico' | 'operador' | 'pasarela';

/** The one acting, by access level. */
export type Quien<A extends Acceso> = A extends 'publico' ? Visitante : A extends 'operador' ? Operador : A extends 'pasarela' ? Pasarela : Actor;

/** What a command's body gets: the services, who acts, and the request as received. */
export interface Contexto<A extends Acceso> extends Services {
  quien: Quien<A>;
  /** The input exactly as received (before parsing): which fields were sent, unknown fields. */
  crudo: unknown;
  /**
   * The client's key of this request and its fingerprint (the
   * Idempotency-Key, or the key a caller such as the CSV import gives), when
   * the command honours it: what a create keeps on its DeCA for good, so a
   * replay after the key's record expired still returns that DeCA.
   */
  claveCliente: ClaveCliente | null;
  /**
   * The request's Idempotency-Key as sent, for a composed command that keys
   * its own parts with it (the CSV import: each DeCA's key includes it).
   */
  idempotencyKey: string | null;
}

/**
 * A use case: its input schema, who may run it, whether it honours
 * `Idempotency-Key`, and its body, in one of two forms:
 * - `preparar` (every command but one): reads, checks, takes numbers and
 *   renders outside any transaction and returns a `Plan` — its answer when
 *   there is nothing to write, else `aplicar`; `ejecutar` then opens the one
 *   transaction, runs `aplicar` in it with the idempotency record and the
 *   outbox events, and after the commit drops the cached copies of what it
 *   touched. No command opens a transaction (test/meta/transacciones.test.ts);
 * - `componer`: a command made only of other commands, each run through
 *   `ejecutar` in its own transaction (the CSV import: one create per DeCA).
 * It returns the one representation of its resource, whatever front door
 * called it. See docs/ARCHITECTURE.md.
 */
interface CommandBase<S extends z.ZodType, O, A extends Acceso> {
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
    repetir: (ctx: Contexto<A>, anterior: Repeticion, input: z.output<S>) => Promise<O>;
    /** What of the input the fingerprint covers, when the input is bytes (a photo's hash, not its 2 MB as JSON). */
    resumen?: (crudo: unknown) => unknown;
    /**
     * A create (`preparar` only): its `ref_externa`, which identifies it like
     * a key, for good — a request without a key is claimed by it, and any
     * create finds the DeCA an earlier one left with its key or reference.
     */
    creacion?: (input: z.output<S>) => { ref: string | null };
  };
}

/** A command made of other commands (each through `ejecutar`, each its own transaction): it writes nothing itself. */
export interface CommandCompuesto<S extends z.ZodType, O, A extends Acceso> extends Omit<CommandBase<S, O, A>, 'idempotencia'> {
  componer(ctx: Contexto<A>, input: z.output<S>): Promise<O>;
  idempotencia?: undefined;
  preparar?: undefined;
}

/** A command prepared outside the transaction that `ejecutar` opens for its writes. */
export interface CommandPlan<S extends z.ZodType, O, A extends Acceso> extends CommandBase<S, O, A> {
  preparar(ctx: Contexto<A>, input: z.output<S>): Promise<Plan<O>>;
  componer?: undefined;
}

export type Command<S extends z.ZodType, O, A extends Acceso> = CommandCompuesto<S, O, A> | CommandPlan<S, O, A>;

/** A schema problem: where and what. */
export type Issue = { path: ReadonlyArray<PropertyKey>; message: string };

/** Type-checked command definition (the generic parameters come from the object). */
export function command<S extends z.ZodType, O, A extends Acceso>(def: CommandCompuesto<S, O, A>): Command<S, O, A>;
export function command<S extends z.ZodType, O, A extends Acceso>(def: CommandPlan<S, O, A>): Command<S, O, A>;
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

/** Refuse an actor that may not run a command of this access level, or whose role does not allow it. */
export function autorizar(acceso: Acceso, quien: Actor | Visitante | Operador | Pasarela, permiso?: Permiso): void {
  if (acceso === 'publico' || acceso === 'operador') return;
  if (acceso === 'pasarela') {
    // Only a gate's signed request builds a Pasarela; an account's key or session never runs a gate's command.
    if (!('pasarela' in quien)) throw new AppError('prohibido', 'Solo una pasarela eFTI autenticada puede hacer esta consulta.');
    return;
  }
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

/** Options of one run: the request's Idempotency-Key, or a caller's own key for the request. */
export interface OpcionesEjecutar {
  idempotencyKey?: string | null;
  /**
   * A key the caller gives instead of a header (the CSV import's per-DeCA
   * key and the fingerprint of its rows): the same idempotency as a header key.
   */
  clave?: ClaveCliente | null;
}

/**
 * Run a command for `quien`: check the access level, parse the input with
 * its schema (422 `validacion` naming every field), and, when the request
 * carries an Idempotency-Key (or, for a create, a `ref_externa`) and the
 * command honours it, run it at most once per key: a repeat gets the first
 * request's result (`repetida`), a different request with the same key gets
 * 422 `validacion` on `Idempotency-Key`.
 */
export async function ejecutar<S extends z.ZodType, O, A extends Acceso>(
  services: Services,
  cmd: Command<S, O, A>,
  quien: Quien<A>,
  crudo: unknown,
  opts: OpcionesEjecutar = {},
): Promise<Ejecucion<O>> {
  try {
    return await ejecutarUnaVez(services, cmd, quien, crudo, opts);
  } catch (err) {
    // Two requests wrote the same unique value at once and this one lost: the refusal the
    // earlier check would have given, or a conflict to retry; never a 500.
    throw errorDeUnico(err) ?? err;
  }
}

async function ejecutarUnaVez<S extends z.ZodType, O, A extends Acceso>(services: Services, cmd: Command<S, O, A>, quien: Quien<A>, crudo: unknown, opts: OpcionesEjecutar): Promise<Ejecucion<O>> {
  autorizar(cmd.acceso, quien, cmd.permiso);
  if (cmd.acceso === 'publico') await limitarVisitante(services, quien as Visitante);
  const ctx: Contexto<A> = { ...services, quien, crudo, claveCliente: null, idempotencyKey: opts.idempotencyKey ?? null };
  const parsed = cmd.entrada.safeParse(crudo);
  if (!parsed.success) throw validationError(cmd.completarErrores ? cmd.completarErrores(ctx, crudo, parsed.error.issues) : parsed.error.issues);
  const input = parsed.data as z.output<S>;

  const idem = cmd.idempotencia;
  const honra = idem && (!idem.aplica || idem.aplica(input)) && cmd.acceso !== 'publico' && cmd.acceso !== 'operador' && cmd.acceso !== 'pasarela';
  const cliente: ClaveCliente | null = !honra
    ? null
    : (opts.clave ?? (opts.idempotencyKey ? { clave: opts.idempotencyKey, huella: huella(cmd.nombre, idem.resumen ? idem.resumen(crudo) : crudo) } : null));
  if (!cmd.preparar) return { valor: await cmd.componer(ctx, input), repetida: false };
  return ejecutarPlan(services, cmd, { ...ctx, claveCliente: cliente }, input, honra ? idem : undefined);
}

/**
 * A `preparar` command: claim its key (if any) → prepare (outside any
 * transaction) → one transaction with the plan's writes, the key's record
 * and the outbox events → drop this process's cached copies of what it
 * touched, once committed. A create that lost a race for its `ref_externa`
 * to a request with another key runs once more, and gets that DeCA.
 */
async function ejecutarPlan<S extends z.ZodType, O, A extends Acceso>(
  services: Services,
  cmd: CommandPlan<S, O, A>,
  ctx: Contexto<A>,
  input: z.output<S>,
  idem: CommandBase<S, O, A>['idempotencia'],
  otraVez = true,
): Promise<Ejecucion<O>> {
  const actor = ctx.quien as Actor;
  const cliente = ctx.claveCliente;
  const ref = idem?.creacion?.(input).ref ?? null;
  const reclamo: Reclamo | null = cliente
    ? { clave: claveDeCliente(cliente.clave), huella: cliente.huella, ...(idem?.creacion ? { creacion: { cliente: cliente.clave, ref } } : {}) }
    : ref !== null
      ? // Two requests with the same ref_externa at once: the second waits for the first and gets its DeCA.
        { clave: claveRef(ref), huella: huella(ref), esperarSiDistinta: true, creacion: { cliente: null, ref } }
      : null;

  if (!reclamo || !idem) {
    const r = await escribirPlan(services.db, () => cmd.preparar(ctx, input));
    soltarCaches(services, r.escrita);
    return { valor: r.valor, repetida: false };
  }

  const res = await reclamar(services.db, services.clock, actor, reclamo);
  if (!res.reclamada) {
    if (res.repeticion.distinta) throw idempotenciaDistinta();
    return { valor: await idem.repetir(ctx, res.repeticion, input), repetida: true };
  }
  const { dueno } = res;
  try {
    const r = await escribirPlan(
      services.db,
      () => cmd.preparar(ctx, input),
      (trx, e) => [registroDeClave(trx, actor, reclamo.clave, dueno, e.registro ?? { respuesta: e.valor })],
    );
    soltarCaches(services, r.escrita);
    // Nothing written (nothing changed): the key is given back, so the same request can run again.
    // A key that cannot be given back now (the database just went out of reach) must not turn this
    // answer into an error; the claim is abandoned, and taken over after a minute.
    if (!r.escrita) await liberar(services.db, actor, reclamo.clave, dueno).catch(() => {});
    return { valor: r.valor, repetida: false };
  } catch (err) {
    await liberar(services.db, actor, reclamo.clave, dueno).catch(() => {});
    // Another create took the same ref_externa meanwhile (domain/decas/ref-externa.ts): run again, it answers with that DeCA.
    if (otraVez && ref !== null && err instanceof AppError && err.codigo === 'ref_externa_usada') return ejecutarPlan(services, cmd, ctx, input, idem, false);
    throw err;
  }
}

/**
 * A change of a DeCA leaves this process's cached copy stale at once (the
 * database's NOTIFY tells the other processes; this one must not wait for it
 * to read its own write).
 */
function soltarCaches(services: Services, escrita: Escritura<unknown> | null): void {
  for (const id of escrita?.tocadas ?? []) services.caches.decas.invalidate(id);
  escrita?.despues?.();
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
