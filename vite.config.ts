import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import preact from '@preact/preset-vite';
import { VitePWA } from 'vite-plugin-pwa';

const withPostgres = Boolean(process.env.TEST_DATABASE_URL);

/**
 * One config for the client build and the test runner. The integration suite
 * runs once on the embedded PGlite and, when TEST_DATABASE_URL is set, once
 * more on that PostgreSQL server.
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
    // jsPDF's optional HTML/SVG helpers (the app renders DeCAs with no coverage with jsPDF, never HTML):
    // ~380 KB the offline cache would hold for nothing. Only the app's build; tests render on Node.
    alias: process.env.VITEST ? [] : [{ find: /^(html2canvas|dompurify|canvg)$/, replacement: new URL('./client/sin-uso.ts', import.meta.url).pathname }],
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
    // At least two files at a time (vitest's default, cores − 1, is one on a 2-core machine): most of
    // a file's time is spent waiting on PostgreSQL, child servers and Chromium. Measured on 2 cores,
    // the whole suite: 677 s against 1003 s with one.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      {
        extends: true,
        test: { name: 'unit', root: '.', include: ['test/unit/**/*.test.ts'] },
      },
      {
        extends: true,
        test: {
          // The built PWA in Debian's Chromium against the real server (child process, fresh PGlite).
          name: 'e2e',
          root: '.',
          include: ['test/e2e/**/*.test.ts'],
          globalSetup: ['test/e2e/global-setup.ts'],
          // Generous: on a 2-core machine the e2e file shares the CPU with the integration suites.
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'integration-pglite',
          root: '.',
          include: ['test/integration/**/*.test.ts'],
          env: { DECA_TEST_DB: 'pglite' },
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      ...(withPostgres
        ? [
            {
              extends: true as const,
              test: {
                name: 'integration-postgres',
                root: '.',
                include: ['test/integration/**/*.test.ts'],
                env: { DECA_TEST_DB: 'postgres' },
                testTimeout: 30_000,
                hookTimeout: 60_000,
              },
            },
          ]
        : []),
    ],
  },
});
