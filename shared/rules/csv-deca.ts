/**
 * The DeCA CSV format (spec: CSV import), both ways: one row per shipment,
 * the spec's columns in order, then the optional `emisor_rol`, two
 * extensions that keep a round trip whole (`transportista_domicilio`, the
 * shipment's `nota`) and what an office reconciles with (`numero`, `estado`,
 * `version`, `emitido_at`, `fin_servicio_at`: written by the export, never
 * read as data by the import). Rows with the same `ref_externa` (or, without
 * one, the same `referencia`, or else the same `numero`) are one DeCA. Pure,
 * so the app can read and write it too.
 */

import type { Deca } from '../schemas/deca';

/** The spec's columns, in its order. */
export const COLUMNAS_CSV = [
  'ref_externa',
  'referencia',
  'fecha_transporte',
  'cargador',
  'cargador_nif',
  'cargador_domicilio',
  'transportista',
  'transportista_nif',
  'origen',
  'destino',
  'mercancia',
  'peso',
  'unidad',
  'tipo_vehiculo',
  'matricula',
  'remolque',
  'autorizacion_especial',
  'conductor',
  'conductor_tel',
  'observaciones',
] as const;

/**
 * The DeCA as the service has it, for an office to reconcile with its own
 * system: the export writes them; the import takes no data from them, and
 * uses `numero` only to keep the rows of one DeCA together when it has no
 * reference.
 */
export const COLUMNAS_CONCILIACION = ['numero', 'estado', 'version', 'emitido_at', 'fin_servicio_at'] as const;
/**
 * What the eFTI dataset takes and the PDF does not print (docs/efti.md): the
 * parties' addresses in parts, the plates' countries, and each shipment's
 * consignee (`destinatario`, `destinatario_nif`: per row, like `nota`).
 */
export const COLUMNAS_EFTI = [
  'cargador_cp',
  'cargador_municipio',
  'cargador_provincia',
  'cargador_pais',
  'transportista_cp',
  'transportista_municipio',
  'transportista_provincia',
  'transportista_pais',
  'matricula_pais',
  'remolque_pais',
  'destinatario',
  'destinatario_nif',
] as const;
/**
 * After the spec's columns, each optional: the export writes them in this
 * order; the import takes any of them, in any order, each once (a file
 * exported before the eFTI columns existed has the reconciliation ones right
 * after `nota`).
 */
export const COLUMNAS_OPCIONALES = ['emisor_rol', 'transportista_domicilio', 'nota', ...COLUMNAS_EFTI, ...COLUMNAS_CONCILIACION] as const;
export const COLUMNAS_EXPORTACION = [...COLUMNAS_CSV, ...COLUMNAS_OPCIONALES] as const;
export type ColumnaCsv = (typeof COLUMNAS_EXPORTACION)[number];

/** DeCA-level field ← column (the same in every row of one DeCA). */
const CAMPO_DECA: Partial<Record<ColumnaCsv, string>> = {
  ref_externa: 'ref_externa',
  referencia: 'referencia',
  fecha_transporte: 'fecha_transporte',
  cargador: 'cargador_nombre',
  cargador_nif: 'cargador_nif',
  cargador_domicilio: 'cargador_domicilio',
  transportista: 'transp_nombre',
  transportista_nif: 'transp_nif',
  transportista_domicilio: 'transp_domicilio',
  tipo_vehiculo: 'tipo_vehiculo',
  matricula: 'matricula',
  remolque: 'matricula_remolque',
  autorizacion_especial: 'autorizacion_especial',
  conductor: 'conductor_nombre',
  conductor_tel: 'conductor_tel',
  observaciones: 'observaciones',
  emisor_rol: 'emisor_rol',
  cargador_cp: 'cargador_cp',
  cargador_municipio: 'cargador_municipio',
  cargador_provincia: 'cargador_provincia',
  cargador_pais: 'cargador_pais',
  transportista_cp: 'transp_cp',
  transportista_municipio: 'transp_municipio',
  transportista_provincia: 'transp_provincia',
  transportista_pais: 'transp_pais',
  matricula_pais: 'matricula_pais',
  remolque_pais: 'remolque_pais',
};

/** Shipment field ← column (one per row). */
const CAMPO_ENVIO: Partial<Record<ColumnaCsv, string>> = {
  origen: 'origen',
  destino: 'destino',
  mercancia: 'naturaleza',
  peso: 'peso',
  unidad: 'unidad',
  nota: 'nota',
  destinatario: 'destinatario_nombre',
  destinatario_nif: 'destinatario_nif',
};

