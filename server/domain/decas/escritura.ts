import type { Transaction } from 'kysely';
import { AppError } from '../../../shared/errors';
import type { CampoCambiado, TipoCambio } from '../../../shared/schemas/deca';
import type { DB } from '../../db/schema';
import { presentDeca } from '../../http/presenters/deca';
import type { Actor } from '../actor';
import { enqueueEvento, type Evento } from '../outbox';
import type { PdfVersion } from './documento';
import { releerDeca, type DecaConRefs } from './queries';

/** Runs inside the change's transaction just before commit (idempotency records use it). */
export type AntesDeConfirmar = (trx: Transaction<DB>, decaId: number, status: number) => Promise<void>;

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

/** Append to the change history: version, reason, who (user or key), when, and what changed. */
export async function registrarCambio(
  trx: Transaction<DB>,
  actor: Actor,
  decaId: number,
  c: { version: number; tipo: TipoCambio; motivo?: string | null; campos?: CampoCambiado[] },
  now: Date,
): Promise<void> {
  await trx
    .insertInto('deca_cambios')
    .values({
      account_id: actor.accountId,
      entorno: actor.entorno,
      deca_id: decaId,
      version: c.version,
      tipo: c.tipo,
      motivo: c.motivo ?? null,
      autor_tipo: actor.keyId !== null ? 'clave' : actor.userId !== null ? 'usuario' : actor.canal === 'web' ? 'enlace' : 'sistema',
      autor_id: actor.keyId ?? actor.userId,
      autor_nombre: actor.etiqueta,
      canal: actor.canal,
      campos: JSON.stringify(c.campos ?? []),
      created_at: now,
    })
    .execute();
}

/**
 * Re-read the DeCA as it stands after the change and write its events to the
 * outbox, all in the same transaction. Returns the row for the answer.
 */
export async function publicar(
  trx: Transaction<DB>,
  actor: Actor,
  decaId: number,
  eventos: Evento[],
  now: Date,
  siteUrl: string,
): Promise<DecaConRefs> {
  const row = await releerDeca(trx, actor, decaId);
  if (eventos.length) {
    const deca = presentDeca(row, siteUrl);
    for (const evento of eventos) await enqueueEvento(trx, actor, evento, decaId, { deca }, now);
  }
  return row;
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
