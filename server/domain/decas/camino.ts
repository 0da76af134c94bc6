import type { DocumentosCamino } from '../../../shared/schemas/deca';
import { fechaMadrid, sumarDias } from '../../../shared/rules/fechas';
import { renderQrPng } from '../../documents/qr';
import type { Actor } from '../actor';
import type { DomainContext } from '../context';
import { presentDeca } from '../presenters/deca';
import { leerPdf } from './listar';
import { selectDecas, type DecaConRefs } from './queries';
import { fichaUrl } from './urls';

/** Days before and after today (the server's, in Madrid) whose issued DeCAs a device keeps for the road. */
export const DIAS_CAMINO = 7;
/** At most this many DeCAs in one answer (the newest). */
const MAX_CAMINO = 300;

/**
 * What a driver's device keeps for the road, in one answer: every issued
 * DeCA whose transport date is within 7 days of today — today by the
 * server's clock, never the phone's — with its PDF and QR, except the ones
 * the device says it already holds at that version (`tengo`: id → version).
 */
export async function documentosParaElCamino(ctx: DomainContext, actor: Pick<Actor, 'accountId' | 'entorno'>, tengo: ReadonlyMap<number, number>): Promise<DocumentosCamino> {
  const hoy = fechaMadrid(ctx.clock.now());
  const desde = sumarDias(hoy, -DIAS_CAMINO);
  const hasta = sumarDias(hoy, DIAS_CAMINO);
  const rows = (await selectDecas(ctx.db, actor)
    .where('d.estado', '=', 'emitido')
    .where('d.fecha_transporte', '>=', desde)
    .where('d.fecha_transporte', '<=', hasta)
    .orderBy('d.id', 'desc')
    .limit(MAX_CAMINO)
    .execute()) as DecaConRefs[];
  const documentos = await Promise.all(
    rows.map(async (row) => {
      const deca = presentDeca(row, ctx.siteUrl);
      if (tengo.get(row.id) === row.version) return { deca, pdf: null, qr: null };
      const [{ pdf }, qr] = await Promise.all([leerPdf(ctx.db, actor, row), renderQrPng(fichaUrl(ctx.siteUrl, row.token_publico))]);
      return { deca, pdf: Buffer.from(pdf).toString('base64'), qr: qr.toString('base64') };
    }),
  );
  return { hoy, desde, hasta, documentos };
}
