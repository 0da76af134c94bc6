import { formatMadrid } from '../../../shared/rules/fechas';
import type { ControlCarretera, Deca } from '../../../shared/schemas/deca';
import type { Actor } from '../actor';
import { type DomainContext, type Plan, RevisionCambiada } from '../context';
import { presentDeca } from '../presenters/deca';
import { cambioRegistrado } from './escritura';
import { exigirEstado } from './estado';
import { bloquearDeca, obtenerDeca } from './queries';

/**
 * POST /decas/{id}/control (extension): the numeric code an agent gave the
 * driver at a roadside check. It goes into the DeCA's history (with who and
 * when) and out as the `deca.control` event; the company then has to send
 * the PDF/A to the Ministry's electronic office with that code. The DeCA's
 * data and version do not change; it is locked while the code is written, so
 * it cannot be replaced meanwhile.
 */
export async function prepararControl(ctx: DomainContext, actor: Actor, ref: string, codigo: string): Promise<Plan<{ deca: Deca; control: ControlCarretera }>> {
  const row = await obtenerDeca(ctx.db, actor, ref);
  exigirEstado(row, 'control');
  return {
    aplicar: async (trx) => {
      const locked = await bloquearDeca(trx, actor, row.id);
      if (locked.revision !== row.revision) throw new RevisionCambiada();
      const now = ctx.clock.now();
      const deca = presentDeca(row, ctx.siteUrl);
      const control: ControlCarretera = { codigo, registrado_at: formatMadrid(now), version: row.version };
      const hecho = { deca, control };
      return {
        valor: hecho,
        registro: { decaId: row.id, respuesta: hecho },
        eventos: [{ scope: actor, eventos: ['deca.control'], decaId: row.id, data: hecho, now }],
        partes: cambioRegistrado(trx, actor, row.id, { version: row.version, tipo: 'control', campos: [{ campo: 'control_codigo', antes: null, despues: codigo }] }, now),
      };
    },
  };
}
