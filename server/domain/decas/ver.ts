import type { Kysely } from 'kysely';
import { veTodasLasDecas } from '../../../shared/rules/roles';
import type { Deca } from '../../../shared/schemas/deca';
import type { DB } from '../../db/schema';
import type { Caches } from '../cache';
import { presentDeca } from '../presenters/deca';
import { type Alcance, obtenerDeca, parseDecaRef } from './queries';

/** Mappings number → id kept at most (each is a few dozen bytes; the map is emptied when full). */
const MAX_NUMEROS = 50_000;

/**
 * GET /decas/{id}: the DeCA as shown, from this process's cache when it holds
 * it (kept true by the database's notifications, see cache.ts), else read and
 * presented once and cached. By number, the number → id mapping is learnt on
 * the first read (a number never moves to another DeCA) and the DeCA itself
 * is cached from the next one, when its id is known before reading.
 */
export async function verDeca(ctx: { db: Kysely<DB>; siteUrl: string; caches: Caches }, actor: Alcance, ref: string): Promise<Deca> {
  // The cache is the account's: a driver's read goes to the database, which answers only theirs.
  if (!veTodasLasDecas(actor.rol)) return presentDeca(await obtenerDeca(ctx.db, actor, ref), ctx.siteUrl);
  const scope = `${actor.accountId}:${actor.entorno}:`;
  const parsed = parseDecaRef(ref);
  const id = parsed && 'id' in parsed ? parsed.id : parsed ? ctx.caches.numeros.get(scope + parsed.numero) : undefined;
  if (id !== undefined) {
    const hit = ctx.caches.decas.get(scope + id);
    if (hit) return hit.deca;
  }
  const sello = id !== undefined ? ctx.caches.decas.sello(id) : null;
  const row = await obtenerDeca(ctx.db, actor, ref);
  const deca = presentDeca(row, ctx.siteUrl);
  if (sello) ctx.caches.decas.set(scope + row.id, { accountId: actor.accountId, entorno: actor.entorno, id: row.id, deca }, sello);
  if (parsed && 'numero' in parsed) {
    if (ctx.caches.numeros.size >= MAX_NUMEROS) ctx.caches.numeros.clear();
    ctx.caches.numeros.set(scope + row.numero, row.id);
  }
  return deca;
}
