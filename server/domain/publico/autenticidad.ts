import type { Kysely } from 'kysely';
import type { Entorno } from '../../../shared/schemas/cuenta';
import type { DB } from '../../db/schema';
import { type DecaConRefs, selectDecasSinCuenta } from '../decas/queries';

/** A PDF found among the stored versions: which DeCA and version it is, and the DeCA as it stands now. */
export interface VersionEncontrada {
  row: DecaConRefs;
  version: number;
  entorno: Entorno;
  emitida_at: Date;
}

/**
 * The stored version whose PDF has exactly this SHA-256, with its DeCA as it
 * is now; null when no version of any DeCA has it (one byte changed is enough).
 */
export async function versionPorHuella(db: Kysely<DB>, sha256: string): Promise<VersionEncontrada | null> {
  const v = await db.selectFrom('deca_versiones').select(['deca_id', 'version', 'entorno', 'created_at']).where('pdf_sha256', '=', sha256).orderBy('created_at').executeTakeFirst();
  if (!v) return null;
  const row = (await selectDecasSinCuenta(db).where('d.id', '=', v.deca_id).executeTakeFirst()) as DecaConRefs | undefined;
  return row ? { row, version: v.version, entorno: v.entorno, emitida_at: v.created_at } : null;
}

/** The answer of the authenticity check: the file's fingerprint, and the version it is, if any. */
export interface Autenticidad {
  sha256: string;
  encontrada: VersionEncontrada | null;
}
