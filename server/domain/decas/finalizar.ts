import { AppError } from '../../../shared/errors';
import type { Deca, DecaEliminada } from '../../../shared/schemas/deca';
import type { Actor } from '../actor';
import type { DomainContext } from '../context';
import { liberarRefExterna } from '../idempotencia';
import { publicar, registrarCambio, type AntesDeConfirmar } from './escritura';
import { exigirEstado } from './estado';
import { bloquearDeca, obtenerDeca } from './queries';

type Opciones = { antesDeConfirmar?: AntesDeConfirmar };

/** POST /decas/{id}/fin: mark the end of the service of an issued DeCA (`estado` unchanged). */
export async function finalizarServicio(ctx: DomainContext, actor: Actor, ref: string, opts: Opciones = {}): Promise<Deca> {
  const { id } = await obtenerDeca(ctx.db, actor, ref);
  return ctx.db.transaction().execute(async (trx) => {
    const row = await bloquearDeca(trx, actor, id);
    exigirEstado(row, 'fin');
    if (row.fin_servicio_at) {
      throw new AppError('servicio_finalizado', `El fin del servicio de la DeCA ${row.numero} ya estaba marcado.`);
    }
    const now = ctx.clock.now();
    await trx.updateTable('decas').set({ fin_servicio_at: now, modificado_at: now, updated_at: now, revision: row.revision + 1 }).where('id', '=', id).execute();
    await registrarCambio(trx, actor, id, { version: row.version, tipo: 'fin_servicio' }, now);
    await opts.antesDeConfirmar?.(trx, id);
    return publicar(trx, actor, id, ['deca.fin_servicio'], now, ctx.siteUrl);
  });
}

/** POST /decas/{id}/archivar: set or clear the archive flag, in any state. Setting the same value changes nothing. */
export async function archivarDeca(ctx: DomainContext, actor: Actor, ref: string, archivado: boolean, opts: Opciones = {}): Promise<Deca> {
  const { id } = await obtenerDeca(ctx.db, actor, ref);
  return ctx.db.transaction().execute(async (trx) => {
    const row = await bloquearDeca(trx, actor, id);
    const now = ctx.clock.now();
    if (row.archivado !== archivado) {
      await trx.updateTable('decas').set({ archivado, modificado_at: now, updated_at: now, revision: row.revision + 1 }).where('id', '=', id).execute();
      await registrarCambio(trx, actor, id, { version: row.version, tipo: archivado ? 'archivado' : 'desarchivado' }, now);
    }
    await opts.antesDeConfirmar?.(trx, id);
    return publicar(trx, actor, id, [], now, ctx.siteUrl);
  });
}

/** What DELETE answers (and a repeat of it gets again). */
export type Eliminada = DecaEliminada;

/** DELETE /decas/{id}: only a pending DeCA, and nothing of it is kept. Issued ones stay a year (spec). */
export async function eliminarDeca(
  ctx: DomainContext,
  actor: Actor,
  ref: string,
  opts: { antesDeConfirmar?: (trx: Parameters<AntesDeConfirmar>[0], r: Eliminada) => Promise<void> } = {},
): Promise<Eliminada> {
  const { id } = await obtenerDeca(ctx.db, actor, ref);
  return ctx.db.transaction().execute(async (trx) => {
    const row = await bloquearDeca(trx, actor, id);
    exigirEstado(row, 'eliminar');
    await trx.deleteFrom('decas').where('id', '=', id).execute();
    // Nothing is kept (spec): its ref_externa is free for a new DeCA.
    if (row.ref_externa) await liberarRefExterna(trx, actor, row.ref_externa, id);
    const r: Eliminada = { eliminada: true, id, numero: row.numero };
    await opts.antesDeConfirmar?.(trx, r);
    return r;
  });
}
