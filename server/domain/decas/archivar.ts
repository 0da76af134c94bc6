import type { Deca } from '../../../shared/schemas/deca';
import type { Actor } from '../actor';
import { type DomainContext, type Plan, RevisionCambiada } from '../context';
import { cambioRegistrado, conEventos } from './escritura';
import { actualizarSiNoCambio, obtenerDeca } from './queries';

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
