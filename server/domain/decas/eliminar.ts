import type { DecaEliminada } from '../../../shared/schemas/deca';
import type { Actor } from '../actor';
import { delAmbito } from '../ambito';
import { type DomainContext, type Plan, RevisionCambiada } from '../context';
import { soltarFotoDe } from '../fotos/unir';
import { liberarRefExterna } from '../idempotencia';
import { exigirEstado } from './estado';
import { obtenerDeca } from './queries';

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
      // Nor its delivery-note photo, which goes with the next hourly maintenance.
      return { valor: r, registro: { decaId: row.id, respuesta: r }, tocadas: [row.id], partes: [soltarFotoDe(trx, actor, row.id, ctx.clock.now())] };
    },
  };
}
