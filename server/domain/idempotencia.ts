import { createHash, randomUUID } from 'node:crypto';
import { type Kysely, sql, type Transaction } from 'kysely';
import { AppError } from '../../shared/errors';
import type { Clock } from '../clock';
import type { DB } from '../db/schema';
import type { Actor } from './actor';
import { delAmbito } from './ambito';
import type { RegistroIdempotencia } from './context';
import { type Parte, unaSentencia } from './sentencia';

/** Keys are kept 8 days: an offline phone may replay a week later (README states the window). */
export const IDEMPOTENCIA_DIAS = 8;
/** How long a repeat waits for the first request to finish before answering 409 `en_curso`. */
const ESPERA_MS = 5_000;
/** A claim this old with no result belongs to a request that died: it may be taken over. */
const ABANDONO_MS = 60_000;

/** The same key with another request: the spec's 422 `validacion`, naming the header. */
export function idempotenciaDistinta(): AppError {
  return new AppError('validacion', 'Esta Idempotency-Key ya se usó con otra petición distinta. Use una clave nueva para cada cambio.', {
    campos: { 'Idempotency-Key': 'Ya usada con otra petición distinta' },
  });
}

/** sha256 of a value's canonical JSON (object keys sorted), to compare request bodies. */
export function huella(...partes: unknown[]): string {
  const canon = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(canon)
      : v && typeof v === 'object'
        ? Object.fromEntries(
            Object.keys(v as object)
              .sort()
              .map((k) => [k, canon((v as Record<string, unknown>)[k])]),
          )
        : v;
  return createHash('sha256')
    .update(JSON.stringify(partes.map(canon)))
    .digest('hex');
}

/** A client's key for a request and the fingerprint of the request it came with. */
export interface ClaveCliente {
  clave: string;
  huella: string;
}

export interface Reclamo {
  clave: string;
  huella: string;
  /**
   * `ref_externa` claims wait for the first request even when the bodies
   * differ (the spec returns the existing DeCA); header keys answer at once.
   */
  esperarSiDistinta?: boolean;
  /**
   * A create's: the DeCA an earlier create left with this client key
   * (`decas.clave_cliente`, kept for good) or this `ref_externa` answers it,
   * looked for in the claim's own statement, even long after the key's
   * record expired.
   */
  creacion?: { cliente: string | null; ref: string | null };
}

/** What an earlier request with the same key produced. */
export interface Repeticion {
  decaId: number | null;
  status: number;
  respuesta: unknown;
  /** The earlier request had a different body. */
  distinta: boolean;
  /** Found by its `ref_externa` (not by the same key): the body may differ, and the answer says so. */
  porRef: boolean;
}

/** The claim key of a create's `ref_externa` (freed when the DeCA gives it up: liberarRefExterna). */
export const claveRef = (ref: string) => `ref:${ref}`;
/** The claim key of a client's key (the Idempotency-Key header, an import's row); `clave_cliente` keeps it bare. */
export const claveCliente = (clave: string) => `hdr:${clave}`;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Claim an idempotency key for this request, or get the result of the
 * earlier request that used it. A repeat that arrives while the first is
 * still running waits for it (up to 5 s, then 409 `en_curso` with
 * Retry-After): never a second DeCA, never a 5xx.
 */
export async function reclamar(db: Kysely<DB>, clock: Clock, actor: Pick<Actor, 'accountId' | 'entorno'>, r: Reclamo): Promise<Resultado> {
  const deadline = Date.now() + ESPERA_MS;
  const dueno = randomUUID();
  let pausa = 20;
  for (let primera = true; ; primera = false) {
    const now = clock.now();
    if (primera && r.creacion) {
      const c = await reclamarCreacion(db, actor, r, r.creacion, dueno, now);
      if (c) return c;
      continue;
    }
    const inserted = await db
      .insertInto('idempotencia')
      .values({
        account_id: actor.accountId,
        entorno: actor.entorno,
        clave: r.clave,
        huella: r.huella,
        estado: 'en_curso',
        created_at: now,
        expires_at: new Date(now.getTime() + IDEMPOTENCIA_DIAS * 86_400_000),
        dueno,
      })
      .onConflict((oc) => oc.columns(['account_id', 'entorno', 'clave']).doNothing())
      .returning('clave')
      .executeTakeFirst();
    if (inserted) return { reclamada: true, dueno };

    const row = await db.selectFrom('idempotencia').selectAll().where(delAmbito(actor)).where('clave', '=', r.clave).executeTakeFirst();
    if (!row) continue; // released meanwhile: try again
    if (row.expires_at.getTime() <= now.getTime()) {
      await borrar(db, actor, r.clave, row.created_at);
      continue;
    }
    const distinta = row.huella !== r.huella;
    if (row.estado === 'completada') {
      return { reclamada: false, repeticion: { decaId: row.deca_id, status: row.status ?? 200, respuesta: row.respuesta, distinta, porRef: r.clave.startsWith('ref:') } };
    }
    if (distinta && !r.esperarSiDistinta) return { reclamada: false, repeticion: { decaId: null, status: 0, respuesta: null, distinta, porRef: false } };
    // Abandoned by the database's clock (never by this process's, which may be ahead): take it over, atomically.
    const relevo = await db
      .updateTable('idempotencia')
      .set({ dueno, huella: r.huella, reclamada_at: sql<Date>`now()` })
      .where(delAmbito(actor))
      .where('clave', '=', r.clave)
      .where('estado', '=', 'en_curso')
      .where('reclamada_at', '<', sql<Date>`now() - make_interval(secs => ${ABANDONO_MS / 1000})`)
      .returning('clave')
      .executeTakeFirst();
    if (relevo) return { reclamada: true, dueno };
    if (Date.now() >= deadline) {
      throw new AppError('en_curso', 'Una petición igual aún se está procesando. Reintente en unos segundos con la misma clave.', {
        headers: { 'Retry-After': '2' },
      });
    }
    await sleep(pausa);
    pausa = Math.min(pausa * 2, 200);
  }
}

