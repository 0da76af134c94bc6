import { type Kysely, type RawBuilder, sql, type Transaction } from 'kysely';
import type { BlobStore } from '../blobs/almacen';
import type { Logger } from '../log';
import { porTurnos } from '../por-turnos';
import { notificar, TODAS } from './notify';
import type { DB } from './schema';

/**
 * Data kept by periods, let go by dropping whole partitions, never row by row:
 * - a DeCA, its versions, history, download log and completion draft live in
 *   the partitions of the month it was created in (migration 0019): its id is
 *   `(YYYYMM << 32) + n`, the month by the database's clock in Madrid; a
 *   month whose retention ended goes with its PDFs out of the blob store;
 * - the events and the webhook deliveries (with their attempts), in the
 *   partitions of their week (migration 0020): an id is `(week << 32) + n`,
 *   the week counted in 7-day spans since 1970-01-01 UTC; a week goes once
 *   it ended 30 days ago.
 * Here the periods ahead are made before they come, and the ended ones go.
 */

/** A period: its number now by the database's clock (as the ids count it), the next, and its partitions' prefix. */
interface Periodo {
  ahora: RawBuilder<number>;
  siguiente: (p: number) => number;
  prefijo: 'p' | 's';
}

const MES: Periodo = {
  ahora: sql<number>`to_char(now() at time zone 'Europe/Madrid', 'YYYYMM')::int`,
  siguiente: (mes) => mesSiguiente(mes),
  prefijo: 'p',
};
const SEMANA: Periodo = { ahora: sql<number>`floor(extract(epoch from now()) / 604800)::int`, siguiente: (s) => s + 1, prefijo: 's' };

/** The tables partitioned together: the first's id is the partition key; the others point at it. */
interface Familia {
  raiz: 'decas' | 'correos' | 'eventos' | 'webhook_entregas';
  hijas: readonly string[];
  periodo: Periodo;
  /** The first table's partitions' storage parameters. */
  con?: string;
}

const DECAS: Familia = {
  raiz: 'decas',
  hijas: ['deca_versiones', 'deca_cambios', 'descargas', 'completar_borradores'],
  periodo: MES,
  // Room in each page for the download count's update to stay on it (migration 0016).
  con: ' with (fillfactor = 80)',
};
/** The mail sent (migration 0021): kept by month as the DeCAs, and let go with them. */
const CORREOS: Familia = { raiz: 'correos', hijas: [], periodo: MES };
const EVENTOS: Familia = { raiz: 'eventos', hijas: [], periodo: SEMANA };
const ENTREGAS: Familia = { raiz: 'webhook_entregas', hijas: ['webhook_intentos'], periodo: SEMANA };
const FAMILIAS = [DECAS, CORREOS, EVENTOS, ENTREGAS];

/** The name of a table's partition of a period: `decas_p202612`, `eventos_s2970`. */
const nombreDe = (tabla: string, f: Familia, p: number) => `${tabla}_${f.periodo.prefijo}${p}`;

/** Periods made ahead: this one and the next two, so a stopped maintenance has two periods to come back. */
export const MESES_POR_DELANTE = 3;
/** A month let go after its retention is kept this many more months. */
export const MESES_DE_GRACIA = 1;
/** DDL on a partitioned table waits this long for the queries in flight, then gives up until the next round. */
const ESPERA_BLOQUEO = '3s';
/** Versions whose PDFs are deleted per page, and blobs deleted at once (an S3 DELETE waits mostly on the network). */
const LOTE_PDFS = 500;
const BORRADOS_A_LA_VEZ = 8;

/**
 * A round that made nothing, for now: the partition made meanwhile by another
 * process (42P07, or 23505 on the catalog), a lock not had in time (55P03),
 * a range another partition holds (42P17: the database's clock went back).
 */
function esperarOtraVez(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === '42P07' || code === '23505' || code === '55P03' || code === '42P17';
}

