import { availableParallelism } from 'node:os';
import preact from '@preact/preset-vite';
import { VitePWA } from 'vite-plugin-pwa';
import type { TestProjectInlineConfiguration } from 'vitest/config';
import { defineConfig } from 'vitest/config';
import { COMPATIBILIDAD, PGLITE_TAMBIEN } from './test/matriz.ts';
import { Secuenciador } from './test/secuenciador.ts';

const withPostgres = Boolean(process.env.TEST_DATABASE_URL);
const suite = process.env.DECA_TEST_SUITE ?? 'completa';
if (suite !== 'completa' && suite !== 'compatibilidad') throw new Error(`DECA_TEST_SUITE: «${suite}» no es completa ni compatibilidad`);

/**
 * Files at a time in the first group (every project of one group must say
 * the same): at least two, though vitest's default (cores − 1) is one on a
 * 2-core machine, since most of an integration file's time is spent waiting
 * on PostgreSQL and child processes.
 */
const WORKERS = Math.max(2, availableParallelism() - 1);
/** Builds the server (and the PGlite template) before any file runs. */
const SETUP = ['test/build-setup.ts'];

function integracion(name: string, db: 'pglite' | 'postgres', include: string[]): TestProjectInlineConfiguration {
  return {
    extends: true,
    test: {
      name,
      root: '.',
      include,
      env: { DECA_TEST_DB: db },
      globalSetup: SETUP,
      maxWorkers: WORKERS,
      // A worker runs its files one after another in one module graph: importing the server's
      // modules again for every file cost a third of the suite's time. Each file's app and
      // database are its own (fixtures), and its fixture options start from the defaults.
      isolate: false,
      setupFiles: ['test/support/fixtures-por-archivo.ts'],
      testTimeout: 30_000,
      hookTimeout: 60_000,
    },
  };
}

function proyectos(): TestProjectInlineConfiguration[] {
  const unit: TestProjectInlineConfiguration = {
    extends: true,
    // One module graph per worker, as the integration files (their globals are stubbed and unstubbed per test).
    test: { name: 'unit', root: '.', include: ['test/unit/**/*.test.ts'], globalSetup: SETUP, maxWorkers: WORKERS, isolate: false, unstubGlobals: true },
  };
  if (suite === 'compatibilidad') {
    if (!withPostgres) throw new Error('DECA_TEST_SUITE=compatibilidad necesita TEST_DATABASE_URL');
    return [unit, integracion('compat', 'postgres', COMPATIBILIDAD)];
  }
  return [
    unit,
    { extends: true, test: { name: 'meta', root: '.', include: ['test/meta/**/*.test.ts'], maxWorkers: WORKERS } },
    ...(withPostgres ? [integracion('integration-postgres', 'postgres', ['test/integration/**/*.test.ts'])] : []),
    integracion('integration-pglite', 'pglite', withPostgres ? PGLITE_TAMBIEN : ['test/integration/**/*.test.ts']),
    {
      extends: true,
      test: {
        // The built PWA in Debian's Chromium against the real server (child process, fresh PGlite).
        name: 'e2e',
        root: '.',
        include: ['test/e2e/**/*.test.ts'],
        globalSetup: ['test/e2e/global-setup.ts'],
        sequence: { groupOrder: 1 },
        maxWorkers: WORKERS,
        testTimeout: 120_000,
        hookTimeout: 120_000,
      },
    },
  ];
}

/**
 * One config for the client build and the test runner.
 *
 * The test projects (which files run where is test/matriz.ts):
 * - `unit`: test/unit, pure rules and client data code;
 * - `meta`: the test run's own checks (a missing browser or program is said
 *   once and skipped, or fails under CI; the whole-tree layer check);
 * - `integration-postgres` (when TEST_DATABASE_URL is set): every integration
 *   file on that PostgreSQL server, each file in a schema of its own;
 * - `integration-pglite`: on the embedded database, every integration file
 *   when there is no PostgreSQL, else the engine-dependent ones;
 * - `e2e`: the built app in Chromium against the real server, after all the
 *   rest has finished (sequence.groupOrder), so that the browser flows never
 *   share the CPU with the integration files.
 * DECA_TEST_SUITE=compatibilidad runs only `unit` and the runtime-dependent
 * files on PostgreSQL (`compat`): what .ci/run runs on Node 20.
 */
export default defineConfig({
  root: 'client',
  publicDir: '../public',
  plugins: [
    preact(),
    VitePWA({
      // Our own service worker (client/sw.ts), with the precache list injected at build time.
      strategies: 'injectManifest',
      srcDir: '.',
      filename: 'sw.ts',
      // Registered by client/app/sw-bridge.ts with workbox-window (update prompt).
      injectRegister: false,
      registerType: 'prompt',
      injectManifest: {
        // A classic script (every browser runs it as a service worker): dynamic imports are inlined,
        // and no `import.meta` reaches it (a syntax error outside modules).
        rollupFormat: 'iife',
        // The shell; the manifest's icons are added once by the plugin (a png glob would add them twice);
        // the fonts and colour profile of the PDF a DeCA issued with no coverage is rendered with.
        globPatterns: ['**/*.{js,css,html,svg,ttf,icc}'],
      },
      manifest: {
        name: 'DeCA · Documentos de control del transporte',
        short_name: 'DeCA',
        description: 'Emita y muestre documentos de control (DeCA) del transporte de mercancías por carretera, también sin cobertura.',
        lang: 'es',
        dir: 'ltr',
        start_url: '/',
        scope: '/',
        id: '/',
        display: 'standalone',
        orientation: 'any',
        theme_color: '#0b5394',
        background_color: '#f4f6f8',
        categories: ['business', 'productivity'],
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
          { src: '/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
    }),
  ],
  resolve: {
    alias: [
      // Dexie's own ES2021 module build (what its maintainers ship for modern bundlers), not the ES5 one its
      // package's `import` condition wraps for the dual-package check: the same library, 1.6 KB gzip less in
      // the first screen's chunk. The app only ever imports Dexie as a module, so there is one copy either way;
      // the tests resolve it alike and run the Dexie the app ships.
      { find: /^dexie$/, replacement: new URL('./node_modules/dexie/dist/modern/dexie.mjs', import.meta.url).pathname },
      // jsPDF's optional HTML/SVG helpers (the app renders DeCAs with no coverage with jsPDF, never HTML):
      // ~380 KB the offline cache would hold for nothing. Only the app's build; tests render on Node.
      ...(process.env.VITEST ? [] : [{ find: /^(html2canvas|dompurify|canvg)$/, replacement: new URL('./client/sin-uso.ts', import.meta.url).pathname }]),
    ],
  },
  build: {
    outDir: '../dist/client',
    emptyOutDir: true,
    // The first screen's JS is measured by bench/lighthouse.ts (budget: 60 KB gzip).
    modulePreload: { polyfill: false },
    // Chunk graph for bench/lighthouse.ts (initial JS of the first screen).
    manifest: true,
  },
  test: {
    root: '.',
    pool: 'forks',
    // The longest files first, whichever project they belong to (test/secuenciador.ts).
    sequence: { sequencer: Secuenciador },
    projects: proyectos(),
  },
});
