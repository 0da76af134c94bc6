import { type Kysely, sql } from 'kysely';
import { AppError } from '../../../shared/errors';
import { formatMadrid } from '../../../shared/rules/fechas';
import type { Entorno } from '../../../shared/schemas/cuenta';
import type { EventoEntrega } from '../../../shared/schemas/webhook';
import { FIRMA_HEADER } from '../../../shared/webhook-signature';
import type { Clock } from '../../clock';
import { reintentarSinConexion } from '../../db/errores';
import { notificar } from '../../db/notify';
import { soltarSemanasCaducadas } from '../../db/particiones';
import type { DB, WebhookEntregaRow, WebhookIntentoRow } from '../../db/schema';
import type { Logger } from '../../log';
import type { EnviarWebhook, PeticionWebhook, RespuestaWebhook } from '../../net/webhook-request';
import { randomToken } from '../accounts/tokens';
import type { Actor } from '../actor';
import { delAmbito } from '../ambito';
import type { Plan, Trx } from '../context';
import { cuerpoEntrega, nuevoEntregaId } from './encolar';
import { cabecerasStandardWebhooks, firmaEntrega } from './firma';
import { obtenerWebhook, parseWebhookId } from './webhooks';

type Scope = Pick<Actor, 'accountId' | 'entorno'>;

const MIN = 60_000;
const HORA = 60 * MIN;
const DIA = 24 * HORA;

/** Spec: a failed delivery is retried after 1 min, 5 min, 30 min, 2 h and 12 h; then it has failed (the outbox runner applies it). */
export const REINTENTOS_MS = [1 * MIN, 5 * MIN, 30 * MIN, 2 * HORA, 12 * HORA] as const;
/** Spec: no 2xx within 10 s is a failed attempt. */
export const TIMEOUT_MS = 10_000;
/**
 * How long a claimed delivery belongs to the worker that claimed it. Longer
 * than any attempt (10 s timeout), so a live worker never loses it; when a
 * worker dies, another one re-sends after this (the embedded database, being
 * one process, releases them at start instead).
 */
export const LEASE_MS = 60_000;
/** A webhook whose every delivery has failed for this long is paused. */
export const PAUSA_TRAS_FALLAR_MS = 5 * DIA;
/** Deliveries (and their attempts) older than this are deleted. */
export const RETENCION_MS = 30 * DIA;
/** Spec: the last 100 deliveries are listed. */
export const ENTREGAS_LISTADAS = 100;

/** A delivery taken by one worker (or a request) for one attempt: everything needed to send and record it. */
export interface Reclamada {
  id: number;
  account_id: number;
  entorno: Entorno;
  webhook_id: number;
  entrega_id: string;
  evento: EventoEntrega;
  deca_id: number | null;
  cuerpo: string;
  url: string;
  secreto: string;
  /** Number of this attempt (all attempts, automatic and by hand). */
  numero: number;
  /** Automatic attempts including this one (0 for one by hand): picks the next delay. */
  intentos_auto: number;
  token: string;
  manual: boolean;
  at: Date;
}

/** What happened on one attempt. `status` null: no answer (network error, timeout, refused target). */
export interface ResultadoIntento {
  status: number | null;
  error: string | null;
  duracionMs: number;
}

/**
 * What an attempt by hand (probar, reenviar) needs: where to read (and take
 * the lease), the clock, and the sender, passed in (the SSRF-safe one of
 * `Services`): the domain builds and records deliveries, it never does HTTP
 * itself.
 */
export interface EnvioDeps {
  db: Kysely<DB>;
  clock: Clock;
  enviar: EnviarWebhook;
  /** 10 s unless a test injects a shorter one. */
  timeoutMs?: number;
  leaseMs?: number;
  log?: Logger;
}

const isOk = (status: number | null): boolean => status !== null && status >= 200 && status < 300;

interface ClaimRow {
  id: number;
  account_id: number;
  entorno: Entorno;
  webhook_id: number;
  entrega_id: string;
  evento: EventoEntrega;
  deca_id: number | null;
  cuerpo: string;
  intentos: number;
  intentos_auto: number;
  url: string;
  secreto: string;
  previo_desde: Date | null;
}

