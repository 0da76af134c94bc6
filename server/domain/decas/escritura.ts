import type { Transaction } from 'kysely';
import { AppError } from '../../../shared/errors';
import type { CampoCambiado, TipoCambio } from '../../../shared/schemas/deca';
import type { DB } from '../../db/schema';
import type { Deca } from '../../../shared/schemas/deca';
import { presentDeca } from '../presenters/deca';
import type { Actor } from '../actor';
import { enqueueEventos, type Evento } from '../outbox';
import type { PdfVersion } from './documento';
import { releerDeca, type DecaConRefs } from './queries';

/** Runs inside the change's transaction just before commit (idempotency records, mail of the change). */
export type AntesDeConfirmar = (trx: Transaction<DB>, decaId: number) => Promise<void>;

/** Thrown when the DeCA changed between preparing a change and locking it; the use case retries. */
export class RevisionCambiada extends Error {
  override name = 'RevisionCambiada';
}

/** Store a version's PDF bytes (kept per version; a version's bytes never change). */
export async function guardarVersion(trx: Transaction<DB>, actor: Pick<Actor, 'accountId' | 'entorno'>, decaId: number, v: PdfVersion, now: Date): Promise<void> {
  await trx
    .insertInto('deca_versiones')
    .values({
      account_id: actor.accountId,
      entorno: actor.entorno,
      deca_id: decaId,
      version: v.version,
      pdf: v.pdf,
      pdf_sha256: v.sha256,
      pdf_bytes: v.bytes,
      datos_pdf: JSON.stringify(v.datosPdf),
      created_at: now,
    })
    .execute();
}

/** One entry of the change history: version, reason, and what changed. */
export interface CambioNuevo {
  version: number;
  tipo: TipoCambio;
  motivo?: string | null;
  campos?: CampoCambiado[];
}

/** Append to the change history (one statement for all the entries of a change): who (user or key), when, what. */
export async function registrarCambio(trx: Transaction<DB>, actor: Actor, decaId: number, cambios: CambioNuevo | CambioNuevo[], now: Date): Promise<void> {
  const lista = Array.isArray(cambios) ? cambios : [cambios];
  if (lista.length === 0) return;
  const autor = {
    autor_tipo: actor.keyId !== null ? ('clave' as const) : actor.userId !== null ? ('usuario' as const) : actor.canal === 'web' ? ('enlace' as const) : ('sistema' as const),
    autor_id: actor.keyId ?? actor.userId,
    autor_nombre: actor.etiqueta,
  };
  await trx
    .insertInto('deca_cambios')
    .values(
      lista.map((c) => ({
        account_id: actor.accountId,
        entorno: actor.entorno,
        deca_id: decaId,
        version: c.version,
        tipo: c.tipo,
        motivo: c.motivo ?? null,
        ...autor,
        canal: actor.canal,
        campos: JSON.stringify(c.campos ?? []),
        created_at: now,
      })),
    )
    .execute();
}

/**
 * Write the events of a change to the outbox, with the DeCA as it stands
 * after the change, in the change's transaction. Returns the DeCA as shown
 * (the answer of the request, the payload of the events).
 */
export async function publicarFila(trx: Transaction<DB>, actor: Pick<Actor, 'accountId' | 'entorno'>, row: DecaConRefs, eventos: Evento[], now: Date, siteUrl: string): Promise<Deca> {
  const deca = presentDeca(row, siteUrl);
  await enqueueEventos(trx, actor, eventos, row.id, { deca }, now);
  return deca;
}

/** Re-read the DeCA after a change (with its replacement links) and publish its events: see publicarFila. */
export async function publicar(trx: Transaction<DB>, actor: Pick<Actor, 'accountId' | 'entorno'>, decaId: number, eventos: Evento[], now: Date, siteUrl: string): Promise<Deca> {
  return publicarFila(trx, actor, await releerDeca(trx, actor, decaId), eventos, now, siteUrl);
}

/** Run an optimistic change: prepare outside the transaction, retry if the DeCA moved meanwhile. */
export async function conReintentos<T>(fn: () => Promise<T>, intentos = 4): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await fn();
    } catch (err) {
      if (!(err instanceof RevisionCambiada)) throw err;
      if (i >= intentos) {
        throw new AppError('conflicto', 'La DeCA ha cambiado varias veces mientras se procesaba su petición. Reintente.', {
          headers: { 'Retry-After': '1' },
        });
      }
    }
  }
}
