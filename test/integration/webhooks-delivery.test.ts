import { createHmac, timingSafeEqual } from 'node:crypto';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { describe, expect, vi } from 'vitest';
import { cuerpoEntrega } from '../../server/domain/webhooks/encolar';
import { podarEntregas, REINTENTOS_MS } from '../../server/domain/webhooks/entregas';
import { runWebhooksOnce } from '../../server/jobs/webhook-delivery';
import { Deca } from '../../shared/schemas/deca';
import { EntregaResultado, Webhook, WebhookPayload } from '../../shared/schemas/webhook';
import { verifySignature } from '../../shared/webhook-signature';
import type { TestApp } from '../support/app';
import { decaCompleta } from '../support/decas';
import { buildCuenta } from '../support/factories';
import { it, test } from '../support/fixtures';
import type { Receptor, Recibido } from '../support/webhook-receiver';
import { crearDeca, crearWebhookOk, entregarTodo, expectError, leerEntregas } from '../support/webhooks';

const MIN = 60_000;

test.override('opcionesApp', { env: { WEBHOOK_ALLOW_INSECURE: '1' } });
it.afterEach(async ({ app, rx }) => {
  rx.recibidos.length = 0;
  rx.responder(() => 200);
  // Each test starts with nothing due: what one left pending must not be counted by the next.
  await app.database.db.updateTable('webhook_entregas').set({ estado: 'fallida', proximo_intento_at: null }).where('estado', '=', 'pendiente').execute();
});

/** The Standard Webhooks headers of a receipt, as a receiver hands them to the library. */
function cabecerasStandard(r: Recibido): Record<string, string> {
  return { 'webhook-id': String(r.headers['webhook-id']), 'webhook-timestamp': String(r.headers['webhook-timestamp']), 'webhook-signature': String(r.headers['webhook-signature']) };
}

/**
 * The standardwebhooks library's own check, `new Webhook(secret).verify(body, headers)`, with the
 * very secret string shown at creation, on the receiver's clock (the app's: the library reads Date.now()).
 */
function verificarStandard(app: TestApp, secreto: string, raw: Buffer, headers: Record<string, string>): unknown {
  vi.setSystemTime(app.clock.now());
  try {
    return new StandardWebhook(secreto).verify(raw, headers);
  } finally {
    vi.useRealTimers();
  }
}

/**
 * The spec's signature checked twice: with the exported helper, and independently with node:crypto;
 * and the Standard Webhooks headers with their library: the delivery's id, the attempt's timestamp.
 */
function expectFirmaValida(app: TestApp, r: Recibido, secreto: string): void {
  const header = String(r.headers['x-deca-firma']);
  expect(verifySignature(secreto, header, r.raw, app.clock.now())).toBe(true);
  const m = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header);
  expect(m, header).not.toBeNull();
  const expected = createHmac('sha256', secreto).update(`${m![1]}.`).update(r.raw).digest();
  expect(timingSafeEqual(expected, Buffer.from(m![2]!, 'hex'))).toBe(true);
  expect(Math.abs(Number(m![1]) - app.clock.now().getTime() / 1000)).toBeLessThanOrEqual(300);
  expect(verifySignature('whsec_otro', header, r.raw, app.clock.now())).toBe(false);
  expect(verifySignature(secreto, header, Buffer.concat([r.raw, Buffer.from(' ')]), app.clock.now())).toBe(false);

  const std = cabecerasStandard(r);
  expect(std['webhook-id']).toBe(r.entrega);
  expect(std['webhook-timestamp']).toBe(m![1]);
  expect(verificarStandard(app, secreto, r.raw, std)).toEqual(JSON.parse(r.raw.toString('utf8')));
  expect(() => verificarStandard(app, secreto, Buffer.concat([r.raw, Buffer.from(' ')]), std)).toThrow(/signature/);
}

/** A fresh account and a webhook to the receiver (a distinct path per test keeps receipts apart). */
async function montar({ app, rx }: { app: TestApp; rx: Receptor }, eventos: string[] = ['*'], path = `/h${Math.random().toString(36).slice(2)}`) {
  const c = await buildCuenta(app);
  const wh = await crearWebhookOk(app, c.live, { url: `${rx.url}${path}`, eventos, descripcion: 'pruebas' });
  return { c, wh, path };
}

const delPath = (rx: Receptor, path: string) => rx.recibidos.filter((r) => r.path === path);

