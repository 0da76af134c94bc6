/**
 * POST /importar: a spreadsheet's CSV → DeCAs, each checked by the same rules
 * as POST /decas (its errors and its `avisos`, in the check too) and created
 * by the same command (canal `importacion`, given as `crear` by the command
 * layer) with the same idempotency — the group's `ref_externa`, or a key
 * made of the DeCA's content (and the upload's Idempotency-Key, when sent)
 * and kept on the DeCA — so uploading the same file again creates nothing
 * new and says so, and another day's file imports.
 */
import { isUtf8 } from 'node:buffer';
import { CsvError, type Info, Parser } from 'csv-parse';
import iconv from 'iconv-lite';
import { AppError, type Aviso, parsePath } from '../../../shared/errors';
import { COLUMNAS_CSV, COLUMNAS_OPCIONALES, type ColumnaCsv, columnaDeCampo, contarFilasCsv, crearAgrupador, type DecaCsv, type FilaCsv } from '../../../shared/rules/csv-deca';
import { DecaInput } from '../../../shared/schemas/deca';
import { MAX_ENVIOS } from '../../../shared/schemas/envio';
import type { ErrorCsv, Importacion, ImportarQuery, ResultadoImportacion } from '../../../shared/schemas/importar';
import { yieldEvery } from '../../yield-every';
import type { Actor } from '../actor';
import { type ClaveCliente, huella } from '../idempotencia';
import { type CrearResultado, exigirCompleta, prepararDeca, problemasDeCreacion, sinValores } from './crear';

/**
 * Creates one DeCA of the file as POST /decas would (the create command,
 * run by the command layer): its body, and the group's key when it has no
 * `ref_externa`. `repetida`: an earlier import (or request) made it.
 */
export type CrearFila = (importador: Actor, cuerpo: Record<string, unknown>, clave: ClaveCliente | null) => Promise<CrearResultado>;

/** Spec: DeCA per CSV import. */
export const MAX_DECAS_IMPORTACION = 500;
/**
 * Rows a file may have: the header and one row per shipment (spec: «Each row
 * is one shipment»), at most 48 shipments in each of at most 500 DeCAs, so
 * 1 + 500 × 48 = 24,001. A longer file is refused on a count of its rows made
 * on the bytes, before it is decoded or parsed: 250,000 one-letter lines held
 * the whole server 16 s when they were parsed first.
 */
export const MAX_FILAS_IMPORTACION = 1 + MAX_DECAS_IMPORTACION * MAX_ENVIOS;
/** DeCAs created at once: enough to keep the PDF workers busy, few enough not to crowd other requests. */
const EN_PARALELO = 4;
/**
 * Errors listed per DeCA: one on each of its 48 shipments and a couple more.
 * Past it, one more line says how many were left out: a file whose every row
 * contradicts the first in every column would otherwise answer 40 MB.
 */
const MAX_ERRORES_POR_DECA = 50;
/**
 * Bytes the parser takes at a time: at most ~250 records, which csv-parse
 * reads in a few milliseconds even in its slowest case (a row whose column
 * count differs from the header's costs it ~30 µs: an error object per row).
 */
const TROZO = 512;
/** Bytes decoded from Windows-1252 at a time (a single-byte encoding: any cut is safe). */
const VENTANA = 64 * 1024;

/**
 * Runs `trabajo`s one at a time, in the order they come (a FIFO semaphore of
 * one). Every file is read and checked in small steps, but four of the
 * largest at once still put four steps between two turns of everyone else's
 * requests (a GET's p99 went from 108 to 210 ms): in turn, each waits for the
 * files before it, and no other request does.
 */
function enFila(): <T>(trabajo: () => Promise<T>) => Promise<T> {
  let ocupado = false;
  const esperando: (() => void)[] = [];
  return async (trabajo) => {
    if (ocupado) await new Promise<void>((r) => esperando.push(r));
    ocupado = true;
    try {
      return await trabajo();
    } finally {
      const siguiente = esperando.shift();
      if (siguiente) siguiente();
      else ocupado = false;
    }
  };
}
/** The files of this process's imports, read and checked one after another. */
const porTurno = enFila();

// A too-long file is 422 `validacion` naming `csv`, not 413 `demasiado_grande`: 413 is this
// service's answer to a body over its byte limit (5 MB), refused before it is read; this file is
// within it and is refused for what it holds, like the 500-DeCA limit it restates in rows (422 in
// the spec's error table, which lists 422 for every operation and 413 for none).
const malo = (mensaje: string) => new AppError('validacion', mensaje, { campos: { csv: mensaje } });

