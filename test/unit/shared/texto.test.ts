import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { problemaDeTexto, quitarInvisibles } from '../../../shared/rules/texto';
import { DecaInput } from '../../../shared/schemas/deca';

const rango = (a: number, b: number) => Array.from({ length: b - a + 1 }, (_, i) => a + i);

describe('text that can be printed and shown to an inspector', () => {
  it.each([
    'Transportes Pérez e Hijos, S.L.',
    'Peñafiel (Valladolid) · «urgente» — “frágil” ‘sí’',
    'Ångström Ærø Œuvre ß İstanbul Ελλάδα Москва',
    '24.500 kg · 1,5 t · 30 € · nº 7',
    'Frutas 🍊 y verduras 🥦',
    'עברית y العربية escritos sin marcas de control',
  ])('accepts %s', (s) => {
    expect(problemaDeTexto(s)).toBeNull();
  });

  it.each([
    ['\u0000', 'U+0000'],
    ['\u0007', 'U+0007'],
    ['\u001B', 'U+001B'],
    ['\u007F', 'U+007F'],
    ['\u0085', 'U+0085'],
    ['\u009F', 'U+009F'],
  ])('refuses the control character %j, naming it', (c, codigo) => {
    expect(problemaDeTexto(`a${c}b`)).toContain(codigo);
    expect(problemaDeTexto(`a${c}b`, { multilinea: true })).toContain(codigo);
  });

  it.each(['\u202A', '\u202B', '\u202C', '\u202D', '\u202E', '\u2066', '\u2067', '\u2068', '\u2069'])('refuses the bidirectional control %j', (c) => {
    expect(problemaDeTexto(`A${c}SL evil`)).toMatch(/orden en que se lee/);
    expect(problemaDeTexto(`A${c}SL evil`, { multilinea: true })).toMatch(/orden en que se lee/);
  });

  it('refuses lone surrogates and accepts pairs', () => {
    expect(problemaDeTexto('x\uD800y')).toMatch(/U\+D800 suelto/);
    expect(problemaDeTexto('x\uDC00')).toMatch(/U\+DC00 suelto/);
    expect(problemaDeTexto('\uDC00\uD800')).toMatch(/suelto/);
    expect(problemaDeTexto('\uD83D\uDE9A')).toBeNull();
  });

  it('allows tab and line breaks only in fields of several lines', () => {
    for (const s of ['línea 1\nlínea 2', 'a\r\nb', 'col\tcol']) {
      expect(problemaDeTexto(s, { multilinea: true })).toBeNull();
      expect(problemaDeTexto(s)).not.toBeNull();
    }
  });

  // Every code point of each range, in every kind of field: the message names it.
  const INVISIBLES = [
    ...rango(0x200b, 0x200f), // zero-width space, non-joiner, joiner; left-to-right and right-to-left marks
    ...rango(0x2060, 0x2064), // word joiner, invisible function application, times, separator, plus
    0xfeff, // BOM / zero-width no-break space
    0x061c, // Arabic letter mark
    0x00ad, // soft hyphen: invisible unless a line breaks there
    0x180e, // Mongolian vowel separator (category Cf since Unicode 6.3)
    0x2028, // line separator (line breaks are \n)
    0x2029, // paragraph separator
  ].map((cp) => [String.fromCodePoint(cp), `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`]);

  it.each(INVISIBLES)('refuses the invisible character %j in every field, naming it', (c, codigo) => {
    const mensaje = `Contiene un carácter invisible (${codigo}): quítelo.`;
    for (const opciones of [{}, { multilinea: true }, { imprimible: true }, { multilinea: true, imprimible: true }]) {
      expect(problemaDeTexto(`B1234567${c}4`, opciones)).toBe(mensaje);
      expect(problemaDeTexto(`${c}Transportes`, opciones)).toBe(mensaje);
      expect(problemaDeTexto(`PED-7${c}`, opciones)).toBe(mensaje);
    }
  });

  it('refuses the invisible characters through the schemas too: names, NIF, ref_externa', () => {
    const r = DecaInput.safeParse({ emitir: false, ref_externa: 'PED\u200b-7', cargador_nombre: 'Frutas\ufeff SA', cargador_nif: 'A58818501\u200d', observaciones: 'una\u2028dos', envios: [] });
    expect(r.success).toBe(false);
    const campos = r.success ? {} : Object.fromEntries(r.error.issues.map((i) => [i.path.join('.'), i.message]));
    expect(campos).toMatchObject({
      ref_externa: 'Contiene un carácter invisible (U+200B): quítelo.',
      cargador_nombre: 'Contiene un carácter invisible (U+FEFF): quítelo.',
      cargador_nif: 'Contiene un carácter invisible (U+200D): quítelo.',
      observaciones: 'Contiene un carácter invisible (U+2028): quítelo.',
    });
  });

  it('keeps visible look-alikes: no-break space, narrow no-break space, the ordinary hyphen', () => {
    for (const s of ['24\u00a0t', '24\u202fkg', 'Pérez-Díaz']) expect(problemaDeTexto(s, { imprimible: true })).toBeNull();
  });

  it('strips them from machine-read text, the separators becoming line breaks', () => {
    expect(quitarInvisibles('B\u200b1234\u00ad5674\ufeff')).toBe('B12345674');
    expect(quitarInvisibles('uno\u2028dos\u2029tres\u200fcuatro\u061c')).toBe('uno\ndos\ntrescuatro');
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => {
        const limpio = quitarInvisibles(s.toWellFormed());
        expect(problemaDeTexto(limpio, { multilinea: true })?.includes('invisible') ?? false).toBe(false);
      }),
      { numRuns: 300 },
    );
  });

  it('agrees with its definition for any string', () => {
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the definition under test is a set of control characters
    const prohibido = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/;
    const invisible = /[\p{Cf}\u2028\u2029]/u;
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'binary' }), fc.string({ unit: 'grapheme' })), (s) => {
        const malo = prohibido.test(s) || !s.isWellFormed() || (s.isWellFormed() && invisible.test(s));
        expect(problemaDeTexto(s, { multilinea: true }) !== null).toBe(malo);
        expect(problemaDeTexto(s) !== null).toBe(malo || /[\t\n\r]/.test(s));
      }),
      { numRuns: 2_000 },
    );
  });
});

