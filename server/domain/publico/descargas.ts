import type { Kysely } from 'kysely';
import { formatMadrid } from '../../../shared/rules/fechas';
import type { Descarga } from '../../../shared/schemas/deca';
import type { DB, DescargasTable } from '../../db/schema';
import type { Actor } from '../actor';
import type { Clock } from '../../clock';
import { publicar } from '../decas/escritura';
import { obtenerDeca, selectDecasSinCuenta, type DecaConRefs } from '../decas/queries';

/** A DeCA by its public token (any account): what the public URLs carry instead of the id. */
export async function obtenerPorToken(db: Kysely<DB>, token: string): Promise<DecaConRefs | null> {
  if (!/^[\w-]{20,64}$/.test(token)) return null;
  return ((await selectDecasSinCuenta(db).where('d.token_publico', '=', token).executeTakeFirst()) as DecaConRefs | undefined) ?? null;
}

/** The last method-1 change (time and reason) for the "last change" line of the public pages. */
export async function ultimoCambio(db: Kysely<DB>, row: DecaConRefs): Promise<{ at: Date; motivo: string | null } | null> {
  if (row.version <= 1 || !row.modificado_at) return null;
  const c = await db
    .selectFrom('deca_cambios')
    .select(['motivo', 'created_at'])
    .where('account_id', '=', row.account_id)
    .where('entorno', '=', row.entorno)
    .where('deca_id', '=', row.id)
    .where('tipo', '=', 'modificacion')
    .where('version', '=', row.version)
    .orderBy('id', 'desc')
    .executeTakeFirst();
  return { at: row.modificado_at, motivo: c?.motivo ?? null };
}

export interface Apertura {
  recurso: DescargasTable['recurso'];
  ip: string;
  navegador: string;
  /** Null for a person; the reason for a robot. */
  robot: string | null;
}

/**
 * Log one open of a public URL. A person's open of the page or the PDF also
 * raises `descargas` and emits `deca.descargado`, in the same transaction;
 * a robot's is only logged.
 */
export async function registrarApertura(db: Kysely<DB>, clock: Clock, siteUrl: string, row: DecaConRefs, a: Apertura): Promise<void> {
  const now = clock.now();
  const scope = { accountId: row.account_id, entorno: row.entorno };
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('descargas')
      .values({
        account_id: row.account_id,
        entorno: row.entorno,
        deca_id: row.id,
        recurso: a.recurso,
        version: row.version,
        ip: a.ip.slice(0, 100),
        navegador: a.navegador.slice(0, 500),
        robot: a.robot !== null,
        motivo_robot: a.robot,
        created_at: now,
      })
      .execute();
    if (a.robot !== null) return;
    await trx
      .updateTable('decas')
      .set((eb) => ({ descargas: eb('descargas', '+', 1) }))
      .where('id', '=', row.id)
      .execute();
    const actor: Actor = { ...scope, canal: 'web', keyId: null, userId: null, soloLectura: true, etiqueta: 'público' };
    await publicar(trx, actor, row.id, ['deca.descargado'], now, siteUrl);
  });
}


/** GET /decas/{id}/descargas: every public open, newest first. */
export async function listarDescargas(db: Kysely<DB>, actor: Pick<Actor, 'accountId' | 'entorno'>, ref: string): Promise<Descarga[]> {
  const deca = await obtenerDeca(db, actor, ref);
  const rows = await db
    .selectFrom('descargas')
    .selectAll()
    .where('account_id', '=', actor.accountId)
    .where('entorno', '=', actor.entorno)
    .where('deca_id', '=', deca.id)
    .orderBy('id', 'desc')
    .limit(1000)
    .execute();
  return rows.map((r) => ({
    fecha: formatMadrid(r.created_at),
    recurso: r.recurso,
    version: r.version,
    ip: r.ip,
    navegador: r.navegador,
    robot: r.robot,
    motivo_robot: r.motivo_robot,
  }));
}
