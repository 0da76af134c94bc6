/**
 * server/db/schema.ts is written by hand; the migrations are what the
 * database really is. This file migrates a database and compares it, table
 * by table and column by column, with the `DB` interface as the TypeScript
 * compiler reads it (the types Kysely checks our queries against): the same
 * tables, the same columns, the same nullability, and the same coarse type
 * family (number, text, boolean, date, bytes, json).
 *
 * Nullability and family come from the type a select returns: Kysely's
 * `ColumnType<S, I, U>` (and `Generated<S>`, the file's `Timestamp`,
 * `NullableTimestamp` and `Json<T>`, which are ColumnTypes) is read through
 * its `__select__` property by the type checker, not by matching strings.
 * `unknown` admits null. A column with a default may be optional to insert
 * or not: that is not checked.
 *
 * The engine does not matter here (the same migrations make the same
 * columns on PostgreSQL and PGlite), so this file is not in PGLITE_TAMBIEN;
 * without TEST_DATABASE_URL it runs on PGlite like every other file.
 */
import path from 'node:path';
import { sql } from 'kysely';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/open';
import { openTestDatabase } from '../support/db';
import { ROOT } from '../support/processes';

const SCHEMA_TS = path.join(ROOT, 'server/db/schema.ts');

/** Tables in the migrated database that `DB` does not declare, each with why. */
const AJENAS: Record<string, string> = {
  kysely_migration: 'la lista de migraciones aplicadas, del Migrator de Kysely (migrateToLatest)',
  kysely_migration_lock: 'el cerrojo del Migrator de Kysely mientras migra',
};

type Familia = 'número' | 'texto' | 'booleano' | 'fecha' | 'bytes' | 'json';

/**
 * What each SQL type is read as by our drivers: int8 and numeric as numbers
 * on both engines (server/db/open.ts), timestamps as Date, bytea as bytes.
 */
const FAMILIA_SQL: Record<string, Familia> = {
  smallint: 'número',
  integer: 'número',
  bigint: 'número',
  numeric: 'número',
  real: 'número',
  'double precision': 'número',
  text: 'texto',
  'character varying': 'texto',
  character: 'texto',
  boolean: 'booleano',
  'timestamp with time zone': 'fecha',
  'timestamp without time zone': 'fecha',
  date: 'fecha',
  bytea: 'bytes',
  json: 'json',
  jsonb: 'json',
};

interface Columna {
  /** Whether NULL can be read from it. */
  nula: boolean;
  /** A Familia, or a description of what could not be classified. */
  familia: string;
  /** How it is written: the SQL type, or the TypeScript select type. */
  tipo: string;
}

interface Tabla {
  /** Where it is declared: the interface in schema.ts, or "la base de datos". */
  origen: string;
  columnas: Map<string, Columna>;
}

type Tablas = Map<string, Tabla>;

/** The columns of every table in the connection's schema (the test's own schema on PostgreSQL, `public` on PGlite). */
async function tablasReales(database: Database): Promise<Tablas> {
  const { rows } = await sql<{ table_name: string; column_name: string; is_nullable: string; data_type: string }>`
    select table_name, column_name, is_nullable, data_type
      from information_schema.columns
     where table_schema = current_schema()
       -- A month's partition is its table's (migration 0019): declared once, as the partitioned table.
       and table_name not in (select c.relname::text from pg_class c where c.relispartition and c.relnamespace = current_schema()::regnamespace)
     order by table_name, ordinal_position`.execute(database.db);
  const tablas: Tablas = new Map();
  for (const r of rows) {
    let tabla = tablas.get(r.table_name);
    if (!tabla) tablas.set(r.table_name, (tabla = { origen: 'la base de datos', columnas: new Map() }));
    tabla.columnas.set(r.column_name, {
      nula: r.is_nullable === 'YES',
      familia: FAMILIA_SQL[r.data_type] ?? `desconocida (añada «${r.data_type}» a FAMILIA_SQL)`,
      tipo: r.data_type,
    });
  }
  return tablas;
}

/**
 * The tables `DB` declares in schema.ts, read with the type checker under
 * the server's compiler options. `cambiar` edits the file's text in memory
 * first (the test that proves the comparison can fail).
 */