/** The column a field of the DeCA input comes from (to name it in an error). */
export function columnaDeCampo(ruta: readonly PropertyKey[]): ColumnaCsv | null {
  const [primero, , campo] = ruta;
  const buscar = (mapa: Partial<Record<ColumnaCsv, string>>, f: unknown) => (Object.entries(mapa).find(([, v]) => v === f)?.[0] as ColumnaCsv | undefined) ?? null;
  if (primero === 'envios') return typeof campo === 'string' ? buscar(CAMPO_ENVIO, campo) : 'origen';
  return buscar(CAMPO_DECA, primero);
}

/**
 * A spreadsheet runs a cell that starts with = + - @ (or a tab or CR) as a
 * formula: such a cell is written with a leading apostrophe, and read back
 * without it.
 */
const FORMULA = /^[=+\-@\t\r]/;
export const neutralizar = (v: string): string => (FORMULA.test(v) ? `'${v}` : v);
const desneutralizar = (v: string): string => (v.startsWith("'") && FORMULA.test(v.slice(1)) ? v.slice(1) : v);

/** `dd/mm/yyyy` (or `d/m/yyyy`, `dd-mm-yyyy`) as a spreadsheet writes it → `yyyy-mm-dd`; anything else as is (the schema judges it). */
export function fechaCsv(v: string): string {
  const m = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/.exec(v);
  return m ? `${m[3]}-${m[2]!.padStart(2, '0')}-${m[1]!.padStart(2, '0')}` : v;
}

/** One data row: its line in the file and its cells by column. */
export interface FilaCsv {
  linea: number;
  celdas: Partial<Record<ColumnaCsv, string>>;
}

/** One DeCA of a file: the lines it came from, and the body a `POST /decas` would take. */
export interface DecaCsv {
  lineas: number[];
  /** What groups its rows: `ref_externa`, else `referencia`, else `numero`, else its only line. */
  clave: string;
  ref_externa: string | null;
  referencia: string | null;
  cuerpo: Record<string, unknown>;
  /** The line of each shipment of `cuerpo.envios`, in order. */
  lineasEnvio: number[];
  /** A DeCA-level cell that differs between its rows. */
  conflictos: { linea: number; columna: ColumnaCsv; mensaje: string }[];
}

/**
 * A DeCA-level value as a conflict quotes it: whole when short, else its
 * start. Every later row that differs quotes it, so a long cell must not be
 * copied 47 times into the answer (a 5 MB file would answer 100 MB).
 */
const citar = (v: string): string => (v.length > 40 ? `${v.slice(0, 40)}…` : v);

/** Groups rows into DeCAs one row at a time, so a caller can pause between rows of a large file. */
export interface AgrupadorCsv {
  agregar(fila: FilaCsv): void;
  /** The DeCAs so far, in the order they first appear. */
  decas(): DecaCsv[];
}

/**
 * An empty `AgrupadorCsv`: one DeCA per `ref_externa`, else per `referencia`,
 * else per `numero` (an export's DeCA without references keeps its shipments
 * together), else per row.
 */
export function crearAgrupador(): AgrupadorCsv {
  const grupos = new Map<string, DecaCsv>();
  return {
    agregar(fila) {
      const celda = (c: ColumnaCsv) => desneutralizar((fila.celdas[c] ?? '').trim());
      const ref = celda('ref_externa');
      const referencia = celda('referencia');
      const numero = celda('numero');
      const clave = ref ? `ref:${ref}` : referencia ? `referencia:${referencia}` : numero ? `numero:${numero}` : `linea:${fila.linea}`;
      // The DeCA-level values of this row, as the input takes them (dates ISO, enums in lower case).
      const valores = (Object.entries(CAMPO_DECA) as [ColumnaCsv, string][]).map(([columna, campo]) => {
        const v = columna === 'fecha_transporte' ? fechaCsv(celda(columna)) : celda(columna);
        return { columna, campo, valor: columna === 'tipo_vehiculo' || columna === 'emisor_rol' ? v.toLowerCase() : columna.endsWith('_pais') ? v.toUpperCase() : v };
      });
      let g = grupos.get(clave);
      if (!g) {
        const cuerpo: Record<string, unknown> = { envios: [] };
        for (const { campo, valor } of valores) if (valor !== '') cuerpo[campo] = valor;
        g = { lineas: [], clave, ref_externa: ref || null, referencia: referencia || null, cuerpo, lineasEnvio: [], conflictos: [] };
        grupos.set(clave, g);
      } else {
        for (const { columna, campo, valor } of valores) {
          const antes = (g.cuerpo[campo] as string | undefined) ?? '';
          if (valor !== '' && valor !== antes) {
            g.conflictos.push({ linea: fila.linea, columna, mensaje: `Distinto de la línea ${g.lineas[0]} («${citar(antes)}»): una DeCA tiene un solo valor` });
          }
        }
      }
      g.lineas.push(fila.linea);
      const envio: Record<string, string> = {};
      for (const [columna, campo] of Object.entries(CAMPO_ENVIO) as [ColumnaCsv, string][]) {
        const v = celda(columna);
        if (v !== '') envio[campo] = columna === 'unidad' ? v.toLowerCase() : v;
      }
      // A consignee alone is no shipment: the row's shipment is its places, goods and weight.
      if (Object.keys(envio).some((k) => k !== 'destinatario_nombre' && k !== 'destinatario_nif')) {
        (g.cuerpo.envios as unknown[]).push(envio);
        g.lineasEnvio.push(fila.linea);
      }
    },
    decas: () => [...grupos.values()],
  };
}