/**
 * Claim up to `limit` due deliveries in one short transaction: pending, due,
 * not leased (or lease expired), webhook active, and no earlier delivery of
 * the same DeCA to the same webhook still pending — so events of a DeCA reach
 * a webhook in the order they happened, even across retries. `SKIP LOCKED`
 * lets several workers (processes) claim side by side without waiting or
 * taking the same row; the lease marks them taken once this commits.
 * An expired lease means the last attempt was interrupted (its worker died):
 * that attempt is logged as such and the delivery goes again, same id.
 */
export async function reclamarEntregas(db: Kysely<DB>, clock: Clock, limit: number, leaseMs = LEASE_MS): Promise<Reclamada[]> {
  if (limit <= 0) return [];
  const now = clock.now();
  const token = randomToken(12);
  return db.transaction().execute(async (trx) => {
    const { rows } = await sql<ClaimRow>`
      with due as (
        select e.id, e.en_curso_desde as previo_desde, e.en_curso_hasta as previo_hasta
        from webhook_entregas e
        join webhooks w on w.id = e.webhook_id
        where e.estado = 'pendiente'
          and e.proximo_intento_at <= ${now}
          and (e.en_curso_hasta is null or e.en_curso_hasta <= now())
          and w.activo
          and not exists (
            select 1 from webhook_entregas p
            where p.webhook_id = e.webhook_id and p.deca_id = e.deca_id
              and p.estado = 'pendiente' and p.id < e.id
          )
        order by e.proximo_intento_at, e.id
        limit ${limit}
        for update of e skip locked
      )
      update webhook_entregas e
      set en_curso_desde = ${now}, en_curso_hasta = ${hastaLease(leaseMs)}, en_curso_token = ${token},
          intentos = e.intentos + 1, intentos_auto = e.intentos_auto + 1
      from due, webhooks w
      where e.id = due.id and w.id = e.webhook_id
      returning e.id, e.account_id, e.entorno, e.webhook_id, e.entrega_id, e.evento, e.deca_id, e.cuerpo,
                e.intentos, e.intentos_auto, w.url, w.secreto,
                case when due.previo_hasta is null then null else due.previo_desde end as previo_desde
    `.execute(trx);
    const interrumpidas = rows.filter((r) => r.previo_desde !== null);
    if (interrumpidas.length) {
      await trx
        .insertInto('webhook_intentos')
        .values(
          interrumpidas.map((r) => ({
            account_id: r.account_id,
            entorno: r.entorno,
            entrega_id: r.id,
            numero: r.intentos - 1,
            at: r.previo_desde!,
            status: null,
            error: 'Interrumpido: el servidor se detuvo antes de anotar la respuesta; se reenvía con el mismo X-Deca-Entrega.',
            duracion_ms: 0,
            proximo_intento_at: now,
          })),
        )
        .execute();
    }
    return rows
      .sort((a, b) => a.id - b.id)
      .map((r) => ({
        id: r.id,
        account_id: r.account_id,
        entorno: r.entorno,
        webhook_id: r.webhook_id,
        entrega_id: r.entrega_id,
        evento: r.evento,
        deca_id: r.deca_id,
        cuerpo: r.cuerpo,
        url: r.url,
        secreto: r.secreto,
        numero: r.intentos,
        intentos_auto: r.intentos_auto,
        token,
        manual: false,
        at: now,
      }));
  });
}

/**
 * With the embedded database only one process can run (DATA_DIR is locked),
 * so at start every lease is a dead one: release them so interrupted
 * deliveries go again now instead of after the lease. Returns how many.
 */
export async function liberarEnCurso(db: Kysely<DB>): Promise<number> {
  const r = await db.updateTable('webhook_entregas').set({ en_curso_hasta: sql<Date>`now()` }).where('estado', '=', 'pendiente').where('en_curso_hasta', '>', sql<Date>`now()`).executeTakeFirst();
  return Number(r.numUpdatedRows);
}

/**
 * Give back the leases of claimed deliveries whose attempts were cut by a
 * stop: they end now (so the next claim logs each cut attempt as
 * interrupted and sends it again with the same id), and the workers of
 * every process are woken to take them at once instead of after LEASE_MS.
 * Only leases still held with these claims' tokens are touched.
 */
