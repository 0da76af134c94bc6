import { sql } from 'kysely';
import { sinConexion } from '../db/errores';
import { type Canal, type Listener, startListener } from '../db/notify';
import type { Database } from '../db/open';
import type { Logger } from '../log';

/**
 * The one outbox runner. Work that must leave the process (webhook
 * deliveries, mail) is written as rows in the transaction of the change that
 * causes it; a lane says how to claim, attempt and record those rows, and
 * this runner owns everything else once: the wake-up (LISTEN on the lane's
 * channel, polling as a fallback), the lease, the concurrency, the backoff
 * schedule, pruning, PGlite's table statistics and a graceful stop.
 */

/** What a lane's `entregar` returns when the worker's stop cut the attempt before any answer: the item is given back (`soltar`). */
export const CORTADO: unique symbol = Symbol('cortado');
export type Cortado = typeof CORTADO;

/** A lane's log lines, in its own words (operators search the logs for them). */
export interface TextosCarril {
  /** The field that counts items in these lines: `entregas`, `correos`. */
  campo: string;
  /** A claim (or an attempt that could not start) failed: the database is out of reach. */
  reclamoFallido: string;
  reclamoVuelve: string;
  anotacionFallida: string;
  sueltaFallida: string;
  /** PGlite start: leases of the last run released. */
  liberadas: string;
  /** Stop: attempts still in flight when the wait ends. */
  cortadas: string;
  sinListen: string;
  podadas: string;
  podaFallida: string;
  analisisFallido: string;
}

/**
 * One kind of outbox work. `T` is a claimed item (it carries its lease
 * token), `R` the outcome of one attempt.
 */
export interface Carril<T, R> {
  /** The NOTIFY channel its writers send after commit. */
  canal: Canal;
  /** How long a claimed item belongs to its claimer: longer than any attempt, so a live worker never loses one. */
  leaseMs: number;
  /** Attempts in flight at once. */
  concurrencia: number;
  /**
   * Items claimed at once and attempted `concurrencia` at a time (mail: a
   * batch sent one by one), the next batch once this one is done. Without it
   * a claim takes only as many as there are free slots, so nothing waits
   * leased (webhooks).
   */
  lote?: number;
  /** The tables its claims read: PGlite has no autovacuum, so the runner analyzes them there. */
  tablas: readonly string[];
  textos: TextosCarril;
  /** Claim up to `limite` due items in one short transaction (SKIP LOCKED and a lease judged by the database's clock). */
  reclamar(limite: number, leaseMs: number): Promise<T[]>;
  /**
   * Attempt one item, outside any transaction. `signal` aborts when a
   * stopping worker stops waiting: an attempt it cuts returns CORTADO.
   * Throws only when nothing was attempted (the database out of reach).
   */
  entregar(item: T, signal: AbortSignal): Promise<R | Cortado>;
  /** Record the attempt: done, failed for good, or the next attempt (see {@link siguienteIntento}); the lease is released. */
  reprogramar(item: T, resultado: R, signal: AbortSignal): Promise<void>;
  /** Give back leases of items not attempted, or cut: any process takes them at once, not when the lease ends. */
  soltar(items: readonly T[]): Promise<void>;
  /** Release every lease at start. Only on PGlite: its one process is this one, so every lease there is a dead one. */
  liberar(): Promise<number>;
  /** Delete old rows; returns how many. */
  podar?(): Promise<number>;
  /** The log fields naming one item. */
  etiqueta(item: T): Record<string, unknown>;
}

/**
 * The backoff schedule of every lane: after the `intento`-th failed attempt
 * (1 = the first) the next one is `esperas[intento - 1]` after `desde`;
 * past the end of the list there is none (null: failed for good).
 */
export function siguienteIntento(esperas: readonly number[], intento: number, desde: Date): Date | null {
  const espera = intento >= 1 ? esperas[intento - 1] : undefined;
  return espera === undefined ? null : new Date(desde.getTime() + espera);
}

/** One attempt of a pass and its outcome. */
export interface Hecho<T, R> {
  item: T;
  resultado: R | Cortado;
}

/**
 * One pass, for tests and tools: claim up to `limite` due items, attempt
 * them `concurrencia` at a time, record each. Resolves when every attempt is
 * recorded. If an attempt could not start or its record failed, nothing more
 * is started, the items not started are given back, and the error is thrown.
 */
export async function pasarUnaVez<T, R>(carril: Carril<T, R>, opts: { limite?: number; concurrencia?: number; leaseMs?: number } = {}): Promise<Hecho<T, R>[]> {
  const items = await carril.reclamar(opts.limite ?? carril.lote ?? carril.concurrencia, opts.leaseMs ?? carril.leaseMs);
  // A pass is not stopped halfway: nothing aborts its attempts but their own timeouts.
  const signal = new AbortController().signal;
  const hechos: Hecho<T, R>[] = [];
  const devolver: T[] = [];
  let siguiente = 0;
  const errores: unknown[] = [];
  const trabajar = async (): Promise<void> => {
    while (siguiente < items.length && errores.length === 0) {
      const item = items[siguiente++]!;
      let resultado: R | Cortado;
      try {
        resultado = await carril.entregar(item, signal);
      } catch (err) {
        devolver.push(item);
        errores.push(err);
        return;
      }
      try {
        if (resultado === CORTADO) devolver.push(item);
        else await carril.reprogramar(item, resultado, signal);
      } catch (err) {
        errores.push(err);
      }
      hechos.push({ item, resultado });
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(opts.concurrencia ?? carril.concurrencia, items.length)) }, trabajar));
  devolver.push(...items.slice(siguiente));
  if (devolver.length) await carril.soltar(devolver).catch(() => {});
  if (errores.length) throw errores[0];
  return hechos;
}