/** Rows → DeCAs, in the order they first appear. */
export function agruparFilas(filas: readonly FilaCsv[]): DecaCsv[] {
  const agrupador = crearAgrupador();
  for (const fila of filas) agrupador.agregar(fila);
  return agrupador.decas();
}

/** What the CSV's rows take from a DeCA representation (one row per shipment, at least one). */
export type DecaParaCsv = Pick<
  Deca,
  | (typeof COLUMNAS_CONCILIACION)[number]
  | 'ref_externa'
  | 'referencia'
  | 'fecha_transporte'
  | 'cargador_nombre'
  | 'cargador_nif'
  | 'cargador_domicilio'
  | 'transp_nombre'
  | 'transp_nif'
  | 'transp_domicilio'
  | 'tipo_vehiculo'
  | 'matricula'
  | 'matricula_remolque'
  | 'autorizacion_especial'
  | 'conductor_nombre'
  | 'conductor_tel'
  | 'observaciones'
  | 'emisor_rol'
  | 'envios'
  | 'cargador_cp'
  | 'cargador_municipio'
  | 'cargador_provincia'
  | 'cargador_pais'
  | 'transp_cp'
  | 'transp_municipio'
  | 'transp_provincia'
  | 'transp_pais'
  | 'matricula_pais'
  | 'remolque_pais'
>;

/** A weight as a Spanish spreadsheet writes it: `24500,5` (no thousands dots, which some would read as decimals). */
const pesoCsv = (n: number | null) => (n === null ? '' : String(n).replace('.', ','));

export function filasDeDeca(d: DecaParaCsv): string[][] {
  const comun = (c: ColumnaCsv): string => {
    const campo = CAMPO_DECA[c];
    const v = campo ? (d as unknown as Record<string, string | null>)[campo] : null;
    return v ?? '';
  };
  const envios = d.envios.length ? d.envios : [null];
  return envios.map((e) =>
    COLUMNAS_EXPORTACION.map((c) => {
      if ((COLUMNAS_CONCILIACION as readonly string[]).includes(c)) {
        const v = d[c as (typeof COLUMNAS_CONCILIACION)[number]];
        return v === null ? '' : neutralizar(String(v));
      }
      if (c in CAMPO_ENVIO) {
        if (!e) return '';
        if (c === 'peso') return pesoCsv(e.peso);
        const v = (e as unknown as Record<string, string | null>)[CAMPO_ENVIO[c]!];
        return neutralizar(v ?? '');
      }
      return neutralizar(comun(c));
    }),
  );
}

