import type { Expression, InsertObject, Transaction } from 'kysely';
import type { CampoCambiado, Deca, TipoCambio } from '../../../shared/schemas/deca';
import type { DB } from '../../db/schema';
import type { Actor } from '../actor';
import { type Evento, type EventosNuevos, escribirEventos } from '../outbox';
import { presentDeca } from '../presenters/deca';
import type { Parte } from '../sentencia';
import type { PdfVersion } from './documento';
import { type DecaConRefs, releerDeca } from './queries';

// Thrown by `aplicar` when the DeCA moved since it was prepared (the command layer prepares again).
export { RevisionCambiada } from '../context';

/**
 * A version's row: the hash, size and blob key of its PDF, whose bytes are
 * already in the blob store (`renderVersion`); `pdf` (the bytes in the row)
 * is only in rows written before the store. A version's bytes never change.
 * `decaId` may be a subquery (a DeCA inserted in the same statement).
 */
export function filaVersion(actor: Pick<Actor, 'accountId' | 'entorno'>, decaId: number | Expression<number>, v: PdfVersion, now: Date): InsertObject<DB, 'deca_versiones'> {
  return {
    account_id: actor.accountId,
    entorno: actor.entorno,
    deca_id: decaId,
    version: v.version,
    pdf: null,
    pdf_clave: v.clave,
    pdf_sha256: v.sha256,
    pdf_bytes: v.bytes,
    datos_pdf: JSON.stringify(v.datosPdf),
    created_at: now,
  };
}

/** Store a version's row (its PDF is in the blob store already): a part of the change's last statement. */
export function versionGuardada(trx: Transaction<DB>, actor: Pick<Actor, 'accountId' | 'entorno'>, decaId: number, v: PdfVersion, now: Date): Parte {
  return { nombre: `version_${decaId}`, sentencia: trx.insertInto('deca_versiones').values(filaVersion(actor, decaId, v, now)) };
}

/** One entry of the change history: version, reason, and what changed. */
export interface CambioNuevo {
  version: number;
  tipo: TipoCambio;
  motivo?: string | null;
  /**
   * Null: a create's fields that are its version 1's data, which the DeCA
   * holds; they are rebuilt when the history is read (`listarCambios`), not
   * stored twice. Only for the 'creacion' of a DeCA issued as it is created.
   */
  campos?: CampoCambiado[] | null;
}

/** The history rows of a change: who (user or key), when, what. `decaId` may be a subquery, as in filaVersion. */
export function filasCambio(actor: Actor, decaId: number | Expression<number>, cambios: CambioNuevo | CambioNuevo[], now: Date): InsertObject<DB, 'deca_cambios'>[] {
  const lista = Array.isArray(cambios) ? cambios : [cambios];
  const autor = {
    autor_tipo: actor.keyId !== null ? ('clave' as const) : actor.userId !== null ? ('usuario' as const) : actor.canal === 'web' ? ('enlace' as const) : ('sistema' as const),
    autor_id: actor.keyId ?? actor.userId,
    autor_nombre: actor.etiqueta,
  };
  return lista.map((c) => ({
    account_id: actor.accountId,
    entorno: actor.entorno,
    deca_id: decaId,
    version: c.version,
    tipo: c.tipo,
    motivo: c.motivo ?? null,
    ...autor,
    canal: actor.canal,
    campos: c.campos === null ? null : JSON.stringify(c.campos ?? []),
    created_at: now,
  }));
}

/** Append to the change history: a part of the change's last statement (none when there is nothing to append). */
export function cambioRegistrado(trx: Transaction<DB>, actor: Actor, decaId: number, cambios: CambioNuevo | CambioNuevo[], now: Date): Parte[] {
  const filas = filasCambio(actor, decaId, cambios, now);
  return filas.length ? [{ nombre: `cambios_${decaId}`, sentencia: trx.insertInto('deca_cambios').values(filas) }] : [];
}

/**
 * The DeCA as shown after a change (the answer of the request) and the
 * events that carry it (payload `{ deca }`), for the outbox in the change's
 * transaction.
 */
export function conEventos(actor: Pick<Actor, 'accountId' | 'entorno'>, row: DecaConRefs, eventos: Evento[], now: Date, siteUrl: string): { deca: Deca; eventos: EventosNuevos[] } {
  const deca = presentDeca(row, siteUrl);
  return { deca, eventos: eventos.length ? [{ scope: actor, eventos, decaId: row.id, data: { deca }, now }] : [] };
}

/** Re-read the DeCA after a change (with its replacement links), inside the transaction: see conEventos. */
export async function releerConEventos(
  trx: Transaction<DB>,
  actor: Pick<Actor, 'accountId' | 'entorno'>,
  decaId: number,
  eventos: Evento[],
  now: Date,
  siteUrl: string,
): Promise<{ deca: Deca; eventos: EventosNuevos[] }> {
  return conEventos(actor, await releerDeca(trx, actor, decaId), eventos, now, siteUrl);
}

/**
 * Re-read the DeCA after a change and write its events at once, in the
 * transaction the change runs in: for a change whose plan has no `eventos`
 * of its own (a public open's `deca.descargado`, written beside the page's
 * answer). Returns the DeCA as shown.
 */
export async function publicar(trx: Transaction<DB>, actor: Pick<Actor, 'accountId' | 'entorno'>, decaId: number, eventos: Evento[], now: Date, siteUrl: string): Promise<Deca> {
  const r = await releerConEventos(trx, actor, decaId, eventos, now, siteUrl);
  await escribirEventos(trx, r.eventos);
  return r.deca;
}