export interface OpcionesTrabajador {
  database: Database;
  log: Logger;
  /** The process's LISTEN connection; without it the worker opens (and closes) its own. */
  listener?: Listener;
  /** Attempts in flight at once (the lane's by default). */
  concurrencia?: number;
  leaseMs?: number;
  /** Fallback poll while LISTEN works (default 5 s) and while it does not (default 1 s). */
  pollMs?: number;
  fastPollMs?: number;
  /** Prune old rows this often (default 1 h), if the lane prunes. */
  pruneEveryMs?: number;
  /**
   * On `stop()`, how long attempts in flight may take to end by themselves
   * (default 5 s); the lane's `entregar` is then told to cut what still waits.
   */
  stopWaitMs?: number;
}

/** A running worker. */
export interface Trabajador {
  wake(): void;
  /** False once stopping (what /readyz asks). */
  running(): boolean;
  /** Stop claiming; give back what waits; wait for attempts in flight (at most `stopWaitMs`), cut the rest. */
  stop(): Promise<void>;
}

/** Waits after consecutive failed claims (the database out of reach): 1 s, 2 s, 4 s, then the usual poll. */
function esperaTrasFallos(failures: number, fastPollMs: number, pollMs: number): number {
  return Math.min(pollMs, fastPollMs * 2 ** (failures - 1));
}

/**
 * The in-process loop of one lane (main.ts starts it; app.ts never does).
 * Woken by LISTEN right after a transaction that wrote work commits, it
 * polls as a fallback (retries, expired leases, a lost LISTEN connection),
 * keeps up to `concurrencia` attempts in flight, and prunes old rows.
 * Several processes can run it on one PostgreSQL: claims use SKIP LOCKED and
 * a lease, so no item is attempted twice while its worker lives. A claim
 * that fails (the database out of reach) is logged once, then at debug
 * level, until one works again, the poll backing off meanwhile.
 */