/** The first id of a period (a month YYYYMM, a week). */
export const inicioDeMes = (periodo: number): bigint => BigInt(periodo) << 32n;
/** The period of an id (the legacy ids, below 2^32, give 0). */
export const mesDeId = (id: number | bigint): number => Number(BigInt(id) >> 32n);
/** The week (7-day spans since 1970-01-01 UTC) of a moment. */
export const semanaDe = (d: Date): number => Math.floor(d.getTime() / 604_800_000);
export const mesSiguiente = (mes: number): number => (mes % 100 === 12 ? (Math.floor(mes / 100) + 1) * 100 + 1 : mes + 1);
export const mesAnterior = (mes: number): number => (mes % 100 === 1 ? (Math.floor(mes / 100) - 1) * 100 + 12 : mes - 1);
/** The month (YYYYMM) of a moment, in Madrid, as the ids count it. */
export function mesEnMadrid(d: Date): number {
  const partes = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Madrid', year: 'numeric', month: '2-digit' }).formatToParts(d);
  const v = (t: string) => Number(partes.find((p) => p.type === t)!.value);
  return v('year') * 100 + v('month');
}

/** A partition and the ids it holds: [desde, hasta); desde null for the one of the rows from before partitions. */
export interface Particion {
  nombre: string;
  desde: bigint | null;
  hasta: bigint;
}

/** The partitions of a partitioned table (by default `decas`), oldest first. */
export async function particionesDe(db: Kysely<DB>, tabla: Familia['raiz'] = 'decas'): Promise<Particion[]> {
  const { rows } = await sql<{ nombre: string; limites: string }>`
    select c.relname as nombre, pg_get_expr(c.relpartbound, c.oid) as limites
    from pg_inherits i join pg_class c on c.oid = i.inhrelid
    where i.inhparent = ${tabla}::regclass`.execute(db);
  return rows
    .map((r) => {
      const m = /FROM \((MINVALUE|'?(-?\d+)'?)\) TO \('?(-?\d+)'?\)/.exec(r.limites);
      if (!m) throw new Error(`Límites de partición no reconocidos: ${r.nombre} ${r.limites}`);
      return { nombre: r.nombre, desde: m[2] === undefined ? null : BigInt(m[2]), hasta: BigInt(m[3]!) };
    })
    .sort((a, b) => (a.hasta < b.hasta ? -1 : 1));
}

/**
 * Make the partitions of this period and the next ones (by the database's
 * clock, which numbers the ids) that do not exist yet, of every family:
 * `decas_p202612` and its four companions, `eventos_s2970`,
 * `webhook_entregas_s2970` and `webhook_intentos_s2970`. Run at start and
 * every hour; two processes making the same one at once is no error.
 * Returns the periods made (of every family).
 */
export async function asegurarParticiones(db: Kysely<DB>, log?: Logger): Promise<number[]> {
  const hechos: number[] = [];
  for (const f of FAMILIAS) {
    const { rows } = await sql<{ p: number }>`select ${f.periodo.ahora} as p`.execute(db);
    const existentes = await particionesDe(db, f.raiz);
    const hecho = (p: number) => existentes.some((x) => x.hasta > inicioDeMes(p) && (x.desde === null || x.desde <= inicioDeMes(p)));
    for (let p = rows[0]!.p, n = 0; n < MESES_POR_DELANTE; n++, p = f.periodo.siguiente(p)) {
      if (hecho(p)) continue;
      const desde = inicioDeMes(p).toString();
      const hasta = inicioDeMes(f.periodo.siguiente(p)).toString();
      try {
        await db.transaction().execute(async (trx) => {
          await sql.raw(`set local lock_timeout = '${ESPERA_BLOQUEO}'`).execute(trx);
          for (const tabla of [f.raiz, ...f.hijas]) {
            const con = tabla === f.raiz ? (f.con ?? '') : '';
            await sql.raw(`create table if not exists "${nombreDe(tabla, f, p)}" partition of "${tabla}" for values from (${desde}) to (${hasta})${con}`).execute(trx);
          }
        });
        hechos.push(p);
        log?.info({ tabla: f.raiz, periodo: p }, 'partitions made');
      } catch (err) {
        // Made meanwhile by another process (or a lock it waited for too long): the next round sees.
        if (!esperarOtraVez(err)) throw err;
        log?.warn({ err, tabla: f.raiz, periodo: p }, 'partitions not made this round');
      }
    }
  }
  return hechos;
}