function tablasDeclaradas(cambiar?: (texto: string) => string): Tablas {
  const config = ts.getParsedCommandLineOfConfigFile(
    path.join(ROOT, 'server/tsconfig.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      },
    },
  );
  if (!config) throw new Error('No se pudo leer server/tsconfig.json');
  const options: ts.CompilerOptions = { ...config.options, noEmit: true, composite: false, declaration: false, emitDeclarationOnly: false, incremental: false };
  const host = ts.createCompilerHost(options);
  if (cambiar) {
    const original = host.getSourceFile.bind(host);
    host.getSourceFile = (nombre, version, onError, nuevo) =>
      path.resolve(nombre) === SCHEMA_TS ? ts.createSourceFile(nombre, cambiar(ts.sys.readFile(SCHEMA_TS) ?? ''), version) : original(nombre, version, onError, nuevo);
  }
  const program = ts.createProgram({ rootNames: [SCHEMA_TS], options, host });
  const sf = program.getSourceFile(SCHEMA_TS);
  if (!sf) throw new Error(`El compilador no encuentra ${SCHEMA_TS}`);
  // An import that does not resolve would make its types `any` (nullable, json) and hide the real comparison.
  const errores = [...program.getSyntacticDiagnostics(sf), ...program.getSemanticDiagnostics(sf)];
  if (errores.length) throw new Error(`schema.ts no compila:\n${ts.formatDiagnostics(errores, host)}`);

  const checker = program.getTypeChecker();
  const db = sf.statements.find((s): s is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(s) && s.name.text === 'DB');
  if (!db) throw new Error('schema.ts no declara la interfaz `DB`');
  const simboloDb = checker.getSymbolAtLocation(db.name);
  if (!simboloDb) throw new Error('El compilador no resuelve la interfaz `DB`');

  const tablas: Tablas = new Map();
  for (const tabla of checker.getDeclaredTypeOfSymbol(simboloDb).getProperties()) {
    const tipoTabla = checker.getTypeOfSymbolAtLocation(tabla, db);
    const columnas = new Map<string, Columna>();
    for (const columna of tipoTabla.getProperties()) {
      const tipo = checker.getTypeOfSymbolAtLocation(columna, db);
      // ColumnType<S, I, U> (Generated, Timestamp, Json<T>…): S is what a select returns.
      const select = tipo.getProperty('__select__');
      const leido = select ? checker.getTypeOfSymbolAtLocation(select, db) : tipo;
      columnas.set(columna.getName(), { nula: admiteNull(leido), familia: familiaDe(checker, leido), tipo: checker.typeToString(leido) });
    }
    tablas.set(tabla.getName(), { origen: checker.typeToString(tipoTabla), columnas });
  }
  return tablas;
}

function admiteNull(t: ts.Type): boolean {
  if (t.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) return true;
  return (t.isUnion() ? t.types : [t]).some((p) => (p.flags & ts.TypeFlags.Null) !== 0);
}

function familiaDe(checker: ts.TypeChecker, t: ts.Type): string {
  const partes = (t.isUnion() ? t.types : [t]).filter((p) => !(p.flags & (ts.TypeFlags.Null | ts.TypeFlags.Undefined)));
  const familias = new Set(partes.map(familiaDeUno));
  const [unica] = familias;
  return familias.size === 1 && unica ? unica : `mezcla (${checker.typeToString(t)})`;
}

function familiaDeUno(p: ts.Type): Familia {
  if (p.flags & ts.TypeFlags.NumberLike) return 'número';
  if (p.flags & ts.TypeFlags.StringLike) return 'texto';
  if (p.flags & ts.TypeFlags.BooleanLike) return 'booleano';
  const nombre = p.getSymbol()?.getName();
  if (nombre === 'Date') return 'fecha';
  if (nombre === 'Uint8Array' || nombre === 'Buffer') return 'bytes';
  // unknown, objects and arrays: only a json column holds them.
  return 'json';
}

interface Diferencias {
  tablas: string[];
  columnas: string[];
  nulos: string[];
  familias: string[];
}

