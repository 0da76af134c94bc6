/**
 * How the address book compares what people type with what it holds: case,
 * accents and spacing do not count (`perez` finds «Transportes Pérez»), nor
 * do the spaces and dashes inside plates and NIFs (`1234bcd` finds «1234 BCD»).
 */

/** Lower case, without accents (ñ and ç too), one space between words. */
export function normalizarTexto(s: string): string {
  return s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/\s+/g, ' ').trim();
}

/** Only letters and digits, normalised: the form in which `1234 bcd`, `1234-BCD` and `1234BCD` are one. */
export function compactar(s: string): string {
  return normalizarTexto(s).replace(/[^\p{L}\p{N}]/gu, '');
}

/** What an entry is searched by: its fields normalised, then compacted (a query matches either). */
export function textoDeBusqueda(campos: readonly (string | null | undefined)[]): string {
  const presentes = campos.filter((c): c is string => !!c);
  return `${presentes.map(normalizarTexto).join(' | ')} | ${presentes.map(compactar).join(' | ')}`;
}