export async function arrancarTrabajador<T, R>(carril: Carril<T, R>, opts: OpcionesTrabajador): Promise<Trabajador> {
  const { database, log } = opts;
  const { textos } = carril;
  const db = database.db;
  const concurrencia = opts.concurrencia ?? carril.concurrencia;
  /** Items this worker holds leased at most (waiting plus in flight). */
  const ventana = carril.lote ?? concurrencia;
  /** Free slots that make a claim worth it while attempts are in flight. */
  const umbral = carril.lote ? ventana : Math.max(1, ventana >> 2);
  const leaseMs = opts.leaseMs ?? carril.leaseMs;
  const pollMs = opts.pollMs ?? 5_000;
  const fastPollMs = opts.fastPollMs ?? 1_000;
  const parando = new AbortController();
  const tablas = sql.join(carril.tablas.map((t) => sql.table(t)));

  let stopped = false;
  /** Claims that failed in a row: the poll backs off, and only the first is logged above debug. */
  let failures = 0;
  let claimedSinceAnalyze = 0;
  let slowClaim = false;
  let lastAnalyze = 0;
  let tuning: Promise<void> | null = null;
  let analyzeRuns = 0;

  /**
   * PGlite has no autovacuum: without it the planner never learns how many
   * rows are waiting (a 3000-row webhook backlog made each claim sort the
   * whole table, 15 ms instead of 0.3 ms) and updated rows are never
   * reclaimed. So on the embedded database the worker analyzes its lane's
   * tables at start, after a slow claim, after every 500 claims or each
   * minute it was busy, and vacuums them every tenth time.
   */
  const tune = () => {
    if (database.kind !== 'pglite' || tuning || stopped) return;
    const since = Date.now() - lastAnalyze;
    const due = (slowClaim && since > 5_000) || claimedSinceAnalyze >= 500 || (claimedSinceAnalyze > 0 && since > 60_000);
    if (!due) return;
    claimedSinceAnalyze = 0;
    slowClaim = false;
    lastAnalyze = Date.now();
    const vacuum = ++analyzeRuns % 10 === 0;
    tuning = (vacuum ? sql`vacuum (analyze) ${tablas}` : sql`analyze ${tablas}`)
      .execute(db)
      .then(() => undefined)
      .catch((err: unknown) => log.warn({ err }, textos.analisisFallido))
      .finally(() => {
        tuning = null;
      });
  };

  if (database.kind === 'pglite') {
    const n = await carril.liberar();
    if (n) log.info({ [textos.campo]: n }, textos.liberadas);
    await sql`analyze ${tablas}`.execute(db);
    lastAnalyze = Date.now();
  }

  /** Claimed, not yet started (a lane with `lote`); given back on stop. */
  const cola: T[] = [];
  const running = new Set<Promise<void>>();
  let pumping = false;
  let again = false;
  let scheduled = false;
  let pollTimer: NodeJS.Timeout | null = null;
  let listener: Listener | null = opts.listener ?? null;
  const ownListener = !opts.listener;
  const unsubscribe: (() => void)[] = [];

  const schedulePoll = () => {
    if (pollTimer) clearTimeout(pollTimer);
    if (stopped) return;
    pollTimer = setTimeout(wake, failures ? esperaTrasFallos(failures, fastPollMs, pollMs) : listener?.healthy() ? pollMs : fastPollMs);
    pollTimer.unref();
  };

  const fallo = (err: unknown) => {
    if (stopped) return;
    failures++;
    const level = failures > 1 ? 'debug' : sinConexion(err) ? 'warn' : 'error';
    log[level]({ err, failures }, textos.reclamoFallido);
  };

  const soltar = (items: readonly T[]) =>
    items.length ? carril.soltar(items).catch((err: unknown) => log.warn({ err, ...carril.etiqueta(items[0]!), [textos.campo]: items.length }, textos.sueltaFallida)) : Promise.resolve();

  async function intentar(item: T): Promise<void> {
    let resultado: R | Cortado;
    try {
      resultado = await carril.entregar(item, parando.signal);
    } catch (err) {
      // Nothing was attempted (the database is out of reach): this item and those waiting go back.
      fallo(err);
      await soltar([item, ...cola.splice(0)]);
      return;
    }
    try {
      if (resultado === CORTADO) await soltar([item]);
      else await carril.reprogramar(item, resultado, parando.signal);
    } catch (err) {
      log.error({ err, ...carril.etiqueta(item) }, textos.anotacionFallida);
    }
  }

  const lanzar = () => {
    while (cola.length && running.size < concurrencia) {
      const p: Promise<void> = intentar(cola.shift()!).finally(() => {
        running.delete(p);
        wake();
      });
      running.add(p);
    }
  };

  async function pump(): Promise<void> {
    pumping = true;
    try {
      do {
        again = false;
        lanzar();
        if (cola.length) break;
        const free = ventana - running.size;
        // Each finishing attempt wakes the loop again. Under load, claim in
        // batches (a quarter of the window) rather than one row per claim; a
        // lane with `lote` claims its next batch once the last one is done.
        if (free <= 0 || (running.size > 0 && free < umbral)) break;
        let claimed: T[];
        try {
          const t0 = performance.now();
          claimed = await carril.reclamar(free, leaseMs);
          if (performance.now() - t0 > 10) slowClaim = true;
        } catch (err) {
          fallo(err);
          break;
        }
        if (failures) {
          log.info({ failures }, textos.reclamoVuelve);
          failures = 0;
        }
        cola.push(...claimed);
        lanzar();
        claimedSinceAnalyze += claimed.length;
        if (claimed.length === free) again = true; // there may be more due
      } while (again && !stopped);
    } finally {
      pumping = false;
    }
    tune();
    schedulePoll();
  }

  /** Coalesce wake-ups (a burst of NOTIFYs or finished attempts) into one claim. */
  function wake(): void {
    if (stopped) return;
    if (pumping) {
      again = true;
      return;
    }
    if (scheduled) return;
    scheduled = true;
    setImmediate(() => {
      scheduled = false;
      if (!stopped && !pumping) void pump();
      else if (pumping) again = true;
    });
  }

  try {
    listener ??= await startListener(database, log);
    unsubscribe.push(listener.on(carril.canal, wake), listener.onReconnect(wake));
  } catch (err) {
    log.warn({ err }, textos.sinListen);
  }

  let pruneTimer: NodeJS.Timeout | null = null;
  if (carril.podar) {
    const podar = carril.podar.bind(carril);
    const prune = () =>
      podar()
        .then((n) => n && log.info({ [textos.campo]: n }, textos.podadas))
        .catch((err: unknown) => log.error({ err }, textos.podaFallida));
    void prune();
    pruneTimer = setInterval(prune, opts.pruneEveryMs ?? 60 * 60 * 1000);
    pruneTimer.unref();
  }

  wake();

  return {
    wake,
    running: () => !stopped,
    async stop() {
      if (stopped) return;
      stopped = true;
      if (pollTimer) clearTimeout(pollTimer);
      if (pruneTimer) clearInterval(pruneTimer);
      for (const u of unsubscribe) u();
      if (ownListener) await listener?.close();
      while (pumping) await new Promise((r) => setTimeout(r, 5));
      await soltar(cola.splice(0));
      const inFlight = Promise.allSettled([...running, tuning]);
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([inFlight, new Promise((r) => (timer = setTimeout(r, opts.stopWaitMs ?? 5_000)))]);
      clearTimeout(timer);
      if (running.size) log.info({ [textos.campo]: running.size }, textos.cortadas);
      parando.abort();
      await inFlight;
    },
  };
}
