/**
 * Reading a photo of a delivery note on our own server. sharp decodes it
 * (EXIF rotation, grey); the page is found on whatever it lies on and
 * flattened (shared/imagen/pagina.ts), and its light evened out: each pixel
 * divided by the paper's own brightness around it, so a shadow or a lamp's
 * falloff does not swallow whole lines (a plain global stretch of the
 * contrast was measured to lose lines). tesseract.js's orientation model
 * turns the page upright, and its Spanish model reads it, word by word with
 * their boxes (both models from npm: nothing downloaded at run time). Workers
 * start on the first photo and are reused, at most one per core; photos
 * beyond them wait in the schedulers' queues, so a burst of calls never
 * starts a burst of workers. A line labelled as a NIF or a plate whose
 * reading is not sure (a check character that does not hold, a plate
 * missing) is read again, cut out and enlarged (×2, then ×3) as a single
 * line, and the surer reading kept: on handwriting and small print the
 * closer look recovers the letters the page reading took for digits or
 * dropped. Each step can be left out (Pasos) for bench/fotos.ts to measure
 * what it brings.
 */
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import sharp, { type Metadata } from 'sharp';
import { createScheduler, createWorker, OEM, PSM, type RecognizeOptions, type RecognizeResult, type Scheduler, type WorkerParams } from 'tesseract.js';
import { aplanar, aplicar, buscarPagina, type Cuadrilatero, encoger, type Gris, homografia, type Punto, tamanoPlano } from '../../shared/imagen/pagina';
import { type Caja, leerBloques, leerEnColumnas, lineaPorReleer, mejorLectura, unirPalabras } from '../../shared/rules/albaran';
import { LADO_MAXIMO } from '../../shared/rules/fotos';

const require = createRequire(import.meta.url);
/** The package's LSTM «best_int» model (2 MB gzipped); its default points at the 8 MB legacy one. */
const LANG_PATH = path.join(path.dirname(require.resolve('@tesseract.js-data/spa')), '4.0.0_best_int');
/** Tesseract's orientation and script detection model, from npm too. */
const OSD_PATH = path.join(path.dirname(require.resolve('@tesseract.js-data/osd')), '4.0.0_best_int');

/** The readers (one per core) and the orientation detector. */
interface Motores {
  s: Scheduler;
  osd: Scheduler;
}

/**
 * Shortest side a picture must keep, once fitted into LADO_MAXIMO, to hold
 * one line of text tesseract reads: its FAQ gives an x-height of 10 px as
 * the floor below which it has «very little chance», and a line of such
 * text (capitals, descenders, a little white above and below) is about
 * 30 px tall. Smaller (a thumbnail, an icon, a 1×1 pixel) or thinner (a
 * strip more than 1800/32 ≈ 56 times longer than wide) holds nothing to read.
 */
export const LADO_MINIMO = 32;
/**
 * Pixels decoded at most (sharp's `limitInputPixels`): a 2 MB file can
 * declare gigapixels (a decompression bomb); a 48-megapixel phone photo fits.
 */
export const PIXELES_MAXIMOS = 50_000_000;
const FORMATOS = new Set(['jpeg', 'png', 'webp', 'heif']);
const LEER = { failOn: 'error', limitInputPixels: PIXELES_MAXIMOS } as const;

/**
 * Bytes that give no picture to read. `motivo` completes «No es una imagen
 * válida: …»; a picture that is one but too small or too thin to hold text
 * has `tamano` instead: the whole sentence the user reads.
 */
export class ImagenNoValida extends Error {
  override name = 'ImagenNoValida';
  constructor(
    motivo: string,
    readonly tamano?: { mensaje: string; campo: string },
  ) {
    super(motivo);
  }
}

// HEIF brands of a photo coded in HEVC, as iPhones save them (ISO/IEC 23008-12): sharp's own
// libheif reads AV1-coded HEIF (AVIF) only, HEVC being left out of its prebuilt binaries.
const MARCAS_HEVC = new Set(['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis']);
const esHeicHevc = (b: Uint8Array) => b.length >= 12 && Buffer.from(b.subarray(4, 8)).toString('latin1') === 'ftyp' && MARCAS_HEVC.has(Buffer.from(b.subarray(8, 12)).toString('latin1'));
const NO_HEVC = 'foto HEIC en formato HEVC, que este servidor no descodifica: envíela como JPEG (en el iPhone, Ajustes › Cámara › Formatos › «Más compatible»)';

