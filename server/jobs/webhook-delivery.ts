import { sql, type Kysely } from 'kysely';
import type { Clock } from '../clock';
import type { Database } from '../db/open';
import type { DB } from '../db/schema';
import { intentarEntrega, liberarEnCurso, podarEntregas, reclamarEntregas, type EnvioDeps } from '../domain/webhooks/entregas';
import type { Logger } from '../log';
import { createWebhookFetch, type WebhookFetch } from '../net/webhook-request';
import { sinConexion } from '../db/errores';
import { startListener, type Listener } from '../db/notify';

/** What one pass of the worker needs. Without `fetch`, the SSRF-safe transport is used with `allowInsecure`. */
export interface RunWebhooksDeps {
  db: Kysely<DB>;
  clock: Clock;
  fetch?: WebhookFetch;
  /** WEBHOOK_ALLOW_INSECURE (only used when `fetch` is not given). */
  allowInsecure?: boolean;
  /** 10 s; tests inject a shorter one. */
  timeoutMs?: number;
  leaseMs?: number;
  /** Deliveries claimed at most in this pass. */
  limit?: number;
  log?: Logger;
}

/**
 * One pass, for tests and tools: claim the due deliveries (short
 * transaction, SKIP LOCKED, lease), send them concurrently outside any
 * transaction, record each result (second short transaction). Resolves when
 * every attempt of the pass is recorded.
 */
export async function runWebhooksOnce(deps: RunWebhooksDeps): Promise<{ intentadas: number; entregadas: number }> {
  const own = deps.fetch ? null : createWebhookFetch({ allowInsecure: deps.allowInsecure ?? false });
  const envio: EnvioDeps = { db: deps.db, clock: deps.clock, fetch: deps.fetch ?? own!, timeoutMs: deps.timeoutMs, leaseMs: deps.leaseMs, log: deps.log };
  try {
    const claimed = await reclamarEntregas(deps.db, deps.clock, deps.limit ?? 100, deps.leaseMs);
    const results = await Promise.all(claimed.map((c) => intentarEntrega(envio, c)));
    return { intentadas: claimed.length, entregadas: results.filter((r) => r.status !== null && r.status >= 200 && r.status < 300).length };
  } finally {
    own?.close();
  }
}

export interface WebhookWorkerOptions {
  database: Database;
  clock: Clock;
  log: Logger;
  allowInsecure: boolean;
  fetch?: WebhookFetch;
  timeoutMs?: number;
  leaseMs?: number;
  /** Attempts in flight at once (default 16): one slow receiver does not hold up the others. */
  concurrency?: number;
  /** Fallback poll while LISTEN works (default 5 s) and while it does not (default 1 s). */
  pollMs?: number;
  fastPollMs?: number;
  /** Prune deliveries older than 30 days this often (default 1 h). */
  pruneEveryMs?: number;
  /** The process's LISTEN connection; without it the worker opens (and closes) its own. */
  listener?: Listener;
  /**
   * On `stop()`, how long attempts in flight may take to end by themselves
   * (default 5 s); those still waiting on their receiver are then cut and
   * their leases given back, for another process to send at once.
   */
  stopWaitMs?: number;
}

/** The running worker. */
export interface WebhookWorker {
  wake(): void;
  /** False once stopping (what /readyz asks). */
  running(): boolean;
  /** Stop claiming; wait for attempts in flight (at most `stopWaitMs`), cut the rest and give their leases back. */
  stop(): Promise<void>;
}

/** Waits after consecutive failed claims (the database out of reach): 1 s, 2 s, 4 s, then the usual poll. */
function backoffAfter(failures: number, fastPollMs: number, pollMs: number): number {
  return Math.min(pollMs, fastPollMs * 2 ** (failures - 1));
}

/**
 * The in-process delivery loop (main.ts starts it; app.ts never does). It is
 * woken by LISTEN right after a transaction that wrote deliveries commits,
 * polls as a fallback (retries, expired leases, a lost LISTEN connection),
 * keeps up to `concurrency` attempts in flight, and prunes old deliveries.
 * Several processes can run it on one PostgreSQL: claims use SKIP LOCKED
 * and a lease, so no delivery is sent twice while its worker lives.
 */
