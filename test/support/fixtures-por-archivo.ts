import { test } from './fixtures';

/**
 * Run before each integration file (vite.config.ts: setupFiles). A worker
 * runs file after file in one module graph (isolate: false), and a file's
 * top-level `test.override` replaces the shared fixtures' options for good:
 * each file starts again from the defaults, so one file's clock, limits or
 * environment never reach the next.
 */
test.override({ opcionesApp: {}, opcionesCuenta: {} });
