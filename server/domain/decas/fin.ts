import { AppError } from '../../../shared/errors';
import type { Deca } from '../../../shared/schemas/deca';
import type { Actor } from '../actor';
import { type DomainContext, type Plan, RevisionCambiada } from '../context';
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
