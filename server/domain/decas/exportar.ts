/**
 * GET /decas.csv: the list's DeCAs (same filters) in the import's columns,
 * one row per shipment, `;`-separated UTF-8 with BOM (what a Spanish
 * spreadsheet opens as is). Produced a page at a time, so a year of DeCAs
 * never sits in memory.
 */
import { COLUMNAS_EXPORTACION, filasDeDeca, lineaCsv } from '../../../shared/rules/csv-deca';
import type { DecaListQuery } from '../../../shared/schemas/deca';
import type { DomainContext } from '../context';
import { presentDeca } from '../presenters/deca';
import { listarDecas } from './listar';
import type { Alcance } from './queries';

const PAGINA = 100;

export async function* lineasCsv(ctx: DomainContext, actor: Alcance, filtros: Omit<DecaListQuery, 'limite' | 'despues_de'>): AsyncGenerator<string> {
  yield `\uFEFF${lineaCsv([...COLUMNAS_EXPORTACION])}\r\n`;
  let despues: string | undefined;
  do {
    const { rows, siguiente } = await listarDecas(ctx.db, actor, { ...filtros, limite: PAGINA, despues_de: despues });
    let trozo = '';
    for (const row of rows) for (const fila of filasDeDeca(presentDeca(row, ctx.siteUrl))) trozo += `${lineaCsv(fila)}\r\n`;
    if (trozo) yield trozo;
    despues = siguiente ?? undefined;
  } while (despues);
}
