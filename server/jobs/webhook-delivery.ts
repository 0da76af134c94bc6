import type { Kysely } from 'kysely';
import type { Clock } from '../clock';
import type { Listener } from '../db/notify';
import type { Database } from '../db/open';
import type { DB } from '../db/schema';
import {
  anotarIntento,
  LEASE_MS,
  liberarEnCurso,
  peticionEntrega,
  plazoParaAnotar,
  podarEntregas,
  REINTENTOS_MS,
  type Reclamada,
  type ResultadoIntento,
  reclamarEntregas,
  resultadoIntento,
  soltarEntregas,
  TIMEOUT_MS,
} from '../domain/webhooks/entregas';
import type { Logger } from '../log';
import { createWebhookFetch, type EnviarWebhook, enviadorWebhooks, type WebhookFetch } from '../net/webhook-request';
import { arrancarTrabajador, type Carril, CORTADO, pasarUnaVez, siguienteIntento, type Trabajador } from './outbox';

/** The webhook lane of the outbox: deliveries claimed and recorded by domain/webhooks/entregas.ts, sent by the sender passed in. */
export function carrilWebhooks(deps: {
  db: Kysely<DB>;
  clock: Clock;
  enviar: EnviarWebhook;
  /** 10 s; tests inject a shorter one. */
  timeoutMs?: number;
  leaseMs?: number;
  concurrencia?: number;
  log?: Logger;
}): Carril<Reclamada, ResultadoIntento & { hasta: number }> {
  const timeoutMs = deps.timeoutMs ?? TIMEOUT_MS;
  const leaseMs = deps.leaseMs ?? LEASE_MS;
  return {
    canal: 'entregas',
    leaseMs,
    // One slow receiver does not hold up the others.
    concurrencia: deps.concurrencia ?? 16,
    tablas: ['webhook_entregas', 'webhook_intentos', 'webhooks'],
    textos: {
      campo: 'entregas',
      reclamoFallido: 'webhook claim failed; retrying with backoff',
      reclamoVuelve: 'webhook claims work again',
      anotacionFallida: 'webhook attempt could not be recorded; it goes again after its lease',
      sueltaFallida: 'webhook lease could not be released; it ends by itself',
      liberadas: 'webhook deliveries interrupted by the last stop will be sent again',
      cortadas: 'stopping: webhook attempts still waiting on their receivers are cut and given back',
      sinListen: 'webhook LISTEN unavailable; polling instead',
      podadas: 'old webhook deliveries pruned',
      podaFallida: 'webhook prune failed',
      analisisFallido: 'webhook tables analyze failed',
    },
    reclamar: (limite, lease) => reclamarEntregas(deps.db, deps.clock, limite, lease),
    async entregar(c, signal) {
      const hasta = plazoParaAnotar(leaseMs, timeoutMs);
      const r = await deps.enviar(peticionEntrega(c, deps.clock.now()), { timeoutMs, signal });
      // Cut by a stop while waiting on the receiver: not the receiver's failure; its lease goes back.
      if (r.cortada) return CORTADO;
      return { ...resultadoIntento(r), hasta };
    },
    reprogramar: (c, r, signal) => anotarIntento(deps, c, r, { proximo: siguienteIntento(REINTENTOS_MS, c.intentos_auto, c.at), hasta: r.hasta, signal }),
    // The lane claims only as many as it has free slots, so what it gives back is always a cut attempt.
    soltar: (cs) => soltarEntregas(deps.db, cs),
    liberar: () => liberarEnCurso(deps.db),
    podar: () => podarEntregas(deps.db, deps.clock),
    etiqueta: (c) => ({ entrega: c.entrega_id }),
  };
}

/** The sender over `fetch`, or over an SSRF-safe transport of its own (closed by the returned `close`). */
function enviador(fetch: WebhookFetch | undefined, allowInsecure: boolean): { enviar: EnviarWebhook; close(): void } {
  if (fetch) return { enviar: enviadorWebhooks(fetch), close() {} };
  const own = createWebhookFetch({ allowInsecure });
  return { enviar: enviadorWebhooks(own), close: () => own.close() };
}

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
 * One pass, for tests and tools: claim the due deliveries, send them all at
 * once outside any transaction, record each result. Resolves when every
 * attempt of the pass is recorded.
 */
export async function runWebhooksOnce(deps: RunWebhooksDeps): Promise<{ intentadas: number; entregadas: number }> {
  const { enviar, close } = enviador(deps.fetch, deps.allowInsecure ?? false);
  try {
    const limite = deps.limit ?? 100;
    const hechos = await pasarUnaVez(carrilWebhooks({ ...deps, enviar }), { limite, concurrencia: limite });
    const ok = (h: (typeof hechos)[number]) => h.resultado !== CORTADO && h.resultado.status !== null && h.resultado.status >= 200 && h.resultado.status < 300;
    return { intentadas: hechos.length, entregadas: hechos.filter(ok).length };
  } finally {
    close();
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
  /** Attempts in flight at once (default 16). */
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

export type WebhookWorker = Trabajador;

/** The webhook lane run by the outbox runner in this process (main.ts starts it). */
export async function startWebhookWorker(opts: WebhookWorkerOptions): Promise<WebhookWorker> {
  const { enviar, close } = enviador(opts.fetch, opts.allowInsecure);
  const carril = carrilWebhooks({ db: opts.database.db, clock: opts.clock, enviar, timeoutMs: opts.timeoutMs, leaseMs: opts.leaseMs, concurrencia: opts.concurrency, log: opts.log });
  const worker = await arrancarTrabajador(carril, opts).catch((err: unknown) => {
    close();
    throw err;
  });
  return {
    ...worker,
    async stop() {
      await worker.stop();
      close();
    },
  };
}
