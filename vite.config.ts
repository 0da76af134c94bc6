import { defineConfig } from 'vitest/config';
import preact from '@preact/preset-vite';

const withPostgres = Boolean(process.env.TEST_DATABASE_URL);

/**
 * One config for the client build and the test runner. The integration suite
 * runs once on the embedded PGlite and, when TEST_DATABASE_URL is set, once
 * more on that PostgreSQL server.
 */
export default defineConfig({
  root: 'client',
  publicDir: '../public',
  plugins: [preact()],
  build: {
    outDir: '../dist/client',
    emptyOutDir: true,
  },
  test: {
    root: '.',
    pool: 'forks',
    projects: [
      {
        extends: true,
        test: { name: 'unit', root: '.', include: ['test/unit/**/*.test.ts'] },
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
