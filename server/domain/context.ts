import type { Kysely, Transaction } from 'kysely';
import type { BlobStore } from '../blobs/almacen';
import type { Clock } from '../clock';
import type { DB } from '../db/schema';
import type { DecaPdfRenderer } from '../documents/pdf-pool';
import type { EventosNuevos } from './outbox';
import type { Parte } from './sentencia';

/**
 * What the DeCA use cases need besides the actor. They read and render
 * outside any transaction (`preparar…`) and write inside the one the command
 * layer opens (`aplicar`, see `Plan`).
 */
export interface DomainContext {
  db: Kysely<DB>;
  clock: Clock;
  renderPdf: DecaPdfRenderer;
  /** Where a rendered version's PDF is written, before its row (which keeps only its hash, size and key). */
  blobs: BlobStore;
  /** Public site root, for the URLs printed on the document. */
  siteUrl: string;
}

/** The transaction a change writes in: the command layer's, never opened by the use case. */
export type Trx = Transaction<DB>;

/** What a request leaves under its idempotency key for a repeat: the DeCA it produced, and/or its answer. */
export interface RegistroIdempotencia {
  decaId?: number | null;
  respuesta?: unknown;
}

/** What `aplicar` wrote: the answer, and what the command layer does in the same transaction and after it. */
export interface Escritura<T> {
  valor: T;
  /**
   * Recorded under the request's idempotency key, in the same transaction
   * (when the command honours one); by default the answer itself.
   */
  registro?: RegistroIdempotencia;
  /** Events for the outbox, written in the same transaction after `aplicar`. */
  eventos?: EventosNuevos[];
  /**
   * Writes that need nothing back before the answer (the address book, the
   * month's count), made in the transaction's last statement with the key's
   * record and the events: one round trip for all of them.
   */
  partes?: Parte[];
  /** DeCAs whose cached copies this process drops once the transaction has committed. */
  tocadas?: number[];
  /** What to do once the transaction has committed, and only then (drop another cached copy: an API key's). */
  despues?: () => void;
}

/**
 * A use case prepared outside any transaction (reads, the number, the PDF
 * rendered and sealed): either its answer, nothing to write (`valor`), or
 * the writes to make in one transaction (`aplicar`). `aplicar` only writes
 * (and locks and checks what it changes); when it finds the row moved since
 * it was prepared it throws `RevisionCambiada`, and the command layer asks
 * `reintentar` (or the use case again) for a new plan.
 */
export type Plan<T> =
  | {
      valor: T;
      /** Best-effort writes that do not change the answer, run beside it (a public page's open log). */
      aparte?: Aparte;
    }
  | {
      aplicar(trx: Trx): Promise<Escritura<T>>;
      /** A new plan after `RevisionCambiada`, keeping what must not be taken twice (a number). */
      reintentar?: () => Promise<Plan<T>>;
      /** Undo what was done outside the transaction (a blob written before its row) when the transaction fails for good. */
      siFalla?: () => Promise<void>;
    };

/**
 * A write the answer does not depend on and must never be refused for (an
 * inspector's open of a DeCA, logged and counted): the command layer
 * prepares and writes it in a transaction of its own, waits for it at most
 * `esperaMs` (past it, it goes on alone), and reports a failure to
 * `alFallar` instead of failing the request.
 */
export interface Aparte {
  preparar(): Promise<Plan<unknown>>;
  esperaMs: number;
  alFallar(err: unknown): void;
}

/** Thrown by `aplicar` when the row changed between preparing a change and locking it: prepare again. */
export class RevisionCambiada extends Error {
  override name = 'RevisionCambiada';
}

/** The same plan with its answer (and what is recorded for a repeat) mapped. */
export function mapPlan<T, U>(plan: Plan<T>, f: (v: T) => U, registro?: (v: T, r: RegistroIdempotencia) => RegistroIdempotencia): Plan<U> {
  if ('valor' in plan) return { ...plan, valor: f(plan.valor) };
  const { aplicar, reintentar } = plan;
  return {
    aplicar: async (trx) => {
      const e = await aplicar(trx);
      const valor = f(e.valor);
      return { ...e, valor, ...(registro ? { registro: registro(e.valor, e.registro ?? { respuesta: valor }) } : {}) };
    },
    ...(reintentar ? { reintentar: async () => mapPlan(await reintentar(), f, registro) } : {}),
  };
}
