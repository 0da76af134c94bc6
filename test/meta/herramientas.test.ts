import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../support/processes';

/**
 * A newcomer's machine without Debian's Chromium: the test run says so once,
 * plainly, skips the browser tests and runs the rest; CI never skips.
 */
const vitest = path.join(path.dirname(createRequire(import.meta.url).resolve('vitest/package.json')), 'vitest.mjs');
const tmp = mkdtempSync(path.join(os.tmpdir(), 'deca-herramientas-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

interface Informe {
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  testResults: { status: string }[];
}

function correr(env: Record<string, string>, nombre: string, prueba: string[] = ['--project', 'e2e']): Promise<{ code: number | null; salida: string; informe: Informe }> {
  const json = path.join(tmp, `${nombre}.json`);
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env, NO_COLOR: '1' };
  // Only the suite asked for: the child must not also start the PostgreSQL one.
  delete childEnv.TEST_DATABASE_URL;
  delete childEnv.DECA_TEST_SUITE;
  delete childEnv.VITEST;
  delete childEnv.VITEST_WORKER_ID;
  delete childEnv.VITEST_POOL_ID;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [vitest, 'run', ...prueba, '--reporter=default', '--reporter=json', `--outputFile.json=${json}`], {
      cwd: ROOT,
      env: childEnv,
    });
    let salida = '';
    child.stdout.on('data', (d: Buffer) => (salida += d.toString()));
    child.stderr.on('data', (d: Buffer) => (salida += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, salida, informe: JSON.parse(readFileSync(json, 'utf8')) as Informe }));
  });
}

/** Processes still alive whose environment holds `marca` (Linux /proc). */
function vivosCon(marca: string): number[] {
  const pids: number[] = [];
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      if (readFileSync(`/proc/${d}/environ`, 'latin1').includes(marca)) pids.push(Number(d));
    } catch {
      // Gone meanwhile, or not ours to read.
    }
  }
  return pids;
}

describe('a test run on a machine without Chromium', () => {
  const nada = path.join(tmp, 'no-existe', 'chromium');

  it('says once how to install it, skips the browser tests and passes', async () => {
    const r = await correr({ CHROME_PATH: nada, CI: 'false' }, 'local');
    const lineas = r.salida.split('\n').filter((l) => l.startsWith('Falta chromium'));
    expect(lineas).toEqual([`Falta chromium (${nada}): se omiten las pruebas que lo usan. Instálalo con: apt-get install chromium (o CHROME_PATH=/ruta/a/chromium)`]);
    expect(r.code).toBe(0);
    expect(r.informe.numFailedTests).toBe(0);
    expect(r.informe.numPendingTests).toBeGreaterThan(0);
    expect(r.informe.numPassedTests).toBe(0);
  }, 60_000);

  it('fails under CI, with the same explanation', async () => {
    const r = await correr({ CHROME_PATH: nada, CI: 'true' }, 'ci');
    expect(r.code).not.toBe(0);
    expect(r.salida).toContain(`Falta chromium (${nada})`);
    expect(r.informe.testResults.some((f) => f.status === 'failed')).toBe(true);
  }, 60_000);

  it.runIf(process.platform === 'linux')(
    'stops the server it started when the browser does not launch',
    async () => {
      const marca = `DECA_PRUEBA_MARCA=${process.pid}-${Date.now()}`;
      const [clave, valor] = marca.split('=') as [string, string];
      // One file is enough: each starts its server the same way (browser.ts, arrancar).
      const r = await correr({ CHROME_PATH: '/bin/false', CI: 'false', [clave]: valor }, 'sin-lanzar', ['--project', 'e2e', 'test/e2e/pwa-shell.test.ts']);
      expect(r.code).not.toBe(0);
      expect(r.informe.testResults.some((f) => f.status === 'failed')).toBe(true);
      expect(vivosCon(marca)).toEqual([]);
    },
    120_000,
  );
});

describe('a test run on a machine without poppler-utils', () => {
  // A PATH that holds node and nothing else (node may live in /usr/bin, next to pdftoppm).
  const bin = path.join(tmp, 'bin');
  mkdirSync(bin, { recursive: true });
  symlinkSync(process.execPath, path.join(bin, 'node'));
  const sinPoppler = { PATH: bin };
  const qr = ['--project', 'integration-pglite', 'test/integration/decas-pdf-qr.test.ts'];

  it('says once how to install it and skips the QR read-back', async () => {
    const r = await correr({ ...sinPoppler, CI: 'false' }, 'sin-poppler', qr);
    expect(r.salida.split('\n').filter((l) => l.startsWith('Falta pdftoppm'))).toEqual(['Falta pdftoppm (pdftoppm): se omiten las pruebas que lo usan. Instálalo con: apt-get install poppler-utils']);
    expect(r.code).toBe(0);
    expect(r.informe.numFailedTests).toBe(0);
    expect(r.informe.numPendingTests).toBeGreaterThan(0);
  }, 60_000);

  it('fails under CI', async () => {
    const r = await correr({ ...sinPoppler, CI: 'true' }, 'sin-poppler-ci', qr);
    expect(r.code).not.toBe(0);
    expect(r.salida).toContain('Falta pdftoppm');
  }, 60_000);
});
