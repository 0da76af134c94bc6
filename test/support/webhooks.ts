import { expect } from 'vitest';
import { type RunWebhooksDeps, runWebhooksOnce } from '../../server/jobs/webhook-delivery';
import { ErrorBody } from '../../shared/errors';
import { type Deca, DecaCreada } from '../../shared/schemas/deca';
import { type Entrega, EntregaList, WebhookCreado } from '../../shared/schemas/webhook';
import type { TestApp } from './app';

/** POST /webhooks that must create (201); returns the webhook with its secret. */
export async function crearWebhookOk(app: TestApp, key: string, body: Record<string, unknown>, base = '/api/v1'): Promise<WebhookCreado['webhook']> {
  const res = await app.request('POST', `${base}/webhooks`, { key, body });
  expect(res.status, res.text).toBe(201);
  return WebhookCreado.parse(res.body).webhook;
}

/** GET /webhooks/{id}/entregas, parsed with the shared schema. */
export async function leerEntregas(app: TestApp, key: string, id: number, base = '/api/v1'): Promise<Entrega[]> {
  const res = await app.request('GET', `${base}/webhooks/${id}/entregas`, { key });
  expect(res.status, res.text).toBe(200);
  return EntregaList.parse(res.body).entregas;
}

/** Run the worker's passes until nothing due is left (loopback targets allowed, as with WEBHOOK_ALLOW_INSECURE=1). */
export async function entregarTodo(app: TestApp, extra: Partial<RunWebhooksDeps> = {}): Promise<number> {
  let total = 0;
  for (let i = 0; i < 50; i++) {
    const r = await runWebhooksOnce({ db: app.database.db, clock: app.clock, allowInsecure: true, ...extra });
    total += r.intentadas;
    if (r.intentadas === 0) return total;
  }
  throw new Error('deliveries kept coming for 50 passes');
}

/** Check an error answer: status, `codigo`, the documented body and the request id. */
export function expectError(res: { status: number; text: string; body: any; headers: Headers }, status: number, codigo: string): ErrorBody['error'] {
  expect(res.status, res.text).toBe(status);
  const { error } = ErrorBody.parse(res.body);
  expect(error.codigo).toBe(codigo);
  expect(error.request_id).toBe(res.headers.get('x-request-id'));
  return error;
}

/** POST /decas that must create (201); returns the DeCA. */
export async function crearDeca(app: TestApp, key: string, body: unknown, base = '/api/v1'): Promise<Deca> {
  const res = await app.request('POST', `${base}/decas`, { key, body });
  expect(res.status, res.text).toBe(201);
  return DecaCreada.parse(res.body).deca;
}
