import { cadena } from '../../shared/schemas/envio';
import { type EntregaList, type EntregaResultado, type Webhook, type WebhookCreado, type WebhookEliminado, WebhookInput, type WebhookList, WebhookPatch } from '../../shared/schemas/webhook';
import { z } from '../../shared/schemas/zod';
import type { Services } from '../deps';
import { presentEntrega, presentWebhook } from '../domain/presenters/webhook';
import { type EnvioDeps, listarEntregas, probarWebhook, reenviarEntrega } from '../domain/webhooks/entregas';
import { cambiarWebhook, crearWebhook, eliminarWebhook, listarWebhooks, obtenerWebhook } from '../domain/webhooks/webhooks';
import { command } from './command';

const Ref = z.object({ id: cadena().max(40) });

/** `probar` and `reenviar` send from the request: the domain gets the SSRF-safe sender of `Services` passed in. */
const envio = (ctx: Services): EnvioDeps => ({ db: ctx.db, clock: ctx.clock, enviar: ctx.enviarWebhook, log: ctx.log });
const webhookCtx = (ctx: Services) => ({ db: ctx.db, clock: ctx.clock, policy: ctx.webhookPolicy });

export const listarWebhooksCommand = command({
  nombre: 'listar_webhooks',
  descripcion: 'Los webhooks de la cuenta en este entorno.',
  acceso: 'lectura',
  permiso: 'integraciones',
  entrada: z.object({}),
  run: async (ctx): Promise<WebhookList> => ({ webhooks: (await listarWebhooks(ctx.db, ctx.quien)).map(presentWebhook) }),
});

export const crearWebhookCommand = command({
  nombre: 'crear_webhook',
  descripcion: 'Crea un webhook (url https, eventos, descripción); devuelve su secreto whsec_ una sola vez.',
  acceso: 'escritura',
  permiso: 'integraciones',
  entrada: WebhookInput,
  run: async (ctx, input): Promise<WebhookCreado> => {
    const row = await crearWebhook(webhookCtx(ctx), ctx.quien, input);
    return { webhook: { ...presentWebhook(row), secreto: row.secreto } };
  },
});

export const verWebhookCommand = command({
  nombre: 'ver_webhook',
  descripcion: 'Un webhook (sin su secreto).',
  acceso: 'lectura',
  permiso: 'integraciones',
  entrada: Ref,
  run: async (ctx, { id }): Promise<{ webhook: Webhook }> => ({ webhook: presentWebhook(await obtenerWebhook(ctx.db, ctx.quien, id)) }),
});

export const cambiarWebhookCommand = command({
  nombre: 'cambiar_webhook',
  descripcion: 'Pausa o reanuda un webhook (activo), o cambia sus eventos o su descripción.',
  acceso: 'escritura',
  permiso: 'integraciones',
  entrada: z.intersection(WebhookPatch, Ref),
  run: async (ctx, { id, ...patch }): Promise<{ webhook: Webhook }> => ({ webhook: presentWebhook(await cambiarWebhook(webhookCtx(ctx), ctx.quien, id, patch)) }),
});

export const eliminarWebhookCommand = command({
  nombre: 'eliminar_webhook',
  descripcion: 'Borra un webhook con sus entregas.',
  acceso: 'escritura',
  permiso: 'integraciones',
  entrada: Ref,
  run: async (ctx, { id }): Promise<WebhookEliminado> => ({ eliminado: true as const, ...(await eliminarWebhook(ctx.db, ctx.quien, id)) }),
});

export const entregasWebhookCommand = command({
  nombre: 'entregas_webhook',
  descripcion: 'Las 100 últimas entregas de un webhook, con cada intento.',
  acceso: 'lectura',
  permiso: 'integraciones',
  entrada: Ref,
  run: async (ctx, { id }): Promise<EntregaList> => ({ entregas: (await listarEntregas(ctx.db, ctx.quien, id)).map(presentEntrega) }),
});

export const probarWebhookCommand = command({
  nombre: 'probar_webhook',
  descripcion: 'Envía ahora un evento «ping» al webhook y devuelve el resultado.',
  acceso: 'escritura',
  permiso: 'integraciones',
  entrada: Ref,
  run: async (ctx, { id }): Promise<EntregaResultado> => {
    const r = await probarWebhook(envio(ctx), ctx.quien, id);
    return { ok: r.ok, entrega: presentEntrega(r.entrega) };
  },
});

export const reenviarEntregaCommand = command({
  nombre: 'reenviar_entrega',
  descripcion: 'Reenvía ahora una entrega (mismo id y cuerpo, firma nueva) y devuelve el resultado.',
  acceso: 'escritura',
  permiso: 'integraciones',
  entrada: z.object({ id: cadena().max(40), entrega: cadena().max(100) }),
  run: async (ctx, { id, entrega }): Promise<EntregaResultado> => {
    const r = await reenviarEntrega(envio(ctx), ctx.quien, id, entrega);
    return { ok: r.ok, entrega: presentEntrega(r.entrega) };
  },
});
