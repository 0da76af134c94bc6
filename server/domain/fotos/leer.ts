/**
 * POST /fotos: a photo of a delivery note, order or consignment note → a DeCA
 * proposal for review. Nothing is created; a successful read spends one of
 * the month's photo reads, a refused upload none.
 */
import type { Kysely } from 'kysely';
import { AppError } from '../../../shared/errors';
import { type Lectura, leerAlbaran, lineasDeCampos } from '../../../shared/rules/albaran';
import { quitarInvisibles } from '../../../shared/rules/texto';
import type { Clock } from '../../clock';
import type { DB } from '../../db/schema';
import { type FotoPreparada, ImagenNoValida, type LectorFotos, prepararImagen } from '../../ocr/lector';
import { comprobarFotos, gastarFoto } from '../accounts/cuota';
import type { Actor } from '../actor';
import { empresaPorNif } from '../agenda/agenda';
import type { Plan } from '../context';
import { escritura } from '../plan';

export interface FotoLeida extends Lectura {
  /** The recognised text, for the user to compare. */
  texto: string;
  /** Field → the corners of the line it was read from, as fractions of the photo as seen (see shared/schemas/fotos.ts). */
  zonas: Record<string, [number, number][]>;
}

/** A company named by NIF only: its name and address from the address book, if it is there. */
async function completarDesdeAgenda(db: Kysely<DB>, actor: Actor, l: Lectura): Promise<void> {
  for (const prefijo of ['cargador', 'transp'] as const) {
    const p = l.propuesta;
    const nif = p[`${prefijo}_nif`];
    if (!nif || p[`${prefijo}_nombre`]) continue;
    const datos = await empresaPorNif(db, actor, nif);
    if (datos?.nombre) {
      p[`${prefijo}_nombre`] = datos.nombre;
      l.confianza[`${prefijo}_nombre`] = 0.9;
    }
    if (datos?.domicilio && !p[`${prefijo}_domicilio`]) {
      p[`${prefijo}_domicilio`] = datos.domicilio;
      l.confianza[`${prefijo}_domicilio`] = 0.85;
    }
  }
}

/**
 * Read a photo, outside any transaction: the month's reads checked, the
 * picture prepared and recognised, the proposal completed from the address
 * book. Returns the plan whose write (in the command layer's transaction,
 * with the answer kept for a repeat of the same request) spends the read.
 */
export async function leerFoto(ctx: { db: Kysely<DB>; clock: Clock; fotos: LectorFotos }, actor: Actor, foto: Uint8Array): Promise<Plan<FotoLeida>> {
  await comprobarFotos(ctx.db, actor, ctx.clock.now());
  let imagen: FotoPreparada;
  try {
    imagen = await prepararImagen(foto);
  } catch (error) {
    if (!(error instanceof ImagenNoValida)) throw error;
    if (error.tamano) throw new AppError('validacion', error.tamano.mensaje, { campos: { foto: error.tamano.campo } });
    throw new AppError('validacion', 'El archivo no es una foto que se pueda leer (JPEG, PNG, WebP o HEIC).', { campos: { foto: `No es una imagen válida: ${error.message}` } });
  }
  // What the user compares with the proposal: without the invisible characters the proposal drops too.
  const leido = await ctx.fotos.leer(imagen);
  const texto = quitarInvisibles(leido.texto);
  const c = actor.cuenta;
  const lectura = leerAlbaran(texto, { nif: c.nif, nombre: c.nombre, domicilio: c.domicilio, rol: c.rol });
  await completarDesdeAgenda(ctx.db, actor, lectura);
  if (texto.trim() === '') lectura.avisos.unshift('No se ha reconocido texto en la foto: repítala con más luz, de frente y sin sombras.');
  const zonas = Object.fromEntries(
    Object.entries(
      lineasDeCampos(
        lectura.propuesta,
        leido.lineas.map((l) => quitarInvisibles(l.texto)),
      ),
    ).map(([campo, i]) => [campo, leido.lineas[i]!.esquinas]),
  );
  const leida: FotoLeida = { ...lectura, texto, zonas };
  return escritura(async (trx) => {
    await gastarFoto(trx, actor, ctx.clock.now());
    return leida;
  });
}