const cifra = (n: number) => n.toLocaleString('es-ES');

/** The file's bytes without a UTF-8 BOM, refused when binary. */
function sinBom(bytes: Uint8Array): Uint8Array {
  const b = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? bytes.subarray(3) : bytes;
  if (b.includes(0)) throw malo('El archivo no es un CSV (tiene bytes binarios; ¿una hoja .xlsx u .ods?): guárdelo como «CSV» desde la hoja de cálculo.');
  return b;
}

/** Only spaces, tabs and line breaks (stops at the first other byte). */
function enBlanco(b: Uint8Array): boolean {
  for (const x of b) if (x !== 0x20 && (x < 0x09 || x > 0x0d)) return false;
  return true;
}

/** `;` or `,`: whichever the first line has more of (`;` on a tie), as a Spanish spreadsheet saves it. */
function separadorDe(b: Uint8Array): ';' | ',' {
  let puntoYComa = 0;
  let coma = 0;
  for (const x of b) {
    if (x === 0x0a || x === 0x0d) break;
    if (x === 0x3b) puntoYComa++;
    else if (x === 0x2c) coma++;
  }
  return puntoYComa >= coma ? ';' : ',';
}

/**
 * The file as UTF-8, a small piece at a time: UTF-8 as it is, or, failing
 * that, Windows-1252 (what a Spanish spreadsheet saves) converted. Node's
 * TextDecoder reads «windows-1252» as Latin-1 (0x80 would not be €):
 * iconv-lite has the real table.
 */
function* trozosUtf8(b: Uint8Array): Generator<Buffer> {
  const utf8 = isUtf8(b);
  for (let i = 0; i < b.length; i += VENTANA) {
    const ventana = Buffer.from(b.buffer, b.byteOffset + i, Math.min(VENTANA, b.length - i));
    const texto = utf8 ? ventana : Buffer.from(iconv.decode(ventana, 'win1252'), 'utf8');
    for (let j = 0; j < texto.length; j += TROZO) yield texto.subarray(j, j + TROZO);
  }
}

interface Registro {
  record: string[];
  info: Info;
}

/**
 * The records of the file, handed to csv-parse's stream parser a `TROZO` at a
 * time (it keeps a cell cut between two pieces whole, multi-byte letters
 * included) and taken out after each piece, with a pause between pieces: a
 * 5 MB file never holds the event loop for more than a few milliseconds at
 * once. The parser works synchronously inside `write` and `end`, and a
 * refusal destroys it at once (`errored`), so each step is one piece.
 */
async function registrosCsv(b: Uint8Array, separador: ';' | ',', pausa: () => Promise<void>): Promise<Registro[]> {
  const parser = new Parser({ delimiter: separador, relax_column_count: true, skip_empty_lines: true, info: true });
  parser.on('error', () => {}); // read from `errored` below, where it is turned into the answer
  const registros: Registro[] = [];
  const sacar = () => {
    for (let r: Registro | null; (r = parser.read() as Registro | null) !== null; ) registros.push(r);
    const error = parser.errored;
    if (!error) return;
    if (error instanceof CsvError) throw malo(`El CSV no se puede leer (línea ${(error as CsvError & { lines?: number }).lines ?? '?'}): ${error.message}`);
    throw error;
  };
  for (const trozo of trozosUtf8(b)) {
    parser.write(trozo);
    sacar();
    await pausa();
  }
  parser.end();
  sacar();
  return registros;
}

/**
 * What is checked on the file's bytes alone, at once: not binary, not empty,
 * and no more rows than an import takes (counted, not parsed). Returns the
 * bytes without their BOM.
 */
function comprobarArchivo(bytes: Uint8Array): Uint8Array {
  const b = sinBom(bytes);
  const filas = contarFilasCsv(b);
  if (filas > MAX_FILAS_IMPORTACION) {
    throw malo(
      `El archivo tiene ${cifra(filas)} filas y una importación admite como máximo ${cifra(MAX_FILAS_IMPORTACION)}: la cabecera y una fila por envío, ` +
        `con hasta ${MAX_ENVIOS} envíos en cada una de las ${MAX_DECAS_IMPORTACION} DeCA. Divídalo en varios archivos. No se ha guardado nada.`,
    );
  }
  if (enBlanco(b)) throw malo('El archivo está vacío.');
  return b;
}

