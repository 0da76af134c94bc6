import http from 'node:http';
import https from 'node:https';
import { describe, expect, onTestFinished, vi } from 'vitest';
import { runWebhooksOnce } from '../../server/jobs/webhook-delivery';
import { createWebhookFetch, type WebhookFetch } from '../../server/net/webhook-request';
import type { Resolver } from '../../server/net/webhook-target';
import { type Fx, it, test } from '../support/fixtures';
import { crearDeca, crearWebhookOk, entregarTodo, leerEntregas } from '../support/webhooks';

// The app allows insecure targets so webhooks to the loopback receiver can be
// created; the delivery-time policy is then exercised by running the worker
// with the flag off. No test sends traffic anywhere but 127.0.0.1: refused
// targets are refused before any connection.
test.override('opcionesApp', { env: { WEBHOOK_ALLOW_INSECURE: '1' } });

// The receiver answers 200 unless a test says otherwise.
it.afterEach(async ({ app, c, rx }) => {
  rx.recibidos.length = 0;
  rx.responder(() => 200);
  await app.database.db.updateTable('webhook_entregas').set({ estado: 'fallida', proximo_intento_at: null }).where('estado', '=', 'pendiente').execute();
  await app.database.db.deleteFrom('webhooks').where('account_id', '=', c.account.id).execute();
});

/** A webhook row as if created before a policy change (creation would refuse these targets now). */
async function webhookDirecto({ app, c }: Fx, url: string): Promise<number> {
  const r = await app.database.db
    .insertInto('webhooks')
    .values({ account_id: c.account.id, entorno: 'produccion', url, eventos: JSON.stringify(['deca.creado']), secreto: 'whsec_prueba', created_at: app.clock.now(), updated_at: app.clock.now() })
    .returning('id')
    .executeTakeFirstOrThrow();
  return r.id;
}