const mpx = (pixeles: number) => `${Math.round(pixeles / 1e6)} megapíxeles`;

/**
 * Why a picture of `ancho` × `alto` cannot hold readable text once fitted
 * into LADO_MAXIMO, or null when it can. Checked on the header, before a
 * pixel is decoded, so that no step after it (a median window, a resize)
 * meets a picture smaller than it assumes.
 */
function problemaDeTamano(ancho: number, alto: number): ImagenNoValida | null {
  const medidas = `${ancho} × ${alto} px`;
  if (ancho * alto > PIXELES_MAXIMOS) {
    return new ImagenNoValida(`demasiado grande (${medidas})`, {
      mensaje: `La foto tiene demasiados píxeles (${mpx(ancho * alto)}): envíe una de como mucho ${mpx(PIXELES_MAXIMOS)}.`,
      campo: `Demasiados píxeles (${medidas}, ${mpx(ancho * alto)}): redúzcala; con ${LADO_MAXIMO} px de lado largo basta.`,
    });
  }
  const corto = Math.min(ancho, alto);
  const largo = Math.max(ancho, alto);
  if (corto < LADO_MINIMO) {
    return new ImagenNoValida(`demasiado pequeña (${medidas})`, {
      mensaje: `La foto es demasiado pequeña para leer texto en ella (${medidas}).`,
      campo: `Demasiado pequeña para leerla (${medidas}): su lado corto debe medir al menos ${LADO_MINIMO} px. Envíe la foto del albarán entero; con ${LADO_MAXIMO} px de lado largo se lee bien.`,
    });
  }
  if (Math.round((corto * Math.min(largo, LADO_MAXIMO)) / largo) < LADO_MINIMO) {
    return new ImagenNoValida(`demasiado estrecha (${medidas})`, {
      mensaje: `La foto es demasiado estrecha para leer texto en ella (${medidas}).`,
      campo: `Demasiado estrecha para leerla (${medidas}): el lado largo puede medir como mucho unas ${Math.floor(LADO_MAXIMO / LADO_MINIMO)} veces el corto. Envíe la foto del albarán entero.`,
    });
  }
  return null;
}

/**
 * A photo made ready for OCR: the page alone, flat and upright as far as
 * could be told before reading it, grey, with its light evened out, and the
 * way back from its pixels to the photo (for the boxes of what was read).
 */
export interface FotoPreparada {
  /** One-channel PNG. */
  imagen: Buffer;
  width: number;
  height: number;
  /** Whether a page was found on a darker surface and flattened (else the whole photo is the page). */
  pagina: boolean;
  /** Quarter turns clockwise given to the page to stand its text upright. */
  cuartos: number;
  /** A pixel of `imagen` → where it lies in the photo as seen (EXIF orientation applied), as fractions of its width and height. */
  aFoto(p: Punto): Punto;
}

/**
 * The steps of the reading, each of which can be left out to measure what
 * it brings (bench/fotos.ts): all of them run in POST /fotos.
 */
export interface Pasos {
  /** Find the page on the surface and flatten it. */
  pagina: boolean;
  /** Turn a page whose text runs down a quarter, and one read unsure half round. */
  orientacion: boolean;
  /** Even out the light of the page. */
  luz: boolean;
  /** Read forms in two columns column by column. */
  columnas: boolean;
  /** Read again, closer, a NIF or plate line read unsure. */
  releer: boolean;
}
export const TODOS_LOS_PASOS: Pasos = { pagina: true, orientacion: true, luz: true, columnas: true, releer: true };

/** Long side of the small copy the page is looked for in: enough for its edges, cheap to scan. */
const LADO_BUSQUEDA = 480;
/** How much the found page is shrunk towards its centre: its edge and the shadow along it stay out. */
const MARGEN_PAGINA = 0.008;
/** The flattened page is never enlarged more than this (a small page stays blurred however large it is made). */
const AUMENTO_MAXIMO = 2;

/**
 * The picture ready for OCR, or ImagenNoValida when the bytes are not an
 * image sharp reads, or one too small, too thin or too large to read. Of an
 * animated or multi-page picture, the first frame is read. The page is
 * looked for first (shared/imagen/pagina.ts): when it lies on a darker
 * surface it is cut out and flattened, so the table, the page's shadow and
 * its slant never reach the reader; then its light is evened out, the
 * page's own alone. Which way up it is, is told by the reader (leer).
 */
