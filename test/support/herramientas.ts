import { accessSync, closeSync, constants, openSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * System programs and files some tests need (Debian packages, never downloaded by npm).
 * On a machine without one, its tests are skipped after one plain line saying
 * how to install it; with CI=true an absent program fails the run instead.
 */
/** Debian's fonts-humor-sans: a handwriting-like font. */
export const FUENTE_MANUSCRITA = '/usr/share/fonts/truetype/humor-sans/Humor-Sans.ttf';

const HERRAMIENTAS = {
  chromium: {
    ruta: () => process.env.CHROME_PATH ?? '/usr/bin/chromium',
    instalar: 'apt-get install chromium (o CHROME_PATH=/ruta/a/chromium)',
  },
  pdftoppm: {
    ruta: () => buscarEnPath('pdftoppm'),
    instalar: 'apt-get install poppler-utils',
  },
  pdftotext: {
    ruta: () => buscarEnPath('pdftotext'),
    instalar: 'apt-get install poppler-utils',
  },
  openssl: {
    ruta: () => buscarEnPath('openssl'),
    instalar: 'apt-get install openssl',
  },
  // XML Schema validation of the eFTI datasets against the vendored reference schemas.
  xmllint: {
    ruta: () => buscarEnPath('xmllint'),
    instalar: 'apt-get install libxml2-utils',
  },
  // A file, not a program: the handwriting-like font the generated handwritten delivery notes are drawn with.
  'fonts-humor-sans': {
    ruta: () => FUENTE_MANUSCRITA,
    instalar: 'apt-get install fonts-humor-sans',
    archivo: true,
  },
  // Not a Debian package: the MCP inspector from npm, run by a Node ≥ 22.19 (what .ci/run installs under .tmp/).
  'mcp-inspector': {
    ruta: () => path.resolve('.tmp/inspector/node_modules/.bin/mcp-inspector'),
    instalar: 'npm install --prefix .tmp/inspector --no-save @modelcontextprotocol/inspector@2.12.0',
  },
  // A Node ≥ 22.19 for the inspector: this one if it is, else the Node 24 .ci/run installs under .tmp/.
  'node-22': {
    ruta: () => {
      const [mayor = 0, menor = 0] = process.versions.node.split('.').map(Number);
      return mayor > 22 || (mayor === 22 && menor >= 19) ? process.execPath : path.resolve('.tmp/node24/node_modules/.bin/node');
    },
    instalar: 'npm install --prefix .tmp/node24 --no-save node@24',
  },
} as const;

export type Herramienta = keyof typeof HERRAMIENTAS;

function ejecutable(ruta: string, archivo = false): boolean {
  try {
    accessSync(ruta, archivo ? constants.R_OK : constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function buscarEnPath(nombre: string): string {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (dir && ejecutable(path.join(dir, nombre))) return path.join(dir, nombre);
  }
  return nombre;
}

/** The line a newcomer reads when a program is missing. */
export function avisoFalta(nombre: Herramienta): string {
  const h = HERRAMIENTAS[nombre];
  return `Falta ${nombre} (${h.ruta()}): se omiten las pruebas que lo usan. Instálalo con: ${h.instalar}`;
}

/** Print the line once per test run, whatever the number of files (and workers) that need the program. */
function avisarUnaVez(nombre: Herramienta): void {
  // Every worker of one vitest run shares the parent process.
  const marca = path.join(os.tmpdir(), `deca-falta-${nombre}-${process.ppid}`);
  try {
    closeSync(openSync(marca, 'wx'));
  } catch {
    return;
  }
  process.stderr.write(`\n${avisoFalta(nombre)}\n\n`);
}

/** Whether the program is installed, with no message (for setup code that only saves work). */
export function instalada(nombre: Herramienta): boolean {
  const h: { ruta: () => string; archivo?: boolean } = HERRAMIENTAS[nombre];
  return ejecutable(h.ruta(), h.archivo);
}

/**
 * The program's path when it is installed, `null` when it is not (the caller
 * skips). With CI=true a missing program throws: CI never skips.
 */
export function herramienta(nombre: Herramienta): string | null {
  const ruta = HERRAMIENTAS[nombre].ruta();
  if (instalada(nombre)) return ruta;
  if (process.env.CI === 'true') throw new Error(avisoFalta(nombre));
  avisarUnaVez(nombre);
  return null;
}
