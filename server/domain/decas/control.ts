import { formatMadrid } from '../../../shared/rules/fechas';
import type { ControlCarretera, Deca } from '../../../shared/schemas/deca';
import type { Actor } from '../actor';
import type { DomainContext } from '../context';
import { enqueueEventos } from '../outbox';
import { presentDeca } from '../presenters/deca';
import { registrarCambio, type AntesDeConfirmar } from './escritura';
import { exigirEstado } from './estado';
import { bloquearDeca, obtenerDeca, releerDeca } from './queries';

/**
 * POST /decas/{id}/control (extension): the numeric code an agent gave the
 * driver at a roadside check. It goes into the DeCA's history (with who and
 * when) and out as the `deca.control` event; the company then has to send
 * the PDF/A to the Ministry's electronic office with that code. The DeCA's
 * data and version do not change.
 */
export async function registrarControl(
  ctx: DomainContext,
  actor: Actor,
  ref: string,
  codigo: string,
  opts: { antesDeConfirmar?: (trx: Parameters<AntesDeConfirmar>[0], r: { deca: Deca; control: ControlCarretera }) => Promise<void> } = {},
): Promise<{ deca: Deca; control: ControlCarretera }> {
  const { id } = await obtenerDeca(ctx.db, actor, ref);
  return ctx.db.transaction().execute(async (trx) => {
    const row = await bloquearDeca(trx, actor, id);
    exigirEstado(row, 'control');
    const now = ctx.clock.now();
    await registrarCambio(trx, actor, id, { version: row.version, tipo: 'control', campos: [{ campo: 'control_codigo', antes: null, despues: codigo }] }, now);
    const deca = presentDeca(await releerDeca(trx, actor, id), ctx.siteUrl);
    const control: ControlCarretera = { codigo, registrado_at: formatMadrid(now), version: row.version };
    await enqueueEventos(trx, actor, ['deca.control'], id, { deca, control }, now);
    await opts.antesDeConfirmar?.(trx, { deca, control });
    return { deca, control };
  });
}