export async function prepararImagen(bytes: Uint8Array, pasos: Pasos = TODOS_LOS_PASOS): Promise<FotoPreparada> {
  if (bytes.length === 0) throw new ImagenNoValida('el archivo está vacío');
  let meta: Metadata;
  try {
    // The header only: a bomb's size is read here, and refused below with its own words.
    meta = await sharp(bytes, { ...LEER, limitInputPixels: false }).metadata();
  } catch {
    throw new ImagenNoValida(esHeicHevc(bytes) ? NO_HEVC : 'no es una imagen');
  }
  const formato = meta.format;
  if (!formato || !FORMATOS.has(formato)) throw new ImagenNoValida(`formato ${formato ? formato.toUpperCase() : 'desconocido'}, que no se lee: envíela como JPEG, PNG, WebP o HEIC`);
  // The header's size as the picture is seen (EXIF orientation applied), of its first frame or page.
  const tamano = problemaDeTamano(meta.autoOrient.width, meta.autoOrient.height);
  if (tamano) throw tamano;
  let foto: Gris;
  try {
    // Decoded once, grey, at most LADO_TRABAJO a side: the page inside it is then cut at its own size.
    const g = await sharp(bytes, LEER)
      .rotate()
      .flatten({ background: '#ffffff' }) // a transparent PNG's clear parts are paper
      .resize({ width: LADO_TRABAJO, height: LADO_TRABAJO, fit: 'inside', withoutEnlargement: true })
      .toColourspace('b-w')
      .raw()
      .toBuffer({ resolveWithObject: true });
    foto = { data: g.data, width: g.info.width, height: g.info.height };
  } catch {
    throw new ImagenNoValida(esHeicHevc(bytes) ? NO_HEVC : 'imagen dañada o incompleta');
  }
  const { width: fw, height: fh } = foto;
  let plano: Gris;
  let deVuelta: (p: Punto) => Punto;
  const cuadro = pasos.pagina ? await paginaEn(foto) : null;
  if (cuadro) {
    const { width, height } = tamanoPlano(cuadro, LADO_MAXIMO);
    const escala = Math.min(AUMENTO_MAXIMO, LADO_MAXIMO / Math.max(width, height));
    const w = Math.round(width * escala);
    const h = Math.round(height * escala);
    plano = aplanar(foto, cuadro, w, h);
    const hm = homografia(
      [
        [0, 0],
        [w - 1, 0],
        [w - 1, h - 1],
        [0, h - 1],
      ],
      cuadro,
    );
    deVuelta = (p) => {
      const [x, y] = aplicar(hm, p);
      return [x / fw, y / fh];
    };
  } else {
    const escala = Math.min(1, LADO_MAXIMO / Math.max(fw, fh));
    const w = Math.round(fw * escala);
    const h = Math.round(fh * escala);
    plano = escala === 1 ? foto : { data: await unCanal(Buffer.from(foto.data), fw, fh).resize(w, h, { fit: 'fill' }).raw().toBuffer(), width: w, height: h };
    deVuelta = ([x, y]) => [x / w, y / h];
  }
  let igualado: Gris = plano;
  if (pasos.luz) {
    const papel = await brilloDelPapel(Buffer.from(plano.data), plano.width, plano.height);
    igualado = { data: igualarLuz(plano.data, papel), width: plano.width, height: plano.height };
  }
  const { width, height } = igualado;
  const imagen = await unCanal(Buffer.from(igualado.data.buffer, igualado.data.byteOffset, igualado.data.length), width, height)
    .png({ compressionLevel: 1 })
    .toBuffer();
  return { imagen, width, height, pagina: cuadro !== null, cuartos: 0, aFoto: deVuelta };
}

/** Brightness, as a share of the paper's around it, from which a pixel is paper (white). */
const PAPEL = 0.88;
/** The darkest ink, as a share of its paper, is never taken lighter than this: a page of faint print is not made all black. */
const TINTA_MAS_CLARA = 0.6;