/** Every way `declaradas` (schema.ts) and `reales` (the migrated database) differ, one sentence each. */
function comparar(declaradas: Tablas, reales: Tablas): Diferencias {
  const d: Diferencias = { tablas: [], columnas: [], nulos: [], familias: [] };
  for (const nombre of reales.keys()) {
    if (!declaradas.has(nombre) && !(nombre in AJENAS)) d.tablas.push(`La tabla «${nombre}» está en la base de datos migrada pero no en la interfaz \`DB\` de schema.ts.`);
  }
  for (const [nombre, declarada] of declaradas) {
    const real = reales.get(nombre);
    if (!real) {
      d.tablas.push(`La interfaz \`DB\` de schema.ts declara la tabla «${nombre}» (${declarada.origen}), que las migraciones no crean.`);
      continue;
    }
    for (const [columna, r] of real.columnas) {
      if (!declarada.columnas.has(columna)) d.columnas.push(`${nombre}.${columna}: está en la base de datos (${r.tipo}) pero no en ${declarada.origen} de schema.ts.`);
    }
    for (const [columna, c] of declarada.columnas) {
      const r = real.columnas.get(columna);
      const donde = `${nombre}.${columna}`;
      if (!r) {
        d.columnas.push(`${donde}: ${declarada.origen} de schema.ts la declara («${c.tipo}») pero no existe en la base de datos.`);
        continue;
      }
      if (r.nula && !c.nula) d.nulos.push(`${donde}: admite NULL en la base de datos, pero schema.ts la lee como «${c.tipo}», sin null.`);
      if (!r.nula && c.nula) d.nulos.push(`${donde}: es NOT NULL en la base de datos, pero schema.ts la lee como «${c.tipo}», que admite null.`);
      if (r.familia !== c.familia) d.familias.push(`${donde}: en la base de datos es ${r.tipo} (${r.familia}), pero schema.ts la lee como «${c.tipo}» (${c.familia}).`);
    }
  }
  return d;
}

describe('server/db/schema.ts against the migrated database', () => {
  let database: Database;
  let reales: Tablas;
  let declaradas: Tablas;
  let diferencias: Diferencias;

  beforeAll(async () => {
    database = await openTestDatabase();
    reales = await tablasReales(database);
    declaradas = tablasDeclaradas();
    diferencias = comparar(declaradas, reales);
  });
  afterAll(async () => {
    await database?.close();
  });

  it('declares every table the migrations create, and no other (the migrator’s own tables apart)', () => {
    expect(declaradas.size).toBeGreaterThan(20);
    expect(diferencias.tablas).toEqual([]);
    // The exceptions are real tables, not leftovers, and not declared as well.
    for (const [tabla, motivo] of Object.entries(AJENAS)) {
      expect(reales.has(tabla), `AJENAS lista «${tabla}» (${motivo}), que la base de datos migrada no tiene: quítela de la lista.`).toBe(true);
      expect(declaradas.has(tabla), `«${tabla}» está en AJENAS y también en \`DB\`: quítela de una de las dos.`).toBe(false);
    }
  });

  it('declares, per table, the same columns the database has', () => {
    expect(diferencias.columnas).toEqual([]);
  });

  it('types a column as admitting null exactly when the database admits NULL in it', () => {
    expect(diferencias.nulos).toEqual([]);
  });

  it('types each column as what the driver reads from it: number, text, boolean, Date, bytes or json', () => {
    expect(diferencias.familias).toEqual([]);
  });

  it('reports a table, a column, a nullability and a type that differ (schema.ts edited in memory)', () => {
    const reemplazar = (texto: string, de: string, a: string) => {
      if (!texto.includes(de)) throw new Error(`schema.ts ya no contiene «${de}»: cambie el texto que esta prueba edita.`);
      return texto.replace(de, a);
    };
    const editadas = tablasDeclaradas((texto) => {
      let t = reemplazar(texto, '  uso_mensual: UsoMensualTable;\n', '');
      t = reemplazar(t, 'export interface AccountsTable {\n', 'export interface AccountsTable {\n  inventada: string;\n');
      t = reemplazar(t, '  nif: string;\n', '  nif: string | null;\n');
      t = reemplazar(t, '  solo_lectura: boolean;\n', '  solo_lectura: ColumnType<number, number, number>;\n');
      t = reemplazar(t, '  domicilio: string | null;\n', '  domicilio: string;\n');
      return t;
    });
    expect(comparar(editadas, reales)).toEqual({
      tablas: ['La tabla «uso_mensual» está en la base de datos migrada pero no en la interfaz `DB` de schema.ts.'],
      columnas: ['accounts.inventada: AccountsTable de schema.ts la declara («string») pero no existe en la base de datos.'],
      nulos: [
        'accounts.nif: es NOT NULL en la base de datos, pero schema.ts la lee como «string | null», que admite null.',
        'accounts.domicilio: admite NULL en la base de datos, pero schema.ts la lee como «string», sin null.',
      ],
      familias: ['api_keys.solo_lectura: en la base de datos es boolean (booleano), pero schema.ts la lee como «number» (número).'],
    });
  });
});
