import type { Kysely } from 'kysely';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { formatMadrid } from '../../../shared/rules/fechas';
import type { Descarga } from '../../../shared/schemas/deca';
import type { UltimoCambio } from '../../../shared/schemas/publico';
import type { Clock } from '../../clock';
import type { DB, DescargasTable } from '../../db/schema';
import { gastar } from '../../limits';
import { formaDeToken } from '../accounts/tokens';
import { delAmbito } from '../ambito';
import type { Plan, Trx } from '../context';
import { publicar } from '../decas/escritura';
import { type Alcance, type DecaConRefs, obtenerDeca, selectDecasSinCuenta } from '../decas/queries';

/** A DeCA by its public token (any account): what the public URLs carry instead of the id. */
export async function obtenerPorToken(db: Kysely<DB>, token: string): Promise<DecaConRefs | null> {
  if (!formaDeToken(token)) return null;
  return ((await selectDecasSinCuenta(db).where('d.token_publico', '=', token).executeTakeFirst()) as DecaConRefs | undefined) ?? null;
}

/** The last method-1 change (time, reason, old → new values) for the public pages. */
export async function ultimoCambio(db: Kysely<DB>, row: DecaConRefs): Promise<UltimoCambio | null> {
  if (row.version <= 1) return null;
  const c = await db
    .selectFrom('deca_cambios')
    .select(['motivo', 'created_at', 'campos'])
    .where(delAmbito({ accountId: row.account_id, entorno: row.entorno }))
    .where('deca_id', '=', row.id)
    .where('tipo', '=', 'modificacion')
    .where('version', '=', row.version)
    .orderBy('id', 'desc')
    .executeTakeFirst();
  return c ? { at: c.created_at, motivo: c.motivo, campos: c.campos ?? [] } : null;
}

export interface Apertura {
  recurso: DescargasTable['recurso'];
  ip: string;
  navegador: string;
  /** Null for a person; the reason for a robot. */
  robot: string | null;
}

/**
 * Opens of the same resource of the same DeCA from the same IP and browser
 * within this window count once: a page reloaded, a PDF opened twice, or a
 * flood of requests from one client is one inspection, one log line, one
 * `deca.descargado`.
 */
export const VENTANA_REPETICION_MS = 10 * 60_000;

const MAX_VISTAS = 20_000;

/** Whether this process saw the same open within the window (and remember this one if not). */
function yaVista(vistas: Map<string, number>, clave: string, ahora: number): boolean {
  const t = vistas.get(clave);
  if (t !== undefined && ahora - t < VENTANA_REPETICION_MS) return true;
  if (vistas.size >= MAX_VISTAS) {
    for (const [k, v] of vistas) if (ahora - v >= VENTANA_REPETICION_MS) vistas.delete(k);
    if (vistas.size >= MAX_VISTAS) vistas.clear();
  }
  vistas.set(clave, ahora);
  return false;
}

/** What writing an open did: counted, written as a robot's, or not written (already in the database). */
export type ResultadoApertura = 'contada' | 'robot' | 'repetida';

export interface AperturaDeps {
  clock: Clock;
  siteUrl: string;
  /** Counted opens per IP; past it the open is served but not written. */
  aperturasIp: RateLimiterAbstract;
  /** Recent opens seen by this process (key → time), so a flood does not even reach the database. */
  vistas: Map<string, number>;
  /** Drop this process's cached copy of a DeCA whose count an open raised. */
  soltar(decaId: number): void;
}

/** How long a public page waits for its open to be logged; past it, the page goes out and the write finishes on its own. */
export const ESPERA_APERTURA_MS = 2_000;

/**
 * One open of a public URL, to log. A repeat within VENTANA_REPETICION_MS
 * (same DeCA, resource, IP and browser, both a person's or both a robot's)
 * seen by this process, or an open past the IP's budget, writes nothing.
 * Otherwise the plan's writes: a person's open of the page or the PDF also
 * raises `descargas` and emits `deca.descargado`; a robot's is only logged;
 * a repeat written by another process is found under the DeCA's row lock.
 * The caller serves the page whatever happens to the open (`Aparte`).
 */
export async function prepararApertura(deps: AperturaDeps, row: DecaConRefs, a: Apertura): Promise<Plan<ResultadoApertura | null>> {
  const now = deps.clock.now();
  const ip = a.ip.slice(0, 100);
  const navegador = a.navegador.slice(0, 500);
  const robot = a.robot !== null;
  // A link preview or a prefetch never hides the person's own open that follows it.
  const clave = `${row.id}|${a.recurso}|${robot}|${ip}|${navegador}`;
  if (yaVista(deps.vistas, clave, now.getTime())) return { valor: null };
  if ((await gastar(deps.aperturasIp, ip)) !== null) return { valor: null };
  const scope = { accountId: row.account_id, entorno: row.entorno };
  const escribir = async (trx: Trx): Promise<ResultadoApertura> => {
    const locked = await trx.selectFrom('decas').select('id').where('id', '=', row.id).forUpdate().executeTakeFirst();
    if (!locked) return 'repetida';
    const previa = await trx
      .selectFrom('descargas')
      .select('id')
      .where('deca_id', '=', row.id)
      .where('ip', '=', ip)
      .where('created_at', '>', new Date(now.getTime() - VENTANA_REPETICION_MS))
      .where('recurso', '=', a.recurso)
      .where('navegador', '=', navegador)
      .where('robot', '=', robot)
      .limit(1)
      .executeTakeFirst();
    if (previa) return 'repetida';
    await trx
      .insertInto('descargas')
      .values({ account_id: row.account_id, entorno: row.entorno, deca_id: row.id, recurso: a.recurso, version: row.version, ip, navegador, robot, motivo_robot: a.robot, created_at: now })
      .execute();
    if (robot) return 'robot';
    await trx
      .updateTable('decas')
      .set((eb) => ({ descargas: eb('descargas', '+', 1) }))
      .where('id', '=', row.id)
      .execute();
    await publicar(trx, scope, row.id, ['deca.descargado'], now, deps.siteUrl);
    return 'contada';
  };
  return {
    aplicar: async (trx) => {
      try {
        const r = await escribir(trx);
        return { valor: r, ...(r === 'contada' ? { despues: () => deps.soltar(row.id) } : {}) };
      } catch (err) {
        // Not written: the same open may be counted when it comes again.
        deps.vistas.delete(clave);
        throw err;
      }
    },
  };
}

/** GET /decas/{id}/descargas: every public open, newest first. */
export async function listarDescargas(db: Kysely<DB>, actor: Alcance, ref: string): Promise<Descarga[]> {
  const deca = await obtenerDeca(db, actor, ref);
  const rows = await db.selectFrom('descargas').selectAll().where(delAmbito(actor)).where('deca_id', '=', deca.id).orderBy('id', 'desc').limit(1000).execute();
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
