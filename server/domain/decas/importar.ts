/**
 * POST /importar: a spreadsheet's CSV → DeCAs, each through the same domain
 * function as POST /decas (canal `importacion`) with its own idempotency, so
 * uploading the same file again creates nothing new and says so.
 */
import { CsvError, parse } from 'csv-parse/sync';
import iconv from 'iconv-lite';
import { AppError, parsePath } from '../../../shared/errors';
import { agruparFilas, columnaDeCampo, COLUMNAS_CSV, COLUMNAS_OPCIONALES, type ColumnaCsv, type DecaCsv, type FilaCsv } from '../../../shared/rules/csv-deca';
import { DecaInput } from '../../../shared/schemas/deca';
import type { ErrorCsv, Importacion, ImportarQuery, ResultadoImportacion } from '../../../shared/schemas/importar';
import type { Actor } from '../actor';
import type { DomainContext } from '../context';
import { huella } from '../idempotencia';
import { crearDeca, problemasDeCreacion, validarDeca } from './crear';

/** Spec: DeCA per CSV import. */
export const MAX_DECAS_IMPORTACION = 500;
/** DeCAs created at once: enough to keep the PDF workers busy, few enough not to crowd other requests. */
const EN_PARALELO = 4;

const malo = (mensaje: string) => new AppError('validacion', mensaje, { campos: { csv: mensaje } });

/** The file's text: UTF-8 (with or without BOM) or, failing that, Windows-1252 (what a Spanish spreadsheet saves). */
function decodificar(bytes: Uint8Array): string {
  let b = bytes;
  if (b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) b = b.subarray(3);
  if (b.includes(0)) throw malo('El archivo no es un CSV (tiene bytes binarios; ¿una hoja .xlsx u .ods?): guárdelo como «CSV» desde la hoja de cálculo.');
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(b);
  } catch {
    // Node's TextDecoder reads «windows-1252» as Latin-1 (0x80 would not be €): iconv-lite has the real table.
    return iconv.decode(Buffer.from(b), 'win1252');
  }
}

/** The rows of a DeCA CSV, checked against the header the spec sets; refused with a clear reason. */
export function leerCsv(bytes: Uint8Array): FilaCsv[] {
  const texto = decodificar(bytes);
  if (texto.trim() === '') throw malo('El archivo está vacío.');
  const primera = texto.slice(0, texto.search(/\r?\n|$/));
  const separador = (primera.match(/;/g)?.length ?? 0) >= (primera.match(/,/g)?.length ?? 0) ? ';' : ',';
  let registros: { record: string[]; info: { lines: number } }[];
  try {
    registros = parse(texto, { delimiter: separador, relax_column_count: true, skip_empty_lines: true, info: true }) as unknown as typeof registros;
  } catch (error) {
    if (error instanceof CsvError) throw malo(`El CSV no se puede leer (línea ${(error as CsvError & { lines?: number }).lines ?? '?'}): ${error.message}`);
    throw error;
  }
  const [cabecera, ...datos] = registros;
  const columnas = (cabecera?.record ?? []).map((c) => c.trim().toLowerCase());
  while (columnas.length > COLUMNAS_CSV.length && columnas[columnas.length - 1] === '') columnas.pop();
  const esperadas = [...COLUMNAS_CSV, ...COLUMNAS_OPCIONALES];
  for (let i = 0; i < Math.max(columnas.length, COLUMNAS_CSV.length); i++) {
    if (columnas[i] !== esperadas[i]) {
      const dice = columnas[i] === undefined ? 'falta' : `es «${columnas[i]}»`;
      throw malo(
        `La cabecera no es la esperada: la columna ${i + 1} ${dice} y debería ser «${esperadas[i] ?? '(ninguna)'}». ` +
          `Columnas, en orden: ${COLUMNAS_CSV.join(separador)}, y opcionalmente ${COLUMNAS_OPCIONALES.join(separador)}.`,
      );
    }
  }
  if (datos.length === 0) throw malo('El archivo solo tiene la cabecera: no hay ninguna fila de envío.');
  return datos.map(({ record, info }) => {
    const sobra = record.slice(columnas.length).some((c) => c.trim() !== '');
    if (sobra) throw malo(`La línea ${info.lines} tiene más columnas que la cabecera (${columnas.length}).`);
    return { linea: info.lines, celdas: Object.fromEntries(columnas.map((c, i) => [c, record[i] ?? ''])) as Partial<Record<ColumnaCsv, string>> };
  });
}

/** A schema or completeness problem of one DeCA, at its line and column. */
function aCsv(g: DecaCsv, issues: readonly { path: readonly PropertyKey[]; message: string }[]): ErrorCsv[] {
  return issues.map((i) => {
    // Paths come as parts or, from the completeness check, as the API's `envios[0].peso`.
    const partes = i.path.flatMap((p) => (typeof p === 'string' ? parsePath(p) : [p]));
    const [primero, indice] = partes;
    const linea = primero === 'envios' && typeof indice === 'number' ? (g.lineasEnvio[indice] ?? g.lineas[0]!) : g.lineas[0]!;
    return { linea, columna: columnaDeCampo(partes), mensaje: i.message };
  });
}