export async function startWebhookWorker(opts: WebhookWorkerOptions): Promise<WebhookWorker> {
  const { database, clock, log } = opts;
  const db = database.db;
  const concurrency = opts.concurrency ?? 16;
  const pollMs = opts.pollMs ?? 5_000;
  const fastPollMs = opts.fastPollMs ?? 1_000;
  const own = opts.fetch ? null : createWebhookFetch({ allowInsecure: opts.allowInsecure });
  const stopping = new AbortController();
  const envio: EnvioDeps = { db, clock, fetch: opts.fetch ?? own!, timeoutMs: opts.timeoutMs, leaseMs: opts.leaseMs, log, stopSignal: stopping.signal };

  let stopped = false;
  /** Claims that failed in a row: the poll backs off, and only the first is logged above debug. */
  let failures = 0;
  let inflight = 0;
  let claimedSinceAnalyze = 0;
  let slowClaim = false;
  let lastAnalyze = 0;
  let tuning: Promise<void> | null = null;
  let analyzeRuns = 0;

  /**
   * PGlite has no autovacuum: without it the planner never learns how many
   * deliveries are waiting (a 3000-row backlog made each claim sort the whole
   * table, 15 ms instead of 0.3 ms) and updated rows are never reclaimed. So
   * on the embedded database the worker analyzes its tables at start, after
   * a slow claim, after every 500 claims or each minute it was busy, and
   * vacuums them every tenth time.
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
    tuning = (vacuum ? sql`vacuum (analyze) webhook_entregas, webhook_intentos, webhooks` : sql`analyze webhook_entregas, webhook_intentos, webhooks`)
      .execute(db)
      .then(() => undefined)
      .catch((err: unknown) => log.warn({ err }, 'webhook tables analyze failed'))
      .finally(() => {
        tuning = null;
      });
  };

  if (database.kind === 'pglite') {
    const n = await liberarEnCurso(db);
    if (n) log.info({ entregas: n }, 'webhook deliveries interrupted by the last stop will be sent again');
    await sql`analyze webhook_entregas, webhook_intentos, webhooks`.execute(db);
    lastAnalyze = Date.now();
  }

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
    pollTimer = setTimeout(wake, failures ? backoffAfter(failures, fastPollMs, pollMs) : listener?.healthy() ? pollMs : fastPollMs);
    pollTimer.unref();
  };

  async function pump(): Promise<void> {
    pumping = true;
    try {
      do {
        again = false;
        const free = concurrency - inflight;
        // Each finishing attempt wakes the loop again. Under load, claim in
        // batches (a quarter of the slots) rather than one row per claim.
        if (free <= 0 || (inflight > 0 && free < Math.max(1, concurrency >> 2))) break;
        let claimed;
        try {
          const t0 = performance.now();
          claimed = await reclamarEntregas(db, clock, free, opts.leaseMs);
          if (performance.now() - t0 > 10) slowClaim = true;
        } catch (err) {
          if (!stopped) {
            failures++;
            const level = failures > 1 ? 'debug' : sinConexion(err) ? 'warn' : 'error';
            log[level]({ err, failures }, 'webhook claim failed; retrying with backoff');
          }
          break;
        }
        if (failures) {
          log.info({ failures }, 'webhook claims work again');
          failures = 0;
        }
        for (const c of claimed) {
          inflight++;
          const p: Promise<void> = intentarEntrega(envio, c)
            .then(() => undefined)
            .catch((err: unknown) => log.error({ err, entrega: c.entrega_id }, 'webhook attempt could not be recorded; it goes again after its lease'))
            .finally(() => {
              inflight--;
              running.delete(p);
              wake();
            });
          running.add(p);
        }
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
    unsubscribe.push(listener.on('entregas', wake), listener.onReconnect(wake));
  } catch (err) {
    log.warn({ err }, 'webhook LISTEN unavailable; polling instead');
  }

  const prune = () =>
    podarEntregas(db, clock)
      .then((n) => n && log.info({ entregas: n }, 'old webhook deliveries pruned'))
      .catch((err: unknown) => log.error({ err }, 'webhook prune failed'));
  void prune();
  const pruneTimer = setInterval(prune, opts.pruneEveryMs ?? 60 * 60 * 1000);
  pruneTimer.unref();

  wake();

  return {
    wake,
    running: () => !stopped,
    async stop() {
      if (stopped) return;
      stopped = true;
      if (pollTimer) clearTimeout(pollTimer);
      clearInterval(pruneTimer);
      for (const u of unsubscribe) u();
      if (ownListener) await listener?.close();
      while (pumping) await new Promise((r) => setTimeout(r, 5));
      const inFlight = Promise.allSettled([...running, tuning]);
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([inFlight, new Promise((r) => (timer = setTimeout(r, opts.stopWaitMs ?? 5_000)))]);
      clearTimeout(timer);
      if (running.size) log.info({ entregas: running.size }, 'stopping: webhook attempts still waiting on their receivers are cut and given back');
      stopping.abort();
      await inFlight;
      own?.close();
    },
  };
}
