/**
 * What an attacker or a broken client sends, as fast-check generators shared
 * by the files that throw it at every front door (REST bodies, forms, MCP
 * tools): text with the characters no field may hold, odd strings and
 * numbers, and deep and wide structures with odd keys.
 */
import fc from 'fast-check';

/**
 * One character of each kind no text field accepts: C0 and C1 controls, DEL, bidirectional embeddings and isolates,
 * invisible format characters (zero-width, marks, word joiner, BOM, soft hyphen), line/paragraph separators, lone surrogates.
 */
export const PROHIBIDOS = [
  '\u0000',
  '\u0007',
  '\u001b',
  '\u007f',
  '\u0085',
  '\u009f',
  '\u202a',
  '\u202e',
  '\u2066',
  '\u2069',
  '\u200b',
  '\u200c',
  '\u200d',
  '\u200e',
  '\u200f',
  '\u2060',
  '\u2064',
  '\ufeff',
  '\u061c',
  '\u00ad',
  '\u2028',
  '\u2029',
  '\ud800',
  '\udfff',
];

/** True when `s` holds a character no field accepts (shared/rules/texto.ts; tab and line breaks aside). */
export const prohibido = (s: string) =>
  // biome-ignore lint/suspicious/noControlCharactersInRegex: it lists the control characters a field refuses
  !s.isWellFormed() || /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/.test(s) || /[\p{Cf}\u2028\u2029]/u.test(s);

/**
 * Strings a client may send: any code units at all (lone surrogates and
 * controls included), with a forbidden character injected half of the time.
 */
export const texto = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.tuple(fc.string({ maxLength: 20 }), fc.constantFrom(...PROHIBIDOS), fc.string({ maxLength: 20 })).map(([a, x, b]) => a + x + b),
);

/** Odd strings: injections, markup, formulas, paths, number-like text, a 20,000-character one, random code units. */
export const hostil = fc.oneof(
  fc.constantFrom(
    "' OR 1=1 --",
    '"; DROP TABLE decas; --',
    '<script>alert(1)</script>',
    '=HYPERLINK("http://x")',
    '\u0000\u0001\u202e',
    '𝕯𝖊𝕮𝕬 🚛',
    '../../etc/passwd',
    '%00%ff',
    'a'.repeat(20_000),
    '1e309',
    '-0',
    'NaN',
  ),
  fc.string({ unit: 'binary', maxLength: 200 }),
);

/** Any JSON value built of hostile parts: strings, numbers, booleans, null, arrays, objects with odd keys (`__proto__` included). */
export const valor: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  v: fc.oneof(
    { depthSize: 'small' },
    hostil,
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('v'), { maxLength: 4 }),
    fc.dictionary(fc.oneof(hostil, fc.constantFrom('__proto__', 'constructor', 'prototype')), tie('v'), { maxKeys: 4 }),
  ),
})).v;