/** Drop a period's partitions, the pointing tables' first, in one transaction. */
async function soltar(db: Kysely<DB>, f: Familia, p: Particion, antesDelCommit?: (trx: Transaction<DB>) => Promise<void>): Promise<void> {
  const sufijo = p.nombre.slice(f.raiz.length);
  await db.transaction().execute(async (trx) => {
    await sql.raw(`set local lock_timeout = '${ESPERA_BLOQUEO}'`).execute(trx);
    for (const hija of f.hijas) await sql.raw(`drop table if exists "${hija}${sufijo}"`).execute(trx);
    await sql.raw(`alter table "${f.raiz}" detach partition "${p.nombre}"`).execute(trx);
    await sql.raw(`drop table "${p.nombre}"`).execute(trx);
    await antesDelCommit?.(trx);
  });
}

/** The end of the ids a partition counts for: the rows from before partitions go with the first period they were partitioned in. */
const finEfectivo = (f: Familia, p: Particion): bigint => (p.desde === null ? inicioDeMes(f.periodo.siguiente(mesDeId(p.hasta))) : p.hasta);

/**
 * Let go the weeks of events, or of webhook deliveries and their attempts,
 * that ended `dias` days before `ahora` or earlier: their partitions
 * dropped. Returns the partitions dropped.
 */
export async function soltarSemanasCaducadas(db: Kysely<DB>, que: 'eventos' | 'webhook_entregas', ahora: Date, dias: number, log?: Logger): Promise<string[]> {
  const f = que === 'eventos' ? EVENTOS : ENTREGAS;
  const soltadas = await soltarHasta(db, f, inicioDeMes(semanaDe(new Date(ahora.getTime() - dias * 86_400_000))), log);
  // A clock ahead of the database's (tests) may have let go this week's: made again.
  if (soltadas.length) await asegurarParticiones(db, log);
  return soltadas;
}

/**
 * Drop every partition of a family whose ids end at `corte` or before (the rows from before partitions
 * counted with the first period, unless `fin` says otherwise), oldest first; returns their names.
 */
async function soltarHasta(db: Kysely<DB>, f: Familia, corte: bigint, log?: Logger, fin: (p: Particion) => bigint = (p) => finEfectivo(f, p)): Promise<string[]> {
  const soltadas: string[] = [];
  for (const p of await particionesDe(db, f.raiz)) {
    if (fin(p) > corte) break;
    await soltar(db, f, p);
    log?.info({ particion: p.nombre }, 'period let go');
    soltadas.push(p.nombre);
  }
  return soltadas;
}

export interface MesSoltado {
  particion: string;
  decas: number;
  pdfs: number;
  /** Delivery-note photos of its DeCAs (migration 0022) and photos of their deliveries (0024), deleted with them. */
  fotos: number;
}

/** The months of DeCAs let go, and the partitions of mail that went with them. */
export interface MesesSoltados {
  meses: MesSoltado[];
  correos: string[];
}

/**
 * Let go every month whose retention ended: created in a month that ended
 * `retencionMeses` + MESES_DE_GRACIA months before `ahora` (so a DeCA is kept
 * at least that long). Not while any DeCA of the month was issued or changed
 * within the retention (a DeCA pending for weeks, then issued): that month
 * waits. For each, oldest first: the blobs of its versions deleted (unless
 * a later version holds the same bytes), then, in one transaction, its
 * partitions dropped, the DeCAs' last. The photos its DeCAs were made from
 * go the same way: their blobs first, their rows in that transaction.
 * Interrupted between the two, the next round deletes the blobs again (no
 * error if gone) and drops. The mail written in those months goes with them.
 */
