import { test as base } from 'vitest';
import { startTestApp, type TestApp, type TestAppOptions } from './app';
import { buildCuenta, type CuentaDePrueba, type CuentaOptions } from './factories';
import { type Receptor, startReceptor } from './webhook-receiver';

/**
 * The setup most integration files share, as Vitest fixtures: the real app
 * on a fresh test database (PGlite or a PostgreSQL schema), started once per
 * file and closed whatever happens, and one account with its keys, also once
 * per file. A file changes the options with `test.override`, e.g.
 * `test.override('opcionesApp', { clock: new ManualClock(INICIO) })`.
 * Tests that need an account of their own take `cuentaNueva`; webhook tests
 * take `rx`, a receiver on 127.0.0.1 started once per file when first asked for.
 */
export const test = base
  .extend('opcionesApp', { scope: 'file' }, {} as TestAppOptions)
  .extend('opcionesCuenta', { scope: 'file' }, {} as CuentaOptions)
  .extend('app', { scope: 'file' }, async ({ opcionesApp }, { onCleanup }) => {
    const app = await startTestApp(opcionesApp);
    onCleanup(() => app.close());
    return app;
  })
  .extend('c', { scope: 'file' }, async ({ app, opcionesCuenta }): Promise<CuentaDePrueba> => buildCuenta(app, opcionesCuenta))
  .extend('cuentaNueva', async ({ app }): Promise<CuentaDePrueba> => buildCuenta(app))
  .extend('rx', { scope: 'file' }, async ({}, { onCleanup }): Promise<Receptor> => {
    const rx = await startReceptor();
    onCleanup(() => rx.close());
    return rx;
  });

export const it = test;
export type { CuentaDePrueba, Receptor, TestApp };

/** What a file's helpers take from a test's fixtures. */
export interface Fx {
  app: TestApp;
  c: CuentaDePrueba;
}
