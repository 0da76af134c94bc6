import type { Kysely } from 'kysely';
import { AppError } from '../../shared/errors';
import type { DB } from '../db/schema';
import { type Aparte, type Escritura, type Plan, RevisionCambiada, type Trx } from './context';
import { partesDeEventos } from './outbox';
import { type Parte, unaSentencia } from './sentencia';

/** Plans tried when the row keeps moving between preparing and locking it. */
const INTENTOS = 4;

/**
 * Carry out a prepared use case: its answer when it has nothing to write,
 * else one transaction with its writes (`aplicar`), then one last statement
 * with the writes it left for it (`partes`), what the command layer adds
 * (`dentro`: the idempotency key's record) and its events for the outbox —
 * reporting the transaction's id, so the COMMIT follows at once. When
 * `aplicar` finds the row moved since it was prepared, a new plan is made
 * (`reintentar`, else `preparar` again), up to 4 times, then 409
 * `conflicto`. Returns the written change (null when nothing was written).
 */
export async function escribirPlan<T>(
  db: Kysely<DB>,
  preparar: () => Promise<Plan<T>>,
  dentro?: (trx: Trx, e: Escritura<T>) => Parte[] | Promise<Parte[]>,
): Promise<{ valor: T; escrita: Escritura<T> | null }> {
  let plan = await preparar();
  for (let intento = 1; ; intento++) {
    if ('valor' in plan) {
      if (plan.aparte) await escribirAparte(db, plan.aparte);
      return { valor: plan.valor, escrita: null };
    }
    const actual = plan;
    try {
      const escrita = await db.transaction().execute(async (trx) => {
        const e = await actual.aplicar(trx);
        await unaSentencia(trx, [...(e.partes ?? []), ...((await dentro?.(trx, e)) ?? []), ...partesDeEventos(e.eventos ?? [])], { xid: true });
        return e;
      });
      return { valor: escrita.valor, escrita };
    } catch (err) {
      if (!(err instanceof RevisionCambiada) || intento >= INTENTOS) await actual.siFalla?.().catch(() => undefined);
      if (!(err instanceof RevisionCambiada)) throw err;
      if (intento >= INTENTOS) {
        throw new AppError('conflicto', 'La DeCA ha cambiado varias veces mientras se procesaba su petición. Reintente.', { headers: { 'Retry-After': '1' } });
      }
      plan = actual.reintentar ? await actual.reintentar() : await preparar();
    }
  }
}

/**
 * The plan of a change that needs no reading first, or whose reads are done:
 * `escribir` runs in the command layer's transaction and its result is the
 * answer (what a repeat of the request gets); `despues` runs once that
 * transaction has committed.
 */
export function escritura<T>(escribir: (trx: Trx) => Promise<T>, despues?: (valor: T) => void): Plan<T> {
  return {
    aplicar: async (trx) => {
      const valor = await escribir(trx);
      return { valor, ...(despues ? { despues: () => despues(valor) } : {}) };
    },
  };
}

/** A best-effort write beside an answer: its own plan and transaction, waited for at most `esperaMs`, never an error. */
async function escribirAparte(db: Kysely<DB>, a: Aparte): Promise<void> {
  const hecho = escribirPlan(db, () => a.preparar()).then((r) => r.escrita?.despues?.(), a.alFallar);
  let plazo: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([hecho, new Promise<void>((r) => (plazo = setTimeout(r, a.esperaMs)))]);
  clearTimeout(plazo);
}