describe('text printed on the DeCA: only what its embedded font can print', () => {
  it.each(['Łukasz Wałęsa', 'Ştefan Ţară', 'Ærø Œuvre ß', 'Piñones «extra» – “bio” … 24 € ™ № →'])('accepts %s', (t) => {
    expect(problemaDeTexto(t, { imprimible: true })).toBeNull();
  });
  it.each([
    ['Carga 😀', '😀', 'U+1F600'],
    ['Ωμέγα', 'Ω', 'U+03A9'],
    ['Жук', 'Ж', 'U+0416'],
    ['北京', '北', 'U+5317'],
  ])('refuses %s naming the character', (t, ch, cp) => {
    const m = problemaDeTexto(t, { imprimible: true });
    expect(m).toContain(`«${ch}» (${cp})`);
  });
  it('leaves text that is not printed alone (passwords, webhook descriptions)', () => {
    expect(problemaDeTexto('contraseña 😀 Ωμέγα')).toBeNull();
  });
  it('the API answers 422 naming the field, and the PDF never meets such text', () => {
    const r = DecaInput.safeParse({ emitir: false, observaciones: 'ok 😀', envios: [{ nota: 'Жук' }] });
    expect(r.success).toBe(false);
    const campos = r.success ? {} : Object.fromEntries(r.error.issues.map((i) => [i.path.join('.'), i.message]));
    expect(campos.observaciones).toContain('U+1F600');
    expect(campos['envios.0.nota']).toContain('U+0416');
  });
});

describe('text longer than its field takes', () => {
  it('is refused for its length alone, without reading it character by character (a 4 MB field held the server 80 ms)', () => {
    const r = DecaInput.safeParse({ emitir: false, observaciones: '\u0000😀'.repeat(2000), envios: [{ nota: '\u0007'.repeat(1001) }] });
    expect(r.success).toBe(false);
    const mensajes = r.success ? [] : r.error.issues.map((i) => [i.path.join('.'), i.message]);
    expect(mensajes).toEqual([
      ['observaciones', 'Máximo 2000 caracteres'],
      ['envios.0.nota', 'Máximo 1000 caracteres'],
    ]);
  });
});
