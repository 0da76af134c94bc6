import { type Kysely, sql } from 'kysely';
import { AppError } from '../../../shared/errors';
import { instanteMadrid, isFechaValida } from '../../../shared/rules/fechas';
import { normalizarMatricula } from '../../../shared/rules/matricula';
import type { CampoCambiado, DecaListQuery } from '../../../shared/schemas/deca';
import { errorDeBlob } from '../../blobs/almacen';
import type { CambioRow, DB } from '../../db/schema';
import type { Actor } from '../actor';
import { delAmbito } from '../ambito';
import type { DomainContext } from '../context';
import { camposDeCreacion, datosAntesDe, datosDeRow } from './datos';
import { type Alcance, type DecaConRefs, obtenerDeca, selectDecas } from './queries';

/**
 * The order of a list: newest first by id; by transport date (then id) when
 * `desde`/`hasta` filter on it; by last change (then id) when
 * `modificado_desde` does. Each is one walk of an index that ends in `id`
 * (migration 0014), so a page reads its own rows, never the whole filter.
 */
type Orden = 'id' | 'fecha' | 'modificado';

export function ordenDe(q: Pick<DecaListQuery, 'desde' | 'hasta' | 'modificado_desde'>): Orden {
  return q.desde || q.hasta ? 'fecha' : q.modificado_desde ? 'modificado' : 'id';
}

/** Where the next page starts: after this DeCA, in the list's order. */
interface Cursor {
  orden: Orden;
  id: number;
  /** The DeCA's transport date (`fecha`) or last change as an ISO instant (`modificado`). */
  clave?: string;
}

/** The opaque `siguiente` cursor: the last DeCA seen, in the list's order (v1, the id order, is what clients already hold). */
export function encodeCursor(c: Cursor): string {
  const cuerpo = c.orden === 'id' ? { v: 1, id: c.id } : { v: 2, o: c.orden, k: c.clave, id: c.id };
  return Buffer.from(JSON.stringify(cuerpo)).toString('base64url');
}

function cursorNoValido(mensaje = 'El cursor «despues_de» no es válido: use el valor «siguiente» de la página anterior.'): AppError {
  return new AppError('validacion', mensaje, { campos: { despues_de: 'Cursor no válido' } });
}

export function decodeCursor(s: string, orden: Orden): Cursor {
  let c: { v?: unknown; o?: unknown; k?: unknown; id?: unknown };
  try {
    c = JSON.parse(Buffer.from(s, 'base64url').toString('utf8')) as typeof c;
  } catch {
    throw cursorNoValido();
  }
  if (!c || typeof c.id !== 'number' || !Number.isInteger(c.id) || c.id <= 0) throw cursorNoValido();
  const suyo: Orden | null = c.v === 1 ? 'id' : c.v === 2 && (c.o === 'fecha' || c.o === 'modificado') ? c.o : null;
  if (suyo === null) throw cursorNoValido();
  if (suyo !== orden) throw cursorNoValido('El cursor «despues_de» es de una lista con otros filtros de fecha: pida la primera página de nuevo con estos filtros.');
  if (orden === 'id') return { orden, id: c.id };
  const valida = typeof c.k === 'string' && (orden === 'fecha' ? isFechaValida(c.k) : !Number.isNaN(Date.parse(c.k)));
  if (!valida) throw cursorNoValido();
  return { orden, id: c.id, clave: c.k as string };
}

/** `YYYY-MM-DD`, `YYYY-MM-DD HH:MM:SS` (Madrid time) or ISO 8601 with zone → instant. */
export function parseInstanteMadrid(s: string): Date {
  const wall = /^(\d{4}-\d{2}-\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?)?$/.exec(s.trim());
  if (wall?.[1] && isFechaValida(wall[1])) {
    const [, dia, h = '0', m = '0', sec = '0'] = wall;
    return instanteMadrid(dia, Number(h), Number(m), Number(sec));
  }
  const t = Date.parse(s);
  if (Number.isNaN(t)) throw new AppError('validacion', 'Fecha no válida.', { campos: { modificado_desde: 'Use AAAA-MM-DD o AAAA-MM-DD HH:MM:SS' } });
  return new Date(t);
}

