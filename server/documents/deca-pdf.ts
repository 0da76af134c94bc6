/**
 * The DeCA renderer of the server: the one the app runs too (shared/pdf),
 * with its fonts and colour profile read from disk once per process. Import
 * renderDecaPdf from here on the server, so they are in place.
 */
import { readFileSync } from 'node:fs';
import { instalarRecursosPdf } from '../../shared/pdf/pdfa';

const leer = (archivo: string) => new Uint8Array(readFileSync(new URL(`../../shared/pdf/fuentes/${archivo}`, import.meta.url)));

instalarRecursosPdf({ normal: leer('DejaVuSans-DeCA.ttf'), bold: leer('DejaVuSans-Bold-DeCA.ttf'), srgb: leer('sRGB.icc') });

export { pdfCreationDate, pdfFileId, type QrDrawer, renderDecaPdf } from '../../shared/pdf/deca-pdf';
export { FAMILIA, incrustarFuentes } from '../../shared/pdf/pdfa';
