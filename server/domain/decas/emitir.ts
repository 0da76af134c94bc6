import { completarDatos } from '../../../shared/rules/datos-deca';
import { faltaParaEmitir } from '../../../shared/rules/emision';
import type { Deca } from '../../../shared/schemas/deca';
import type { Actor } from '../actor';
import { type DomainContext, type Plan, RevisionCambiada } from '../context';
import { exigirCompleta } from './crear';
import { columnasDeDatos, datosDeRow } from './datos';
import { renderVersion } from './documento';
import { cambioRegistrado, conEventos, versionGuardada } from './escritura';
import { exigirEstado } from './estado';
import { actualizarSiNoCambio, obtenerDeca } from './queries';

/**
 * POST /decas/{id}/emitir: check a pending DeCA is complete and render
 * version 1 (outside any transaction); `aplicar` stores it, if the DeCA has
 * not moved meanwhile.
 */
export async function prepararEmision(ctx: DomainContext, actor: Actor, ref: string): Promise<Plan<Deca>> {
  const row = await obtenerDeca(ctx.db, actor, ref);
  exigirEstado(row, 'emitir');
  // The caller's side still empty comes from the account as it is now (its address added since, say).
  const datos = completarDatos(datosDeRow(row), row.emisor_rol, actor.cuenta);
  exigirCompleta({ faltan: faltaParaEmitir(datos, row.emisor_rol), emisorRol: row.emisor_rol }, actor.cuenta);
  const now = ctx.clock.now();
  const pdf = await renderVersion(ctx, datos, {
    entorno: row.entorno,
    numero: row.numero,
    version: row.version,
    tokenPublico: row.token_publico,
    emitidoAt: now,
    modificadoAt: null,
    motivo: null,
    sustituyeA: row.sa_numero,
  });
  return {
    aplicar: async (trx) => {
      const cambiada = await actualizarSiNoCambio(trx, actor, row, {
        ...columnasDeDatos(datos),
        estado: 'emitido',
        emitido_at: now,
        modificado_at: now,
        updated_at: now,
        pdf_sha256: pdf.sha256,
        pdf_bytes: pdf.bytes,
        revision: row.revision + 1,
      });
      if (!cambiada) throw new RevisionCambiada();
      const { deca, eventos } = conEventos(actor, cambiada, ['deca.emitido'], now, ctx.siteUrl);
      const partes = [versionGuardada(trx, actor, row.id, pdf, now), ...cambioRegistrado(trx, actor, row.id, { version: row.version, tipo: 'emision' }, now)];
      return { valor: deca, registro: { decaId: row.id }, eventos, partes, tocadas: [row.id] };
    },
  };
}
