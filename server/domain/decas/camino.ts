import { fechaMadrid, sumarDias } from '../../../shared/rules/fechas';
import type { DocumentosCamino } from '../../../shared/schemas/deca';
import { renderQrPng } from '../../documents/qr';
import { yieldEvery } from '../../yield-every';
import type { Actor } from '../actor';
import type { DomainContext } from '../context';
import { presentDeca } from '../presenters/deca';
import { leerPdf } from './listar';
import { type Alcance, type DecaConRefs, selectDecas } from './queries';
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
export async function documentosParaElCamino(ctx: DomainContext, actor: Alcance, tengo: ReadonlyMap<number, number>): Promise<DocumentosCamino> {
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
  // One DeCA at a time, pausing between them: a QR takes the main thread ~10 ms to draw, and
  // 300 drawn at once (as Promise.all started them) held every other request 7 s.
  const pausa = yieldEvery();
  const documentos: DocumentosCamino['documentos'] = [];
  for (const row of rows) {
    const deca = presentDeca(row, ctx.siteUrl);
    if (tengo.get(row.id) === row.version) {
      documentos.push({ deca, pdf: null, qr: null });
      continue;
    }
    const [{ pdf }, qr] = await Promise.all([leerPdf(ctx, actor, row), renderQrPng(fichaUrl(ctx.siteUrl, row.token_publico))]);
    documentos.push({ deca, pdf: Buffer.from(pdf).toString('base64'), qr: qr.toString('base64') });
    await pausa();
  }
  return { hoy, desde, hasta, documentos };
}