export async function soltarEntregas(db: Kysely<DB>, cs: readonly Pick<Reclamada, 'id' | 'token'>[]): Promise<void> {
  if (cs.length === 0) return;
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('webhook_entregas')
      .set({ en_curso_hasta: sql<Date>`now()` })
      .where(
        'id',
        'in',
        cs.map((c) => c.id),
      )
      .where('en_curso_token', 'in', [...new Set(cs.map((c) => c.token))])
      .where('estado', '=', 'pendiente')
      .execute();
    await notificar(trx, 'entregas');
  });
}

/** Whether this attempt's note is already written (a retry after a COMMIT whose answer was lost). */
async function intentoAnotado(db: Kysely<DB>, c: Reclamada): Promise<boolean> {
  const row = await db.selectFrom('webhook_intentos').select('id').where('entrega_id', '=', c.id).where('numero', '=', c.numero).where('at', '=', c.at).executeTakeFirst();
  return row !== undefined;
}

/**
 * The end of a lease, by the database's clock: every process compares
 * leases with the same `now()`, so one whose own clock runs ahead never
 * takes a live lease over (delivery schedules stay on the service's clock).
 */
function hastaLease(leaseMs: number) {
  return sql<Date>`now() + make_interval(secs => ${leaseMs / 1000})`;
}

function textoStatus(status: number): string | null {
  if (status >= 200 && status < 300) return null;
  if (status === 410) return '410 Gone: el receptor ya no existe; webhook pausado.';
  if (status >= 300 && status < 400) return `Redirección ${status} no seguida: configure la url final.`;
  return null;
}

/** The request of one attempt: signed now (X-Deca-Firma and the Standard Webhooks headers), the same body on every attempt. */
export function peticionEntrega(c: Pick<Reclamada, 'url' | 'evento' | 'entrega_id' | 'secreto' | 'cuerpo'>, now: Date): PeticionWebhook {
  const t = Math.floor(now.getTime() / 1000);
  return {
    url: c.url,
    headers: {
      'content-type': 'application/json',
      'user-agent': 'DeCA-Webhooks/1.0',
      'x-deca-evento': c.evento,
      'x-deca-entrega': c.entrega_id,
      [FIRMA_HEADER]: firmaEntrega(c.secreto, t, c.cuerpo),
      ...cabecerasStandardWebhooks(c.secreto, c.entrega_id, t, c.cuerpo),
    },
    body: c.cuerpo,
  };
}

/** The attempt as recorded: what an answer's status means for a webhook (410 pauses it, a redirect is not followed). */
export function resultadoIntento(r: RespuestaWebhook): ResultadoIntento {
  return { status: r.status, error: r.status === null ? r.error : textoStatus(r.status), duracionMs: r.duracionMs };
}

/**
 * Until when an attempt started now may retry writing its note while the
 * database is out of reach: well inside its lease, so no other process
 * sends the delivery again meanwhile.
 */
export function plazoParaAnotar(leaseMs = LEASE_MS, timeoutMs = TIMEOUT_MS): number {
  return Date.now() + Math.max(1_000, leaseMs - timeoutMs - 5_000);
}

/**
 * Record an attempt that happened. Its note is written even if the database
 * is briefly out of reach (retried until `hasta`, or until `signal` says the
 * worker stops), or it would be sent again after the lease. A retry after a
 * COMMIT whose outcome is unknown first looks whether the note is already
 * there. `proximo`: the next automatic attempt by the schedule, null after the last.
 */
export async function anotarIntento(deps: { db: Kysely<DB>; log?: Logger }, c: Reclamada, r: ResultadoIntento, opts: { proximo: Date | null; hasta: number; signal?: AbortSignal }): Promise<void> {
  let primera = true;
  await reintentarSinConexion(
    async () => {
      if (!primera && (await intentoAnotado(deps.db, c))) return;
      primera = false;
      await registrarIntento(deps.db, c, r, opts.proximo);
    },
    { hasta: opts.hasta, ...(opts.signal ? { signal: opts.signal } : {}) },
  );
  logIntento(deps.log, c, r);
}

function logIntento(log: Logger | undefined, c: Reclamada, r: ResultadoIntento): void {
  log?.debug({ entrega: c.entrega_id, webhook: c.webhook_id, numero: c.numero, status: r.status, error: r.error, ms: r.duracionMs }, 'webhook attempt');
}

/** The answer of an attempt by hand: whether the receiver took it, and the delivery as recorded. */
export interface ResultadoManual {
  ok: boolean;
  entrega: EntregaConIntentos;
}

