import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { leerCsv } from '../../../server/domain/decas/importar';
import { agruparFilas, COLUMNAS_CSV, lineaCsv, partirCsv } from '../../../shared/rules/csv-deca';

const CABECERA = COLUMNAS_CSV.join(';');

/** A row with its ref_externa, origin and a free text (which may hold quotes and line breaks), quoted as a spreadsheet saves it. */
function fila(ref: string, origen: string, obs = ''): string {
  const celdas = Object.fromEntries(COLUMNAS_CSV.map((c) => [c, ''])) as Record<string, string>;
  Object.assign(celdas, { ref_externa: ref, cargador: 'Cargas Ñandú, S.L.', origen, destino: 'Málaga', observaciones: obs });
  return lineaCsv(COLUMNAS_CSV.map((c) => celdas[c] ?? ''));
}

/** The rows as the server reads them: their cells by the file's line. */
async function porLinea(bytes: Uint8Array, mapa?: Map<number, number>): Promise<Map<number, Record<string, string | undefined>>> {
  return new Map((await leerCsv(bytes)).map((f) => [mapa ? mapa.get(f.linea)! : f.linea, f.celdas]));
}

describe('a CSV cut into parts of whole DeCAs', () => {
  for (const [nombre, codificar, salto] of [
    ['UTF-8 with BOM, CRLF', (s: string) => new Uint8Array(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(s, 'utf8')])), '\r\n'],
    ['Windows-1252, LF', (s: string) => new Uint8Array(iconv.encode(s, 'win1252')), '\n'],
  ] as const) {
    it(`gives the server the same rows at the same lines of the file (${nombre})`, async () => {
      const lineas = [
        CABECERA,
        fila('A', 'Lleida'),
        fila('B', 'Huesca', '"Frágil";\nno apilar'),
        '',
        fila('A', 'Fraga'),
        fila('C', 'Teruel'),
        fila('D', 'Soria', 'con "comillas"'),
        fila('B', 'Jaca'),
        fila('E', 'Ávila'),
      ];
      const texto = lineas.join(salto) + salto;
      const bytes = codificar(texto);
      const todas = await porLinea(bytes);
      const grupos = agruparFilas(await leerCsv(bytes)).map((g) => g.lineas);
      expect(grupos.length).toBe(5);

      const partes = partirCsv(bytes, grupos, 2);
      expect(partes.length).toBe(3);
      const vistas = new Map<number, Record<string, string | undefined>>();
      for (const p of partes) {
        for (const [l, celdas] of await porLinea(p.bytes, p.lineas)) {
          expect(vistas.has(l)).toBe(false);
          vistas.set(l, celdas);
        }
        // Each DeCA whole in one part: its rows are grouped there as in the whole file.
        const enParte = agruparFilas(await leerCsv(p.bytes)).map((g) => g.lineas.map((l) => p.lineas.get(l)));
        for (const g of enParte) expect(grupos).toContainEqual(g);
      }
      expect(vistas).toEqual(todas);
      expect([...todas.values()].find((c) => c.ref_externa === 'B' && c.origen === 'Huesca')?.observaciones).toBe('"Frágil";\nno apilar');
    });
  }

  it('keeps DeCAs whose rows are the same bytes in one part, in the file’s order, so the server tells them apart as in the whole file', async () => {
    const sin = (origen: string) => fila('', origen);
    const lineas = [CABECERA, sin('Lleida'), sin('Huesca'), sin('Teruel'), sin('Lleida'), sin('Soria'), sin('Lleida')];
    const bytes = new TextEncoder().encode(`${lineas.join('\n')}\n`);
    const grupos = agruparFilas(await leerCsv(bytes)).map((g) => g.lineas);
    expect(grupos).toHaveLength(6);
    const partes = partirCsv(bytes, grupos, 2);
    const enPartes = partes.map((p) => [...p.lineas.values()].filter((l) => l > 1));
    // Lines 2, 5 and 7 are the same trip three times: one part holds them, larger than 2.
    expect(enPartes).toEqual([[2, 5, 7], [3, 4], [6]]);
  });

  it('refuses a line the file does not have', () => {
    expect(() => partirCsv(new TextEncoder().encode(`${CABECERA}\n${fila('A', 'Lleida')}\n`), [[7]], 1)).toThrow(/línea 7/);
  });
});