/**
 * The rows of a DeCA CSV, checked against the header the spec sets; refused
 * with a clear reason. Read in small steps with `pausa` between them, so other
 * requests are answered while a large file is read.
 */
export async function leerCsv(bytes: Uint8Array, pausa = yieldEvery()): Promise<FilaCsv[]> {
  return leerFilas(comprobarArchivo(bytes), pausa);
}

/** `leerCsv` of bytes `comprobarArchivo` passed. */
async function leerFilas(b: Uint8Array, pausa: () => Promise<void>): Promise<FilaCsv[]> {
  const separador = separadorDe(b);
  const [cabecera, ...datos] = await registrosCsv(b, separador, pausa);
  const columnas = (cabecera?.record ?? []).map((c) => c.trim().toLowerCase());
  while (columnas.length > COLUMNAS_CSV.length && columnas[columnas.length - 1] === '') columnas.pop();
  const columnasEsperadas = `Columnas, en orden: ${COLUMNAS_CSV.join(separador)}, y opcionalmente, en cualquier orden, ${COLUMNAS_OPCIONALES.join(separador)}.`;
  for (let i = 0; i < COLUMNAS_CSV.length; i++) {
    if (columnas[i] !== COLUMNAS_CSV[i]) {
      const dice = columnas[i] === undefined ? 'falta' : `es «${columnas[i]}»`;
      throw malo(`La cabecera no es la esperada: la columna ${i + 1} ${dice} y debería ser «${COLUMNAS_CSV[i]}». ${columnasEsperadas}`);
    }
  }
  // The optional columns by name: a file exported before some of them existed still reads.
  const vistas = new Set<string>();
  for (let i = COLUMNAS_CSV.length; i < columnas.length; i++) {
    const c = columnas[i]!;
    if (!(COLUMNAS_OPCIONALES as readonly string[]).includes(c)) {
      throw malo(`La cabecera no es la esperada: la columna ${i + 1} ${c === '' ? 'no tiene nombre' : `es «${c}»`}, que no es ninguna de las opcionales. ${columnasEsperadas}`);
    }
    if (vistas.has(c)) throw malo(`La cabecera no es la esperada: la columna «${c}» está dos veces (la ${i + 1} y otra antes).`);
    vistas.add(c);
  }
  if (datos.length === 0) throw malo('El archivo solo tiene la cabecera: no hay ninguna fila de envío.');
  const out: FilaCsv[] = [];
  for (const { record, info } of datos) {
    const sobra = record.slice(columnas.length).some((c) => c.trim() !== '');
    if (sobra) throw malo(`La línea ${info.lines} tiene más columnas que la cabecera (${columnas.length}).`);
    out.push({ linea: info.lines, celdas: Object.fromEntries(columnas.map((c, i) => [c, record[i] ?? ''])) as Partial<Record<ColumnaCsv, string>> });
    await pausa();
  }
  return out;
}

/** The file's DeCAs: its rows grouped as the spec says, a row at a time with `pausa` between them. */
async function agrupar(filas: readonly FilaCsv[], pausa: () => Promise<void>): Promise<DecaCsv[]> {
  const agrupador = crearAgrupador();
  for (const fila of filas) {
    agrupador.agregar(fila);
    await pausa();
  }
  return agrupador.decas();
}

/**
 * A date the schema refuses, as the file has it: the CSV takes both ways of
 * writing one (`fechaCsv`), so its message names both, not only the API's.
 */
const FECHA_CSV_NO_VALIDA = 'Fecha no válida: use dd/mm/aaaa (p. ej. 23/11/2026) o aaaa-mm-dd (2026-11-23), con un día que exista';

/** A schema or completeness problem of one DeCA, at its line and column. */
function aCsv(g: DecaCsv, issues: readonly { path: readonly PropertyKey[]; message: string }[]): ErrorCsv[] {
  return issues.map((i) => {
    // Paths come as parts or, from the completeness check, as the API's `envios[0].peso`.
    const partes = i.path.flatMap((p) => (typeof p === 'string' ? parsePath(p) : [p]));
    const [primero, indice] = partes;
    const linea = primero === 'envios' && typeof indice === 'number' ? (g.lineasEnvio[indice] ?? g.lineas[0]!) : g.lineas[0]!;
    const columna = columnaDeCampo(partes);
    return { linea, columna, mensaje: mensajeCsv(columna, i.message) };
  });
}