/**
 * An attempt by hand, from the request: sent now through the sender passed
 * in, outside any transaction (it may wait 10 s on the receiver); the plan
 * records it in the command layer's transaction (it never moves the
 * automatic schedule) and answers the delivery as recorded. `fila` gives the
 * delivery's row id in that transaction. The plan is never prepared again
 * (it throws no `RevisionCambiada`), so nothing is sent twice.
 */
async function intentarAhora(deps: EnvioDeps, c: Omit<Reclamada, 'id'>, fila: (trx: Trx) => Promise<number>): Promise<Plan<ResultadoManual>> {
  const timeoutMs = deps.timeoutMs ?? TIMEOUT_MS;
  const r = resultadoIntento(await deps.enviar(peticionEntrega(c, deps.clock.now()), { timeoutMs }));
  return {
    aplicar: async (trx) => {
      const hecho: Reclamada = { ...c, id: await fila(trx) };
      await escribirIntento(trx, hecho, r, null);
      return { valor: { ok: isOk(r.status), entrega: await leerEntrega(trx, hecho.id) }, despues: () => logIntento(deps.log, hecho, r) };
    },
  };
}

/**
 * Record one attempt and decide what comes next: 2xx → delivered; 410 →
 * failed and the webhook paused with the reason; otherwise `proximo`, the
 * next retry the outbox runner took from REINTENTOS_MS (+1 min, +5 min,
 * +30 min, +2 h, +12 h), or failed when it is null. A webhook whose every
 * attempt has failed for 5 days is paused. Attempts by hand (reenviar,
 * probar) never move the automatic schedule.
 *
 * Lock order is webhook, then delivery — the order in which DELETE
 * /webhooks cascades — so the two can never deadlock. A healthy webhook's
 * row is not locked at all (its conditional update matches nothing).
 */
export async function registrarIntento(db: Kysely<DB>, c: Reclamada, r: ResultadoIntento, proximoAuto: Date | null): Promise<void> {
  await db.transaction().execute((trx) => escribirIntento(trx, c, r, proximoAuto));
}

/** `registrarIntento`'s writes, in a transaction already open (an attempt by hand records in the command layer's). */
async function escribirIntento(trx: Trx, c: Reclamada, r: ResultadoIntento, proximoAuto: Date | null): Promise<void> {
  const ok = isOk(r.status);
  const gone = r.status === 410;
  if (ok) {
    await trx.updateTable('webhooks').set({ fallando_desde: null }).where('id', '=', c.webhook_id).where('fallando_desde', 'is not', null).execute();
  } else {
    const wh = await trx.selectFrom('webhooks').select(['activo', 'fallando_desde']).where('id', '=', c.webhook_id).forNoKeyUpdate().executeTakeFirst();
    if (!wh) return; // deleted meanwhile: nothing left to record
    const desde = wh.fallando_desde ?? c.at;
    let pausa: string | null = null;
    if (gone) {
      pausa = `El receptor respondió 410 Gone el ${formatMadrid(c.at)} (entrega ${c.entrega_id}): webhook pausado. Reactívelo con PATCH {"activo": true} cuando vuelva a existir.`;
    } else if (wh.activo && c.at.getTime() - desde.getTime() >= PAUSA_TRAS_FALLAR_MS) {
      pausa = `Todas las entregas fallan desde ${formatMadrid(desde)} (5 días): webhook pausado. Revise el receptor y reactívelo con PATCH {"activo": true}.`;
    }
    await trx
      .updateTable('webhooks')
      .set({ fallando_desde: desde, ...(pausa ? { activo: false, pausa_motivo: pausa, pausado_at: c.at, updated_at: c.at } : {}) })
      .where('id', '=', c.webhook_id)
      .execute();
  }

  const intento = (estado: string, proximo: Date | null) => ({
    account_id: c.account_id,
    entorno: c.entorno,
    entrega_id: c.id,
    numero: c.numero,
    at: c.at,
    status: r.status,
    error: r.error,
    duracion_ms: r.duracionMs,
    proximo_intento_at: estado === 'pendiente' ? proximo : null,
    manual: c.manual,
  });
  const ultimo = { ultimo_intento_at: c.at, ultimo_status: r.status, ultimo_error: r.error, ultima_duracion_ms: r.duracionMs };

  if (ok) {
    // The common path in two statements: delivered, whatever its state; the lease released if still ours.
    const mine = (col: 'en_curso_desde' | 'en_curso_hasta' | 'en_curso_token') => sql<never>`case when en_curso_token = ${c.token} then null else ${sql.ref(col)} end`;
    const done = await trx
      .updateTable('webhook_entregas')
      .set({
        ...ultimo,
        estado: 'entregada',
        proximo_intento_at: null,
        entregada_at: sql<Date>`coalesce(entregada_at, ${c.at})`,
        en_curso_desde: mine('en_curso_desde'),
        en_curso_hasta: mine('en_curso_hasta'),
        en_curso_token: mine('en_curso_token'),
      })
      .where('id', '=', c.id)
      .returning('id')
      .executeTakeFirst();
    if (done) await trx.insertInto('webhook_intentos').values(intento('entregada', null)).execute();
    return;
  }

  const e = await trx.selectFrom('webhook_entregas').select(['estado', 'proximo_intento_at', 'en_curso_token']).where('id', '=', c.id).forUpdate().executeTakeFirst();
  if (!e) return;
  const mine = e.en_curso_token === c.token;
  let estado = e.estado;
  let proximo = e.proximo_intento_at;
  if (c.evento === 'ping') {
    estado = 'fallida';
    proximo = null;
  } else if (!c.manual && mine && estado === 'pendiente') {
    if (gone || proximoAuto === null) {
      estado = 'fallida';
      proximo = null;
    } else proximo = proximoAuto;
  }
  await trx.insertInto('webhook_intentos').values(intento(estado, proximo)).execute();
  await trx
    .updateTable('webhook_entregas')
    .set({
      ...ultimo,
      estado,
      proximo_intento_at: proximo,
      ...(mine ? { en_curso_desde: null, en_curso_hasta: null, en_curso_token: null } : {}),
    })
    .where('id', '=', c.id)
    .execute();
}

