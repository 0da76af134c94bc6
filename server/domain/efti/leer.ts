import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import { AppError } from '../../../shared/errors';
import type { DB } from '../../db/schema';
import { delAmbito } from '../ambito';
import { type Alcance, obtenerDeca } from '../decas/queries';
import { consignmentDeDeca, SUBSETS_DECA } from './dataset';
import { documentoXml } from './xml';

/** Who this platform is on the eFTI network (EFTI_GATE_ID, EFTI_PLATFORM_ID). */
export interface IdentidadEfti {
  gateId: string;
  platformId: string;
}

/** The reference's `UIL` (edelivery.xsd): the gate, the platform, and the dataset within it. */
export interface Uil extends IdentidadEfti {
  datasetId: string;
}

/** One version of a DeCA as an eFTI dataset: its UIL, the subsets it carries, and the XML. */
export interface DatasetEfti {
  numero: string;
  version: number;
  uil: Uil;
  subsets: readonly string[];
  xml: string;
}

/** How far back a chain of replacements is followed (a DeCA replaced 50 times is already odd). */
const MAXIMO_SUSTITUCIONES = 50;

/**
 * The dataset's id: the same for every version of a DeCA and for the DeCAs
 * that replace it (method 2 corrects the same transport; an authority that
 * holds the UIL from the first must keep reaching the data: Reglamento (UE)
 * 2020/1056 art. 9), and unguessable: a hash of the public token of the
 * first DeCA of the chain, which never changes and is never shown by it
 * (the token itself opens the public page; its hash opens nothing).
 */
export function datasetIdDe(tokenPrimera: string): string {
  return createHash('sha256').update(`deca-efti-dataset\n${tokenPrimera}`).digest('hex').slice(0, 32);
}

/** The public token of the first DeCA of the chain of replacements `id` belongs to. */
async function tokenDeLaPrimera(db: Kysely<DB>, actor: Alcance, id: number): Promise<string> {
  let actual = id;
  for (let i = 0; i <= MAXIMO_SUSTITUCIONES; i++) {
    const fila = await db.selectFrom('decas').select(['sustituye_a_id', 'token_publico']).where(delAmbito(actor)).where('id', '=', actual).executeTakeFirstOrThrow();
    if (fila.sustituye_a_id === null || i === MAXIMO_SUSTITUCIONES) return fila.token_publico;
    actual = fila.sustituye_a_id;
  }
  throw new Error('inalcanzable');
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
  const fila = await ctx.db.selectFrom('deca_versiones').select(['datos_pdf', 'version']).where(delAmbito(actor)).where('deca_id', '=', deca.id).where('version', '=', v).executeTakeFirst();
  if (!fila) throw new AppError('no_encontrado', `La DeCA ${deca.numero} no tiene versión ${v}.`);
  // Versions stored before the environment was part of their data are the DeCA's own environment.
  // A replaced DeCA says so in every version's dataset: its data stays as printed, its standing is today's.
  const datos = { ...fila.datos_pdf, entorno: fila.datos_pdf.entorno ?? deca.entorno, estado: deca.estado === 'sustituido' ? ('sustituido' as const) : fila.datos_pdf.estado };
  const uil: Uil = { ...ctx.efti, datasetId: datasetIdDe(await tokenDeLaPrimera(ctx.db, actor, deca.id)) };
  return { numero: deca.numero, version: fila.version, uil, subsets: SUBSETS_DECA, xml: documentoXml(consignmentDeDeca(datos)) };
}