/**
 * Each pixel as a share of the paper's brightness around it, so a shadow or
 * a lamp's falloff is gone: paper (≥ PAPEL) becomes white, and the ink is
 * stretched so the page's darkest (its 1st percentile) is black. A faded
 * ribbon's grey print (ink at 70% of its paper) would otherwise come out a
 * pale grey tesseract reads nothing in.
 */
function igualarLuz(gris: Uint8Array, papel: Uint8Array): Uint8Array {
  const n = gris.length;
  const proporcion = new Float32Array(n);
  const histograma = new Uint32Array(101);
  for (let i = 0; i < n; i++) {
    const r = Math.min(1, gris[i]! / Math.max(1, papel[i]!));
    proporcion[i] = r;
    histograma[Math.round(r * 100)]!++;
  }
  let acumulado = 0;
  let negro = 0;
  while (negro < 100 && acumulado + histograma[negro]! < n * 0.01) acumulado += histograma[negro++]!;
  const base = Math.min(negro / 100, TINTA_MAS_CLARA);
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = Math.max(0, Math.min(255, Math.round(((proporcion[i]! - base) / (PAPEL - base)) * 255)));
  return out;
}

/** Long side the photo is decoded at: its page, filling at least about 60% of it, stays near LADO_MAXIMO. */
const LADO_TRABAJO = 2600;

/** A grey picture shrunk so its long side is at most `lado`. */
async function reducida(g: Gris, lado: number): Promise<Gris> {
  const escala = lado / Math.max(g.width, g.height);
  if (escala >= 1) return g;
  const width = Math.max(1, Math.round(g.width * escala));
  const height = Math.max(1, Math.round(g.height * escala));
  const data = await unCanal(Buffer.from(g.data.buffer, g.data.byteOffset, g.data.length), g.width, g.height)
    .resize(width, height, { fit: 'fill' })
    .raw()
    .toBuffer();
  return { data, width, height };
}

/** The page's corners in the decoded photo, or null when it fills the photo or does not stand out. */
async function paginaEn(foto: Gris): Promise<Cuadrilatero | null> {
  const pequena = await reducida(foto, LADO_BUSQUEDA);
  const q = buscarPagina(pequena);
  if (!q) return null;
  const f = foto.width / pequena.width;
  return encoger(q.map(([x, y]) => [x * f, y * f]) as Cuadrilatero, MARGEN_PAGINA);
}

/** A point of a picture turned by `cuartos` quarter turns clockwise → the same point before the turn (`width` × `height` is the turned picture). */
function deshacerGiro([x, y]: Punto, cuartos: number, width: number, height: number): Punto {
  switch (((cuartos % 4) + 4) % 4) {
    case 1:
      return [y, width - 1 - x];
    case 2:
      return [width - 1 - x, height - 1 - y];
    case 3:
      return [height - 1 - y, x];
    default:
      return [x, y];
  }
}

/**
 * A raw grey picture, kept grey: sharp turns a one-channel raw input into
 * sRGB on output unless told otherwise, three bytes a pixel that a reader of
 * one byte a pixel would take for another part of the picture.
 */
const unCanal = (data: Buffer, width: number, height: number) => sharp(data, { raw: { width, height, channels: 1 } }).toColourspace('b-w');

/** Side of the median that takes the ink out, at a quarter of the size: about 36 px of the full picture. */
const VENTANA_TINTA = 9;

/**
 * The paper's brightness at each pixel: the picture at a quarter of its size, a median wide enough
 * (about 36 px of the full picture) to take the ink out, blurred, and brought back to full size.
 * Each step is its own pipeline: sharp would otherwise run the median at full size, 15× slower.
 * The quarter is never narrower than the median's window (libvips refuses a window larger than the
 * picture): a picture of LADO_MINIMO px is only just under four windows.
 */
async function brilloDelPapel(gris: Buffer, width: number, height: number): Promise<Buffer> {
  const w = Math.max(VENTANA_TINTA, Math.round(width / 4));
  const h = Math.max(VENTANA_TINTA, Math.round(height / 4));
  const pequena = await unCanal(gris, width, height).resize(w, h, { fit: 'fill' }).raw().toBuffer();
  const sinTinta = await unCanal(pequena, w, h).median(VENTANA_TINTA).raw().toBuffer();
  const suave = await unCanal(sinTinta, w, h).blur(4).raw().toBuffer();
  return unCanal(suave, w, h).resize(width, height, { fit: 'fill', kernel: 'linear' }).raw().toBuffer();
}

