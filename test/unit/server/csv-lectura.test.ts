import { parse } from 'csv-parse/sync';
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { leerCsv } from '../../../server/domain/decas/importar';
import { COLUMNAS_CSV, lineaCsv } from '../../../shared/rules/csv-deca';

const CABECERA = COLUMNAS_CSV.join(';');

/** A file of `n` rows whose cells hold multi-byte letters, `;`, quotes and line breaks, so that the parser's pieces cut through all of them. */
function archivo(n: number): string {
  const filas = [CABECERA];
  for (let i = 0; i < n; i++) {
    const celdas = Object.fromEntries(COLUMNAS_CSV.map((c) => [c, ''])) as Record<string, string>;
    Object.assign(celdas, {
      ref_externa: `R-${i}`,
      cargador: `Ñandúes ${'ñ'.repeat(i % 37)} € «${i}»`,
      origen: 'Almacén; muelle 3',
      observaciones: i % 3 ? `dice "frágil"\r\nno apilar ${'é'.repeat(i % 11)}` : '',
    });
    filas.push(lineaCsv(COLUMNAS_CSV.map((c) => celdas[c] ?? '')));
  }
  return `${filas.join('\r\n')}\r\n`;
}

describe('leerCsv, which reads a file a piece at a time', () => {
  for (const [nombre, codificar] of [
    ['UTF-8', (s: string) => new TextEncoder().encode(s)],
    ['Windows-1252', (s: string) => new Uint8Array(iconv.encode(s, 'win1252'))],
  ] as const) {
    it(`gives the rows, lines and cells of the whole file read at once (${nombre})`, async () => {
      const texto = archivo(300);
      const bytes = codificar(texto);
      expect(bytes.length).toBeGreaterThan(20 * 1024);
      const entero = (parse(texto, { delimiter: ';', info: true }) as unknown as { record: string[]; info: { lines: number } }[]).slice(1);
      let pausas = 0;
      const filas = await leerCsv(bytes, async () => void pausas++);
      expect(filas.map((f) => f.linea)).toEqual(entero.map((r) => r.info.lines));
      expect(filas.map((f) => COLUMNAS_CSV.map((c) => f.celdas[c]))).toEqual(entero.map((r) => r.record));
      // It stops between pieces and between rows, where the caller lets other work in.
      expect(pausas).toBeGreaterThan(bytes.length / 1024);
    });
  }
});
