import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ClaveIdempotencia } from '../../../shared/schemas/idempotencia';
import { prohibido } from '../../support/hostiles';

/** The message of the key's first problem, or null when it is accepted. */
const problema = (clave: unknown) => {
  const r = ClaveIdempotencia.safeParse(clave);
  return r.success ? null : r.error.issues[0]!.message;
};

describe('the idempotency key: one rule for the Idempotency-Key header and MCP’s clave_idempotencia', () => {
  it.each(['550e8400-e29b-41d4-a716-446655440000', 'k', 'reintento-1', 'pedido:2026/0042#3', 'k'.repeat(255)])('accepts %s', (clave) => {
    expect(ClaveIdempotencia.parse(clave)).toBe(clave);
  });

  it('drops surrounding spaces, as HTTP does from a header', () => {
    expect(ClaveIdempotencia.parse('  clave-1 \t')).toBe('clave-1');
  });

  it.each([
    ['a NUL (PostgreSQL cannot store it)', 'a\u0000b', /ASCII visibles/],
    ['a bell', 'a\u0007b', /ASCII visibles/],
    ['a C1 control', 'a\u0085b', /ASCII visibles/],
    ['a DEL', 'a\u007fb', /ASCII visibles/],
    ['a right-to-left override', 'a\u202eb', /ASCII visibles/],
    ['an isolate', '\u2066clave', /ASCII visibles/],
    ['a lone surrogate', 'a\ud800b', /ASCII visibles/],
    ['a space inside', 'con espacio', /sin espacios/],
    ['an accent', 'clavé', /ASCII visibles/],
    ['256 characters', 'k'.repeat(256), /Máximo 255/],
    ['nothing but spaces', '   ', /de 1 a 255/],
    ['a number', 5, /./],
  ])('refuses %s', (_, clave, mensaje) => {
    expect(problema(clave)).toMatch(mensaje);
  });

  it('refuses every string with a forbidden character, and every one longer than 255, once the spaces and tabs around it are dropped', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (s) => {
        // What HTTP drops around a header's value (spaces and tabs) is no part of the key.
        const clave = s.replace(/^[ \t]+|[ \t]+$/g, '');
        if (prohibido(clave) || clave.length > 255) expect(problema(s)).not.toBeNull();
      }),
      { numRuns: 2_000 },
    );
  });

  it('accepts every key of 1 to 255 visible ASCII characters, with spaces or tabs around it or not', () => {
    const visible = fc.integer({ min: 0x21, max: 0x7e }).map((c) => String.fromCharCode(c));
    fc.assert(
      fc.property(fc.array(visible, { minLength: 1, maxLength: 255 }), fc.constantFrom('', ' ', '\t', ' \t '), (letras, alrededor) => {
        const clave = letras.join('');
        expect(ClaveIdempotencia.parse(`${alrededor}${clave}${alrededor}`)).toBe(clave);
      }),
    );
  });

  it.each([
    ['a vertical tab', '\u000b!'],
    ['a line break', '!\n'],
    ['a byte order mark', '\ufeff!'],
    ['a line separator', '\u2028!'],
  ])('refuses %s around the key, which no header could carry, though JavaScript’s trim would drop it', (_, clave) => {
    expect(problema(clave)).toMatch(/ASCII visibles/);
  });
});