/** A delivery with its attempts, oldest attempt first. */
export interface EntregaConIntentos {
  entrega: WebhookEntregaRow;
  intentos: WebhookIntentoRow[];
}

async function conIntentos(db: Kysely<DB>, rows: WebhookEntregaRow[]): Promise<EntregaConIntentos[]> {
  if (rows.length === 0) return [];
  const intentos = await db
    .selectFrom('webhook_intentos')
    .selectAll()
    .where(
      'entrega_id',
      'in',
      rows.map((r) => r.id),
    )
    .orderBy('id')
    .execute();
  const by = new Map<number, WebhookIntentoRow[]>();
  for (const i of intentos) by.set(i.entrega_id, [...(by.get(i.entrega_id) ?? []), i]);
  return rows.map((entrega) => ({ entrega, intentos: by.get(entrega.id) ?? [] }));
}

/** GET /webhooks/{id}/entregas: the last 100 deliveries, newest first, with every attempt. */
export async function listarEntregas(db: Kysely<DB>, scope: Scope, ref: string): Promise<EntregaConIntentos[]> {
  const wh = await obtenerWebhook(db, scope, ref);
  const rows = await db.selectFrom('webhook_entregas').selectAll().where('webhook_id', '=', wh.id).where(delAmbito(scope)).orderBy('id', 'desc').limit(ENTREGAS_LISTADAS).execute();
  return conIntentos(db, rows);
}

async function leerEntrega(db: Kysely<DB>, id: number): Promise<EntregaConIntentos> {
  const row = await db.selectFrom('webhook_entregas').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const [one] = await conIntentos(db, [row]);
  return one!;
}

/**
 * POST /webhooks/{id}/probar: a `ping` delivered now (paused webhooks too, to
 * test a receiver before resuming), its result returned. It is sent while
 * preparing, outside any transaction, and written only in the plan, with its
 * result: no worker ever sees it pending, and it is never retried.
 */
