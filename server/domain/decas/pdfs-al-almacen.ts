import { type Kysely, sql } from 'kysely';
import { AppError } from '../../../shared/errors';
import type { Entorno } from '../../../shared/schemas/cuenta';
import type { DB } from '../../db/schema';
import { porTurnos } from '../../por-turnos';
import { sha256Hex } from '../../sha256';
import type { DomainContext } from '../context';

/** The versions moved at once by default (`blobs:migrate --lote`). */
export const LOTE_PDFS = 200;
/** Blobs written at a time within a batch (an S3 PUT waits mostly on the network). */
const A_LA_VEZ = 4;

/** One batch of `moverPdfsAlAlmacen`. */
export interface LoteDePdfs {
  /** Versions whose bytes left the database in this batch (their blob written, then `pdf` set to null). */
  movidos: number;
  /** Their size. */
  bytes: number;
  /** Versions whose bytes in the row do not hash to their `pdf_sha256`: left as they are, never copied out. */
  omitidos: { deca_id: number; version: number }[];
  /** Versions still holding their bytes in the database after this batch (the omitted included). */
  quedan: number;
  /** Where the next batch starts (`despues`); null once this batch reached the end. */
  siguiente: string | null;
}

interface Posicion {
  account_id: number;
  entorno: Entorno;
  deca_id: number;
  version: number;
}

const codificar = (p: Posicion) => `${p.account_id}.${p.entorno}.${p.deca_id}.${p.version}`;

function decodificar(s: string): Posicion {
  const m = /^(\d{1,18})\.(produccion|pruebas)\.(\d{1,18})\.(\d{1,9})$/.exec(s);
  if (!m) throw new AppError('validacion', 'La posición «despues» no es válida: use el valor «siguiente» del lote anterior.', { campos: { despues: 'Posición no válida' } });
  return { account_id: Number(m[1]), entorno: m[2] as Entorno, deca_id: Number(m[3]), version: Number(m[4]) };
}

const INDICE = 'deca_versiones_pdf_en_base_idx';

/**
 * The index of the versions still holding their bytes (`pdf` not null),
 * which each batch walks and counts: an index of the partitioned table
 * (migration 0019) that a partition made since gets as it is made, built
 * here on the partitions that lack it (the rows from before partitions, the
 * first months): on a table of every PDF ever issued the build reads it
 * all. Built CONCURRENTLY on each partition (no lock that stops issuing or
 * reading while it runs), so never inside a transaction, then attached; a
 * build interrupted before leaves the partition's index invalid, and it is
 * dropped and built again. Empty once every version is out, and never
 * touched by a new version's insert (its `pdf` is null).
 */
async function indiceDePendientes(db: Kysely<DB>): Promise<void> {
  const valido = async () =>
    (
      await sql<{ valido: boolean }>`
        select i.indisvalid as valido from pg_index i join pg_class c on c.oid = i.indexrelid
        where c.relname = ${INDICE} and c.relnamespace = current_schema()::regnamespace`.execute(db)
    ).rows[0]?.valido;
  const estado = await valido();
  if (estado) return;
  if (estado === undefined) await sql`create index if not exists ${sql.id(INDICE)} on only deca_versiones (account_id, entorno, deca_id, version) where pdf is not null`.execute(db);
  // Each partition's: attached (nothing to do), there but not attached (invalid: made again; valid: attached), or missing.
  const { rows } = await sql<{ particion: string; indice: string | null; valido: boolean | null; adjunto: boolean }>`
    select p.relname as particion, ic.relname as indice, i.indisvalid as valido,
      exists (select 1 from pg_inherits h join pg_index x on x.indexrelid = h.inhrelid where h.inhparent = ${INDICE}::regclass and x.indrelid = p.oid) as adjunto
    from pg_inherits pi join pg_class p on p.oid = pi.inhrelid
    left join pg_class ic on ic.relname = p.relname || '_pdf_en_base_idx' and ic.relnamespace = p.relnamespace
    left join pg_index i on i.indexrelid = ic.oid
    where pi.inhparent = 'deca_versiones'::regclass`.execute(db);
  for (const r of rows) {
    if (r.adjunto) continue;
    const nombre = `${r.particion}_pdf_en_base_idx`;
    if (r.indice && !r.valido) await sql`drop index concurrently if exists ${sql.id(nombre)}`.execute(db);
    if (!r.indice || !r.valido) {
      await sql`create index concurrently if not exists ${sql.id(nombre)} on ${sql.table(r.particion)} (account_id, entorno, deca_id, version) where pdf is not null`.execute(db);
    }
    await sql`alter index ${sql.id(INDICE)} attach partition ${sql.id(nombre)}`.execute(db);
  }
}

