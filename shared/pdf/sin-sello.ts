/**
 * A sealed DeCA PDF back to the bytes the renderer wrote before the seal:
 * the seal only fills the byte range and the contents the renderer left
 * empty (pdfa.ts, `reservarSello`; @signpdf writes the range padded with
 * spaces to the placeholder's length, and the CMS padded with zeros), so
 * putting the placeholders back gives the unsealed render exactly. The app
 * compares it with the PDF it rendered itself for a DeCA issued with no coverage.
 */
import { bytesLatin1, latin1Bytes } from './binario';

const RANGO_VACIO = '/ByteRange [0 /********** /********** /**********]';

/** The unsealed bytes of `pdf`, or null when it carries no seal of ours. */
export function sinSello(pdf: Uint8Array): Uint8Array | null {
  const texto = bytesLatin1(pdf);
  // The range as the seal wrote it, padded with spaces to the placeholder's length.
  const inicio = texto.search(/\/ByteRange \[0 \d+ \d+ \d+\]/);
  const fin = inicio + RANGO_VACIO.length;
  if (inicio < 0 || !/^\/ByteRange \[0 \d+ \d+ \d+\] *$/.test(texto.slice(inicio, fin))) return null;
  const contenido = /\s*\/Contents <([0-9a-fA-F]+)>/y;
  contenido.lastIndex = fin;
  const c = contenido.exec(texto);
  if (!c) return null;
  const hex = contenido.lastIndex - 1 - c[1]!.length;
  return latin1Bytes(texto.slice(0, inicio) + RANGO_VACIO + texto.slice(fin, hex) + '0'.repeat(c[1]!.length) + texto.slice(contenido.lastIndex - 1));
}
