import type { Kysely } from 'kysely';
import { AppError } from '../../../shared/errors';
import type { DecaPdfData } from '../../../shared/pdf/deca-pdf-data';
import type { DB, DecaRow } from '../../db/schema';
import { delAmbito } from '../ambito';
import { type Alcance, obtenerDeca } from '../decas/queries';
import { consignmentDeDeca, SUBSETS_DECA } from './dataset';
import type { IdentidadEfti, Uil } from './uil';
import { documentoXml } from './xml';

export type { IdentidadEfti, Uil } from './uil';

/** One version of a DeCA as an eFTI dataset: its UIL, the subsets it carries, and the XML. */
export interface DatasetEfti {
  numero: string;
  version: number;
  uil: Uil;
  subsets: readonly string[];
  xml: string;
}

/**
 * A DeCA the actor may read, as the eFTI dataset of one of its issued
 * versions (the current one when `version` is not given): written from what
 * that version's PDF printed, so it never changes once issued.
 */
export async function leerDatasetEfti(ctx: { db: Kysely<DB>; efti: IdentidadEfti }, actor: Alcance, ref: string, version?: number): Promise<DatasetEfti> {
  const deca = await obtenerDeca(ctx.db, actor, ref);
  if (deca.estado === 'pendiente') {
    throw new AppError('pendiente', `La DeCA ${deca.numero} está pendiente: será un conjunto de datos eFTI cuando se emita.`);
  }
  const v = version ?? deca.version;
  const datos = await datosDeVersion(ctx.db, deca, v);
  if (!datos) throw new AppError('no_encontrado', `La DeCA ${deca.numero} no tiene versión ${v}.`);
  const uil: Uil = { gateId: ctx.efti.gateId, platformId: ctx.efti.platformId, datasetId: deca.efti_dataset_id };
  return { numero: deca.numero, version: v, uil, subsets: SUBSETS_DECA, xml: documentoXml(consignmentDeDeca(datos)) };
}

/**
 * What one issued version's dataset is written from: what its PDF printed,
 * with the DeCA's environment and today's standing; null when the DeCA has
 * no such version.
 */
export async function datosDeVersion(db: Kysely<DB>, deca: { id: number; account_id: number; entorno: DecaRow['entorno']; estado: DecaRow['estado'] }, version: number): Promise<DecaPdfData | null> {
  const fila = await db
    .selectFrom('deca_versiones')
    .select('datos_pdf')
    .where(delAmbito({ accountId: deca.account_id, entorno: deca.entorno }))
    .where('deca_id', '=', deca.id)
    .where('version', '=', version)
    .executeTakeFirst();
  if (!fila) return null;
  // Versions stored before the environment was part of their data are the DeCA's own environment.
  // A replaced DeCA says so in every version's dataset: its data stays as printed, its standing is today's.
  return { ...fila.datos_pdf, entorno: fila.datos_pdf.entorno ?? deca.entorno, estado: deca.estado === 'sustituido' ? 'sustituido' : fila.datos_pdf.estado };
}
