/**
 * POST /fotos: a photo of a delivery note, order or consignment note → a DeCA
 * proposal for review. Nothing is created; a successful read spends one of
 * the month's photo reads, a refused upload none.
 */
import type { Kysely } from 'kysely';
import { AppError } from '../../../shared/errors';
import { type CuentaLectora, type Lectura, leerAlbaran, situarCampos } from '../../../shared/rules/albaran';
import { quitarInvisibles } from '../../../shared/rules/texto';
import type { Clock } from '../../clock';
import type { DB } from '../../db/schema';
import { type FotoPreparada, ImagenNoValida, type LectorFotos, type Pasos, prepararImagen, TODOS_LOS_PASOS } from '../../ocr/lector';
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

/** What a photo says: the proposal with its confidences, the recognised text, and where each field was read. */
export interface ImagenLeida {
  lectura: Lectura;
  texto: string;
  zonas: FotoLeida['zonas'];
}

/**
 * A photo read into a DeCA proposal, as POST /fotos reads it but without
 * the database (bench/fotos.ts measures this very function): the picture
 * prepared (ImagenNoValida as a 422 on `foto`), recognised, read by the
 * shared rules, each field placed on its line and its confidence capped by
 * OCR's on that line. `antes` runs on the proposal before the fields are
 * placed (POST /fotos completes names from the address book there).
 * `pasos` leaves steps out, for the bench to measure what each brings.
 */
export async function leerImagen(fotos: LectorFotos, foto: Uint8Array, cuenta?: CuentaLectora, antes?: (l: Lectura) => Promise<void>, pasos: Pasos = TODOS_LOS_PASOS): Promise<ImagenLeida> {
  let imagen: FotoPreparada;
  try {
    imagen = await prepararImagen(foto, pasos);
  } catch (error) {
    if (!(error instanceof ImagenNoValida)) throw error;
    if (error.tamano) throw new AppError('validacion', error.tamano.mensaje, { campos: { foto: error.tamano.campo } });
    throw new AppError('validacion', 'El archivo no es una foto que se pueda leer (JPEG, PNG, WebP o HEIC).', { campos: { foto: `No es una imagen válida: ${error.message}` } });
  }
  const leido = await fotos.leer(imagen, pasos);
  // What the user compares with the proposal: without the invisible characters the proposal drops too.
  const texto = quitarInvisibles(leido.texto);
  const lectura = leerAlbaran(texto, cuenta);
  await antes?.(lectura);
  if (texto.trim() === '') lectura.avisos.unshift('No se ha reconocido texto en la foto: repítala con más luz, de frente y sin sombras.');
  const donde = situarCampos(
    lectura,
    leido.lineas.map((l) => ({ texto: quitarInvisibles(l.texto), confianza: l.confianza })),
  );
  const zonas = Object.fromEntries(Object.entries(donde).map(([campo, i]) => [campo, leido.lineas[i]!.esquinas]));
  return { lectura, texto, zonas };
}

/**
 * Read a photo, outside any transaction: the month's reads checked, the
 * picture prepared and recognised, the proposal completed from the address
 * book. Returns the plan whose write (in the command layer's transaction,
 * with the answer kept for a repeat of the same request) spends the read.
 */
export async function leerFoto(ctx: { db: Kysely<DB>; clock: Clock; fotos: LectorFotos }, actor: Actor, foto: Uint8Array): Promise<Plan<FotoLeida>> {
  await comprobarFotos(ctx.db, actor, ctx.clock.now());
  const c = actor.cuenta;
  const { lectura, texto, zonas } = await leerImagen(ctx.fotos, foto, { nif: c.nif, nombre: c.nombre, domicilio: c.domicilio, rol: c.rol }, (l) => completarDesdeAgenda(ctx.db, actor, l));
  const leida: FotoLeida = { ...lectura, texto, zonas };
  return escritura(async (trx) => {
    await gastarFoto(trx, actor, ctx.clock.now());
    return leida;
  });
}
