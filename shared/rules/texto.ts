/**
 * Text that may go on a legal document and on the inspector's page. Refused:
 * - control characters (C0, DEL, C1): invisible, unprintable, and NUL is not
 *   even storable in PostgreSQL text; tab and line breaks are allowed only in
 *   fields of several lines (observaciones, nota, motivo);
 * - bidirectional embeddings, overrides and isolates (U+202A–U+202E,
 *   U+2066–U+2069): they make a reader see characters in another order than
 *   the one stored (a name printed reversed);
 * - lone UTF-16 surrogates: not Unicode text at all (invalid UTF-8 bytes in a
 *   request are refused before they become a string).
 * Pure, shared by the app (live validation) and the server.
 */

const CONTROL_UNA_LINEA = /[\u0000-\u001F\u007F-\u009F]/;
const CONTROL_VARIAS_LINEAS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;
const SALTO = /[\t\n\r]/;
const BIDI = /[\u202A-\u202E\u2066-\u2069]/;
const SURROGATE_SUELTO = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const codigo = (c: string): string => `U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;

/** Why `s` cannot be accepted as the text of a field, in Spanish; `null` when it can. */
export function problemaDeTexto(s: string, opciones: { multilinea?: boolean } = {}): string | null {
  const surrogate = SURROGATE_SUELTO.exec(s);
  if (surrogate) return `Contiene un carácter que no es texto Unicode válido (${codigo(surrogate[0])} suelto).`;
  const bidi = BIDI.exec(s);
  if (bidi) return `Contiene un carácter invisible que cambia el orden en que se lee el texto (${codigo(bidi[0])}): quítelo.`;
  if (!opciones.multilinea) {
    const salto = SALTO.exec(s);
    if (salto) return salto[0] === '\t' ? 'No admite tabuladores: escríbalo en una línea.' : 'Debe ser una sola línea, sin saltos de línea.';
  }
  const control = (opciones.multilinea ? CONTROL_VARIAS_LINEAS : CONTROL_UNA_LINEA).exec(s);
  if (control) return `Contiene un carácter de control que no se puede imprimir (${codigo(control[0])}): quítelo.`;
  return null;
}
