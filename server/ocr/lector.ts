/**
 * Reading a photo of a delivery note on our own server: sharp prepares the
 * picture (EXIF rotation, grey, long side ≤ 1800 px; a plain stretch of the
 * contrast was measured to lose lines of a clean print, so none is applied),
 * tesseract.js reads it with the Spanish model from npm (nothing downloaded
 * at run time). Workers start on the first photo and are reused, at most one
 * per core; photos beyond them wait in the scheduler's queue, so a burst of
 * calls never starts a burst of workers.
 */
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { createScheduler, createWorker, OEM, PSM, type Scheduler } from 'tesseract.js';

const require = createRequire(import.meta.url);
/** The package's LSTM «best_int» model (2 MB gzipped); its default points at the 8 MB legacy one. */
const LANG_PATH = path.join(path.dirname(require.resolve('@tesseract.js-data/spa')), '4.0.0_best_int');

export const LADO_MAXIMO = 1800;
const FORMATOS = new Set(['jpeg', 'png', 'webp', 'heif']);

export class ImagenNoValida extends Error {
  override name = 'ImagenNoValida';
}

/** The picture ready for OCR, or ImagenNoValida when the bytes are not an image sharp reads. */
export async function prepararImagen(bytes: Uint8Array): Promise<Buffer> {
  let formato: string | undefined;
  try {
    formato = (await sharp(bytes, { failOn: 'error', limitInputPixels: 50_000_000 }).metadata()).format;
  } catch {
    throw new ImagenNoValida('no es una imagen');
  }
  if (!formato || !FORMATOS.has(formato)) throw new ImagenNoValida(`formato ${formato ?? 'desconocido'}`);
  try {
    return await sharp(bytes, { failOn: 'error', limitInputPixels: 50_000_000 })
      .rotate()
      .grayscale()
      .resize({ width: LADO_MAXIMO, height: LADO_MAXIMO, fit: 'inside', withoutEnlargement: true })
      .png({ compressionLevel: 1 })
      .toBuffer();
  } catch {
    throw new ImagenNoValida('imagen dañada o incompleta');
  }
}

export interface LectorFotos {
  /** The text of a prepared picture, and tesseract's mean confidence (0..1). */
  leer(imagen: Buffer): Promise<{ texto: string; confianza: number }>;
  cerrar(): Promise<void>;
}

export function crearLectorFotos(trabajadores = Math.max(1, Math.min(2, os.availableParallelism()))): LectorFotos {
  let scheduler: Promise<Scheduler> | null = null;
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
    return s;
  };
  return {
    async leer(imagen) {
      scheduler ??= arrancar().catch((error: unknown) => {
        scheduler = null; // the next photo tries again
        throw error;
      });
      const s = await scheduler;
      const r = await s.addJob('recognize', imagen, { rotateAuto: true });
      return { texto: r.data.text, confianza: (r.data.confidence ?? 0) / 100 };
    },
    async cerrar() {
      const s = scheduler;
      scheduler = null;
      if (s) await (await s).terminate();
    },
  };
}