describe('webhook delivery', () => {
  it('sends every lifecycle event at its moment, signed, with the documented body and headers', async ({ app, rx }) => {
    const desde = app.clock.now().getTime();
    const { c, wh, path } = await montar({ app, rx });
    const a = await crearDeca(app, c.live, decaCompleta()); // creado, emitido
    await entregarTodo(app);
    const mod = await app.request('PATCH', `/api/v1/decas/${a.id}`, { key: c.live, body: { matricula: '5678 FGH', motivo: 'Cambio de camión' } });
    expect(mod.status, mod.text).toBe(200);
    await entregarTodo(app);
    const sus = await app.request('POST', `/api/v1/decas/${a.id}/sustituir`, { key: c.live, body: { motivo: 'Otro cargador', cargador_nombre: 'Otro, S.A.' } });
    expect(sus.status, sus.text).toBe(200);
    const b = Deca.parse(sus.body.deca);
    await entregarTodo(app);
    const fin = await app.request('POST', `/api/v1/decas/${b.id}/fin`, { key: c.live });
    expect(fin.status, fin.text).toBe(200);
    const p = await crearDeca(app, c.live, { emitir: false, referencia: 'pendiente' });
    await entregarTodo(app);
    const em = await app.request('PATCH', `/api/v1/decas/${p.id}`, { key: c.live, body: { ...decaCompleta(), emitir: true } });
    expect(em.status, em.text).toBe(200);
    await entregarTodo(app);

    const got = delPath(rx, path);
    const hasta = app.clock.now().getTime();
    const eventos = got.map((r) => `${r.body.data.deca.id}:${r.evento}`);
    expect(eventos).toEqual([
      `${a.id}:deca.creado`,
      `${a.id}:deca.emitido`,
      `${a.id}:deca.modificado`,
      `${a.id}:deca.sustituido`,
      `${b.id}:deca.creado`,
      `${b.id}:deca.emitido`,
      `${b.id}:deca.fin_servicio`,
      `${p.id}:deca.creado`,
      `${p.id}:deca.emitido`,
    ]);
    for (const r of got) {
      expectFirmaValida(app, r, wh.secreto);
      const body = WebhookPayload.parse(r.body);
      expect(r.headers['content-type']).toBe('application/json');
      // 144 random bits, base64url, as nuevoEntregaId makes them (the database makes them in the change's statement).
      expect(r.entrega).toMatch(/^ev_[\w-]{24}$/);
      expect(body.id).toBe(r.entrega);
      // The body the database assembled is the one cuerpoEntrega serialises, byte for byte.
      expect(r.raw.toString('utf8')).toBe(cuerpoEntrega({ id: body.id, evento: body.evento, creadoAt: new Date(body.creado_at), entorno: body.entorno, data: r.body.data }));
      expect(body.evento).toBe(r.evento);
      expect(body.entorno).toBe('produccion');
      expect(body.creado_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/);
      // Made during this test (the field has whole seconds).
      expect(Date.parse(body.creado_at)).toBeGreaterThanOrEqual(desde - 1_000);
      expect(Date.parse(body.creado_at)).toBeLessThanOrEqual(hasta);
      Deca.parse(body.data.deca);
    }
    expect(new Set(got.map((r) => r.entrega)).size).toBe(got.length);
    // The payload is the DeCA as it stood after that change.
    const modificado = got.find((r) => r.evento === 'deca.modificado')!;
    expect(modificado.body.data.deca.version).toBe(2);
    expect(modificado.body.data.deca.matricula).toBe('5678FGH');
    expect(got.find((r) => r.evento === 'deca.sustituido')!.body.data.deca.estado).toBe('sustituido');
    expect(got.find((r) => r.evento === 'deca.fin_servicio')!.body.data.deca.fin_servicio_at).not.toBeNull();

    const entregas = await leerEntregas(app, c.live, wh.id);
    expect(entregas).toHaveLength(got.length);
    expect(entregas.map((e) => e.id)).toEqual(got.map((r) => r.entrega).reverse());
    for (const e of entregas) {
      expect(e.estado).toBe('entregada');
      expect(e.intento).toBe(1);
      expect(e.status).toBe(200);
      expect(e.intentos).toHaveLength(1);
      expect(e.proximo_intento_at).toBeNull();
      expect(JSON.stringify(e)).not.toContain('secreto_del_receptor');
    }
  });

  it('sends deca.completado when the other party completes through the link, and deca.descargado on a public open', async ({ app, rx }) => {
    const { c, wh, path } = await montar({ app, rx });
    const p = await crearDeca(app, c.live, { emitir: false, fecha_transporte: '2026-11-25', matricula: '1234BCD', conductor_nombre: 'Luis Pérez' });
    await entregarTodo(app);
    const form = {
      cargador_nombre: 'Frutas Peñalara, S.A.',
      cargador_nif: 'A58818501',
      cargador_domicilio: 'Camí Vell 3, 25001 Lleida',
      'envios[0].origen': 'Lleida',
      'envios[0].destino': 'Málaga',
      'envios[0].naturaleza': 'Fruta',
      'envios[0].peso': '24.500',
      'envios[0].unidad': 'kg',
      accion: 'enviar',
    };
    const done = await fetch(`${app.url}${new URL(p.urls.completar!).pathname}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': 'Mozilla/5.0' },
      body: new URLSearchParams(form).toString(),
    });
    expect(done.status, await done.text()).toBe(200);
    await entregarTodo(app);
    const ficha = new URL(p.urls.ficha).pathname;
    expect((await fetch(`${app.url}${ficha}`, { headers: { 'user-agent': 'Mozilla/5.0 (Linux; Android 14)' } })).status).toBe(200);
    expect((await fetch(`${app.url}${ficha}`, { headers: { 'user-agent': 'WhatsApp/2.23' } })).status).toBe(200); // a link preview: not an open
    await entregarTodo(app);
    const got = delPath(rx, path);
    expect(got.map((r) => r.evento)).toEqual(['deca.creado', 'deca.completado', 'deca.emitido', 'deca.descargado']);
    for (const r of got) expectFirmaValida(app, r, wh.secreto);
    expect(got[1]!.body.data.deca.estado).toBe('emitido');
    expect(got[3]!.body.data.deca.descargas).toBe(1);
  });

  it('delivers only the subscribed events, and each environment only its own', async ({ app, rx }) => {
    const c = await buildCuenta(app);
    const soloEmitido = await crearWebhookOk(app, c.live, { url: `${rx.url}/emitido`, eventos: ['deca.emitido'] });
    await crearWebhookOk(app, c.live, { url: `${rx.url}/fin`, eventos: ['deca.fin_servicio', 'deca.fin_servicio'] });
    const demo = await crearWebhookOk(app, c.test, { url: `${rx.url}/demo`, eventos: ['*'] }, '/demo/api/v1');
    expect(soloEmitido.eventos).toEqual(['deca.emitido']);
    const d = await crearDeca(app, c.live, decaCompleta());
    await entregarTodo(app);
    expect(delPath(rx, '/emitido').map((r) => r.evento)).toEqual(['deca.emitido']);
    expect(delPath(rx, '/fin')).toHaveLength(0);
    expect(delPath(rx, '/demo')).toHaveLength(0);
    await app.request('POST', `/api/v1/decas/${d.id}/fin`, { key: c.live });
    await crearDeca(app, c.test, decaCompleta(), '/demo/api/v1');
    await entregarTodo(app);
    expect(delPath(rx, '/fin').map((r) => r.evento)).toEqual(['deca.fin_servicio']);
    expect(delPath(rx, '/emitido')).toHaveLength(1);
    const enDemo = delPath(rx, '/demo');
    expect(enDemo.map((r) => r.evento)).toEqual(['deca.creado', 'deca.emitido']);
    for (const r of enDemo) {
      expect(r.body.entorno).toBe('pruebas');
      expectFirmaValida(app, r, demo.secreto);
    }
  });

  it('a paused webhook accumulates nothing and holds what was pending; resuming sends what waited', async ({ app, rx }) => {
    const { c, wh, path } = await montar({ app, rx });
    await crearDeca(app, c.live, { emitir: false, referencia: 'antes' }); // pending delivery, not yet sent
    const pausa = await app.request('PATCH', `/api/v1/webhooks/${wh.id}`, { key: c.live, body: { activo: false } });
    expect(pausa.status, pausa.text).toBe(200);
    const paused = Webhook.parse(pausa.body.webhook);
    expect(paused.activo).toBe(false);
    expect(paused.pausa_motivo).toMatch(/a mano/);
    await crearDeca(app, c.live, { emitir: false, referencia: 'durante' });
    expect(await entregarTodo(app)).toBe(0);
    expect(delPath(rx, path)).toHaveLength(0);
    expect(await leerEntregas(app, c.live, wh.id)).toHaveLength(1);

    const reanudar = await app.request('PATCH', `/api/v1/webhooks/${wh.id}`, { key: c.live, body: { activo: true } });
    const resumed = Webhook.parse(reanudar.body.webhook);
    expect(resumed.activo).toBe(true);
    expect(resumed.pausa_motivo).toBeNull();
    expect(resumed.pausado_at).toBeNull();
    await crearDeca(app, c.live, { emitir: false, referencia: 'despues' });
    await entregarTodo(app);
    expect(delPath(rx, path).map((r) => r.body.data.deca.referencia)).toEqual(['antes', 'despues']);
  });

  it('probar sends a signed ping at once and returns its result', async ({ app, rx }) => {
    const { c, wh, path } = await montar({ app, rx }, ['deca.emitido']);
    const res = await app.request('POST', `/api/v1/webhooks/${wh.id}/probar`, { key: c.live });
    expect(res.status, res.text).toBe(200);
    const r = EntregaResultado.parse(res.body);
    expect(r.ok).toBe(true);
    expect(r.entrega.evento).toBe('ping');
    expect(r.entrega.deca_numero).toBeNull();
    expect(r.entrega.estado).toBe('entregada');
    expect(r.entrega.status).toBe(200);
    expect(r.entrega.intentos).toEqual([expect.objectContaining({ numero: 1, status: 200, manual: true, error: null })]);
    const [ping] = delPath(rx, path);
    expect(ping!.evento).toBe('ping');
    expect(ping!.entrega).toBe(r.entrega.id);
    expect(ping!.body.data.webhook.id).toBe(wh.id);
    WebhookPayload.parse(ping!.body);
    expectFirmaValida(app, ping!, wh.secreto);
    expect(await entregarTodo(app)).toBe(0); // never picked up again by the worker

    rx.responder(() => 503);
    const bad = EntregaResultado.parse((await app.request('POST', `/api/v1/webhooks/${wh.id}/probar`, { key: c.live })).body);
    expect(bad.ok).toBe(false);
    expect(bad.entrega.estado).toBe('fallida');
    expect(bad.entrega.status).toBe(503);
    expect(bad.entrega.proximo_intento_at).toBeNull();
    expect(await entregarTodo(app)).toBe(0); // a ping is not retried
  });

  it('a receiver verifies a real delivery both ways, as the README shows: the standardwebhooks library and X-Deca-Firma', async ({ app, rx }) => {
    const { c, wh, path } = await montar({ app, rx }, ['deca.creado']);
    expect(wh.secreto).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    await crearDeca(app, c.live, { emitir: false });
    expect(await entregarTodo(app)).toBe(1);
    const [r] = delPath(rx, path);
    // 1. Standard Webhooks: the library, given the secret as shown, the raw body and the request's headers as they came.
    const payload = verificarStandard(app, wh.secreto, r!.raw, r!.headers as Record<string, string>);
    expect(payload).toMatchObject({ id: r!.entrega, evento: 'deca.creado' });
    expect(() => verificarStandard(app, `whsec_${Buffer.alloc(32, 7).toString('base64')}`, r!.raw, r!.headers as Record<string, string>)).toThrow(/signature/);
    // 2. The spec's scheme: X-Deca-Firma over t + "." + body, keyed with the whole secret.
    expect(verifySignature(wh.secreto, r!.headers['x-deca-firma'] as string, r!.raw, app.clock.now())).toBe(true);
    expect(r!.headers['x-deca-entrega']).toBe(r!.headers['webhook-id']);
  });

  it('500 then 200: retried at +1 min with the same X-Deca-Entrega, both attempts listed', async ({ app, rx }) => {
    const { c, wh, path } = await montar({ app, rx }, ['deca.creado']);
    rx.responder((_r, n) => (n === 0 ? 500 : 200));
    await crearDeca(app, c.live, { emitir: false });
    expect((await runWebhooksOnce({ db: app.database.db, clock: app.clock, allowInsecure: true })).intentadas).toBe(1);
    let [e] = await leerEntregas(app, c.live, wh.id);
    expect(e!.estado).toBe('pendiente');
    expect(e!.status).toBe(500);
    expect(e!.intento).toBe(1);
    const at = Date.parse(`${e!.intentos[0]!.at.replace(' ', 'T')}`);
    const proximo = Date.parse(e!.proximo_intento_at!.replace(' ', 'T'));
    expect(proximo - at).toBe(60_000);

    expect(await entregarTodo(app)).toBe(0);
    app.clock.advance(MIN - 2_000);
    expect(await entregarTodo(app)).toBe(0);
    app.clock.advance(2_000);
    expect(await entregarTodo(app)).toBe(1);
    [e] = await leerEntregas(app, c.live, wh.id);
    expect(e!.estado).toBe('entregada');
    expect(e!.intento).toBe(2);
    expect(e!.intentos.map((i) => [i.numero, i.status, i.manual])).toEqual([
      [1, 500, false],
      [2, 200, false],
    ]);
    expect(e!.intentos[0]!.proximo_intento_at).not.toBeNull();
    expect(e!.intentos[1]!.proximo_intento_at).toBeNull();
    const got = delPath(rx, path);
    expect(got).toHaveLength(2);
    expect(got[0]!.entrega).toBe(got[1]!.entrega);
    expect(got[0]!.raw.equals(got[1]!.raw)).toBe(true); // same body bytes on every attempt
    for (const r of got) expectFirmaValida(app, r, wh.secreto);
    // Standard Webhooks: the same webhook-id on the retry (the receiver's idempotency key), the attempt's own timestamp.
    expect(got[1]!.headers['webhook-id']).toBe(got[0]!.headers['webhook-id']);
    expect(Number(got[1]!.headers['webhook-timestamp']) - Number(got[0]!.headers['webhook-timestamp'])).toBeGreaterThanOrEqual(60);
  });

  it('retries at +1 min, +5 min, +30 min, +2 h, +12 h, then gives up', async ({ app, rx }) => {
    const { c, wh, path } = await montar({ app, rx }, ['deca.creado']);
    rx.responder(() => 503);
    await crearDeca(app, c.live, { emitir: false });
    expect(await entregarTodo(app)).toBe(1);
    for (const delay of REINTENTOS_MS) {
      app.clock.advance(delay - 1_000);
      expect(await entregarTodo(app)).toBe(0);
      app.clock.advance(1_000);
      expect(await entregarTodo(app)).toBe(1);
    }
    app.clock.advance(48 * 60 * MIN);
    expect(await entregarTodo(app)).toBe(0);
    const [e] = await leerEntregas(app, c.live, wh.id);
    expect(e!.estado).toBe('fallida');
    expect(e!.intento).toBe(6);
    expect(e!.proximo_intento_at).toBeNull();
    const gaps = e!.intentos.slice(0, 5).map((i) => Date.parse(i.proximo_intento_at!.replace(' ', 'T')) - Date.parse(i.at.replace(' ', 'T')));
    expect(gaps).toEqual([...REINTENTOS_MS]);
    expect(e!.intentos[5]!.proximo_intento_at).toBeNull();
    expect(delPath(rx, path)).toHaveLength(6);
    const hook = Webhook.parse((await app.request('GET', `/api/v1/webhooks/${wh.id}`, { key: c.live })).body.webhook);
    expect(hook.fallando_desde).not.toBeNull();
    expect(hook.activo).toBe(true); // under 5 days of failures
  });

  it('logs a receiver that hangs as a timeout (short timeout injected) and schedules the retry', async ({ app, rx }) => {
    const { c, wh, path } = await montar({ app, rx }, ['deca.creado']);
    rx.responder(() => ({ hang: true }));
    await crearDeca(app, c.live, { emitir: false });
    const started = performance.now();
    await runWebhooksOnce({ db: app.database.db, clock: app.clock, allowInsecure: true, timeoutMs: 300 });
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
    const [e] = await leerEntregas(app, c.live, wh.id);
    expect(e!.status).toBeNull();
    // Given up by its own 300 ms timeout (the attempt's signal timed out), not by anything else.
    expect(e!.error).toBe('Sin respuesta en 300 ms (tiempo agotado)');
    expect(e!.duracion_ms).toBeGreaterThanOrEqual(290);
    expect(e!.estado).toBe('pendiente');
    expect(e!.proximo_intento_at).not.toBeNull();
    expect(delPath(rx, path)).toHaveLength(1);
  });

  it('a 410 Gone pauses the webhook and says why; nothing more accumulates', async ({ app, rx }) => {
    const { c, wh } = await montar({ app, rx }, ['deca.creado']);
    rx.responder(() => 410);
    await crearDeca(app, c.live, { emitir: false });
    await entregarTodo(app);
    const hook = Webhook.parse((await app.request('GET', `/api/v1/webhooks/${wh.id}`, { key: c.live })).body.webhook);
    expect(hook.activo).toBe(false);
    expect(hook.pausa_motivo).toMatch(/410 Gone/);
    const [e] = await leerEntregas(app, c.live, wh.id);
    expect(e!.estado).toBe('fallida');
    expect(e!.error).toMatch(/410/);
    await crearDeca(app, c.live, { emitir: false });
    expect(await leerEntregas(app, c.live, wh.id)).toHaveLength(1);
  });

  it('pauses a webhook whose every delivery failed for 5 days; a 2xx in between resets the count', async ({ app, rx }) => {
    const { c, wh } = await montar({ app, rx }, ['deca.creado']);
    rx.responder(() => 500);
    await crearDeca(app, c.live, { emitir: false });
    await entregarTodo(app);
    const desde = Webhook.parse((await app.request('GET', `/api/v1/webhooks/${wh.id}`, { key: c.live })).body.webhook).fallando_desde;
    expect(desde).not.toBeNull();

    app.clock.advance(3 * 24 * 60 * MIN);
    rx.responder(() => 200);
    await crearDeca(app, c.live, { emitir: false });
    await entregarTodo(app); // the old one's retries are long over; the new one succeeds
    let hook = Webhook.parse((await app.request('GET', `/api/v1/webhooks/${wh.id}`, { key: c.live })).body.webhook);
    expect(hook.fallando_desde).toBeNull();

    rx.responder(() => 500);
    await crearDeca(app, c.live, { emitir: false });
    await entregarTodo(app);
    app.clock.advance(5 * 24 * 60 * MIN - MIN);
    await crearDeca(app, c.live, { emitir: false });
    await entregarTodo(app);
    hook = Webhook.parse((await app.request('GET', `/api/v1/webhooks/${wh.id}`, { key: c.live })).body.webhook);
    expect(hook.activo).toBe(true);
    app.clock.advance(2 * MIN);
    await crearDeca(app, c.live, { emitir: false });
    await entregarTodo(app);
    hook = Webhook.parse((await app.request('GET', `/api/v1/webhooks/${wh.id}`, { key: c.live })).body.webhook);
    expect(hook.activo).toBe(false);
    expect(hook.pausa_motivo).toMatch(/5 días/);
    expect(hook.pausa_motivo).toContain(hook.fallando_desde!);
  });

  it('keeps the events of one DeCA in order across retries, without holding other DeCAs back', async ({ app, rx }) => {
    const { c, path } = await montar({ app, rx });
    let fallada = false;
    rx.responder((r) => {
      if (!fallada && r.evento === 'deca.creado' && r.body.data.deca.referencia === 'X') {
        fallada = true;
        return 500;
      }
      return 200;
    });
    const x = await crearDeca(app, c.live, decaCompleta({ referencia: 'X' })); // creado, emitido
    const y = await crearDeca(app, c.live, decaCompleta({ referencia: 'Y' }));
    await entregarTodo(app);
    // X's emitido waits behind X's creado (pending its retry); Y is not held back.
    expect(delPath(rx, path).map((r) => `${r.body.data.deca.referencia}:${r.evento}`)).toEqual(['X:deca.creado', 'Y:deca.creado', 'Y:deca.emitido']);
    const mod = await app.request('PATCH', `/api/v1/decas/${x.id}`, { key: c.live, body: { matricula: '9999 ZZZ', motivo: 'Otro camión' } });
    expect(mod.status, mod.text).toBe(200);
    expect(await entregarTodo(app)).toBe(0);
    app.clock.advance(MIN);
    await entregarTodo(app);
    expect(delPath(rx, path).map((r) => `${r.body.data.deca.referencia}:${r.evento}`)).toEqual([
      'X:deca.creado',
      'Y:deca.creado',
      'Y:deca.emitido',
      'X:deca.creado',
      'X:deca.emitido',
      'X:deca.modificado',
    ]);
    expect(y.id).not.toBe(x.id);
  });

  it('re-sends one delivery by hand with the same id and body (extension)', async ({ app, rx }) => {
    const { c, wh, path } = await montar({ app, rx }, ['deca.creado']);
    await crearDeca(app, c.live, { emitir: false });
    await entregarTodo(app);
    const [first] = delPath(rx, path);
    const res = await app.request('POST', `/api/v1/webhooks/${wh.id}/entregas/${first!.entrega}/reenviar`, { key: c.live });
    expect(res.status, res.text).toBe(200);
    const r = EntregaResultado.parse(res.body);
    expect(r.ok).toBe(true);
    expect(r.entrega.intentos.map((i) => [i.numero, i.manual])).toEqual([
      [1, false],
      [2, true],
    ]);
    const again = delPath(rx, path)[1]!;
    expect(again.entrega).toBe(first!.entrega);
    expect(again.raw.equals(first!.raw)).toBe(true);
    expectFirmaValida(app, again, wh.secreto);

    // A pending retry sent by hand and answered 2xx is delivered (and not sent again by the worker).
    rx.responder(() => 500);
    await crearDeca(app, c.live, { emitir: false });
    await entregarTodo(app);
    const pending = (await leerEntregas(app, c.live, wh.id))[0]!;
    expect(pending.estado).toBe('pendiente');
    rx.responder(() => 200);
    const ok = EntregaResultado.parse((await app.request('POST', `/api/v1/webhooks/${wh.id}/entregas/${pending.id}/reenviar`, { key: c.live })).body);
    expect(ok.entrega.estado).toBe('entregada');
    app.clock.advance(MIN);
    expect(await entregarTodo(app)).toBe(0);

    expectError(await app.request('POST', `/api/v1/webhooks/${wh.id}/entregas/ev_noexiste/reenviar`, { key: c.live }), 404, 'no_encontrado');
    const other = await buildCuenta(app);
    expectError(await app.request('POST', `/api/v1/webhooks/${wh.id}/entregas/${first!.entrega}/reenviar`, { key: other.live }), 404, 'no_encontrado');
  });

  it('lists the last 100 deliveries, newest first', async ({ app, rx }) => {
    const { c, wh } = await montar({ app, rx }, ['deca.creado']);
    const numeros = new Map<number, string>();
    for (let i = 0; i < 103; i++) {
      const d = await crearDeca(app, c.live, { emitir: false, referencia: `L-${i}` });
      numeros.set(d.id, d.numero);
    }
    await entregarTodo(app);
    const entregas = await leerEntregas(app, c.live, wh.id);
    expect(entregas).toHaveLength(100);
    const ids = entregas.map((e) => e.deca_id!);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    // Each says which DeCA it is about, by the number people know it by.
    for (const e of entregas) expect(e.deca_numero).toBe(numeros.get(e.deca_id!));
    // A DeCA deleted since (a pending one) keeps its number in its deliveries.
    const borrada = entregas[0]!;
    expect((await app.request('DELETE', `/api/v1/decas/${borrada.deca_id}`, { key: c.live })).status).toBe(200);
    expect((await leerEntregas(app, c.live, wh.id)).find((e) => e.id === borrada.id)?.deca_numero).toBe(numeros.get(borrada.deca_id!));
  });

  it('prunes deliveries 30 days after their week ended, by dropping its partitions', async ({ app, rx }) => {
    const { c, wh } = await montar({ app, rx }, ['deca.creado']);
    await crearDeca(app, c.live, { emitir: false });
    await entregarTodo(app);
    expect(await leerEntregas(app, c.live, wh.id)).toHaveLength(1);
    // (Set from real time: the deliveries' week is the database's.)
    app.clock.set(new Date(Date.now() + 29 * 24 * 60 * MIN));
    expect(await podarEntregas(app.database.db, app.clock)).toBe(0);
    expect(await leerEntregas(app, c.live, wh.id)).toHaveLength(1);
    app.clock.set(new Date(Date.now() + 38 * 24 * 60 * MIN));
    expect(await podarEntregas(app.database.db, app.clock)).toBeGreaterThanOrEqual(1);
    expect(await leerEntregas(app, c.live, wh.id)).toHaveLength(0);
    const left = await app.database.db.selectFrom('webhook_intentos').select('id').where('account_id', '=', c.account.id).execute();
    expect(left).toHaveLength(0);
  });
});
