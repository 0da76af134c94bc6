import { randomBytes } from 'node:crypto';
import type { Insertable, Kysely, Transaction, Updateable } from 'kysely';
import { AppError } from '../../../shared/errors';
import type { WebhookInputParsed } from '../../../shared/schemas/webhook';
import type { Clock } from '../../clock';
import { notificar } from '../../db/notify';
import type { DB, WebhookRow, WebhooksTable } from '../../db/schema';
import { checkWebhookUrl, DestinoNoPermitido, type TargetPolicy } from '../../net/webhook-target';
import type { Actor } from '../actor';
import { delAmbito } from '../ambito';
import type { Plan } from '../context';

type Db = Kysely<DB> | Transaction<DB>;
type Scope = Pick<Actor, 'accountId' | 'entorno'>;

/** Webhooks per account and environment: each event is written once per webhook, so fan-out stays small. */
export const MAX_WEBHOOKS = 20;

/** What the webhook use cases need: the database, the clock and the target policy (WEBHOOK_ALLOW_INSECURE). */
export interface WebhookContext {
  db: Kysely<DB>;
  clock: Clock;
  policy: TargetPolicy;
}

/**
 * `whsec_` + 256 random bits in standard base64 (44 characters, `+`, `/` and a
 * final `=`): the shape the Standard Webhooks libraries read, so
 * `new Webhook(secreto)` takes the very string shown (see firma.ts). Secrets
 * made before were base64url: the same 256 bits, read by the server alike.
 */
export function nuevoSecreto(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

function noEncontrado(ref: string): AppError {
  return new AppError('no_encontrado', `No existe el webhook ${ref} en esta cuenta y entorno.`);
}

/** `{id}` of a webhook path: a positive integer, else 404 (never 422: the path names a resource). */
export function parseWebhookId(ref: string): number | null {
  return /^\d{1,15}$/.test(ref) ? Number(ref) : null;
}

/** One webhook of the caller's account and environment, or 404 `no_encontrado` (another account's too). */
export async function obtenerWebhook(db: Db, scope: Scope, ref: string): Promise<WebhookRow> {
  const id = parseWebhookId(ref);
  if (id === null) throw noEncontrado(ref);
  const row = await db.selectFrom('webhooks').selectAll().where('id', '=', id).where(delAmbito(scope)).executeTakeFirst();
  if (!row) throw noEncontrado(ref);
  return row;
}

/** The account's webhooks in this environment, oldest first. */
export async function listarWebhooks(db: Db, scope: Scope): Promise<WebhookRow[]> {
  return db.selectFrom('webhooks').selectAll().where(delAmbito(scope)).orderBy('id').execute();
}

/**
 * The target policy's refusal as the spec's 422 `validacion`, naming `url`
 * with the precise reason (not a URL, not https, a private or loopback
 * address behind the name…).
 */
export function destinoNoPermitido(err: DestinoNoPermitido): AppError {
  return new AppError('validacion', `La url del webhook no se admite: ${err.message}`, { campos: { url: err.message } });
}

/**
 * POST /webhooks, prepared outside any transaction: the URL is checked first
 * (it may ask DNS: https only, no private, loopback, link-local, CGNAT,
 * multicast or metadata address behind it), then the account's count in this
 * environment; the plan stores the webhook and its secret in the command
 * layer's transaction.
 */
export async function prepararCreacionWebhook(ctx: WebhookContext, actor: Actor, input: WebhookInputParsed): Promise<Plan<WebhookRow>> {
  let url: string;
  try {
    url = await checkWebhookUrl(input.url, ctx.policy);
  } catch (err) {
    if (err instanceof DestinoNoPermitido) throw destinoNoPermitido(err);
    throw err;
  }
  const now = ctx.clock.now();
  const n = await ctx.db
    .selectFrom('webhooks')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where(delAmbito(actor))
    .executeTakeFirstOrThrow();
  if (Number(n.n) >= MAX_WEBHOOKS) {
    throw new AppError('limite_webhooks', `Ya tiene ${MAX_WEBHOOKS} webhooks en este entorno: elimine alguno o use uno con varios eventos.`);
  }
  const fila: Insertable<WebhooksTable> = {
    account_id: actor.accountId,
    entorno: actor.entorno,
    url,
    eventos: JSON.stringify(input.eventos),
    descripcion: input.descripcion ?? null,
    secreto: nuevoSecreto(),
    created_at: now,
    updated_at: now,
  };
  return { aplicar: async (trx) => ({ valor: await trx.insertInto('webhooks').values(fila).returningAll().executeTakeFirstOrThrow() }) };
}

/**
 * PATCH /webhooks/{id}, prepared: the webhook is read outside any
 * transaction and what changes is decided from it (nothing to change: its
 * answer, no transaction at all). `activo: false` pauses it (new events are
 * not written for it; pending ones wait). `activo: true` resumes it, clears
 * the pause reason and the failure streak, and wakes the workers for what
 * waited (NOTIFY, sent when the command layer's transaction commits).
 */
export async function prepararCambioWebhook(
  ctx: Pick<WebhookContext, 'db' | 'clock'>,
  actor: Actor,
  ref: string,
  patch: { activo?: boolean | undefined; eventos?: string[] | undefined; descripcion?: string | null | undefined },
): Promise<Plan<WebhookRow>> {
  const now = ctx.clock.now();
  const row = await obtenerWebhook(ctx.db, actor, ref);
  const set: Updateable<WebhooksTable> = {};
  if (patch.activo === true && !row.activo) Object.assign(set, { activo: true, pausa_motivo: null, pausado_at: null, fallando_desde: null });
  if (patch.activo === true && row.activo && row.pausa_motivo) Object.assign(set, { pausa_motivo: null, pausado_at: null });
  if (patch.activo === false && row.activo) Object.assign(set, { activo: false, pausa_motivo: `Pausado a mano por ${actor.etiqueta}.`, pausado_at: now });
  if (patch.eventos !== undefined) set.eventos = JSON.stringify(patch.eventos);
  if (patch.descripcion !== undefined) set.descripcion = patch.descripcion;
  if (Object.keys(set).length === 0) return { valor: row };
  return {
    aplicar: async (trx) => {
      const updated = await trx
        .updateTable('webhooks')
        .set({ ...set, updated_at: now })
        .where('id', '=', row.id)
        .returningAll()
        .executeTakeFirst();
      // Deleted since it was read: what a request after the delete gets.
      if (!updated) throw noEncontrado(ref);
      if (set.activo === true) await notificar(trx, 'entregas');
      return { valor: updated };
    },
  };
}

/** DELETE /webhooks/{id}, prepared: found (or 404) outside any transaction; the webhook, its deliveries and their log go in the plan (nothing more is sent). */
export async function prepararEliminacionWebhook(db: Kysely<DB>, actor: Actor, ref: string): Promise<Plan<{ id: number }>> {
  const row = await obtenerWebhook(db, actor, ref);
  return {
    aplicar: async (trx) => {
      await trx.deleteFrom('webhooks').where('id', '=', row.id).execute();
      return { valor: { id: row.id } };
    },
  };
}
