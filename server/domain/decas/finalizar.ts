import { AppError } from '../../../shared/errors';
import type { Deca, DecaEliminada } from '../../../shared/schemas/deca';
import type { Actor } from '../actor';
import { delAmbito } from '../ambito';
import { type DomainContext, type Plan, RevisionCambiada } from '../context';
import { liberarRefExterna } from '../idempotencia';
import { cambioRegistrado, conEventos } from './escritura';
import { exigirEstado } from './estado';
import { actualizarSiNoCambio, obtenerDeca } from './queries';

/** POST /decas/{id}/fin: mark the end of the service of an issued DeCA (`estado` unchanged). */
export async function prepararFin(ctx: DomainContext, actor: Actor, ref: string): Promise<Plan<Deca>> {
  const row = await obtenerDeca(ctx.db, actor, ref);
  exigirEstado(row, 'fin');
  if (row.fin_servicio_at) {
    throw new AppError('servicio_finalizado', `El fin del servicio de la DeCA ${row.numero} ya estaba marcado.`);
  }
  return {
    aplicar: async (trx) => {
      const now = ctx.clock.now();
      const cambiada = await actualizarSiNoCambio(trx, actor, row, { fin_servicio_at: now, modificado_at: now, updated_at: now, revision: row.revision + 1 });
      if (!cambiada) throw new RevisionCambiada();
      const { deca, eventos } = conEventos(actor, cambiada, ['deca.fin_servicio'], now, ctx.siteUrl);
      const partes = cambioRegistrado(trx, actor, row.id, { version: row.version, tipo: 'fin_servicio' }, now);
      return { valor: deca, registro: { decaId: row.id }, eventos, partes, tocadas: [row.id] };
    },
  };
}

/** POST /decas/{id}/archivar: set or clear the archive flag, in any state. Setting the same value changes nothing. */
export async function prepararArchivo(ctx: DomainContext, actor: Actor, ref: string, archivado: boolean): Promise<Plan<Deca>> {
  const row = await obtenerDeca(ctx.db, actor, ref);
  if (row.archivado === archivado) {
    // Nothing to write: the DeCA as it is (a repeat answers the same).
    return { valor: conEventos(actor, row, [], ctx.clock.now(), ctx.siteUrl).deca };
  }
  return {
    aplicar: async (trx) => {
      const now = ctx.clock.now();
      const cambiada = await actualizarSiNoCambio(trx, actor, row, { archivado, modificado_at: now, updated_at: now, revision: row.revision + 1 });
      if (!cambiada) throw new RevisionCambiada();
      const partes = cambioRegistrado(trx, actor, row.id, { version: row.version, tipo: archivado ? 'archivado' : 'desarchivado' }, now);
      return { valor: conEventos(actor, cambiada, [], now, ctx.siteUrl).deca, registro: { decaId: row.id }, partes, tocadas: [row.id] };
    },
  };
}

/** What DELETE answers (and a repeat of it gets again). */
export type Eliminada = DecaEliminada;

/** DELETE /decas/{id}: only a pending DeCA, and nothing of it is kept. Issued ones stay a year (spec). */
export async function prepararEliminacion(ctx: DomainContext, actor: Actor, ref: string): Promise<Plan<Eliminada>> {
  const row = await obtenerDeca(ctx.db, actor, ref);
  exigirEstado(row, 'eliminar');
  return {
    aplicar: async (trx) => {
      // Only as it was read (still pending): one that moved meanwhile is looked at again.
      const borrada = await trx.deleteFrom('decas').where('id', '=', row.id).where(delAmbito(actor)).where('revision', '=', row.revision).returning('id').executeTakeFirst();
      if (!borrada) throw new RevisionCambiada();
      // Nothing is kept (spec): its ref_externa is free for a new DeCA.
      if (row.ref_externa) await liberarRefExterna(trx, actor, row.ref_externa, row.id);
      const r: Eliminada = { eliminada: true, id: row.id, numero: row.numero };
      return { valor: r, registro: { decaId: row.id, respuesta: r }, tocadas: [row.id] };
    },
  };
}
