import type Router from '@koa/router';
import { cambiarWebhook, crearWebhook, eliminarWebhook, entregasWebhook, listarWebhooks, probarWebhook, reenviarEntrega, verWebhook } from '../../commands/webhooks';
import type { AppDeps } from '../../deps';
import type { AppState } from '../context';
import { jsonBody, KB } from '../middleware/body';
import { correr, entrada } from '../run';

/** The webhook endpoints (spec: Endpoints, Events), mounted on both environments like the DeCA routes. */
export function webhooksRoutes(router: Router<AppState>, { config, services }: AppDeps): void {
  const body = jsonBody(16 * KB);

  router.get('/webhooks', async (ctx) => {
    ctx.body = await correr(ctx, services, listarWebhooks, {});
  });

  router.post('/webhooks', body, async (ctx) => {
    const answer = await correr(ctx, services, crearWebhook, ctx.state.body);
    ctx.status = 201;
    ctx.set('Location', `${config.siteUrl}${ctx.path}/${answer.webhook.id}`);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = answer;
  });

  router.get('/webhooks/:id', async (ctx) => {
    ctx.body = await correr(ctx, services, verWebhook, ctx.params);
  });

  router.patch('/webhooks/:id', body, async (ctx) => {
    ctx.body = await correr(ctx, services, cambiarWebhook, entrada(ctx));
  });

  router.delete('/webhooks/:id', async (ctx) => {
    ctx.body = await correr(ctx, services, eliminarWebhook, ctx.params);
  });

  router.get('/webhooks/:id/entregas', async (ctx) => {
    ctx.body = await correr(ctx, services, entregasWebhook, ctx.params);
  });

  router.post('/webhooks/:id/probar', body, async (ctx) => {
    ctx.body = await correr(ctx, services, probarWebhook, ctx.params);
  });

  router.post('/webhooks/:id/entregas/:entrega/reenviar', body, async (ctx) => {
    ctx.body = await correr(ctx, services, reenviarEntrega, ctx.params);
  });
}
