import QRCode from 'qrcode';

/** Medium error correction (~15 %) survives a crease or a stamp on the printed DeCA. */
export const ERROR_CORRECTION = 'M';

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

/**
 * The QR code of `url` as an SVG document (black runs on white, a quiet zone
 * of 4 modules), for a screen that must show it with no server: the app's
 * DeCA issued with no coverage.
 */
export function qrSvg(url: string): string {
  const m = qrModules(url);
  const margen = 4;
  const lado = m.size + 2 * margen;
  const d = darkRuns(m)
    .map((r) => `M${r.col + margen} ${r.row + margen}h${r.length}v1h-${r.length}z`)
    .join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${lado} ${lado}" shape-rendering="crispEdges"><rect width="${lado}" height="${lado}" fill="#fff"/><path fill="#000" d="${d}"/></svg>`;
}
