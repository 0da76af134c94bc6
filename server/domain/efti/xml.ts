/**
 * A small XML writer for the eFTI datasets: elements, attributes and text,
 * nothing else (no comments, no processing instructions, no CDATA, no
 * mixed content), so that every character of user text goes through one
 * escaping function and can never open a tag, an entity or an attribute.
 *
 * Why not a library: what the schemas need is a tree of elements with text
 * leaves; the whole writer is shorter than the configuration a general
 * builder asks for, and its tests (test/unit/server/efti-xml.test.ts) pin
 * every case that matters here.
 */

/** An element: its name, its attributes (in the order given) and either text or child elements. */
export interface Elemento {
  nombre: string;
  atributos?: Readonly<Record<string, string>>;
  hijos?: readonly Nodo[];
  texto?: string;
}

/** A child: an element, or nothing (an optional part the data does not have). */
export type Nodo = Elemento | null | undefined | false;

/** `nombre`, `ns:nombre`: what XML 1.0 allows as a name, in the ASCII range we use. */
const NOMBRE = /^[A-Za-z_][A-Za-z0-9._-]*(:[A-Za-z_][A-Za-z0-9._-]*)?$/;

/**
 * Characters XML 1.0 does not allow in a document at all (§2.2): controls
 * other than tab, line feed and carriage return; lone surrogates; U+FFFE and
 * U+FFFF. They cannot be escaped either (`&#1;` is as invalid as the byte),
 * so each is replaced by U+FFFD. Our text fields refuse them on input
 * (shared/rules/texto.ts), this is the writer not trusting that.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the controls XML forbids are exactly what this matches.
const PROHIBIDOS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Text content: `&` and `<` always, `>` (for `]]>`), and CR kept as a reference (a parser turns a raw CR into LF). */
export function escaparTexto(s: string): string {
  return s.replace(PROHIBIDOS, '\uFFFD').replace(/[&<>\r]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '\r': '&#13;' })[c] as string);
}

/** An attribute value in double quotes: also `"`, and tab and line breaks as references (a parser turns them into spaces). */
export function escaparAtributo(s: string): string {
  return s.replace(PROHIBIDOS, '\uFFFD').replace(/[&<>"\t\n\r]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', '\t': '&#9;', '\n': '&#10;', '\r': '&#13;' })[c] as string);
}

function nombreValido(n: string): string {
  if (!NOMBRE.test(n)) throw new TypeError(`Nombre XML no válido: ${JSON.stringify(n)}`);
  return n;
}

function escribir(e: Elemento, partes: string[], sangria: string): void {
  const nombre = nombreValido(e.nombre);
  partes.push(sangria, '<', nombre);
  for (const [a, v] of Object.entries(e.atributos ?? {})) partes.push(' ', nombreValido(a), '="', escaparAtributo(v), '"');
  const hijos = (e.hijos ?? []).filter((h): h is Elemento => Boolean(h));
  if (e.texto !== undefined && hijos.length > 0) throw new TypeError(`<${nombre}> con texto y con hijos: este escritor no mezcla contenido`);
  if (e.texto !== undefined) {
    partes.push('>', escaparTexto(e.texto), '</', nombre, '>\n');
  } else if (hijos.length === 0) {
    partes.push('/>\n');
  } else {
    partes.push('>\n');
    for (const h of hijos) escribir(h, partes, `${sangria}  `);
    partes.push(sangria, '</', nombre, '>\n');
  }
}

/** The whole document, UTF-8, with its XML declaration; indented (whitespace between elements only, never inside text). */
export function documentoXml(raiz: Elemento): string {
  const partes: string[] = ['<?xml version="1.0" encoding="UTF-8"?>\n'];
  escribir(raiz, partes, '');
  return partes.join('');
}

/** An element with text, or nothing when there is no text. */
export function hoja(nombre: string, texto: string | null | undefined, atributos?: Record<string, string>): Elemento | null {
  if (texto === null || texto === undefined || texto === '') return null;
  return atributos ? { nombre, texto, atributos } : { nombre, texto };
}

/** An element with children, or nothing when none of them is there (the schemas' aggregates are all optional). */
export function grupo(nombre: string, hijos: readonly Nodo[]): Elemento | null {
  return hijos.some(Boolean) ? { nombre, hijos } : null;
}