/**
 * Move the PDF bytes of up to `lote` versions written before the blob store
 * (`pdf` not null, in key order, after `despues`) out of the database: each
 * blob is written (and, if already there, checked) first, then one
 * statement sets `pdf` to null and `pdf_clave` on the rows that still hold
 * those same bytes (same `pdf_sha256`). Interrupted anywhere, nothing is
 * lost: a row keeps its bytes until its blob exists, and a blob written
 * for a row not yet updated is found whole by the next run. Bytes that do
 * not hash to their row's `pdf_sha256` are never copied out (`omitidos`).
 * The last batch (`siguiente` null) vacuums the table, so the space the
 * bytes took is reused (PGlite has no autovacuum).
 */
export async function moverPdfsAlAlmacen(ctx: Pick<DomainContext, 'db' | 'blobs'>, opts: { lote?: number; despues?: string | null } = {}): Promise<LoteDePdfs> {
  const lote = opts.lote ?? LOTE_PDFS;
  const desde = opts.despues ? decodificar(opts.despues) : null;
  await indiceDePendientes(ctx.db);
  let q = ctx.db.selectFrom('deca_versiones').select(['account_id', 'entorno', 'deca_id', 'version', 'pdf', 'pdf_sha256', 'pdf_bytes']).where('pdf', 'is not', null);
  if (desde) q = q.where((eb) => eb(eb.refTuple('account_id', 'entorno', 'deca_id', 'version'), '>', eb.tuple(desde.account_id, desde.entorno, desde.deca_id, desde.version)));
  const filas = await q.orderBy('account_id').orderBy('entorno').orderBy('deca_id').orderBy('version').limit(lote).execute();

  const omitidos: LoteDePdfs['omitidos'] = [];
  const escritas: { fila: (typeof filas)[number]; clave: string }[] = [];
  let fallo: unknown = null;
  await porTurnos(filas, A_LA_VEZ, async (fila) => {
    const bytes = fila.pdf!;
    if (sha256Hex(bytes) !== fila.pdf_sha256) {
      omitidos.push({ deca_id: fila.deca_id, version: fila.version });
      return;
    }
    escritas.push({ fila, clave: await ctx.blobs.guardar(fila.pdf_sha256, bytes) });
  }).catch((err: unknown) => (fallo = err));

  // The rows whose blob was written, even when another write failed: their bytes are out.
  let movidos = 0;
  let bytes = 0;
  if (escritas.length) {
    const valores = escritas.map(({ fila: f, clave }) => sql`(${f.account_id}::bigint, ${f.entorno}::text, ${f.deca_id}::bigint, ${f.version}::integer, ${f.pdf_sha256}::text, ${clave}::text)`);
    const r = await sql`
      update deca_versiones as v set pdf = null, pdf_clave = x.clave
      from (values ${sql.join(valores)}) as x(account_id, entorno, deca_id, version, sha256, clave)
      where v.account_id = x.account_id and v.entorno = x.entorno and v.deca_id = x.deca_id and v.version = x.version
        and v.pdf_sha256 = x.sha256 and v.pdf is not null`.execute(ctx.db);
    movidos = Number(r.numAffectedRows ?? 0);
    bytes = escritas.reduce((n, e) => n + e.fila.pdf_bytes, 0);
  }
  if (fallo) throw fallo;

  omitidos.sort((a, b) => a.deca_id - b.deca_id || a.version - b.version);
  const ultima = filas.at(-1);
  const siguiente = filas.length === lote && ultima ? codificar(ultima) : null;
  if (siguiente === null) await sql`vacuum deca_versiones`.execute(ctx.db);
  const { n } = await ctx.db.selectFrom('deca_versiones').select(sql<number>`count(*)::int`.as('n')).where('pdf', 'is not', null).executeTakeFirstOrThrow();
  return { movidos, bytes, omitidos, quedan: n, siguiente };
}
