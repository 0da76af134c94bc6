import { AppError } from '../../../shared/errors';
import { faltaParaEmitir } from '../../../shared/rules/emision';
import type { Deca, SustituirInputParsed } from '../../../shared/schemas/deca';
import { contarSinConfirmar, cuotaConsumida, exigirCuentaConfirmada } from '../accounts/cuota';
import { randomToken } from '../accounts/tokens';
import type { Actor } from '../actor';
import { type DomainContext, type Plan, RevisionCambiada } from '../context';
import { type ReservaEnLinea, tomarReservaEnLinea, usarReservaEnLinea } from '../dispositivos/dispositivos';
import { exigirCompleta } from './crear';
import { columnasDeDatos, datosDeRow, diffDatos } from './datos';
import { renderVersion } from './documento';
import { cambioRegistrado, conEventos, versionGuardada } from './escritura';
import { exigirEstado } from './estado';
import { datosModificados } from './modificar';
import { asignarNumero } from './numeracion';
import { actualizarSiNoCambio, obtenerDeca } from './queries';
import { exigirRefLibre } from './ref-externa';

/**
 * POST /decas/{id}/sustituir (method 2): a new DeCA with new number, URL and
 * QR carries the changed data; the old one becomes `sustituido`. Both are
 * linked (`sustituye_a` / `sustituido_por`) in the same transaction. The
 * number is taken and the PDF rendered here; a plan made again after a
 * concurrent change keeps that number instead of burning another.
 */
export async function prepararSustitucion(
  ctx: DomainContext,
  actor: Actor,
  ref: string,
  input: SustituirInputParsed,
  enviados: ReadonlySet<string>,
  reserva: { numero: string | null; tokenPublico: string; enLinea?: ReservaEnLinea } = { numero: null, tokenPublico: randomToken(24) },
): Promise<Plan<Deca>> {
  const account = actor.cuenta;
  const old = await obtenerDeca(ctx.db, actor, ref);
  exigirEstado(old, 'sustituir');
  if (!input.motivo) {
    throw new AppError('falta_motivo', `Indique «motivo» para sustituir la DeCA ${old.numero}.`, {
      campos: { motivo: 'Obligatorio para sustituir' },
    });
  }
  const antes = datosDeRow(old);
  const datos = datosModificados(antes, input, enviados);
  exigirCompleta({ faltan: faltaParaEmitir(datos, old.emisor_rol), emisorRol: old.emisor_rol }, account);
  const nuevaRef = enviados.has('ref_externa') ? (input.ref_externa ?? null) : null;

  const now = ctx.clock.now();
  await exigirCuentaConfirmada(ctx.db, actor);
  // Made by the app with coverage: the device's next reserved number, as a create takes it (crear.ts), so its series has no jumps.
  if (reserva.numero === null && input.reserva_dispositivo) {
    const enLinea = await tomarReservaEnLinea(ctx.db, actor, input.reserva_dispositivo, now);
    if (enLinea) Object.assign(reserva, { numero: enLinea.numero, tokenPublico: enLinea.token, enLinea });
  }
  reserva.numero ??= await asignarNumero(ctx.db, actor, now);
  const nuevoNumero = reserva.numero;
  const { tokenPublico } = reserva;
  const pdf = await renderVersion(ctx, datos, {
    entorno: old.entorno,
    numero: nuevoNumero,
    version: 1,
    tokenPublico,
    emitidoAt: now,
    modificadoAt: null,
    motivo: null,
    sustituyeA: old.numero,
  });

  return {
    reintentar: () => prepararSustitucion(ctx, actor, ref, input, enviados, reserva),
    aplicar: async (trx) => {
      if (nuevaRef) await exigirRefLibre(trx, actor, nuevaRef, null);
      const nueva = await trx
        .insertInto('decas')
        .values({
          account_id: actor.accountId,
          entorno: actor.entorno,
          numero: nuevoNumero,
          estado: 'emitido',
          ref_externa: nuevaRef,
          emisor_rol: old.emisor_rol,
          canal: actor.canal,
          ...columnasDeDatos(datos),
          token_publico: tokenPublico,
          // The same transport, corrected: the same eFTI dataset (docs/efti.md, UIL).
          efti_dataset_id: old.efti_dataset_id,
          token_completar: null,
          pdf_sha256: pdf.sha256,
          pdf_bytes: pdf.bytes,
          emitido_at: now,
          modificado_at: now,
          created_at: now,
          updated_at: now,
          sustituye_a_id: old.id,
          creado_por_key_id: actor.keyId,
          creado_por_user_id: actor.userId,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      const sustituida = await actualizarSiNoCambio(trx, actor, old, {
        estado: 'sustituido',
        sustituido_por_id: nueva.id,
        modificado_at: now,
        updated_at: now,
        revision: old.revision + 1,
      });
      if (!sustituida) throw new RevisionCambiada();
      if (reserva.enLinea) await usarReservaEnLinea(trx, reserva.enLinea, nueva.id);
      const campos = diffDatos(antes, datos);
      await contarSinConfirmar(trx, actor);
      const partes = [
        ...cambioRegistrado(trx, actor, old.id, { version: old.version, tipo: 'sustitucion', motivo: input.motivo, campos }, now),
        ...cambioRegistrado(
          trx,
          actor,
          nueva.id,
          [
            { version: 1, tipo: 'creacion', motivo: `Sustituye a la DeCA ${old.numero}: ${input.motivo}`, campos },
            { version: 1, tipo: 'emision' },
          ],
          now,
        ),
        versionGuardada(trx, actor, nueva.id, pdf, now),
        cuotaConsumida(trx, actor, now),
      ];
      const vieja = conEventos(actor, { ...sustituida, sp_numero: nueva.numero, sp_token: nueva.token_publico }, ['deca.sustituido'], now, ctx.siteUrl);
      const creada = conEventos(actor, { ...nueva, sa_numero: old.numero, sa_token: old.token_publico, sp_numero: null, sp_token: null }, ['deca.creado', 'deca.emitido'], now, ctx.siteUrl);
      return { valor: creada.deca, registro: { decaId: nueva.id }, eventos: [...vieja.eventos, ...creada.eventos], partes, tocadas: [nueva.id, old.id] };
    },
  };
}