interface Revisada {
  g: DecaCsv;
  entrada: ReturnType<typeof DecaInput.parse> | null;
  errores: ErrorCsv[];
}

/** Each DeCA checked as POST /decas would check it, issuing included, before anything is stored. */
function revisar(actor: Actor, g: DecaCsv, emitir: boolean): Revisada {
  const cuerpo = { ...g.cuerpo, emitir };
  const errores: ErrorCsv[] = g.conflictos.map((c) => ({ linea: c.linea, columna: c.columna, mensaje: c.mensaje }));
  if ((g.cuerpo.envios as unknown[]).length === 0) errores.push({ linea: g.lineas[0]!, columna: 'origen', mensaje: 'Sin envío: rellene origen, destino, mercancía y peso' });
  const r = DecaInput.safeParse(cuerpo);
  if (!r.success) return { g, entrada: null, errores: [...errores, ...aCsv(g, problemasDeCreacion(actor.cuenta, cuerpo, r.error.issues))] };
  try {
    validarDeca(actor.cuenta, r.data, []);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    const campos = error.campos;
    errores.push(...aCsv(g, Object.entries(campos).map(([clave, message]) => ({ path: [clave], message }))));
    if (Object.keys(campos).length === 0) errores.push({ linea: g.lineas[0]!, columna: null, mensaje: error.message });
  }
  return { g, entrada: errores.length ? null : r.data, errores };
}

function resultado(g: DecaCsv, r: Partial<ResultadoImportacion> & Pick<ResultadoImportacion, 'resultado'>): ResultadoImportacion {
  return { lineas: g.lineas, ref_externa: g.ref_externa, referencia: g.referencia, id: null, numero: null, estado: null, errores: [], avisos: [], ...r };
}

/** Checks the whole file, then (unless `validar`) creates each good DeCA; one bad DeCA stops the rest only with `todo_o_nada`. */
export async function importarCsv(ctx: DomainContext, actor: Actor, bytes: Uint8Array, q: ImportarQuery): Promise<Importacion> {
  const grupos = agruparFilas(leerCsv(bytes));
  if (grupos.length > MAX_DECAS_IMPORTACION) {
    throw malo(`El archivo tiene ${grupos.length} DeCA y el máximo por importación es ${MAX_DECAS_IMPORTACION}: divídalo en varios archivos. No se ha guardado nada.`);
  }
  const importador: Actor = { ...actor, canal: 'importacion' };
  const revisadas = grupos.map((g) => revisar(importador, g, q.emitir));
  const conErrores = revisadas.filter((r) => r.errores.length > 0).length;
  const decas: ResultadoImportacion[] = new Array(revisadas.length);
  if (q.validar || (q.todo_o_nada && conErrores > 0)) {
    revisadas.forEach((r, i) => {
      decas[i] = resultado(r.g, { resultado: r.errores.length ? 'error' : q.validar ? 'valida' : 'no_guardada', errores: r.errores });
    });
    return { validar: q.validar, creados: 0, repetidos: 0, errores: conErrores, decas };
  }

  let siguiente = 0;
  const trabajar = async (): Promise<void> => {
    while (siguiente < revisadas.length) {
      const i = siguiente++;
      const { g, entrada, errores } = revisadas[i]!;
      if (!entrada) {
        decas[i] = resultado(g, { resultado: 'error', errores });
        continue;
      }
      try {
        // Grouped by ref_externa: that reference is the DeCA's own idempotency. Otherwise the
        // group's key and content are kept on the DeCA as its client reference, for good.
        const cliente = g.ref_externa ? null : { clave: `importacion:${g.clave}`, huella: huella(g.cuerpo, q.emitir) };
        const r = await crearDeca(ctx, importador, entrada, { cliente });
        decas[i] = resultado(g, { resultado: r.nueva ? 'creada' : 'repetida', id: r.deca.id, numero: r.deca.numero, estado: r.deca.estado, avisos: r.avisos });
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        const campos = Object.entries(error.campos);
        decas[i] = resultado(g, {
          resultado: 'error',
          errores: campos.length
            ? aCsv(g, campos.map(([clave, message]) => ({ path: [clave], message })))
            : [{ linea: g.lineas[0]!, columna: null, mensaje: error.message }],
        });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(EN_PARALELO, revisadas.length) }, trabajar));
  return {
    validar: false,
    creados: decas.filter((d) => d.resultado === 'creada').length,
    repetidos: decas.filter((d) => d.resultado === 'repetida').length,
    errores: decas.filter((d) => d.resultado === 'error').length,
    decas,
  };
}
