/**
 * The sizes of a delivery-note photo, zod-free so that the app's photo worker
 * reads them too.
 */

/** Spec: a photo of at most 2 MB as a file. */
export const FOTO_MAXIMA = 2 * 1024 * 1024;

/** Long side, in px, of the picture the server reads (server/ocr/lector.ts) and the app shrinks a photo to before sending it. */
export const LADO_MAXIMO = 1800;

/** A field read from a photo with less confidence than this is marked «revisar» in the form, and the first such field is focused. */
export const CONFIANZA_REVISAR = 0.6;
