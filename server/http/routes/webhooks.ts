import type Router from '@koa/router';
import { WebhookInput, WebhookPatch, type EntregaList, type EntregaResultado, type Webhook, type WebhookCreado, type WebhookList } from '../../../shared/schemas/webhook';
import { z } from '../../../shared/schemas/zod';
import type { AppDeps } from '../../app';
import { listarEntregas, probarWebhook, reenviarEntrega, type EnvioDeps } from '../../domain/webhooks/entregas';
import { cambiarWebhook, crearWebhook, eliminarWebhook, listarWebhooks, obtenerWebhook, type WebhookContext } from '../../domain/webhooks/webhooks';
import { createWebhookFetch } from '../../net/webhook-request';
import { actorOf, type AppContext, type AppState } from '../context';
import { jsonBody, KB } from '../middleware/body';
import { parse } from '../parse';
import { presentEntrega, presentWebhook } from '../presenters/webhook';

const IdParam = z.object({ id: z.string() });
const EntregaParam = z.object({ id: z.string(), entrega: z.string() });

/**
 * The webhook endpoints (spec: Endpoints, Events), mounted on both
 * environments like the DeCA routes. Everything is scoped to the key's
 * account and environment; writes with a read-only key are refused earlier
 * (requireWriteAccess). `probar` and `reenviar` send from the request,
 * through the same SSRF-safe transport as the worker.
 */
export function webhooksRoutes(router: Router<AppState>, deps: AppDeps): void {
  const db = deps.database.db;
  const body = jsonBody(16 * KB);
  const policy = { allowInsecure: deps.config.webhookAllowInsecure };
  const ctxWebhooks: WebhookContext = { db, clock: deps.clock, policy };
  const envio: EnvioDeps = { db, clock: deps.clock, fetch: createWebhookFetch({ ...policy, keepAlive: false }), log: deps.log };
  const idOf = (ctx: AppContext) => parse(IdParam, ctx.params).id;

  router.get('/webhooks', async (ctx) => {
    const answer: WebhookList = { webhooks: (await listarWebhooks(db, actorOf(ctx))).map(presentWebhook) };
    ctx.body = answer;
  });

  router.post('/webhooks', body, async (ctx) => {
    const input = parse(WebhookInput, ctx.state.body);
    const row = await crearWebhook(ctxWebhooks, actorOf(ctx), input);
    const answer: WebhookCreado = { webhook: { ...presentWebhook(row), secreto: row.secreto } };
    ctx.status = 201;
    ctx.set('Location', `${deps.config.siteUrl}${ctx.path}/${row.id}`);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = answer;
  });

  router.get('/webhooks/:id', async (ctx) => {
    const answer: { webhook: Webhook } = { webhook: presentWebhook(await obtenerWebhook(db, actorOf(ctx), idOf(ctx))) };
    ctx.body = answer;
  });

  router.patch('/webhooks/:id', body, async (ctx) => {
    const patch = parse(WebhookPatch, ctx.state.body);
    const answer: { webhook: Webhook } = { webhook: presentWebhook(await cambiarWebhook(ctxWebhooks, actorOf(ctx), idOf(ctx), patch)) };
    ctx.body = answer;
  });

  router.delete('/webhooks/:id', async (ctx) => {
    const { id } = await eliminarWebhook(db, actorOf(ctx), idOf(ctx));
    ctx.body = { eliminado: true, id };
  });

  router.get('/webhooks/:id/entregas', async (ctx) => {
    const answer: EntregaList = { entregas: (await listarEntregas(db, actorOf(ctx), idOf(ctx))).map(presentEntrega) };
    ctx.body = answer;
  });

  router.post('/webhooks/:id/probar', body, async (ctx) => {
    const r = await probarWebhook(envio, actorOf(ctx), idOf(ctx));
    const answer: EntregaResultado = { ok: r.ok, entrega: presentEntrega(r.entrega) };
    ctx.body = answer;
  });

  router.post('/webhooks/:id/entregas/:entrega/reenviar', body, async (ctx) => {
    const { id, entrega } = parse(EntregaParam, ctx.params);
    const r = await reenviarEntrega(envio, actorOf(ctx), id, entrega);
    const answer: EntregaResultado = { ok: r.ok, entrega: presentEntrega(r.entrega) };
    ctx.body = answer;
  });
}
