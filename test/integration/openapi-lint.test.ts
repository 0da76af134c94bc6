import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentoOpenApi } from '../../server/http/openapi';
import { ROOT } from '../support/processes';

/**
 * The OpenAPI documents of both environments, as a third party's tools read
 * them: Redocly CLI (redocly.yaml: its `recommended` set, and why each rule
 * differs) and Spectral with its OpenAPI ruleset (.spectral.yaml:
 * `spectral:oas`). Errors fail; warnings are allowed. The documents are built
 * in this process, as the server builds the ones it serves at
 * /api/v1/openapi.json and /demo/api/v1/openapi.json.
 *
 * The tools run from node_modules/.bin with test/support/sin-red.cjs
 * preloaded: every DNS lookup or connection they try is noted and refused,
 * and the test fails if there was any (Redocly reports usage unless told
 * not to). A planted document with one operation missing its operationId
 * shows that each tool reads our configuration and that its errors are counted.
 */

const BIN = path.join(ROOT, 'node_modules/.bin');
const SIN_RED = path.join(ROOT, 'test/support/sin-red.cjs');
const SITIO = 'https://deca.example';

interface Salida {
  code: number;
  stdout: string;
  stderr: string;
}

let dir: string;
let registroRed: string;

function correr(herramienta: 'redocly' | 'spectral', args: string[]): Promise<Salida> {
  return new Promise((resolve, reject) => {
    execFile(
      path.join(BIN, herramienta),
      args,
      {
        cwd: ROOT,
        maxBuffer: 64 * 1024 * 1024,
        env: {
          ...process.env,
          NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --require ${JSON.stringify(SIN_RED)}`.trim(),
          DECA_SIN_RED: registroRed,
          REDOCLY_TELEMETRY: 'off',
          REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
          NO_COLOR: '1',
        },
      },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === 'number' ? err.code : -1) : 0;
        if (err && code === -1) reject(err);
        else resolve({ code, stdout, stderr });
      },
    );
  });
}

interface Problema {
  herramienta: string;
  archivo: string;
  regla: string;
  severidad: 'error' | 'warn';
  donde: string;
  mensaje: string;
}

/** Redocly on one document (its JSON report is one object per file, so one file per run). */
async function redocly(archivo: string): Promise<Problema[]> {
  const r = await correr('redocly', ['lint', '--config', path.join(ROOT, 'redocly.yaml'), '--format=json', archivo]);
  const informe = JSON.parse(r.stdout) as {
    totals: { errors: number; warnings: number };
    problems: { ruleId: string; severity: 'error' | 'warn'; message: string; location: { pointer: string }[] }[];
  };
  const problemas = informe.problems.map((p) => ({
    herramienta: 'redocly',
    archivo: path.basename(archivo),
    regla: p.ruleId,
    severidad: p.severity,
    donde: p.location[0]?.pointer ?? '',
    mensaje: p.message,
  }));
  expect(problemas.filter((p) => p.severidad === 'error').length, r.stderr).toBe(informe.totals.errors);
  expect(r.code !== 0, r.stderr).toBe(informe.totals.errors > 0);
  return problemas;
}

/** Spectral on every document at once (severity 0 is an error, 1 a warning, 2–3 hints). */
async function spectral(archivos: string[]): Promise<Problema[]> {
  const salida = path.join(dir, 'spectral.json');
  const r = await correr('spectral', ['lint', '--ruleset', path.join(ROOT, '.spectral.yaml'), '--format', 'json', '--output', salida, ...archivos]);
  const informe = JSON.parse(await readFile(salida, 'utf8')) as { code: string; severity: number; path: string[]; message: string; source: string }[];
  const problemas = informe
    .filter((p) => p.severity <= 1)
    .map((p) => ({
      herramienta: 'spectral',
      archivo: path.basename(p.source),
      regla: p.code,
      severidad: p.severity === 0 ? ('error' as const) : ('warn' as const),
      donde: `#/${p.path.join('/')}`,
      mensaje: p.message,
    }));
  expect(r.code !== 0, r.stderr).toBe(problemas.some((p) => p.severidad === 'error'));
  return problemas;
}

describe('the OpenAPI documents, linted by third-party tools', () => {
  let documentos: Record<'produccion' | 'pruebas' | 'sembrado', string>;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'deca-openapi-lint-'));
    registroRed = path.join(dir, 'red.log');
    await writeFile(registroRed, '');
    const produccion = documentoOpenApi(SITIO, 'produccion') as { paths: Record<string, Record<string, { operationId?: string }>> };
    // The planted fault: one operation without its operationId (an error in both configurations).
    const sembrado = structuredClone(produccion);
    delete sembrado.paths['/decas']!.post!.operationId;
    documentos = { produccion: path.join(dir, 'produccion.json'), pruebas: path.join(dir, 'pruebas.json'), sembrado: path.join(dir, 'sembrado.json') };
    await writeFile(documentos.produccion, JSON.stringify(produccion, null, 2));
    await writeFile(documentos.pruebas, JSON.stringify(documentoOpenApi(SITIO, 'pruebas'), null, 2));
    await writeFile(documentos.sembrado, JSON.stringify(sembrado, null, 2));
  });

  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('finds no error in either environment’s document with redocly (recommended) or spectral (spectral:oas), and reaches no network to say so', async () => {
    const [prod, pruebas, sembradoRedocly, porSpectral] = await Promise.all([
      redocly(documentos.produccion),
      redocly(documentos.pruebas),
      redocly(documentos.sembrado),
      spectral([documentos.produccion, documentos.pruebas, documentos.sembrado]),
    ]);
    const nuestros = [...prod, ...pruebas, ...porSpectral.filter((p) => p.archivo !== 'sembrado.json')];
    const resumen = (ps: Problema[]) => ps.map((p) => `${p.herramienta} ${p.severidad} ${p.regla} ${p.archivo} ${p.donde}: ${p.mensaje}`);

    // The planted fault is found by both, as an error: the configurations are read and errors are counted.
    expect(sembradoRedocly.filter((p) => p.severidad === 'error').map((p) => `${p.regla} ${p.donde}`)).toEqual(['operation-operationId #/paths/~1decas/post/operationId']);
    expect(porSpectral.filter((p) => p.archivo === 'sembrado.json' && p.severidad === 'error').map((p) => `${p.regla} ${p.donde}`)).toEqual(['operation-operationId #/paths//decas/post']);

    expect(resumen(nuestros.filter((p) => p.severidad === 'error'))).toEqual([]);
    // Warnings may stay; they are printed so that a run shows them.
    if (nuestros.length) console.info(`Avisos del lint de OpenAPI:\n${resumen(nuestros).join('\n')}`);

    expect(await readFile(registroRed, 'utf8')).toBe('');
  }, 60_000);
});