/**
 * GET /decas: newest first (by id, or by the date the list is filtered on:
 * ordenDe), keyset-paginated, so a cursor walk neither skips nor repeats a
 * DeCA while new ones are being created, and each page is one index walk.
 */
export async function listarDecas(db: Kysely<DB>, actor: Alcance, q: DecaListQuery): Promise<{ rows: DecaConRefs[]; siguiente: string | null }> {
  const orden = ordenDe(q);
  const rows = (await consultaDeLista(db, actor, q).execute()) as DecaConRefs[];
  const more = rows.length > q.limite;
  const page = more ? rows.slice(0, q.limite) : rows;
  const last = page[page.length - 1];
  if (!more || !last) return { rows: page, siguiente: null };
  const clave = orden === 'fecha' ? (last.fecha_transporte ?? undefined) : orden === 'modificado' ? last.modificado_at.toISOString() : undefined;
  return { rows: page, siguiente: encodeCursor({ orden, id: last.id, clave }) };
}

/**
 * `q` of GET /decas, the list's free-text search (the app's search box, the
 * export's too): a part of the number, references, parties, driver, plates,
 * or of a shipment's places or goods, in any case — what the app's list
 * searches on the device (client/data/consultas.ts `texto`). `%`, `_` and
 * `\` are taken as themselves.
 */
