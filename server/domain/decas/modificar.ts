import { AppError } from '../../../shared/errors';
import { derivarTipoVehiculo, faltaParaEmitir } from '../../../shared/rules/emision';
import type { CampoCambiado, Deca, DecaDatos, DecaPatchParsed } from '../../../shared/schemas/deca';
import type { DecaUpdate } from '../../db/schema';
import type { Actor } from '../actor';
import { leccionAprendida, prepararLeccion } from '../agenda/agenda';
import { delAmbito } from '../ambito';
import { type DomainContext, type Plan, RevisionCambiada } from '../context';
import { liberarRefExterna } from '../idempotencia';
import type { Evento } from '../outbox';
import { exigirCompleta } from './crear';
import { aplicarCambios, columnasDeDatos, datosDeRow, diffDatos } from './datos';
import { type PdfVersion, renderVersion } from './documento';
import { type CambioNuevo, cambioRegistrado, conEventos, versionGuardada } from './escritura';
import { exigirEstado } from './estado';
import { actualizarSiNoCambio, obtenerDeca } from './queries';
import { exigirRefLibre, refExternaUsada } from './ref-externa';

/** The new data after a modification, with the vehicle type derived again from the plates. */
export function datosModificados(antes: DecaDatos, cambios: Partial<Record<string, unknown>>, enviados: ReadonlySet<string>): DecaDatos {
  const d = aplicarCambios(antes, cambios, enviados);
  // Trailer removed and no type sent: the old «articulado» no longer holds.
  if (enviados.has('matricula_remolque') && !enviados.has('tipo_vehiculo') && !d.matricula_remolque) d.tipo_vehiculo = null;
  d.tipo_vehiculo = derivarTipoVehiculo(d);
  return d;
}

export interface OpcionesModificar {
  /** The other party completed it through the link: recorded and announced as `deca.completado`. */
  completado?: boolean;
}

/**
 * PATCH /decas/{id}. Pending: the data changes (and with `emitir` it is
 * issued). Issued: method 1 — `motivo` required, same URLs and QR, version
 * raised, new PDF; identical data is 409 `sin_cambios`. The checks, the
 * address book's reading and the render happen here; `aplicar` writes, if
 * the DeCA has not moved meanwhile.
 */
export async function prepararModificacion(ctx: DomainContext, actor: Actor, ref: string, input: DecaPatchParsed, enviados: ReadonlySet<string>, opts: OpcionesModificar = {}): Promise<Plan<Deca>> {
  const account = actor.cuenta;
  const row = await obtenerDeca(ctx.db, actor, ref);
  exigirEstado(row, 'modificar');
  const emitida = row.estado === 'emitido';
  if (emitida && !input.motivo) {
    throw new AppError('falta_motivo', `La DeCA ${row.numero} está emitida: indique «motivo» para modificarla (método 1), o use «sustituir».`, {
      campos: { motivo: 'Obligatorio para modificar una DeCA emitida' },
    });
  }
  const antes = datosDeRow(row);
  const despues = datosModificados(antes, input, enviados);
  const campos: CampoCambiado[] = diffDatos(antes, despues);
  const nuevaRef = enviados.has('ref_externa') ? (input.ref_externa ?? null) : row.ref_externa;
  const cambiaRef = nuevaRef !== row.ref_externa;
  if (cambiaRef) campos.push({ campo: 'ref_externa', antes: row.ref_externa, despues: nuevaRef });
  const emitir = !emitida && input.emitir === true;
  const datosCambian = campos.some((c) => c.campo !== 'ref_externa');

  if (campos.length === 0 && !emitir) {
    throw new AppError('sin_cambios', `La DeCA ${row.numero} ya tiene esos datos: no hay nada que cambiar.`);
  }
  if (emitida && !datosCambian) {
    throw new AppError('sin_cambios', `Los datos de la DeCA ${row.numero} no cambian: no se crea una versión nueva.`);
  }
  if (emitida || emitir) exigirCompleta({ faltan: faltaParaEmitir(despues, row.emisor_rol), emisorRol: row.emisor_rol }, account);
  if (cambiaRef && nuevaRef) {
    const usada = await ctx.db.selectFrom('decas').select('numero').where(delAmbito(actor)).where('ref_externa', '=', nuevaRef).executeTakeFirst();
    if (usada) throw refExternaUsada(actor, nuevaRef, usada.numero);
  }

  const now = ctx.clock.now();
  const version = emitida ? row.version + 1 : row.version;
  let pdf: PdfVersion | null = null;
  if (emitida || emitir) {
    pdf = await renderVersion(ctx, despues, {
      entorno: row.entorno,
      numero: row.numero,
      version,
      tokenPublico: row.token_publico,
      emitidoAt: emitida ? (row.emitido_at ?? now) : now,
      modificadoAt: emitida ? now : null,
      motivo: emitida ? (input.motivo ?? null) : null,
      sustituyeA: row.sa_numero,
    });
  }

  const leccion = await prepararLeccion(ctx.db, actor, despues);
  return {
    aplicar: async (trx) => {
      if (cambiaRef && nuevaRef) await exigirRefLibre(trx, actor, nuevaRef, row.id);
      const set: DecaUpdate = { ...columnasDeDatos(despues), ref_externa: nuevaRef, modificado_at: now, updated_at: now, revision: row.revision + 1 };
      if (pdf) Object.assign(set, { pdf_sha256: pdf.sha256, pdf_bytes: pdf.bytes, version });
      if (emitir) Object.assign(set, { estado: 'emitido', emitido_at: now });
      const cambiada = await actualizarSiNoCambio(trx, actor, row, set);
      if (!cambiada) throw new RevisionCambiada();
      // The old ref_externa is free again for a new DeCA.
      if (cambiaRef && row.ref_externa) await liberarRefExterna(trx, actor, row.ref_externa, row.id);
      const historia: CambioNuevo[] = [];
      if (campos.length) historia.push({ version, tipo: 'modificacion', motivo: input.motivo ?? null, campos });
      if (emitir) historia.push({ version, tipo: opts.completado ? 'completado' : 'emision' });
      const nombres: Evento[] = emitida ? ['deca.modificado'] : emitir ? (opts.completado ? ['deca.completado', 'deca.emitido'] : ['deca.emitido']) : [];
      const { deca, eventos } = conEventos(actor, cambiada, nombres, now, ctx.siteUrl);
      // What the change names (new or not) counts as used: a completion teaches the other party. Last, as on create.
      const partes = [...(pdf ? [versionGuardada(trx, actor, row.id, pdf, now)] : []), ...cambioRegistrado(trx, actor, row.id, historia, now), ...leccionAprendida(trx, actor, leccion, now)];
      return { valor: deca, registro: { decaId: row.id }, eventos, partes, tocadas: [row.id] };
    },
  };
}
