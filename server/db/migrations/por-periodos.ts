import { type Kysely, sql } from 'kysely';

/**
 * Turn tables into tables partitioned by periods (months, weeks) of an id,
 * for migrations 0019 and 0020; it is part of them, as they were when run:
 * change it and those migrations change.
 *
 * Each table, renamed `<tabla>_anteriores`, becomes the partition of every
 * id below the first period's (no rows copied); its indexes that the
 * partitioned table also has become its parts (no rebuild); the rest go.
 * The first periods' partitions are made. Foreign keys of the tables, and
 * those that point at them from the tables of the family, are made again
 * on the partitioned tables; those from other tables are dropped.
 */
export interface TablaPorPeriodos {
  nombre: string;
  /** The partition key: `id` for the family's first table, the column that points at it for the others. */
  clave: string;
  /** The primary key; `nueva`: not the one it had (`id`), which goes (the attach builds this one). */
  pk: { nombre: string; columnas: string; nueva?: boolean };
  /** Plain indexes of the partitioned table: name and `(columns)[ where …]`. */
  indices: [string, string][];
  /** The partitions' storage parameters (`with (fillfactor = 80)`). */
  con?: string;
  /** Its id from a sequence (was its identity): `nextval`, or this expression of it. */
  secuencia?: true | ((secuencia: string) => string);
}

export interface Periodos {
  /** The periods to make partitions for, the first being where the rows of before end. */
  primeros: number[];
  siguiente: (p: number) => number;
  /** The first id of a period. */
  inicio: (p: number) => bigint;
  /** A partition's name. */
  nombre: (tabla: string, p: number) => string;
}

export interface Opciones {
  /** Run after a partitioned table is made, before the rows of before join it (its triggers). */
  antesDeAdjuntar?: (tabla: string) => Promise<void>;
  /** Indexes of the rows of before that stay as they are (by their name before). */
  conservar?: string[];
}

export async function particionar(db: Kysely<any>, tablas: TablaPorPeriodos[], periodos: Periodos, opciones: Opciones = {}): Promise<void> {
  const q = (texto: string) => sql.raw(texto).execute(db);
  const nombres = tablas.map((t) => t.nombre);
  const { rows: claves } = await sql<{ tabla: string; nombre: string; def: string }>`
    select c.conrelid::regclass::text as tabla, c.conname as nombre, pg_get_constraintdef(c.oid) as def
    from pg_constraint c
    where c.contype = 'f' and c.connamespace = current_schema()::regnamespace
      and (c.conrelid::regclass::text = any(${nombres}::text[]) or c.confrelid::regclass::text = any(${nombres}::text[]))`.execute(db);
  for (const k of claves) await q(`alter table "${k.tabla}" drop constraint "${k.nombre}"`);

  const limite = periodos.inicio(periodos.primeros[0]!).toString();
  for (const t of tablas) {
    const ant = `${t.nombre}_anteriores`;
    await q(`alter table "${t.nombre}" rename to "${ant}"`);
    // Its indexes under other names: the partitioned table's take theirs.
    const { rows: indices } = await sql<{ nombre: string }>`
      select c.relname as nombre from pg_index i join pg_class c on c.oid = i.indexrelid where i.indrelid = ${ant}::regclass`.execute(db);
    for (const i of indices) await q(`alter index "${i.nombre}" rename to "${i.nombre}_ant"`);

    let siguiente = 1;
    if (t.secuencia) {
      const { rows: m } = await sql<{ n: string }>`select (coalesce(max(id), 0) + 1)::text as n from ${sql.table(ant)}`.execute(db);
      siguiente = Number(m[0]!.n);
      await q(`alter table "${ant}" alter column id drop identity if exists`);
    }

    await q(`create table "${t.nombre}" (like "${ant}" including defaults including constraints including storage) partition by range (${t.clave})`);
    await q(`alter table "${t.nombre}" add constraint "${t.pk.nombre}" primary key (${t.pk.columnas})`);
    for (const [nombre, def] of t.indices) {
      const [columnas, donde] = def.split(' where ');
      await q(`create index "${nombre}" on "${t.nombre}" ${columnas}${donde ? ` where ${donde}` : ''}`);
    }
    if (t.secuencia) {
      const secuencia = `${t.nombre}_id_seq`;
      await q(`create sequence "${secuencia}" as bigint start with ${siguiente} owned by "${t.nombre}".id`);
      await q(`alter table "${t.nombre}" alter column id set default ${t.secuencia === true ? `nextval('${secuencia}')` : t.secuencia(secuencia)}`);
    }
    await opciones.antesDeAdjuntar?.(t.nombre);

    if (t.pk.nueva) await q(`alter table "${ant}" drop constraint "${t.pk.nombre}_ant"`);
    await q(`alter table "${t.nombre}" attach partition "${ant}" for values from (minvalue) to (${limite})`);
    // What the partitioned table has no use for: its former unique indexes (now plain ones) and keys.
    const { rows: sueltos } = await sql<{ nombre: string; restriccion: string | null }>`
      select c.relname as nombre, (select conname from pg_constraint k where k.conindid = c.oid and k.conrelid = i.indrelid) as restriccion
      from pg_index i join pg_class c on c.oid = i.indexrelid
      where i.indrelid = ${ant}::regclass and not c.relispartition`.execute(db);
    for (const s of sueltos) {
      if (opciones.conservar?.includes(s.nombre.replace(/_ant$/, ''))) continue;
      await q(s.restriccion ? `alter table "${ant}" drop constraint "${s.restriccion}"` : `drop index "${s.nombre}"`);
    }
    for (const p of periodos.primeros) {
      const desde = periodos.inicio(p).toString();
      const hasta = periodos.inicio(periodos.siguiente(p)).toString();
      await q(`create table "${periodos.nombre(t.nombre, p)}" partition of "${t.nombre}" for values from (${desde}) to (${hasta}) ${t.con ?? ''}`);
    }
  }

  for (const k of claves) {
    if (!nombres.includes(k.tabla)) continue;
    await q(`alter table "${k.tabla}" add constraint "${k.nombre}" ${k.def}`);
  }
}