/** A grey picture as raw bytes, one a pixel. */
export interface Pagina {
  data: Buffer;
  width: number;
  height: number;
}

/**
 * The picture as tesseract saw it once it had straightened it (turned by
 * its angle about the centre, the corners brought in white), so the boxes
 * of its lines fall on their text. Exported for its tests.
 */
export async function girada(imagen: Buffer, radianes: number): Promise<Pagina> {
  const { width = 0, height = 0 } = await sharp(imagen).metadata();
  if (Math.abs(radianes) < 0.005) {
    return { data: await sharp(imagen).extractChannel(0).raw().toBuffer(), width, height };
  }
  // sharp orders a pipeline's steps itself: the straightened picture is cut and its one channel taken in a second one.
  const g = await sharp(imagen)
    .rotate((radianes * 180) / Math.PI, { background: '#ffffff' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const left = Math.round((g.info.width - width) / 2);
  const top = Math.round((g.info.height - height) / 2);
  // A long thin picture turned by a few degrees comes out shorter along its length than it was: the
  // part of the frame that falls outside it is white, as tesseract's own turned picture has it.
  const x0 = Math.max(0, left);
  const y0 = Math.max(0, top);
  const x1 = Math.min(g.info.width, left + width);
  const y1 = Math.min(g.info.height, top + height);
  const corte = await sharp(g.data, { raw: { width: g.info.width, height: g.info.height, channels: g.info.channels } })
    .extract({ left: x0, top: y0, width: x1 - x0, height: y1 - y0 })
    .extractChannel(0)
    .raw()
    .toBuffer();
  if (x1 - x0 === width && y1 - y0 === height) return { data: corte, width, height };
  const blanco = { left: x0 - left, top: y0 - top, right: left + width - x1, bottom: top + height - y1, background: '#ffffff' };
  const data = await unCanal(corte, x1 - x0, y1 - y0)
    .extend(blanco)
    .raw()
    .toBuffer();
  return { data, width, height };
}

/** A job's options carry tesseract parameters for that job alone (the worker sets them, then puts them back). */
const UNA_LINEA: Partial<RecognizeOptions & WorkerParams> = { tessedit_pageseg_mode: PSM.SINGLE_LINE };

/** One line read again, cut out with a margin of its height and enlarged ×2, then ×3 while still unsure; the surest reading. */
async function releer(s: Scheduler, pagina: Pagina, primera: string, caja: Caja): Promise<string> {
  const alto = caja.y1 - caja.y0;
  const left = Math.max(0, caja.x0 - alto);
  const top = Math.max(0, caja.y0 - Math.round(alto / 2));
  const width = Math.min(pagina.width - left, caja.x1 - caja.x0 + 2 * alto);
  const height = Math.min(pagina.height - top, 2 * alto);
  if (width < 8 || height < 8) return primera;
  let mejor = primera;
  for (const escala of [2, 3]) {
    const recorte = await sharp(pagina.data, { raw: { width: pagina.width, height: pagina.height, channels: 1 } })
      .extract({ left, top, width, height })
      .resize({ width: width * escala, kernel: 'lanczos3' })
      .png({ compressionLevel: 1 })
      .toBuffer();
    const r = await s.addJob('recognize', recorte, UNA_LINEA);
    mejor = mejorLectura(mejor, r.data.text.trim());
    if (!lineaPorReleer(mejor)) break;
  }
  return mejor;
}

/** A line of the reading, with where it lies in the photo. */
export interface LineaLeida {
  texto: string;
  /** Tesseract's confidence in the line, 0..1. */
  confianza: number;
  /** Its box's corners in the photo as seen, as fractions (top left, top right, bottom right, bottom left). */
  esquinas: [Punto, Punto, Punto, Punto];
}

export interface LecturaFoto {
  /** The lines in reading order, paragraphs apart by a blank line. */
  texto: string;
  /** Tesseract's mean confidence (0..1). */
  confianza: number;
  /** The lines of `texto`, in its order (blank lines left out). */
  lineas: LineaLeida[];
  /** Quarter turns clockwise the page was given to read it upright. */
  cuartos: number;
}

export interface LectorFotos {
  /** The text of a prepared photo, line by line with where each lies. */
  leer(foto: FotoPreparada, pasos?: Pasos): Promise<LecturaFoto>;
  /** Workers started so far and photos waiting for one (for health checks and tests). */
  estado(): { trabajadores: number; enCola: number };
  cerrar(): Promise<void>;
}

/**
 * Below this mean confidence a reading may be of a page upside down (a photo
 * taken from the far side of the page, or sideways the other way): unless it
 * found labels a note prints (an upside-down page reads as gibberish), it is
 * read again turned half round, and the surer reading kept. Upright print
 * reads at 0.85–0.95, the same page upside down at about 0.4; handwriting
 * reads low however it is turned, and its labels spare it the second read.
 */
const DUDOSA = 0.7;

/** The photo turned by `cuartos` quarter turns clockwise, with its way back to the photo turned too. */
async function girarFoto(foto: FotoPreparada, cuartos: number): Promise<FotoPreparada> {
  const k = ((cuartos % 4) + 4) % 4;
  if (k === 0) return foto;
  const imagen = await sharp(foto.imagen)
    .rotate(90 * k)
    .toColourspace('b-w')
    .png({ compressionLevel: 1 })
    .toBuffer();
  const width = k === 2 ? foto.width : foto.height;
  const height = k === 2 ? foto.height : foto.width;
  return { ...foto, imagen, width, height, cuartos: (foto.cuartos + k) % 4, aFoto: (p) => foto.aFoto(deshacerGiro(p, k, width, height)) };
}

/**
 * Tesseract's orientation and script detection (the `osd` model) tells how
 * far a page is turned from its text's shapes, in about a quarter of a
 * second: its answer is taken when its confidence reaches this (it gives
 * 2–7 on a page of print, below 1 where it hardly saw any text).
 */
const OSD_SEGURA = 1.5;

/**
 * Quarter turns clockwise that stand the page upright by the orientation
 * detection, and whether it is sure (a dot-matrix print or handwriting can
 * leave it guessing: its guess is then tried only if the page read as it is
 * reads badly).
 */
async function orientar(osd: Scheduler, foto: FotoPreparada): Promise<{ cuartos: number; segura: boolean }> {
  const r = await osd.addJob('detect', foto.imagen).catch(() => null);
  const grados = r?.data.orientation_degrees;
  if (!r || grados === null || grados === undefined) return { cuartos: 0, segura: false };
  return { cuartos: Math.round(grados / 90) % 4, segura: (r.data.orientation_confidence ?? 0) >= OSD_SEGURA };
}

/** The corners of a box tesseract gave on the picture it turned by `radianes` (clockwise) about its centre, on the picture as given. */
function esquinasDe(b: Caja, radianes: number, width: number, height: number): [Punto, Punto, Punto, Punto] {
  const cx = width / 2;
  const cy = height / 2;
  const cos = Math.cos(-radianes);
  const sin = Math.sin(-radianes);
  const deshacer = ([x, y]: Punto): Punto => [cx + (x - cx) * cos - (y - cy) * sin, cy + (x - cx) * sin + (y - cy) * cos];
  return [deshacer([b.x0, b.y0]), deshacer([b.x1, b.y0]), deshacer([b.x1, b.y1]), deshacer([b.x0, b.y1])];
}

const fraccion = (v: number) => Math.min(1, Math.max(0, Math.round(v * 10_000) / 10_000));

export function crearLectorFotos(trabajadores = Math.max(1, Math.min(2, os.availableParallelism()))): LectorFotos {
  let scheduler: Promise<Motores> | null = null;
  let listo: Motores | null = null;
  let esperando = 0; // photos waiting for the workers to start
  const arrancar = async (): Promise<Motores> => {
    const s = createScheduler();
    const osd = createScheduler();
    const [workers, detector] = await Promise.all([
      Promise.all(Array.from({ length: trabajadores }, () => createWorker('spa', OEM.LSTM_ONLY, { langPath: LANG_PATH, gzip: true, cacheMethod: 'none' }))),
      // The orientation model runs on tesseract's legacy engine; one worker is enough for its short jobs.
      createWorker('osd', OEM.TESSERACT_ONLY, { langPath: OSD_PATH, gzip: true, cacheMethod: 'none', legacyCore: true, legacyLang: true }),
    ]);
    // debug_file: tesseract's own notes («Detected 22 diacritics») would otherwise go to the process's output;
    // user_defined_dpi: a picture without a resolution would make it guess one, and say so.
    for (const w of workers) {
      await w.setParameters({ tessedit_pageseg_mode: PSM.AUTO, debug_file: '/dev/null', user_defined_dpi: '300' } as Parameters<typeof w.setParameters>[0]);
      s.addWorker(w);
    }
    await detector.setParameters({ debug_file: '/dev/null', user_defined_dpi: '300' } as Parameters<typeof detector.setParameters>[0]);
    osd.addWorker(detector);
    listo = { s, osd };
    return listo;
  };
  const reconocer = (s: Scheduler, foto: FotoPreparada): Promise<RecognizeResult> => s.addJob('recognize', foto.imagen, { rotateAuto: true }, { text: true, blocks: true });
  return {
    async leer(preparada, pasos = TODOS_LOS_PASOS) {
      scheduler ??= arrancar().catch((error: unknown) => {
        scheduler = null; // the next photo tries again
        throw error;
      });
      esperando++;
      let motores: Motores;
      try {
        motores = await scheduler;
      } finally {
        esperando--;
      }
      const { s } = motores;
      let foto = preparada;
      // Unsure, the page is read as it lies, and the detector's guess (else half a turn) tried if that reads badly.
      // Sure, its turn is taken; if the page then reads badly, the detector was wrong after all (a CMR's
      // boxes, a striped continuous form can fool it): the way back to the photo as it lay is tried.
      let otraVuelta = 2;
      if (pasos.orientacion) {
        const o = await orientar(motores.osd, foto);
        if (o.segura) {
          foto = await girarFoto(foto, o.cuartos);
          otraVuelta = o.cuartos ? 4 - o.cuartos : 2;
        } else if (o.cuartos) otraVuelta = o.cuartos;
      }
      let r = await reconocer(s, foto);
      if (pasos.orientacion && (r.data.confidence ?? 0) / 100 < DUDOSA && leerBloques(r.data.text).length < 2) {
        const girada = await girarFoto(foto, otraVuelta);
        const otra = await reconocer(s, girada);
        if ((otra.data.confidence ?? 0) > (r.data.confidence ?? 0)) {
          foto = girada;
          r = otra;
        }
      }
      const radianes = r.data.rotateRadians ?? 0;
      const parrafos = (r.data.blocks ?? [])
        .flatMap((b) => b.paragraphs)
        .map((p) =>
          p.lines.map((l) => l.words.filter((w) => w.text.trim() !== '').map((w) => ({ texto: w.text.trim(), caja: w.bbox, confianza: w.confidence / 100 }))).filter((palabras) => palabras.length),
        );
      const enOrden = pasos.columnas ? leerEnColumnas(parrafos) : parrafos.map((p) => p.map(unirPalabras));
      const porReleer = pasos.releer ? enOrden.flat().filter((t) => lineaPorReleer(t.texto)) : [];
      if (porReleer.length) {
        const pagina = await girada(foto.imagen, radianes);
        const textos = await Promise.all(porReleer.map((t) => releer(s, pagina, t.texto, t.caja)));
        for (const [i, t] of porReleer.entries()) t.texto = textos[i]!;
      }
      const lineas: LineaLeida[] = enOrden.flat().map((t) => ({
        texto: t.texto,
        confianza: t.confianza,
        esquinas: esquinasDe(t.caja, radianes, foto.width, foto.height).map((q) => foto.aFoto(q).map(fraccion) as Punto) as LineaLeida['esquinas'],
      }));
      const texto = enOrden.map((p) => p.map((t) => t.texto).join('\n')).join('\n\n');
      return { texto, confianza: (r.data.confidence ?? 0) / 100, lineas, cuartos: foto.cuartos };
    },
    estado() {
      // Waiting: for the workers to start, for the orientation detector, or for a reader.
      return { trabajadores: listo?.s.getNumWorkers() ?? 0, enCola: esperando + (listo?.osd.getQueueLen() ?? 0) + (listo?.s.getQueueLen() ?? 0) };
    },
    async cerrar() {
      const s = scheduler;
      scheduler = null;
      listo = null;
      if (s) {
        const m = await s;
        await Promise.all([m.s.terminate(), m.osd.terminate()]);
      }
    },
  };
}
