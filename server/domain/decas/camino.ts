import { fechaMadrid, sumarDias } from '../../../shared/rules/fechas';
import type { DocumentosCamino } from '../../../shared/schemas/deca';
import { renderQrPng } from '../../documents/qr';
import { yieldEvery } from '../../yield-every';
import type { DomainContext } from '../context';
import { presentDeca } from '../presenters/deca';
import { leerPdf } from './listar';
import { type Alcance, type DecaConRefs, selectDecas } from './queries';
import { fichaUrl } from './urls';

/** Days before and after today (the server's, in Madrid) whose issued DeCAs a device keeps for the road. */
export const DIAS_CAMINO = 7;
/** At most this many DeCAs in one answer (the newest). */
const MAX_CAMINO = 300;
/** PDFs read at once: each may be an S3 round trip (~20–50 ms), and 300 one after another took seconds; 8 overlap them without one answer taking most of the database pool's 10 connections. */
export const LECTURAS_A_LA_VEZ = 8;

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
  // The PDFs are read LECTURAS_A_LA_VEZ at a time ahead of the loop; each QR is still drawn one at a time,
  // pausing between DeCAs: a QR takes the main thread ~10 ms to draw, and 300 drawn at once (as Promise.all
  // started them) held every other request 7 s.
  const pausa = yieldEvery();
  const leidos = porDelante(rows, LECTURAS_A_LA_VEZ, async (row) => ({ row, pdf: tengo.get(row.id) === row.version ? null : (await leerPdf(ctx, actor, row)).pdf }));
  const documentos: DocumentosCamino['documentos'] = [];
  for await (const { row, pdf } of leidos) {
    const deca = presentDeca(row, ctx.siteUrl);
    if (pdf === null) {
      documentos.push({ deca, pdf: null, qr: null });
      continue;
    }
    const qr = await renderQrPng(fichaUrl(ctx.siteUrl, row.token_publico));
    documentos.push({ deca, pdf: Buffer.from(pdf).toString('base64'), qr: qr.toString('base64') });
    await pausa();
  }
  return { hoy, desde, hasta, documentos };
}

/**
 * `leer` of each item, in the items' order, started up to `n` ahead of the
 * one the caller has reached. A failure is thrown at its item's turn, as a
 * loop reading one at a time would throw it (the first failing item in
 * order), and once the caller stops no more are started; the ones already
 * in flight end unheard.
 */
async function* porDelante<T, R>(items: readonly T[], n: number, leer: (item: T) => Promise<R>): AsyncGenerator<R> {
  const enCurso: Promise<R>[] = [];
  let siguiente = 0;
  while (siguiente < items.length || enCurso.length > 0) {
    while (enCurso.length < n && siguiente < items.length) {
      const p = leer(items[siguiente++]!);
      p.catch(() => {}); // thrown at its turn below; one past a failure that stopped the caller is never awaited
      enCurso.push(p);
    }
    yield await enCurso.shift()!;
  }
}
