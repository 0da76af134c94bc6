import { describe, expect } from 'vitest';
import { it } from '../support/fixtures';

/**
 * Files run one after another in a worker's one module graph (isolate:
 * false): this one, wherever it falls, must find the fixtures' options as
 * fixtures.ts defines them, though most files before it override them
 * (a clock, limits, TRUST_PROXY…).
 */
describe('a file’s fixture options', () => {
  it('start from the defaults, whatever the files before it in the worker overrode', ({ opcionesApp, opcionesCuenta }) => {
    expect(opcionesApp).toEqual({});
    expect(opcionesCuenta).toEqual({});
  });
});