export async function soltarMesesCaducados(deps: { db: Kysely<DB>; blobs: BlobStore; log?: Logger }, ahora: Date, retencionMeses: number): Promise<MesesSoltados> {
  let limite = mesEnMadrid(ahora);
  for (let i = 0; i < retencionMeses + MESES_DE_GRACIA; i++) limite = mesAnterior(limite);
  const corte = inicioDeMes(limite);
  const desdeRetencion = new Date(ahora);
  desdeRetencion.setUTCMonth(desdeRetencion.getUTCMonth() - retencionMeses);
  const soltados: MesSoltado[] = [];
  let hastaSoltado: bigint | null = null;
  for (const p of await particionesDe(deps.db)) {
    if (finEfectivo(DECAS, p) > corte) break;
    const sufijo = p.nombre.slice('decas'.length);
    const { rows } = await sql<{ n: number; ultimo: Date | null }>`
      select count(*)::int as n, max(greatest(created_at, emitido_at, modificado_at)) as ultimo from ${sql.table(p.nombre)}`.execute(deps.db);
    const ultimo = rows[0]?.ultimo ?? null;
    if (ultimo && ultimo > desdeRetencion) {
      deps.log?.info({ particion: p.nombre, ultimo }, 'month kept: a DeCA of it is still within its retention');
      break;
    }
    const pdfs = await borrarPdfsDe(deps, `deca_versiones${sufijo}`, p.hasta);
    const fotos = (await borrarFotosDe(deps, p)) + (await borrarFotosDeEntregasDe(deps, p));
    await soltar(deps.db, DECAS, p, async (trx) => {
      // The photos' rows are not partitioned (most are read before any DeCA exists): those of the month's DeCAs go by their index.
      await sql`delete from fotos where ${deDecasDe(p)}`.execute(trx);
      // Their deliveries (migration 0024) go with them, by the same index.
      await sql`delete from entregas where ${deDecasDe(p)}`.execute(trx);
      // So do the links for signing on the consignee's phone (migration 0025).
      await sql`delete from firmas_remotas where ${deDecasDe(p)}`.execute(trx);
      // No trigger fires for the rows of a dropped table: every process drops the DeCAs it cached.
      await notificar(trx, 'decas', TODAS);
    });
    deps.log?.info({ particion: p.nombre, decas: rows[0]?.n ?? 0, pdfs, fotos }, 'month let go');
    soltados.push({ particion: p.nombre, decas: rows[0]?.n ?? 0, pdfs, fotos });
    hastaSoltado = p.hasta;
  }
  // The mail of those months goes with them: the partitions of mail whose ids all fall among theirs (mail of
  // a later month, even about one of those DeCAs, stays).
  const correos = hastaSoltado === null ? [] : await soltarHasta(deps.db, CORREOS, hastaSoltado, deps.log, (p) => p.hasta);
  // A clock ahead of the database's (tests) may have let go this month's: made again.
  if (soltados.length || correos.length) await asegurarParticiones(deps.db, deps.log);
  // The log of eFTI authority queries (and, by their cascade, each account's accesses) is kept as long as the DeCAs it names.
  const consultas = await deps.db.deleteFrom('efti_consultas').where('created_at', '<', desdeRetencion).executeTakeFirst();
  if (consultas.numDeletedRows > 0n) deps.log?.info({ consultas: Number(consultas.numDeletedRows) }, 'eFTI queries past retention let go');
  return { meses: soltados, correos };
}

