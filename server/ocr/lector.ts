/**
 * Reading a photo of a delivery note on our own server: sharp prepares the
 * picture (EXIF rotation, grey, long side ≤ 1800 px, then the light evened
 * out: each pixel divided by the paper's own brightness around it, so a
 * shadow or a lamp's falloff does not swallow whole lines — a plain global
 * stretch of the contrast was measured to lose lines, and deskewing to gain
 * nothing over tesseract's own), tesseract.js reads it with the Spanish model
 * from npm (nothing downloaded at run time). Workers start on the first photo
 * and are reused, at most one per core; photos beyond them wait in the
 * scheduler's queue, so a burst of calls never starts a burst of workers.
 * A line labelled as a NIF or a plate whose reading is not sure (a check
 * character that does not hold, a plate missing) is read again, cut out and
 * enlarged (×2, then ×3) as a single line, and the surer reading kept: on
 * handwriting and small print the closer look recovers the letters the page
 * reading took for digits or dropped.
 */
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import sharp, { type OutputInfo } from 'sharp';
import { createScheduler, createWorker, OEM, PSM, type Bbox, type RecognizeOptions, type Scheduler, type WorkerParams } from 'tesseract.js';
import { lineaPorReleer, mejorLectura } from '../../shared/rules/albaran';

const require = createRequire(import.meta.url);
/** The package's LSTM «best_int» model (2 MB gzipped); its default points at the 8 MB legacy one. */
const LANG_PATH = path.join(path.dirname(require.resolve('@tesseract.js-data/spa')), '4.0.0_best_int');

export const LADO_MAXIMO = 1800;
const FORMATOS = new Set(['jpeg', 'png', 'webp', 'heif']);

export class ImagenNoValida extends Error {
  override name = 'ImagenNoValida';
}

// HEIF brands of a photo coded in HEVC, as iPhones save them (ISO/IEC 23008-12): sharp's own
// libheif reads AV1-coded HEIF (AVIF) only, HEVC being left out of its prebuilt binaries.
const MARCAS_HEVC = new Set(['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis']);
const esHeicHevc = (b: Uint8Array) => b.length >= 12 && Buffer.from(b.subarray(4, 8)).toString('latin1') === 'ftyp' && MARCAS_HEVC.has(Buffer.from(b.subarray(8, 12)).toString('latin1'));
const NO_HEVC = 'foto HEIC en formato HEVC, que este servidor no descodifica: envíela como JPEG (en el iPhone, Ajustes › Cámara › Formatos › «Más compatible»)';

/** The picture ready for OCR, or ImagenNoValida when the bytes are not an image sharp reads. */
export async function prepararImagen(bytes: Uint8Array): Promise<Buffer> {
  let formato: string | undefined;
  try {
    formato = (await sharp(bytes, { failOn: 'error', limitInputPixels: 50_000_000 }).metadata()).format;
  } catch {
    throw new ImagenNoValida(esHeicHevc(bytes) ? NO_HEVC : 'no es una imagen');
  }
  if (!formato || !FORMATOS.has(formato)) throw new ImagenNoValida(`formato ${formato ?? 'desconocido'}`);
  let gris: { data: Buffer; info: OutputInfo };
  try {
    gris = await sharp(bytes, { failOn: 'error', limitInputPixels: 50_000_000 })
      .rotate()
      .flatten({ background: '#ffffff' }) // a transparent PNG's clear parts are paper
      .resize({ width: LADO_MAXIMO, height: LADO_MAXIMO, fit: 'inside', withoutEnlargement: true })
      .toColourspace('b-w')
      .raw()
      .toBuffer({ resolveWithObject: true });
  } catch {
    throw new ImagenNoValida(esHeicHevc(bytes) ? NO_HEVC : 'imagen dañada o incompleta');
  }
  const { width, height } = gris.info;
  const papel = await brilloDelPapel(gris.data, width, height);
  const plano = Buffer.allocUnsafe(gris.data.length);
  // Paper (≥ 88% of the brightness around it) becomes white; ink keeps its contrast to the paper.
  for (let i = 0; i < plano.length; i++) plano[i] = Math.min(255, Math.round((gris.data[i]! * 290) / Math.max(1, papel[i]!)));
  return sharp(plano, { raw: { width, height, channels: 1 } }).png({ compressionLevel: 1 }).toBuffer();
}

/**
 * The paper's brightness at each pixel: the picture at a quarter of its size, a median wide enough
 * (about 36 px of the full picture) to take the ink out, blurred, and brought back to full size.
 * Each step is its own pipeline: sharp would otherwise run the median at full size, 15× slower.
 */