/**
 * A message as the file's writer needs it: a date names both ways the file
 * may write it; a closed list of values names them plainly, in any case
 * (the file's `KG` or `Rigido` are read in lower case).
 */
function mensajeCsv(columna: ColumnaCsv | null, mensaje: string): string {
  if (columna === 'fecha_transporte' && mensaje.startsWith('Fecha no válida')) return FECHA_CSV_NO_VALIDA;
  const opciones = /^Opción inválida: se esperaba una de (.+)$/.exec(mensaje);
  if (opciones) return `Valor no válido: use uno de estos (en mayúsculas o minúsculas): ${opciones[1]!.replace(/"/g, '').split('|').join(', ')}`;
  return mensaje;
}

/**
 * Each problem once: a field both invalid and missing to issue, or a DeCA
 * whose every shipment row repeats it, is said once per line and column
 * (the first message found for it: the invalid value's, which says more).
 */
function unaVez(errores: readonly ErrorCsv[]): ErrorCsv[] {
  const vistas = new Set<string>();
  return errores.filter((e) => {
    const donde = `${e.linea}\u0000${e.columna ?? ''}`;
    if (vistas.has(donde) && e.columna !== null) return false;
    vistas.add(donde);
    return true;
  });
}

interface Revisada {
  g: DecaCsv;
  /** The body to create, when it passed every check. */
  cuerpo: Record<string, unknown> | null;
  errores: ErrorCsv[];
  /** What POST /decas would warn about this DeCA (shared/rules/emision.ts `avisosDeca`, through `prepararDeca`). */
  avisos: Aviso[];
}

/**
 * Each DeCA checked as POST /decas would check it, issuing included, before
 * anything is stored: its errors, and the same `avisos` the create answers
 * (`prepararDeca`, the one place POST /decas and its `solo_validar` get them).
 * A DeCA with errors still has the warnings of the fields that are valid.
 */
function revisar(actor: Actor, g: DecaCsv, emitir: boolean): Revisada {
  const cuerpo = { ...g.cuerpo, emitir };
  const errores: ErrorCsv[] = g.conflictos.map((c) => ({ linea: c.linea, columna: c.columna, mensaje: c.mensaje }));
  if ((g.cuerpo.envios as unknown[]).length === 0) errores.push({ linea: g.lineas[0]!, columna: 'origen', mensaje: 'Sin envío: rellene origen, destino, mercancía y peso' });
  const r = DecaInput.safeParse(cuerpo);
  if (!r.success) {
    const resto = DecaInput.safeParse(
      sinValores(
        cuerpo,
        r.error.issues.map((i) => i.path),
      ),
    );
    const avisos = resto.success ? prepararDeca(actor.cuenta, resto.data).avisos : [];
    return { g, cuerpo: null, errores: acotar(g, unaVez([...errores, ...aCsv(g, problemasDeCreacion(actor.cuenta, cuerpo, r.error.issues))])), avisos };
  }
  const p = prepararDeca(actor.cuenta, r.data);
  try {
    if (r.data.emitir) exigirCompleta(p, actor.cuenta);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    const campos = error.campos;
    errores.push(
      ...aCsv(
        g,
        Object.entries(campos).map(([clave, message]) => ({ path: [clave], message })),
      ),
    );
    if (Object.keys(campos).length === 0) errores.push({ linea: g.lineas[0]!, columna: null, mensaje: error.message });
  }
  return { g, cuerpo: errores.length ? null : cuerpo, errores: acotar(g, unaVez(errores)), avisos: p.avisos };
}

/**
 * The import key of each DeCA without a `ref_externa` (with one, that
 * reference is its key): made of what the DeCA holds — its data and what
 * grouped its rows (`referencia` or an export's `numero`), never its line
 * alone — and of the upload's Idempotency-Key when the client sent one. So
 * the same file again finds the DeCAs it made (`repetida`), even sent in
 * other parts or order, and another day's file, other data on the same lines,
 * makes its own. Identical DeCAs of one file are told apart by their order
 * among themselves. Kept on the DeCA for good (`decas.clave_cliente`).
 */