/** One CSV line: `;`-separated, quoted where a cell holds the separator, a quote or a line break. */
export function lineaCsv(celdas: readonly string[]): string {
  return celdas.map((c) => (/[;"\r\n]/.test(c) ? `"${c.replace(/"/g, '""')}"` : c)).join(';');
}

/** A piece of a CSV file: the header and some of its DeCAs, and where each of its lines was in the whole file. */
export interface ParteCsv {
  bytes: Uint8Array;
  /** The part's line number (as the server counts them: the header is 1) → the file's. */
  lineas: Map<number, number>;
}

const COMILLA = 0x22;
const LF = 0x0a;
const CR = 0x0d;

/**
 * Cut a CSV file, as its bytes (UTF-8 or Windows-1252: quotes and line breaks
 * are the same bytes in both, so nothing is decoded), into parts that each
 * hold the header and `porParte` of its DeCAs, whole: `grupos` are the line
 * numbers of each DeCA's rows as the server grouped them when it checked the
 * file (a record's number is the line it ends on). Each part is a CSV the
 * server reads like the whole file; its line numbers map back to the file's.
 */
export function partirCsv(bytes: Uint8Array, grupos: readonly (readonly number[])[], porParte: number): ParteCsv[] {
  // Records: [start, end) without their line break, and the line each ends on. A break inside quotes is data.
  const salto = bytes.includes(LF) ? LF : CR;
  const registros = new Map<number, [number, number]>();
  let cabecera: [number, number] | null = null;
  let dentro = false;
  let linea = 1;
  let inicio = 0;
  const cerrar = (fin: number) => {
    let f = fin;
    if (salto === LF && f > inicio && bytes[f - 1] === CR) f--;
    if (f > inicio) {
      if (!cabecera) cabecera = [inicio, f];
      else registros.set(linea, [inicio, f]);
    }
  };
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (b === COMILLA) dentro = !dentro;
    else if (b === salto) {
      if (!dentro) {
        cerrar(i);
        inicio = i + 1;
      }
      linea++;
    }
  }
  cerrar(bytes.length);
  if (!cabecera) return [];
  const [hi, hf] = cabecera as [number, number];
  const cab = bytes.subarray(hi, hf);
  const partes: ParteCsv[] = [];
  for (const parte of empaquetar(unidadesIguales(bytes, registros, grupos), porParte)) {
    const lineasFichero = parte.flat().sort((a, b) => a - b);
    const trozos: Uint8Array[] = [cab];
    const lineas = new Map<number, number>([[1, 1]]);
    let enParte = 1 + contarSaltos(cab, salto);
    for (const l of lineasFichero) {
      const r = registros.get(l);
      if (!r) throw new Error(`La línea ${l} no está en el archivo.`);
      const trozo = bytes.subarray(r[0], r[1]);
      enParte += 1 + contarSaltos(trozo, salto);
      lineas.set(enParte, l);
      trozos.push(trozo);
    }
    const sep = salto === LF ? [CR, LF] : [CR];
    const total = trozos.reduce((n, t) => n + t.length + sep.length, 0);
    const out = new Uint8Array(total);
    let p = 0;
    for (const t of trozos) {
      out.set(t, p);
      p += t.length;
      out.set(sep, p);
      p += sep.length;
    }
    partes.push({ bytes: out, lineas });
  }
  return partes;
}

/**
 * The DeCAs of the file as units that go to the server in one part: each
 * DeCA alone, but DeCAs whose rows are the very same bytes together. The
 * server keys a DeCA without references by its content and its order among
 * the identical ones of the same request (two identical trips are two
 * DeCAs): sent in different parts, the second would be taken for the first.
 */
function unidadesIguales(bytes: Uint8Array, registros: Map<number, [number, number]>, grupos: readonly (readonly number[])[]): (readonly number[])[][] {
  const latin1 = new TextDecoder('latin1');
  const unidades = new Map<string, (readonly number[])[]>();
  grupos.forEach((g, i) => {
    const firma = g.map((l) => {
      const r = registros.get(l);
      return r ? latin1.decode(bytes.subarray(r[0], r[1])) : `\u0000${i}`;
    });
    const clave = firma.join('\n');
    const unidad = unidades.get(clave);
    if (unidad) unidad.push(g);
    else unidades.set(clave, [g]);
  });
  return [...unidades.values()];
}

/** Units packed in order into parts of at most `porParte` DeCAs (a larger unit alone in its part). */
function empaquetar(unidades: (readonly number[])[][], porParte: number): (readonly number[])[][] {
  const partes: (readonly number[])[][] = [];
  let actual: (readonly number[])[] = [];
  for (const u of unidades) {
    if (actual.length > 0 && actual.length + u.length > porParte) {
      partes.push(actual);
      actual = [];
    }
    actual.push(...u);
  }
  if (actual.length > 0) partes.push(actual);
  return partes;
}

function contarSaltos(b: Uint8Array, salto: number): number {
  let n = 0;
  for (const x of b) if (x === salto) n++;
  return n;
}

/**
 * How many rows (records) a CSV file has, header included, counted on its
 * bytes without parsing it, so that a file far too long is refused before
 * anything costly is done with it. Counted as the reader splits them: at the
 * file's kind of line break (the first one found: CRLF, LF or CR), never
 * inside quotes (a cell may hold line breaks), and blank lines left out.
 * UTF-8 and Windows-1252 alike: quotes and breaks are the same bytes in both.
 */
export function contarFilasCsv(bytes: Uint8Array): number {
  let filas = 0;
  let dentro = false;
  /** No byte of the current row seen yet. */
  let vacia = true;
  let salto: 'crlf' | 'lf' | 'cr' | null = null;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (!dentro && (b === LF || b === CR)) {
      const crlf = b === CR && bytes[i + 1] === LF;
      salto ??= crlf ? 'crlf' : b === LF ? 'lf' : 'cr';
      if (salto === 'crlf' ? crlf : salto === 'lf' ? b === LF : b === CR) {
        if (salto === 'crlf') i++;
        vacia = true;
        continue;
      }
    }
    if (vacia) {
      filas++;
      vacia = false;
    }
    if (b === COMILLA) dentro = !dentro;
  }
  return filas;
}
