import type { Kysely } from 'kysely';
import { AppError } from '../../../shared/errors';
import { instanteMadrid, isFechaValida } from '../../../shared/rules/fechas';
import { normalizarMatricula } from '../../../shared/rules/matricula';
import type { DecaListQuery } from '../../../shared/schemas/deca';
import type { CambioRow, DB } from '../../db/schema';
import type { Actor } from '../actor';
import { delAmbito } from '../ambito';
import { type Alcance, type DecaConRefs, obtenerDeca, selectDecas } from './queries';

/** The opaque `siguiente` cursor: the last id seen (keyset pagination on id, newest first). */
export function encodeCursor(id: number): string {
  return Buffer.from(JSON.stringify({ v: 1, id })).toString('base64url');
}

export function decodeCursor(s: string): number {
  try {
    const c = JSON.parse(Buffer.from(s, 'base64url').toString('utf8')) as { v?: unknown; id?: unknown };
    if (c.v === 1 && typeof c.id === 'number' && Number.isInteger(c.id) && c.id > 0) return c.id;
  } catch {
    /* fall through */
  }
  throw new AppError('validacion', 'El cursor «despues_de» no es válido: use el valor «siguiente» de la página anterior.', {
    campos: { despues_de: 'Cursor no válido' },
  });
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
 * GET /decas: newest first, keyset-paginated on id, so a cursor walk neither
 * skips nor repeats a DeCA while new ones are being created.
 */
export async function listarDecas(db: Kysely<DB>, actor: Alcance, q: DecaListQuery): Promise<{ rows: DecaConRefs[]; siguiente: string | null }> {
  let query = selectDecas(db, actor);
  if (q.estado) query = query.where('d.estado', '=', q.estado);
  if (q.desde) query = query.where('d.fecha_transporte', '>=', q.desde);
  if (q.hasta) query = query.where('d.fecha_transporte', '<=', q.hasta);
  if (q.ref_externa) query = query.where('d.ref_externa', '=', q.ref_externa);
  if (q.matricula) {
    const m = normalizarMatricula(q.matricula);
    query = query.where((eb) => eb.or([eb('d.matricula', '=', m), eb('d.matricula_remolque', '=', m)]));
  }
  if (q.modificado_desde) query = query.where('d.modificado_at', '>=', parseInstanteMadrid(q.modificado_desde));
  if (q.archivado !== undefined) query = query.where('d.archivado', '=', q.archivado);
  if (q.despues_de) query = query.where('d.id', '<', decodeCursor(q.despues_de));
  const rows = (await query
    .orderBy('d.id', 'desc')
    .limit(q.limite + 1)
    .execute()) as DecaConRefs[];
  const more = rows.length > q.limite;
  const page = more ? rows.slice(0, q.limite) : rows;
  const last = page[page.length - 1];
  return { rows: page, siguiente: more && last ? encodeCursor(last.id) : null };
}

/** GET /decas/{id}/cambios: the history, oldest first. */
export async function listarCambios(db: Kysely<DB>, actor: Alcance, ref: string): Promise<CambioRow[]> {
  const deca = await obtenerDeca(db, actor, ref);
  return db.selectFrom('deca_cambios').selectAll().where(delAmbito(actor)).where('deca_id', '=', deca.id).orderBy('id', 'asc').execute();
}

/** The stored PDF bytes of the current version (or a given one). */
export async function leerPdf(db: Kysely<DB>, actor: Pick<Actor, 'accountId' | 'entorno'>, deca: DecaConRefs, version = deca.version): Promise<{ pdf: Uint8Array; sha256: string; version: number }> {
  if (deca.estado === 'pendiente') {
    throw new AppError('pendiente', `La DeCA ${deca.numero} está pendiente: tendrá PDF cuando se emita.`);
  }
  const v = await db.selectFrom('deca_versiones').select(['pdf', 'pdf_sha256', 'version']).where(delAmbito(actor)).where('deca_id', '=', deca.id).where('version', '=', version).executeTakeFirst();
  if (!v) throw new AppError('no_encontrado', `La DeCA ${deca.numero} no tiene versión ${version}.`);
  return { pdf: v.pdf, sha256: v.pdf_sha256, version: v.version };
}