export async function prepararPrueba(deps: EnvioDeps, actor: Actor, ref: string): Promise<Plan<ResultadoManual>> {
  const now = deps.clock.now();
  const wh = await obtenerWebhook(deps.db, actor, ref);
  const id = nuevoEntregaId();
  const cuerpo = cuerpoEntrega({
    id,
    evento: 'ping',
    creadoAt: now,
    entorno: actor.entorno,
    data: { webhook: { id: wh.id, url: wh.url, eventos: wh.eventos }, mensaje: 'Prueba de DeCA: si lee esto, su receptor funciona.' },
  });
  const c: Omit<Reclamada, 'id'> = {
    account_id: actor.accountId,
    entorno: actor.entorno,
    webhook_id: wh.id,
    entrega_id: id,
    evento: 'ping',
    deca_id: null,
    cuerpo,
    url: wh.url,
    secreto: wh.secreto,
    numero: 1,
    intentos_auto: 0,
    token: randomToken(12), // no lease to own: the row is written with its result
    manual: true,
    at: now,
  };
  return intentarAhora(deps, c, async (trx) => {
    const row = await trx
      .insertInto('webhook_entregas')
      .values({
        account_id: actor.accountId,
        entorno: actor.entorno,
        webhook_id: wh.id,
        entrega_id: id,
        evento_id: null,
        evento: 'ping',
        deca_id: null,
        cuerpo,
        estado: 'pendiente',
        intentos: 1,
        proximo_intento_at: null,
        created_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  });
}

/**
 * POST /webhooks/{id}/entregas/{ev_id}/reenviar (extension): send one
 * delivery again now, by hand, with the same id and body and a fresh
 * signature — whatever its state. A 2xx marks it delivered; a failure leaves
 * its automatic schedule as it was. 409 `en_curso` while it is being sent.
 * Its lease is taken before sending, so no worker (nor another reenviar)
 * sends it meanwhile; the attempt is recorded in the plan.
 */
export async function prepararReenvioEntrega(deps: EnvioDeps, actor: Actor, ref: string, entregaId: string): Promise<Plan<ResultadoManual>> {
  const now = deps.clock.now();
  const token = randomToken(12);
  const noEncontrada = () => new AppError('no_encontrado', `No existe la entrega ${entregaId} en este webhook.`);
  if (parseWebhookId(ref) === null || !/^ev_[\w-]{1,64}$/.test(entregaId)) throw noEncontrada();
  const wh = await obtenerWebhook(deps.db, actor, ref);
  // One conditional statement takes the lease only if no live lease holds it: atomic without a transaction.
  const e = await deps.db
    .updateTable('webhook_entregas')
    .set((eb) => ({ en_curso_desde: now, en_curso_hasta: hastaLease(deps.leaseMs ?? LEASE_MS), en_curso_token: token, intentos: eb('intentos', '+', 1) }))
    .where(delAmbito(actor))
    .where('entrega_id', '=', entregaId)
    .where('webhook_id', '=', wh.id)
    .where((eb) => eb.or([eb('en_curso_hasta', 'is', null), eb('en_curso_hasta', '<=', sql<Date>`now()`)]))
    .returningAll()
    .executeTakeFirst();
  if (!e) {
    const existe = await deps.db.selectFrom('webhook_entregas').select('id').where(delAmbito(actor)).where('entrega_id', '=', entregaId).where('webhook_id', '=', wh.id).executeTakeFirst();
    if (!existe) throw noEncontrada();
    throw new AppError('en_curso', 'Esta entrega se está enviando ahora mismo. Espere unos segundos y consulte las entregas.', {
      headers: { 'Retry-After': '10' },
    });
  }
  const c: Reclamada = {
    id: e.id,
    account_id: e.account_id,
    entorno: e.entorno,
    webhook_id: wh.id,
    entrega_id: e.entrega_id,
    evento: e.evento as EventoEntrega,
    deca_id: e.deca_id,
    cuerpo: e.cuerpo,
    url: wh.url,
    secreto: wh.secreto,
    numero: e.intentos,
    intentos_auto: e.intentos_auto,
    token,
    manual: true,
    at: now,
  };
  return intentarAhora(deps, c, async () => c.id);
}

/**
 * Let go the deliveries (and their attempts) of the weeks that ended 30 days
 * ago: their partitions dropped (migration 0020), never a row deleted. A
 * webhook that keeps failing cannot grow the tables without bound. Returns
 * how many weeks went.
 */
export async function podarEntregas(db: Kysely<DB>, clock: Clock): Promise<number> {
  return (await soltarSemanasCaducadas(db, 'webhook_entregas', clock.now(), RETENCION_MS / DIA)).length;
}