/** `deca_id` within a partition's ids (the rows from before partitions: every id below its end). */
const deDecasDe = (p: Particion): RawBuilder<unknown> =>
  p.desde === null ? sql`deca_id < ${p.hasta.toString()}::bigint` : sql`deca_id >= ${p.desde.toString()}::bigint and deca_id < ${p.hasta.toString()}::bigint`;

/** Delete the blobs of the photos a partition's DeCAs were made from (each photo its own blob), page by page. */
async function borrarFotosDe(deps: { db: Kysely<DB>; blobs: BlobStore }, p: Particion): Promise<number> {
  let despues = -1;
  let total = 0;
  for (;;) {
    const { rows } = await sql<{ id: number; clave: string; sha256: string }>`
      select id, clave, sha256 from fotos where ${deDecasDe(p)} and id > ${despues} order by id limit ${LOTE_PDFS}`.execute(deps.db);
    await porTurnos(rows, BORRADOS_A_LA_VEZ, (f) => deps.blobs.borrar(f.sha256, f.clave));
    total += rows.length;
    if (rows.length < LOTE_PDFS) return total;
    despues = Number(rows.at(-1)!.id);
  }
}

/** Delete the blobs of the photos and receipts of a partition's DeCAs' deliveries (each its own blob), page by page; answers how many photos. */
async function borrarFotosDeEntregasDe(deps: { db: Kysely<DB>; blobs: BlobStore }, p: Particion): Promise<number> {
  let despues = -1;
  let total = 0;
  for (;;) {
    const { rows } = await sql<{ id: number; fotos: { clave: string; sha256: string }[]; pdf_sha256: string; pdf_clave: string; firma_png: { clave: string; sha256: string } | null }>`
      select id, fotos, pdf_sha256, pdf_clave, firma_png from entregas where ${deDecasDe(p)} and id > ${despues} order by id limit ${LOTE_PDFS}`.execute(deps.db);
    const fotos = rows.flatMap((r) => r.fotos);
    // Each receipt and each signature's PNG is its own blob too (a photo's kind of key), deleted with them.
    const otros = rows.flatMap((r) => [{ sha256: r.pdf_sha256, clave: r.pdf_clave }, ...(r.firma_png ? [r.firma_png] : [])]);
    await porTurnos([...fotos, ...otros], BORRADOS_A_LA_VEZ, (f) => deps.blobs.borrar(f.sha256, f.clave));
    total += fotos.length;
    if (rows.length < LOTE_PDFS) return total;
    despues = Number(rows.at(-1)!.id);
  }
}

interface VersionConPdf {
  deca_id: number;
  version: number;
  sha: string;
  compartido: boolean;
}

/** Delete the blobs of a partition's versions, page by page, but those a later version also names. */
async function borrarPdfsDe(deps: { db: Kysely<DB>; blobs: BlobStore }, particion: string, hasta: bigint): Promise<number> {
  let despues: { deca_id: number; version: number } | null = null;
  let total = 0;
  for (;;) {
    const desde: RawBuilder<unknown> = despues ? sql`and (v.deca_id, v.version) > (${despues.deca_id}::bigint, ${despues.version}::int)` : sql``;
    const { rows } = await sql<VersionConPdf>`
      select v.deca_id, v.version, v.pdf_sha256 as sha,
        exists (select 1 from deca_versiones o where o.pdf_sha256 = v.pdf_sha256 and o.deca_id >= ${hasta.toString()}::bigint) as compartido
      from ${sql.table(particion)} v
      where v.pdf_clave is not null ${desde}
      order by v.deca_id, v.version limit ${LOTE_PDFS}`.execute(deps.db);
    const propios = rows.filter((r) => !r.compartido);
    await porTurnos(propios, BORRADOS_A_LA_VEZ, (r) => deps.blobs.borrar(r.sha));
    total += propios.length;
    if (rows.length < LOTE_PDFS) return total;
    const u: VersionConPdf = rows.at(-1)!;
    despues = { deca_id: u.deca_id, version: u.version };
  }
}
