import QRCode from 'qrcode';

/** Quiet zone in modules: 2 keeps the code compact on paper and phone scanners still lock on. */
const MARGIN_MODULES = 2;

/** Medium error correction (~15 %) survives a crease or a stamp on the printed DeCA. */
const ERROR_CORRECTION = 'M';

/**
 * Renders `url` as a black-on-white QR code PNG, for the DeCA PDF and the
 * `qr.png` endpoint.
 *
 * The image is the largest one not wider than `sizePx` in which every module
 * is a whole number of pixels (never less than one pixel per module): with
 * fractional scaling, module edges wobble by a pixel and scanners read
 * small prints less reliably.
 */
export async function renderQrPng(url: string, sizePx = 512): Promise<Buffer> {
  const modules = QRCode.create(url, { errorCorrectionLevel: ERROR_CORRECTION }).modules.size;
  const scale = Math.max(1, Math.floor(sizePx / (modules + 2 * MARGIN_MODULES)));
  return QRCode.toBuffer(url, {
    type: 'png',
    errorCorrectionLevel: ERROR_CORRECTION,
    margin: MARGIN_MODULES,
    scale,
    color: { dark: '#000000ff', light: '#ffffffff' },
  });
}