async function brilloDelPapel(gris: Buffer, width: number, height: number): Promise<Buffer> {
  const raw = (data: Buffer, w: number, h: number) => sharp(data, { raw: { width: w, height: h, channels: 1 } });
  const pequena = await raw(gris, width, height)
    .resize({ width: Math.max(8, Math.round(width / 4)) })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const { width: w, height: h } = pequena.info;
  const sinTinta = await raw(pequena.data, w, h).median(9).raw().toBuffer();
  const suave = await raw(sinTinta, w, h).blur(4).raw().toBuffer();
  return raw(suave, w, h).resize(width, height, { fit: 'fill', kernel: 'linear' }).raw().toBuffer();
}

interface Pagina {
  data: Buffer;
  width: number;
  height: number;
}

/**
 * The picture as tesseract saw it once it had straightened it (turned by
 * its angle about the centre, the corners brought in white), so the boxes
 * of its lines fall on their text.
 */
async function girada(imagen: Buffer, radianes: number): Promise<Pagina> {
  const { width = 0, height = 0 } = await sharp(imagen).metadata();
  if (Math.abs(radianes) < 0.005) {
    return { data: await sharp(imagen).extractChannel(0).raw().toBuffer(), width, height };
  }
  // sharp orders a pipeline's steps itself: the straightened picture is cut and its one channel taken in a second one.
  const g = await sharp(imagen).rotate((radianes * 180) / Math.PI, { background: '#ffffff' }).raw().toBuffer({ resolveWithObject: true });
  const left = Math.round((g.info.width - width) / 2);
  const top = Math.round((g.info.height - height) / 2);
  const data = await sharp(g.data, { raw: { width: g.info.width, height: g.info.height, channels: g.info.channels } }).extract({ left, top, width, height }).extractChannel(0).raw().toBuffer();
  return { data, width, height };
}

/** A job's options carry tesseract parameters for that job alone (the worker sets them, then puts them back). */
const UNA_LINEA: Partial<RecognizeOptions & WorkerParams> = { tessedit_pageseg_mode: PSM.SINGLE_LINE };

/** One line read again, cut out with a margin of its height and enlarged ×2, then ×3 while still unsure; the surest reading. */
async function releer(s: Scheduler, pagina: Pagina, primera: string, caja: Bbox): Promise<string> {
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

export interface LectorFotos {
  /** The text of a prepared picture, and tesseract's mean confidence (0..1). */
  leer(imagen: Buffer): Promise<{ texto: string; confianza: number }>;
  /** Workers started so far and photos waiting for one (for health checks and tests). */
  estado(): { trabajadores: number; enCola: number };
  cerrar(): Promise<void>;
}

export function crearLectorFotos(trabajadores = Math.max(1, Math.min(2, os.availableParallelism()))): LectorFotos {
  let scheduler: Promise<Scheduler> | null = null;
  let listo: Scheduler | null = null;
  let esperando = 0; // photos waiting for the workers to start
  const arrancar = async (): Promise<Scheduler> => {
    const s = createScheduler();
    const workers = await Promise.all(
      Array.from({ length: trabajadores }, () => createWorker('spa', OEM.LSTM_ONLY, { langPath: LANG_PATH, gzip: true, cacheMethod: 'none' })),
    );
    for (const w of workers) {
      // debug_file: tesseract's own notes («Detected 22 diacritics») would otherwise go to the process's output.
      await w.setParameters({ tessedit_pageseg_mode: PSM.AUTO, debug_file: '/dev/null' } as Parameters<typeof w.setParameters>[0]);
      s.addWorker(w);
    }
    listo = s;
    return s;
  };
  return {
    async leer(imagen) {
      scheduler ??= arrancar().catch((error: unknown) => {
        scheduler = null; // the next photo tries again
        throw error;
      });
      esperando++;
      let s: Scheduler;
      try {
        s = await scheduler;
      } finally {
        esperando--;
      }
      const r = await s.addJob('recognize', imagen, { rotateAuto: true }, { text: true, blocks: true });
      const lineas = (r.data.blocks ?? []).flatMap((b) => b.paragraphs.flatMap((p) => p.lines)).filter((l) => lineaPorReleer(l.text));
      let texto = r.data.text;
      if (lineas.length) {
        const pagina = await girada(imagen, r.data.rotateRadians ?? 0);
        const releidas = await Promise.all(lineas.map((l) => releer(s, pagina, l.text.trim(), l.bbox)));
        lineas.forEach((l, i) => {
          // As a function: a reading may hold «$&» or «$'», which a replacement string would expand.
          if (releidas[i] !== l.text.trim()) texto = texto.replace(l.text.trim(), () => releidas[i]!);
        });
      }
      return { texto, confianza: (r.data.confidence ?? 0) / 100 };
    },
    estado() {
      return { trabajadores: listo?.getNumWorkers() ?? 0, enCola: esperando + (listo?.getQueueLen() ?? 0) };
    },
    async cerrar() {
      const s = scheduler;
      scheduler = null;
      listo = null;
      if (s) await (await s).terminate();
    },
  };
}
