import { GLIFOS } from './glifos';

/**
 * Text that may go on a legal document and on the inspector's page. Refused:
 * - control characters (C0, DEL, C1): invisible, unprintable, and NUL is not
 *   even storable in PostgreSQL text; tab and line breaks are allowed only in
 *   fields of several lines (observaciones, nota, motivo);
 * - bidirectional embeddings, overrides and isolates (U+202A–U+202E,
 *   U+2066–U+2069): they make a reader see characters in another order than
 *   the one stored (a name printed reversed);
 * - every other invisible format character (Unicode category Cf: zero-width
 *   space, joiners and marks U+200B–U+200F, word joiner and invisible operators
 *   U+2060–U+2064, BOM U+FEFF, Arabic letter mark U+061C, soft hyphen U+00AD, …)
 *   and the line and paragraph separators U+2028/U+2029, in every field (line
 *   breaks are \n): two values that look the same would be different data (a
 *   NIF or a `ref_externa` that matches nothing), and nothing shows why;
 * - lone UTF-16 surrogates: not Unicode text at all (invalid UTF-8 bytes in a
 *   request are refused before they become a string);
 * - in text printed on the DeCA (`imprimible`), characters its embedded font
 *   has no glyph for (emoji, other scripts): the PDF would show «?».
 * Pure, shared by the app (live validation) and the server.
 */

// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is what this pattern is for.
const CONTROL_UNA_LINEA = /[\u0000-\u001F\u007F-\u009F]/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is what this pattern is for.
const CONTROL_VARIAS_LINEAS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;
const SALTO = /[\t\n\r]/;
const BIDI = /[\u202A-\u202E\u2066-\u2069]/;
const SURROGATE_SUELTO = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const codigo = (c: string): string => `U+${(c.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;

function enGlifos(cp: number): boolean {
  let lo = 0;
  let hi = GLIFOS.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const [a, b] = GLIFOS[mid]!;
    if (cp < a) hi = mid - 1;
    else if (cp > b) lo = mid + 1;
    else return true;
  }
  return false;
}

/**
 * Invisible format characters (category Cf, bidirectional controls included)
 * and the line/paragraph separators: refused on input (`problemaDeTexto`);
 * dropped when printing rows stored before that rule, and stripped from
 * machine-read text (OCR) before it is proposed (`quitarInvisibles`).
 */
export const INVISIBLE = /[\p{Cf}\u2028\u2029]/u;
const INVISIBLES = new RegExp(INVISIBLE.source, 'gu');

/** Text read by a machine (a photo's OCR) without its invisible characters: the separators U+2028/2029 become line breaks. */
export function quitarInvisibles(s: string): string {
  return s.replace(INVISIBLES, (c) => (c === '\u2028' || c === '\u2029' ? '\n' : ''));
}

/** True when the DeCA's PDF can print `ch` (one code point; line breaks and tabs count as spacing). */
export function imprimible(ch: string): boolean {
  return ch === '\n' || ch === '\r' || ch === '\t' || enGlifos(ch.codePointAt(0) ?? 0);
}

/** Why `s` cannot be accepted as the text of a field, in Spanish; `null` when it can. */
export function problemaDeTexto(s: string, opciones: { multilinea?: boolean; imprimible?: boolean } = {}): string | null {
  const surrogate = SURROGATE_SUELTO.exec(s);
  if (surrogate) return `Contiene un carácter que no es texto Unicode válido (${codigo(surrogate[0])} suelto).`;
  const bidi = BIDI.exec(s);
  if (bidi) return `Contiene un carácter invisible que cambia el orden en que se lee el texto (${codigo(bidi[0])}): quítelo.`;
  const invisible = INVISIBLE.exec(s);
  if (invisible) return `Contiene un carácter invisible (${codigo(invisible[0])}): quítelo.`;
  if (!opciones.multilinea) {
    const salto = SALTO.exec(s);
    if (salto) return salto[0] === '\t' ? 'No admite tabuladores: escríbalo en una línea.' : 'Debe ser una sola línea, sin saltos de línea.';
  }
  const control = (opciones.multilinea ? CONTROL_VARIAS_LINEAS : CONTROL_UNA_LINEA).exec(s);
  if (control) return `Contiene un carácter de control que no se puede imprimir (${codigo(control[0])}): quítelo.`;
  if (opciones.imprimible) {
    for (const ch of s.normalize('NFC')) {
      if (!imprimible(ch)) {
        return `El documento no puede imprimir «${ch}» (${codigo(ch)}): use letras del alfabeto latino, números y signos de puntuación habituales.`;
      }
    }
  }
  return null;
}