type Resultado = { reclamada: true; dueno: string } | { reclamada: false; repeticion: Repeticion };

/**
 * A create's first attempt, in one statement: the DeCA an earlier create
 * left (by client key, else by ref_externa) answers it; with none, the key
 * is claimed. Null when the key is already claimed or recorded (the caller
 * then reads that record, as for any key).
 */
async function reclamarCreacion(
  db: Kysely<DB>,
  actor: Pick<Actor, 'accountId' | 'entorno'>,
  r: Reclamo,
  c: { cliente: string | null; ref: string | null },
  dueno: string,
  now: Date,
): Promise<Resultado | null> {
  const expira = new Date(now.getTime() + IDEMPOTENCIA_DIAS * 86_400_000);
  const { rows } = await sql<{ reclamada: string | null; id: number | null; clave_cliente: string | null; huella_cliente: string | null }>`
    with previa as (
      select id, clave_cliente, huella_cliente from decas
      where account_id = ${actor.accountId} and entorno = ${actor.entorno}
        and (clave_cliente = ${c.cliente}::text or ref_externa = ${c.ref}::text)
      order by (clave_cliente is not distinct from ${c.cliente}::text) desc
      limit 1
    ), nueva as (
      insert into idempotencia (account_id, entorno, clave, huella, estado, created_at, expires_at, dueno)
      select ${actor.accountId}::bigint, ${actor.entorno}::text, ${r.clave}::text, ${r.huella}::text, 'en_curso', ${now}::timestamptz, ${expira}::timestamptz, ${dueno}::text
      where not exists (select 1 from previa)
      on conflict (account_id, entorno, clave) do nothing
      returning clave
    )
    select (select clave from nueva) as reclamada, previa.id, previa.clave_cliente, previa.huella_cliente
    from (select 1) as uno left join previa on true`.execute(db);
  const fila = rows[0];
  if (fila?.reclamada) return { reclamada: true, dueno };
  if (fila?.id == null) return null;
  const porClave = c.cliente !== null && fila.clave_cliente === c.cliente;
  return {
    reclamada: false,
    repeticion: { decaId: Number(fila.id), status: 200, respuesta: null, distinta: porClave && fila.huella_cliente !== r.huella, porRef: !porClave },
  };
}

async function borrar(db: Kysely<DB>, actor: Pick<Actor, 'accountId' | 'entorno'>, clave: string, createdAt: Date): Promise<void> {
  await db.deleteFrom('idempotencia').where(delAmbito(actor)).where('clave', '=', clave).where('created_at', '=', createdAt).execute();
}

export type { RegistroIdempotencia } from './context';

/**
 * Record the result under the key, as a part of the change's last statement
 * (in its transaction), only as the claim's owner: a claim another request
 * took over (this one was too slow) is not ours to complete, and the change
 * rolls back.
 */
export function registroDeClave(trx: Transaction<DB>, actor: Pick<Actor, 'accountId' | 'entorno'>, clave: string, dueno: string, r: RegistroIdempotencia): Parte {
  return {
    nombre: 'clave_registrada',
    sentencia: trx
      .updateTable('idempotencia')
      .set({ estado: 'completada', deca_id: r.decaId ?? null, status: 200, respuesta: r.respuesta === undefined ? null : JSON.stringify(r.respuesta) })
      .where(delAmbito(actor))
      .where('clave', '=', clave)
      .where('estado', '=', 'en_curso')
      .where('dueno', '=', dueno)
      .returning('clave'),
    valor: sql`(select count(*)::int from clave_registrada)`,
    comprobar: (n) => {
      if (Number(n) > 0) return;
      throw new AppError('en_curso', 'Otra petición con la misma clave tomó el relevo de esta. Reintente con la misma clave para ver su resultado.', {
        headers: { 'Retry-After': '1' },
      });
    },
  };
}

/** Give the key back when the request failed, so a retry can run it again (only the claim's owner does). */
export async function liberar(db: Kysely<DB>, actor: Pick<Actor, 'accountId' | 'entorno'>, clave: string, dueno: string): Promise<void> {
  await db.deleteFrom('idempotencia').where(delAmbito(actor)).where('clave', '=', clave).where('estado', '=', 'en_curso').where('dueno', '=', dueno).execute();
}

/**
 * Free a DeCA's ref_externa (deleted, or renamed by PATCH): drop the claim
 * that pointed at it, or a new DeCA created with that reference would be
 * answered with this one (or with a 404 once deleted) for days.
 */
export async function liberarRefExterna(trx: Transaction<DB>, actor: Pick<Actor, 'accountId' | 'entorno'>, refExterna: string, decaId: number): Promise<void> {
  await trx.deleteFrom('idempotencia').where(delAmbito(actor)).where('clave', '=', claveRef(refExterna)).where('deca_id', '=', decaId).execute();
}

/** Drop expired keys (run periodically). */
export async function purgarIdempotencia(db: Kysely<DB>, now: Date): Promise<number> {
  const r = await db.deleteFrom('idempotencia').where('expires_at', '<', now).executeTakeFirst();
  return Number(r.numDeletedRows);
}
