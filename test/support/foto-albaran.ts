import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { jsPDF } from 'jspdf';
import sharp from 'sharp';
import { FAMILIA, incrustarFuentes } from '../../server/documents/pdfa';

const run = promisify(execFile);

/**
 * A phone photo of a printed delivery note: the lines typeset on A4 with the
 * DeCA's own embedded font (no system fonts needed), rasterised by poppler's
 * pdftoppm, then tilted, softened and saved as a JPEG of middling quality.
 */
export async function fotoDeAlbaran(pdftoppm: string, lineas: string[], opciones: { grados?: number; calidad?: number } = {}): Promise<Buffer> {
  const doc = new jsPDF({ unit: 'mm', format: 'a4', compress: true });
  incrustarFuentes(doc);
  doc.setFont(FAMILIA, 'normal');
  doc.setFontSize(12);
  lineas.forEach((l, i) => doc.text(l, 18, 22 + i * 7));
  const dir = await mkdtemp(path.join(os.tmpdir(), 'deca-foto-'));
  try {
    await writeFile(path.join(dir, 'a.pdf'), Buffer.from(doc.output('arraybuffer')));
    await run(pdftoppm, ['-r', '150', '-gray', '-png', '-singlefile', path.join(dir, 'a.pdf'), path.join(dir, 'a')]);
    return await sharp(await readFile(path.join(dir, 'a.png')))
      .rotate(opciones.grados ?? 2, { background: '#ffffff' })
      .blur(0.6)
      .jpeg({ quality: opciones.calidad ?? 60 })
      .toBuffer();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
