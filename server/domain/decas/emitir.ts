import type { Deca } from '../../../shared/schemas/deca';
import { faltaParaEmitir } from '../../../shared/rules/emision';
import type { Actor } from '../actor';
import type { DomainContext } from '../context';
import { exigirCompleta } from './crear';
import { columnasDeDatos, datosDeRow } from './datos';
import { completarDatos } from '../../../shared/rules/datos-deca';
import { renderVersion } from './documento';
import { conReintentos, guardarVersion, publicar, registrarCambio, RevisionCambiada, type AntesDeConfirmar } from './escritura';
import { exigirEstado } from './estado';
import { bloquearDeca, obtenerDeca } from './queries';

/** POST /decas/{id}/emitir: check a pending DeCA is complete, render version 1 and store it. */
export async function emitirDeca(ctx: DomainContext, actor: Actor, ref: string, opts: { antesDeConfirmar?: AntesDeConfirmar } = {}): Promise<Deca> {
  return conReintentos(async () => {
    const row = await obtenerDeca(ctx.db, actor, ref);
    exigirEstado(row, 'emitir');
    // The caller's side still empty comes from the account as it is now (its address added since, say).
    const datos = completarDatos(datosDeRow(row), row.emisor_rol, actor.cuenta);
    exigirCompleta({ faltan: faltaParaEmitir(datos, row.emisor_rol), emisorRol: row.emisor_rol }, actor.cuenta);
    const now = ctx.clock.now();
    const pdf = await renderVersion(ctx.renderPdf, ctx.siteUrl, datos, {
      entorno: row.entorno,
      numero: row.numero,
      version: row.version,
      tokenPublico: row.token_publico,
      emitidoAt: now,
      modificadoAt: null,
      motivo: null,
      sustituyeA: row.sa_numero,
    });
    return ctx.db.transaction().execute(async (trx) => {
      const locked = await bloquearDeca(trx, actor, row.id);
      if (locked.revision !== row.revision) throw new RevisionCambiada();
      await trx
        .updateTable('decas')
        .set({
          ...columnasDeDatos(datos),
          estado: 'emitido',
          emitido_at: now,
          modificado_at: now,
          updated_at: now,
          pdf_sha256: pdf.sha256,
          pdf_bytes: pdf.bytes,
          revision: row.revision + 1,
        })
        .where('id', '=', row.id)
        .execute();
      await guardarVersion(trx, actor, row.id, pdf, now);
      await registrarCambio(trx, actor, row.id, { version: row.version, tipo: 'emision' }, now);
      await opts.antesDeConfirmar?.(trx, row.id);
      return publicar(trx, actor, row.id, ['deca.emitido'], now, ctx.siteUrl);
    });
  });
}