function clavesDeImportacion(grupos: readonly DecaCsv[], subida: string | null): (ClaveCliente | null)[] {
  const vistas = new Map<string, number>();
  const prefijo = subida ? `importacion:${huella('subida', subida)}:` : 'importacion:';
  return grupos.map((g) => {
    if (g.ref_externa) return null;
    const contenido = huella(g.cuerpo, g.clave.startsWith('linea:') ? null : g.clave);
    const n = vistas.get(contenido) ?? 0;
    vistas.set(contenido, n + 1);
    const clave = `${prefijo}${contenido}:${n}`;
    return { clave, huella: huella(clave) };
  });
}

/** At most `MAX_ERRORES_POR_DECA` errors, and a last one that says how many more there were. */
function acotar(g: DecaCsv, errores: ErrorCsv[]): ErrorCsv[] {
  if (errores.length <= MAX_ERRORES_POR_DECA) return errores;
  const mas = errores.length - MAX_ERRORES_POR_DECA;
  return [
    ...errores.slice(0, MAX_ERRORES_POR_DECA),
    { linea: g.lineas[0]!, columna: null, mensaje: `Y ${cifra(mas)} errores más en esta DeCA: corrija los anteriores y vuelva a comprobar el archivo.` },
  ];
}

function resultado(g: DecaCsv, r: Partial<ResultadoImportacion> & Pick<ResultadoImportacion, 'resultado'>): ResultadoImportacion {
  return { lineas: g.lineas, ref_externa: g.ref_externa, referencia: g.referencia, id: null, numero: null, estado: null, errores: [], avisos: [], ...r };
}

/**
 * Checks the whole file, then (unless `validar`) creates each good DeCA; one
 * bad DeCA stops the rest only with `todo_o_nada`. `subida`: the upload's
 * Idempotency-Key, part of each DeCA's import key.
 */
export async function importarCsv(actor: Actor, bytes: Uint8Array, q: ImportarQuery, crear: CrearFila, subida: string | null = null): Promise<Importacion> {
  const importador: Actor = { ...actor, canal: 'importacion' };
  const b = comprobarArchivo(bytes); // at once, without waiting for the files before it
  const revisadas = await porTurno(async () => {
    const pausa = yieldEvery();
    const grupos = await agrupar(await leerFilas(b, pausa), pausa);
    if (grupos.length > MAX_DECAS_IMPORTACION) {
      throw malo(`El archivo tiene ${grupos.length} DeCA y el máximo por importación es ${MAX_DECAS_IMPORTACION}: divídalo en varios archivos. No se ha guardado nada.`);
    }
    // Checking a DeCA of 48 shipments takes a few milliseconds: other requests go in between.
    const out: Revisada[] = [];
    for (const g of grupos) {
      out.push(revisar(importador, g, q.emitir));
      await pausa();
    }
    return out;
  });
  const conErrores = revisadas.filter((r) => r.errores.length > 0).length;
  const decas: ResultadoImportacion[] = new Array(revisadas.length);
  if (q.validar || (q.todo_o_nada && conErrores > 0)) {
    revisadas.forEach((r, i) => {
      decas[i] = resultado(r.g, { resultado: r.errores.length ? 'error' : q.validar ? 'valida' : 'no_guardada', errores: r.errores, avisos: r.avisos });
    });
    return { validar: q.validar, creados: 0, repetidos: 0, errores: conErrores, decas };
  }

  const claves = clavesDeImportacion(
    revisadas.map((r) => r.g),
    subida,
  );
  let siguiente = 0;
  const trabajar = async (): Promise<void> => {
    while (siguiente < revisadas.length) {
      const i = siguiente++;
      const { g, cuerpo, errores, avisos } = revisadas[i]!;
      if (!cuerpo) {
        decas[i] = resultado(g, { resultado: 'error', errores, avisos });
        continue;
      }
      try {
        // Grouped by ref_externa: that reference is the DeCA's own idempotency. Otherwise the
        // key made of its content is kept on the DeCA as its client reference, for good.
        const r = await crear(importador, cuerpo, claves[i]!);
        decas[i] = resultado(g, { resultado: r.nueva ? 'creada' : 'repetida', id: r.deca.id, numero: r.deca.numero, estado: r.deca.estado, avisos: r.avisos });
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        const campos = Object.entries(error.campos);
        decas[i] = resultado(g, {
          resultado: 'error',
          errores: campos.length
            ? aCsv(
                g,
                campos.map(([clave, message]) => ({ path: [clave], message })),
              )
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
