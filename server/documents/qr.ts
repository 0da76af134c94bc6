import QRCode from 'qrcode';

/** Quiet zone in modules: 2 keeps the code compact on paper and phone scanners still lock on. */
const MARGIN_MODULES = 2;

/** Medium error correction (~15 %) survives a crease or a stamp on the printed DeCA. */
const ERROR_CORRECTION = 'M';

/**
 * Renders `url` as a black-on-white QR code PNG, for the `qr.png` endpoints.
 *
 * The image is the largest one not wider than `sizePx` in which every module
 * is a whole number of pixels (never less than one pixel per module): with
 * fractional scaling, module edges wobble by a pixel and scanners read
 * small prints less reliably.
 */
export async function renderQrPng(url: string, sizePx = 512): Promise<Buffer> {
  const modules = qrModules(url).size;
  const scale = Math.max(1, Math.floor(sizePx / (modules + 2 * MARGIN_MODULES)));
  return QRCode.toBuffer(url, {
    type: 'png',
    errorCorrectionLevel: ERROR_CORRECTION,
    margin: MARGIN_MODULES,
    scale,
    color: { dark: '#000000ff', light: '#ffffffff' },
  });
}

/** The square of modules of a QR code, without its quiet zone: `get` is 1 for a dark module, 0 for a light one. */
export interface QrModules {
  readonly size: number;
  get(row: number, col: number): number;
}

/** The modules of `url`'s QR code, at the same error correction as the PNG, so paper and screen carry the same code. */
export function qrModules(url: string): QrModules {
  return QRCode.create(url, { errorCorrectionLevel: ERROR_CORRECTION }).modules;
}

/** `length` dark modules side by side in `row`, the first one in column `col`. */
export interface QrRun {
  row: number;
  col: number;
  length: number;
}

/**
 * The dark modules as horizontal runs, row by row and left to right, each run
 * as long as it goes (two runs of a row never touch). Drawing one filled
 * rectangle per run puts a code on a PDF page as a few hundred path
 * operators instead of an image to encode, and neighbours in a row share no
 * edge that a rasteriser could leave a hairline in.
 */
export function darkRuns(modules: QrModules): QrRun[] {
  const runs: QrRun[] = [];
  for (let row = 0; row < modules.size; row++) {
    let col = 0;
    while (col < modules.size) {
      if (!modules.get(row, col)) {
        col++;
        continue;
      }
      const start = col;
      while (col < modules.size && modules.get(row, col)) col++;
      runs.push({ row, col: start, length: col - start });
    }
  }
  return runs;
}
