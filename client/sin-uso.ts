/**
 * What jsPDF loads only for features a DeCA never uses (HTML and SVG
 * rendering: html2canvas, dompurify, canvg), kept out of the app's bundle
 * and its offline cache. Reaching it is a bug.
 */
function noDisponible(): never {
  throw new Error('Función de jsPDF no incluida en la aplicación.');
}
export default noDisponible;
export const Canvg = noDisponible;
