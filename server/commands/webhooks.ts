import { cadena } from '../../shared/schemas/envio';
import { type EntregaList, type EntregaResultado, type Webhook, type WebhookCreado, type WebhookEliminado, WebhookInput, type WebhookList, WebhookPatch } from '../../shared/schemas/webhook';
import { z } from '../../shared/schemas/zod';
import type { Services } from '../deps';
import { mapPlan, type Plan } from '../domain/context';
import { presentEntrega, presentWebhook } from '../domain/presenters/webhook';
import { type EnvioDeps, listarEntregas, prepararPrueba, prepararReenvioEntrega, type ResultadoManual } from '../domain/webhooks/entregas';
import { listarWebhooks, obtenerWebhook, prepararCambioWebhook, prepararCreacionWebhook, prepararEliminacionWebhook } from '../domain/webhooks/webhooks';
import { command } from './command';

const Ref = z.object({ id: cadena().max(40) });

/** `probar` and `reenviar` send from the request: the domain gets the SSRF-safe sender of `Services` passed in. */
const envio = (ctx: Services): EnvioDeps => ({ db: ctx.db, clock: ctx.clock, enviar: ctx.enviarWebhook, log: ctx.log });
const webhookCtx = (ctx: Services) => ({ db: ctx.db, clock: ctx.clock, policy: ctx.webhookPolicy });
const resultado = (r: ResultadoManual): EntregaResultado => ({ ok: r.ok, entrega: presentEntrega(r.entrega) });

export const listarWebhooksCommand = command({
  nombre: 'listar_webhooks',
  descripcion: 'Los webhooks de la cuenta en este entorno.',
  acceso: 'lectura',
  permiso: 'integraciones',
  entrada: z.object({}),
  preparar: async (ctx): Promise<Plan<WebhookList>> => ({ valor: { webhooks: (await listarWebhooks(ctx.db, ctx.quien)).map(presentWebhook) } }),
});

export const crearWebhookCommand = command({
  nombre: 'crear_webhook',
  descripcion: 'Crea un webhook (url https, eventos, descripción); devuelve su secreto whsec_ una sola vez.',
  acceso: 'escritura',
  permiso: 'integraciones',
  entrada: WebhookInput,
  preparar: async (ctx, input): Promise<Plan<WebhookCreado>> =>
    mapPlan(await prepararCreacionWebhook(webhookCtx(ctx), ctx.quien, input), (row) => ({ webhook: { ...presentWebhook(row), secreto: row.secreto } })),
});

export const verWebhookCommand = command({
  nombre: 'ver_webhook',
  descripcion: 'Un webhook (sin su secreto).',
  acceso: 'lectura',
  permiso: 'integraciones',
  entrada: Ref,
  preparar: async (ctx, { id }): Promise<Plan<{ webhook: Webhook }>> => ({ valor: { webhook: presentWebhook(await obtenerWebhook(ctx.db, ctx.quien, id)) } }),
});

export const cambiarWebhookCommand = command({
  nombre: 'cambiar_webhook',
  descripcion: 'Pausa o reanuda un webhook (activo), o cambia sus eventos o su descripción.',
  acceso: 'escritura',
  permiso: 'integraciones',
  entrada: z.intersection(WebhookPatch, Ref),
  preparar: async (ctx, { id, ...patch }): Promise<Plan<{ webhook: Webhook }>> =>
    mapPlan(await prepararCambioWebhook(webhookCtx(ctx), ctx.quien, id, patch), (row) => ({ webhook: presentWebhook(row) })),
});

export const eliminarWebhookCommand = command({
  nombre: 'eliminar_webhook',
  descripcion: 'Borra un webhook con sus entregas.',
  acceso: 'escritura',
  permiso: 'integraciones',
  entrada: Ref,
  preparar: async (ctx, { id }): Promise<Plan<WebhookEliminado>> => mapPlan(await prepararEliminacionWebhook(ctx.db, ctx.quien, id), (r) => ({ eliminado: true as const, ...r })),
});

export const entregasWebhookCommand = command({
  nombre: 'entregas_webhook',
  descripcion: 'Las 100 últimas entregas de un webhook, con cada intento.',
  acceso: 'lectura',
  permiso: 'integraciones',
  entrada: Ref,
  preparar: async (ctx, { id }): Promise<Plan<EntregaList>> => ({ valor: { entregas: (await listarEntregas(ctx.db, ctx.quien, id)).map(presentEntrega) } }),
});

// `probar` and `reenviar` send while preparing (the receiver may take 10 s), outside any transaction; the plan records the attempt.
export const probarWebhookCommand = command({
  nombre: 'probar_webhook',
  descripcion: 'Envía ahora un evento «ping» al webhook y devuelve el resultado.',
  acceso: 'escritura',
  permiso: 'integraciones',
  entrada: Ref,
  preparar: async (ctx, { id }): Promise<Plan<EntregaResultado>> => mapPlan(await prepararPrueba(envio(ctx), ctx.quien, id), resultado),
});

export const reenviarEntregaCommand = command({
  nombre: 'reenviar_entrega',
  descripcion: 'Reenvía ahora una entrega (mismo id y cuerpo, firma nueva) y devuelve el resultado.',
  acceso: 'escritura',
  permiso: 'integraciones',
  entrada: z.object({ id: cadena().max(40), entrega: cadena().max(100) }),
  preparar: async (ctx, { id, entrega }): Promise<Plan<EntregaResultado>> => mapPlan(await prepararReenvioEntrega(envio(ctx), ctx.quien, id, entrega), resultado),
});
