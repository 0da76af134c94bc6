import {
  type DatabaseIntrospector,
  type DatabaseMetadataOptions,
  DEFAULT_MIGRATION_LOCK_TABLE,
  DEFAULT_MIGRATION_TABLE,
  type Dialect,
  type Kysely,
  PostgresIntrospector,
  sql,
  type TableMetadata,
} from 'kysely';

interface Columna {
  tabla: string;
  tipo_tabla: string;
  esquema: string;
  columna: string;
  no_nulo: boolean;
  con_defecto: boolean;
  tipo: string;
  esquema_tipo: string;
  comentario: string | null;
  secuencia: string | null;
}

/**
 * Kysely's PostgreSQL introspection lists every column of every schema and
 * asks pg_get_serial_sequence about each. A table dropped meanwhile in another
 * schema (another install on the same server, another test file) makes that
 * listing fail with «relation … does not exist», «column … of relation … does
 * not exist» or «schema … does not exist». The migrator lists tables to find
 * its own, so a start-up could fail for something it has nothing to do with.
 * This one lists the connection's own schema (`current_schema()`) only.
 */
export class IntrospectorDelEsquema implements DatabaseIntrospector {
  readonly #db: Kysely<any>;

  constructor(db: Kysely<any>) {
    this.#db = db;
  }

  getSchemas() {
    return new PostgresIntrospector(this.#db).getSchemas();
  }

  async getTables(options: DatabaseMetadataOptions = { withInternalKyselyTables: false }): Promise<TableMetadata[]> {
    const internas = options.withInternalKyselyTables ? sql`` : sql`and c.relname not in (${DEFAULT_MIGRATION_TABLE}, ${DEFAULT_MIGRATION_LOCK_TABLE})`;
    const { rows } = await sql<Columna>`
      select c.relname as tabla, c.relkind as tipo_tabla, ns.nspname as esquema, a.attname as columna,
             a.attnotnull as no_nulo, a.atthasdef as con_defecto, typ.typname as tipo, dtns.nspname as esquema_tipo,
             col_description(a.attrelid, a.attnum) as comentario,
             pg_get_serial_sequence(quote_ident(ns.nspname) || '.' || quote_ident(c.relname), a.attname) as secuencia
        from pg_catalog.pg_attribute a
        join pg_catalog.pg_class c on a.attrelid = c.oid
        join pg_catalog.pg_namespace ns on c.relnamespace = ns.oid
        join pg_catalog.pg_type typ on a.atttypid = typ.oid
        join pg_catalog.pg_namespace dtns on typ.typnamespace = dtns.oid
       where ns.nspname = current_schema()
         and c.relkind in ('r', 'v', 'p', 'f')
         and a.attnum >= 0 and not a.attisdropped
         ${internas}
       order by c.relname, a.attnum`.execute(this.#db);
    const tablas = new Map<string, TableMetadata>();
    for (const r of rows) {
      let tabla = tablas.get(r.tabla);
      if (!tabla) {
        tabla = { name: r.tabla, schema: r.esquema, isView: r.tipo_tabla === 'v', columns: [] };
        tablas.set(r.tabla, tabla);
      }
      tabla.columns.push({
        name: r.columna,
        dataType: r.tipo,
        dataTypeSchema: r.esquema_tipo,
        isNullable: !r.no_nulo,
        hasDefaultValue: r.con_defecto,
        isAutoIncrementing: r.secuencia !== null,
        ...(r.comentario === null ? {} : { comment: r.comentario }),
      });
    }
    return [...tablas.values()];
  }

  async getMetadata(options?: DatabaseMetadataOptions) {
    return { tables: await this.getTables(options) };
  }
}

/** `dialect`, with its introspection limited to the connection's own schema. */
export function deUnEsquema(dialect: Dialect): Dialect {
  return {
    createDriver: () => dialect.createDriver(),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createAdapter: () => dialect.createAdapter(),
    createIntrospector: (db) => new IntrospectorDelEsquema(db),
  };
}
