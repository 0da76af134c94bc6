import type { Transaction } from 'kysely';
import { AppError } from '../../../shared/errors';
import type { DatosPedidos, DecaEnviada } from '../../../shared/schemas/deca';
import type { DB } from '../../db/schema';
import type { Actor } from '../actor';
import type { DomainContext, Plan } from '../context';
import { bloquearDeca, obtenerDeca, releerDeca } from '../decas/queries';
import { decaUrls } from '../decas/urls';
import { escritura } from '../plan';
import { enqueueCorreo, mensajeEnviarDeca, mensajePedirDatos, textoConductor } from './correos';

/** Queue the completion-link e-mail for a pending DeCA, inside the caller's transaction. */
export async function encolarPedirDatos(trx: Transaction<DB>, ctx: DomainContext, actor: Actor, decaId: number, email: string): Promise<void> {
  const row = await releerDeca(trx, actor, decaId);
  const url = decaUrls(ctx.siteUrl, row).completar;
  if (!url) throw new Error('encolarPedirDatos: la DeCA no está pendiente');
  await enqueueCorreo(trx, actor, { tipo: 'pedir_datos', decaId, destinatario: email, ...mensajePedirDatos(actor.cuenta, row, url) }, ctx.clock.now());
}

/**
 * POST /decas/{id}/pedir-datos: the completion link of a pending DeCA,
 * e-mailed when `email` is given. The state is checked on the locked row,
 * in the command layer's transaction, with the mail queued in it.
 */
export async function prepararPedirDatos(ctx: DomainContext, actor: Actor, ref: string, email: string | null): Promise<Plan<DatosPedidos>> {
  const { id } = await obtenerDeca(ctx.db, actor, ref);
  return escritura(async (trx) => {
    const locked = await bloquearDeca(trx, actor, id);
    if (locked.estado !== 'pendiente') {
      throw new AppError(locked.estado, `La DeCA ${locked.numero} ya no está pendiente: no hay datos que pedir.`);
    }
    if (email) await encolarPedirDatos(trx, ctx, actor, id, email);
    const url = decaUrls(ctx.siteUrl, locked).completar;
    if (!url) throw new Error('pedirDatos: DeCA pendiente sin enlace');
    return { completar: url, enviado_a: email };
  });
}

/**
 * POST /decas/{id}/enviar: e-mail an issued DeCA (PDF attached, link to the
 * driver's page) and return the short text for the driver's messaging app.
 */
export async function prepararEnvio(ctx: DomainContext, actor: Actor, ref: string, email: string): Promise<Plan<DecaEnviada>> {
  const { id } = await obtenerDeca(ctx.db, actor, ref);
  return escritura(async (trx) => {
    const locked = await bloquearDeca(trx, actor, id);
    if (locked.estado === 'pendiente') throw new AppError('pendiente', `La DeCA ${locked.numero} está pendiente: emítala antes de enviarla.`);
    if (locked.estado === 'sustituido') throw new AppError('sustituido', `La DeCA ${locked.numero} fue sustituida: envíe la que la sustituye.`);
    const row = await releerDeca(trx, actor, id);
    await enqueueCorreo(
      trx,
      actor,
      {
        tipo: 'enviar_deca',
        decaId: id,
        destinatario: email,
        adjuntos: [{ deca_id: id, version: row.version, filename: `DeCA-${row.numero}-v${row.version}.pdf` }],
        ...mensajeEnviarDeca(actor.cuenta, row, ctx.siteUrl),
      },
      ctx.clock.now(),
    );
    return { enviado_a: email, conductor: decaUrls(ctx.siteUrl, row).conductor, ...textoConductor(actor.cuenta, row, ctx.siteUrl) };
  });
}