function contieneTexto(texto: string) {
  const patron = `%${texto
    .trim()
    .toLowerCase()
    .replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return sql<boolean>`(lower(concat_ws(' ', d.numero, d.ref_externa, d.referencia, d.cargador_nombre, d.transp_nombre, d.conductor_nombre, d.matricula, d.matricula_remolque)) like ${patron}
    or exists (select 1 from jsonb_array_elements(d.envios) as e(v) where lower(concat_ws(' ', e.v->>'origen', e.v->>'destino', e.v->>'naturaleza')) like ${patron}))`;
}

/**
 * The query of one page of GET /decas (one row more than `limite`, to know
 * whether there is a next page). A plate's list in id order is the merge of
 * two walks, each limited to the page: the tractor's index and the trailer's
 * (a DeCA whose tractor is the plate comes from the first only). An `or` on
 * both columns would read every DeCA of the plate and sort them to keep 51.
 */
export function consultaDeLista(db: Kysely<DB>, actor: Alcance, q: DecaListQuery) {
  const orden = ordenDe(q);
  const cursor = q.despues_de ? decodeCursor(q.despues_de, orden) : null;
  const pagina = (query: ReturnType<typeof selectDecas>) => {
    if (q.estado) query = query.where('d.estado', '=', q.estado);
    if (q.desde) query = query.where('d.fecha_transporte', '>=', q.desde);
    if (q.hasta) query = query.where('d.fecha_transporte', '<=', q.hasta);
    if (q.ref_externa) query = query.where('d.ref_externa', '=', q.ref_externa);
    if (q.modificado_desde) query = query.where('d.modificado_at', '>=', parseInstanteMadrid(q.modificado_desde));
    if (q.archivado !== undefined) query = query.where('d.archivado', '=', q.archivado);
    if (q.q?.trim()) query = query.where(contieneTexto(q.q));
    const parte = q.matricula_contiene ? normalizarMatricula(q.matricula_contiene) : '';
    // Plates are stored normalised (no spaces, no dashes, upper case), so a part typed as people write it is normalised
    // the same way. strpos, not LIKE: a typed `%` or `_` is a character, never a wildcard. No index serves a part of a
    // plate: the page's walk reads the account's DeCAs until it has a page of matches.
    if (parte) query = query.where(sql<boolean>`(strpos(d.matricula, ${parte}) > 0 or strpos(d.matricula_remolque, ${parte}) > 0)`);
    if (cursor?.orden === 'fecha') query = query.where(sql<boolean>`(d.fecha_transporte, d.id) < (${cursor.clave}::text, ${cursor.id}::bigint)`);
    else if (cursor?.orden === 'modificado') query = query.where(sql<boolean>`(d.modificado_at, d.id) < (${new Date(cursor.clave!)}::timestamptz, ${cursor.id}::bigint)`);
    else if (cursor) query = query.where('d.id', '<', cursor.id);
    if (orden === 'fecha') query = query.orderBy('d.fecha_transporte', 'desc');
    if (orden === 'modificado') query = query.orderBy('d.modificado_at', 'desc');
    return query.orderBy('d.id', 'desc').limit(q.limite + 1);
  };
  const base = selectDecas(db, actor);
  if (!q.matricula) return pagina(base);
  const m = normalizarMatricula(q.matricula);
  if (orden !== 'id') {
    // Ordered by a date: the plate's rows (a vehicle's, a few thousand a year) are read and sorted.
    return pagina(base.where((eb) => eb.or([eb('d.matricula', '=', m), eb('d.matricula_remolque', '=', m)])));
  }
  const tractor = pagina(base.where('d.matricula', '=', m));
  const remolque = pagina(base.where('d.matricula_remolque', '=', m).where('d.matricula', 'is distinct from', m));
  return db
    .selectFrom(tractor.as('t'))
    .selectAll()
    .unionAll(db.selectFrom(remolque.as('r')).selectAll())
    .orderBy('id', 'desc')
    .limit(q.limite + 1);
}

/** A history entry as it is answered: with its fields, stored or rebuilt. */
export type CambioLeido = Omit<CambioRow, 'campos'> & { campos: CampoCambiado[] };

/**
 * GET /decas/{id}/cambios: the history, oldest first. The create of a DeCA
 * issued at once stores no fields (`campos` null): they are rebuilt here, as
 * they were stored before migration 0018 — its version 1's data
 * (`camposDeCreacion`): the DeCA's data now with its later modifications
 * undone, since an issued DeCA's data only changes by a modification, which
 * records each field it changes. (A replacement keeps its own: the DeCA it
 * replaces may be let go before it.)
 */
export async function listarCambios(db: Kysely<DB>, actor: Alcance, ref: string): Promise<CambioLeido[]> {
  const deca = await obtenerDeca(db, actor, ref);
  const filas = await db.selectFrom('deca_cambios').selectAll().where(delAmbito(actor)).where('deca_id', '=', deca.id).orderBy('id', 'asc').execute();
  return filas.map((f, i) => {
    if (f.campos !== null || f.tipo !== 'creacion') return { ...f, campos: f.campos ?? [] };
    const posteriores = filas.slice(i + 1).flatMap((m) => (m.tipo === 'modificacion' && m.campos ? [m.campos] : []));
    return { ...f, campos: camposDeCreacion(datosAntesDe(datosDeRow(deca), posteriores)) };
  });
}

/**
 * The stored PDF bytes of the current version (or a given one): from the
 * blob store, checked against the version's SHA-256 (a damaged or missing
 * blob is refused, never served), or from the row itself for a version
 * written before the store and not yet moved out (`blobs:migrate`).
 */
export async function leerPdf(
  ctx: Pick<DomainContext, 'db' | 'blobs'>,
  actor: Pick<Actor, 'accountId' | 'entorno'>,
  deca: DecaConRefs,
  version = deca.version,
): Promise<{ pdf: Uint8Array; sha256: string; version: number }> {
  if (deca.estado === 'pendiente') {
    throw new AppError('pendiente', `La DeCA ${deca.numero} está pendiente: tendrá PDF cuando se emita.`);
  }
  const v = await ctx.db.selectFrom('deca_versiones').select(['pdf', 'pdf_sha256', 'version']).where(delAmbito(actor)).where('deca_id', '=', deca.id).where('version', '=', version).executeTakeFirst();
  if (!v) throw new AppError('no_encontrado', `La DeCA ${deca.numero} no tiene versión ${version}.`);
  const pdf =
    v.pdf ??
    (await ctx.blobs.leer(v.pdf_sha256).catch((err: unknown) => {
      throw errorDeBlob(err, `El PDF de la DeCA ${deca.numero} (versión ${v.version})`);
    }));
  return { pdf, sha256: v.pdf_sha256, version: v.version };
}
