import { type Kysely, sql } from 'kysely';
import { AppError } from '../shared/errors';
import { REINTENTAR_EN_S } from './db/errores';
import type { DB } from './db/schema';

/** How long /readyz waits for the database's answer before saying the process is not ready. */
export const READY_QUERY_MS = 2_000;

/**
 * Whether this process should get traffic, as GET /readyz answers it (a load
 * balancer's check). Workers register while they run (main.ts); from SIGTERM
 * on the process is never ready again, so the balancer stops sending it
 * requests while it drains. GET /healthz (liveness) asks none of this.
 */
export interface Readiness {
  /** Register a worker by name: the process is ready only while `running()` is true. */
  watch(name: string, running: () => boolean): void;
  /** The process is stopping (SIGTERM). */
  stop(): void;
  stopping(): boolean;
  /** Resolves when ready; otherwise throws 503 `no_disponible` saying why. */
  check(db: Kysely<DB>): Promise<void>;
}

const noDisponible = (mensaje: string) => new AppError('no_disponible', mensaje, { headers: { 'Retry-After': String(REINTENTAR_EN_S) } });

/** The readiness of one process (one per `createServices`). */
export function createReadiness(): Readiness {
  const workers = new Map<string, () => boolean>();
  let stopping = false;
  return {
    watch(name, running) {
      workers.set(name, running);
    },
    stop() {
      stopping = true;
    },
    stopping: () => stopping,
    async check(db) {
      if (stopping) throw noDisponible('Este servidor se está deteniendo; las peticiones van a otro.');
      let timer: NodeJS.Timeout | undefined;
      const answered = await Promise.race([
        sql`select 1`.execute(db).then(
          () => true,
          () => false,
        ),
        new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), READY_QUERY_MS))),
      ]).finally(() => clearTimeout(timer));
      if (!answered) throw noDisponible('La base de datos no responde; vuelva a intentarlo en unos segundos.');
      const stopped = [...workers].filter(([, running]) => !running()).map(([name]) => name);
      if (stopped.length) throw noDisponible(`No funciona el trabajo de fondo: ${stopped.join(', ')}.`);
    },
  };
}