describe('webhook target policy at delivery time (WEBHOOK_ALLOW_INSECURE off)', () => {
  it.for<[string, RegExp]>([
    ['https://127.0.0.1:{port}/x', /127\.0\.0\.1 es una dirección de loopback/],
    ['https://10.0.0.1/x', /10\.0\.0\.1 es una dirección privada/],
    ['https://169.254.169.254/latest/meta-data/', /metadatos/],
    ['https://[::1]:{port}/x', /::1 es una dirección de loopback/],
    ['https://localhost:{port}/x', /localhost apunta a 127\.0\.0\.1/],
    ['http://127.0.0.1:{port}/x', /https:\/\//],
  ])('refuses %s before connecting, and logs why', async ([template, motivo], { app, c, rx }) => {
    const port = new URL(rx.url).port;
    const id = await webhookDirecto({ app, c }, template.replace('{port}', port));
    await crearDeca(app, c.live, { emitir: false });
    // Every request the transport could open goes through one of these: none may be opened.
    const abiertas = [vi.spyOn(http, 'request'), vi.spyOn(https, 'request')];
    onTestFinished(() => {
      for (const s of abiertas) s.mockRestore();
    });
    const r = await runWebhooksOnce({ db: app.database.db, clock: app.clock, allowInsecure: false, timeoutMs: 2_000 });
    expect(r).toEqual({ intentadas: 1, entregadas: 0 });
    for (const s of abiertas) expect(s).not.toHaveBeenCalled();
    const [e] = await leerEntregas(app, c.live, id);
    expect(e!.status).toBeNull();
    // The policy's reason, not a timeout or a network error: refused before connecting.
    expect(e!.error).toMatch(motivo);
    expect(e!.estado).toBe('pendiente'); // retried later: the name may point elsewhere by then
    expect(rx.recibidos).toHaveLength(0);
  });

  it('refuses a name that resolves to a private address (injected resolver), without connecting', async () => {
    const asked: string[] = [];
    const resolve: Resolver = async (host) => {
      asked.push(host);
      return [{ address: '10.1.2.3', family: 4 }];
    };
    const send = createWebhookFetch({ allowInsecure: false, resolve });
    try {
      await expect(send('https://intranet.example.test/x', { method: 'POST', headers: {}, body: '{}', signal: AbortSignal.timeout(2_000) })).rejects.toThrow(
        /intranet\.example\.test apunta a 10\.1\.2\.3/,
      );
      // One public and one private answer: refused as a whole.
      const mixed: Resolver = async () => [
        { address: '93.184.216.34', family: 4 },
        { address: '192.168.0.10', family: 4 },
      ];
      const send2 = createWebhookFetch({ allowInsecure: false, resolve: mixed });
      await expect(send2('https://mixto.example.test/x', { method: 'POST', headers: {}, body: '{}', signal: AbortSignal.timeout(2_000) })).rejects.toThrow(/privada/);
      send2.close();
    } finally {
      send.close();
    }
    expect(asked).toEqual(['intranet.example.test']);
  });

  it('connects to the address it checked: one resolution per attempt, pinned (no DNS rebinding)', async ({ rx }) => {
    let calls = 0;
    const resolve: Resolver = async () => {
      calls++;
      return [{ address: '127.0.0.1', family: 4 }];
    };
    // With the flag on (loopback allowed) so the pinned address can be our receiver; `.test`
    // names never resolve in real DNS, so reaching the receiver proves the pinned answer was used.
    const send = createWebhookFetch({ allowInsecure: true, resolve });
    try {
      const res = await send(`http://receptor.test:${new URL(rx.url).port}/pin`, { method: 'POST', headers: {}, body: '{}', signal: AbortSignal.timeout(2_000) });
      expect(res.status).toBe(200);
    } finally {
      send.close();
    }
    expect(calls).toBe(1);
    expect(rx.recibidos.map((r) => [r.path, r.headers.host])).toEqual([['/pin', `receptor.test:${new URL(rx.url).port}`]]);
  });

  it('does not follow redirects', async ({ app, c, rx }) => {
    const w = await crearWebhookOk(app, c.live, { url: `${rx.url}/redirige`, eventos: ['deca.creado'] });
    rx.responder((r) => (r.path === '/redirige' ? { status: 302, headers: { location: `${rx.url}/destino` } } : 200));
    await crearDeca(app, c.live, { emitir: false });
    await entregarTodo(app);
    const [e] = await leerEntregas(app, c.live, w.id);
    expect(e!.status).toBe(302);
    expect(e!.error).toMatch(/Redirección 302 no seguida/);
    expect(e!.estado).toBe('pendiente');
    expect(rx.recibidos.map((r) => r.path)).toEqual(['/redirige']);
  });

  it('reads a capped amount of the answer, then drops the connection; never stores it', async ({ app, c, rx }) => {
    rx.responder(() => ({ stream: true }));
    // The transport alone, kept open, so the cut can only come from the cap.
    const send = createWebhookFetch({ allowInsecure: true });
    try {
      const res = await send(`${rx.url}/grifo`, { method: 'POST', headers: {}, body: '{}', signal: AbortSignal.timeout(30_000) });
      expect(res).toEqual({ status: 200 });
      await expect.poll(() => rx.cortadas(), { timeout: 5_000 }).toBe(1);
    } finally {
      send.close();
    }

    // Through the worker, with a transport kept open (so closing it cannot be what cuts) and a
    // 5 s timeout: the attempt is recorded as the 200 it got, not as a timeout, and the receiver
    // sees the connection cut before that timeout fires, if it ever does.
    const w = await crearWebhookOk(app, c.live, { url: `${rx.url}/grifo`, eventos: ['deca.creado'] });
    await crearDeca(app, c.live, { emitir: false });
    const transporte = createWebhookFetch({ allowInsecure: true });
    const cortesAlAgotarse: number[] = [];
    const fetch: WebhookFetch = (url, init) => {
      init.signal.addEventListener('abort', () => cortesAlAgotarse.push(rx.cortadas()), { once: true });
      return transporte(url, init);
    };
    try {
      expect(await entregarTodo(app, { fetch, timeoutMs: 5_000 })).toBe(1);
      await expect.poll(() => rx.cortadas(), { timeout: 5_000 }).toBe(2);
      for (const n of cortesAlAgotarse) expect(n, 'the cut came before the timeout fired').toBe(2);
    } finally {
      transporte.close();
    }
    const [e] = await leerEntregas(app, c.live, w.id);
    expect(e!.status).toBe(200);
    expect(e!.error).toBeNull();
    expect(e!.estado).toBe('entregada');
    const row = await app.database.db.selectFrom('webhook_intentos').selectAll().where('account_id', '=', c.account.id).execute();
    expect(JSON.stringify(row)).not.toContain('xxxx');
  });
});
