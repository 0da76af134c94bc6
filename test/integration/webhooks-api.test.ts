import { describe, expect } from 'vitest';
import { MAX_WEBHOOKS } from '../../server/domain/webhooks/webhooks';
import { Webhook, WebhookList } from '../../shared/schemas/webhook';
import { buildCuenta } from '../support/factories';
import { it } from '../support/fixtures';
import { crearWebhookOk, expectError, leerEntregas } from '../support/webhooks';

// WEBHOOK_ALLOW_INSECURE is off here: creation applies the full target policy.
// Public targets are IP literals, so creating them asks no DNS, and nothing is
// ever delivered in this file (no DeCA is created, no worker runs).
const PUBLICA = 'https://93.184.216.34/deca';

describe('webhook endpoints', () => {
  it('creates a webhook (201) showing the whsec_ secret once; lists and reads never show it', async ({ app, c }) => {
    const res = await app.request('POST', '/api/v1/webhooks', { key: c.live, body: { url: PUBLICA, eventos: ['deca.emitido', 'deca.creado'], descripcion: '  ERP  ' } });
    expect(res.status, res.text).toBe(201);
    const created = res.body.webhook;
    expect(created.secreto).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(created.eventos).toEqual(['deca.creado', 'deca.emitido']);
    expect(created.descripcion).toBe('ERP');
    expect(created.activo).toBe(true);
    expect(res.headers.get('location')).toMatch(new RegExp(`/api/v1/webhooks/${created.id}$`));
    expect(res.headers.get('cache-control')).toBe('no-store');

    const list = await app.request('GET', '/api/v1/webhooks', { key: c.live });
    expect(list.status).toBe(200);
    const { webhooks } = WebhookList.parse(list.body);
    const listed = webhooks.find((w) => w.id === created.id)!;
    expect(listed.url).toBe(PUBLICA);
    expect(listed.secreto_prefijo).toBe(`${created.secreto.slice(0, 10)}…`);
    expect(list.text).not.toContain(created.secreto);
    const one = await app.request('GET', `/api/v1/webhooks/${created.id}`, { key: c.live });
    expect(Webhook.parse(one.body.webhook).id).toBe(created.id);
    expect(one.text).not.toContain(created.secreto);
    expect(await leerEntregas(app, c.live, created.id)).toEqual([]);
  });

  it('defaults eventos to ["*"] and validates them against the known names', async ({ app, c }) => {
    const w = await crearWebhookOk(app, c.live, { url: PUBLICA });
    expect(w.eventos).toEqual(['*']);
    let e = expectError(await app.request('POST', '/api/v1/webhooks', { key: c.live, body: { url: PUBLICA, eventos: ['deca.emitido', 'deca.borrado'] } }), 422, 'validacion');
    expect(e.campos['eventos[1]']).toMatch(/deca\.borrado/);
    e = expectError(await app.request('POST', '/api/v1/webhooks', { key: c.live, body: { url: PUBLICA, eventos: ['*', 'deca.emitido'] } }), 422, 'validacion');
    expect(e.campos.eventos).toMatch(/\*/);
    e = expectError(await app.request('POST', '/api/v1/webhooks', { key: c.live, body: { url: PUBLICA, eventos: [] } }), 422, 'validacion');
    expect(Object.keys(e.campos)).toEqual(['eventos']);
    e = expectError(await app.request('POST', '/api/v1/webhooks', { key: c.live, body: { eventos: 'deca.emitido' } }), 422, 'validacion');
    expect(Object.keys(e.campos).sort()).toEqual(['eventos', 'url']);
    expectError(await app.request('POST', '/api/v1/webhooks', { key: c.live, body: '{"url":' }), 400, 'json_invalido');
  });

  it.for([
    ['http://93.184.216.34/deca', /https:\/\//],
    ['ftp://93.184.216.34/deca', /https:\/\//],
    ['https://127.0.0.1/deca', /loopback/],
    ['https://127.8.9.10:8443/deca', /loopback/],
    ['https://10.0.0.1/deca', /privada/],
    ['https://172.16.5.4/deca', /privada/],
    ['https://192.168.1.1/deca', /privada/],
    ['https://169.254.169.254/latest/meta-data/', /metadatos/],
    ['https://169.254.10.10/', /enlace local/],
    ['https://100.64.0.1/', /CGNAT/],
    ['https://0.0.0.0/', /no especificada/],
    ['https://224.0.0.1/', /multicast/],
    ['https://[::1]/deca', /loopback/],
    ['https://[::]/deca', /no especificada/],
    ['https://[::ffff:127.0.0.1]/deca', /IPv4 mapeada/],
    ['https://[::ffff:a00:1]/deca', /IPv4 mapeada/],
    ['https://[fc00::1]/deca', /ULA/],
    ['https://[fd12:3456::1]/deca', /ULA/],
    ['https://[fe80::1]/deca', /enlace local/],
    ['https://[ff02::1]/deca', /multicast/],
    ['https://2130706433/deca', /loopback/], // 127.0.0.1 written as one number
    ['https://0x7f.1/deca', /loopback/],
    ['https://localhost/deca', /localhost apunta a/], // a DNS name resolving to loopback (/etc/hosts: no network)
    ['https://user:pass@93.184.216.34/deca', /usuario/],
    ['no es una url', /no es válida/],
  ] as const)('refuses %s at creation', async ([url, motivo], { app, c }) => {
    const res = await app.request('POST', '/api/v1/webhooks', { key: c.live, body: { url } });
    // The spec's 422 code (a client written against it knows no other), the precise reason in campos.url.
    const e = expectError(res, 422, 'validacion');
    expect(Object.keys(e.campos)).toEqual(['url']);
    expect(e.campos.url).toMatch(motivo);
    expect(e.mensaje).toMatch(motivo);
  });

  it('scopes webhooks to the account and the environment', async ({ app, c }) => {
    const mine = await crearWebhookOk(app, c.live, { url: PUBLICA });
    const other = await buildCuenta(app);
    const theirs = await app.request('GET', '/api/v1/webhooks', { key: other.live });
    expect(WebhookList.parse(theirs.body).webhooks).toEqual([]);
    for (const [method, path] of [
      ['GET', `/api/v1/webhooks/${mine.id}`],
      ['PATCH', `/api/v1/webhooks/${mine.id}`],
      ['DELETE', `/api/v1/webhooks/${mine.id}`],
      ['GET', `/api/v1/webhooks/${mine.id}/entregas`],
      ['POST', `/api/v1/webhooks/${mine.id}/probar`],
    ] as const) {
      expectError(await app.request(method, path, { key: other.live, body: method === 'PATCH' ? { activo: false } : undefined }), 404, 'no_encontrado');
    }
    // The test environment is separate data too.
    expectError(await app.request('GET', `/demo/api/v1/webhooks/${mine.id}`, { key: c.test }), 404, 'no_encontrado');
    const demo = await crearWebhookOk(app, c.test, { url: PUBLICA }, '/demo/api/v1');
    const live = WebhookList.parse((await app.request('GET', '/api/v1/webhooks', { key: c.live })).body).webhooks;
    expect(live.map((w) => w.id)).not.toContain(demo.id);
    expectError(await app.request('GET', '/api/v1/webhooks/abc', { key: c.live }), 404, 'no_encontrado');
  });

  it('lets read-only keys list but not write', async ({ app, c }) => {
    const w = await crearWebhookOk(app, c.live, { url: PUBLICA });
    expect((await app.request('GET', '/api/v1/webhooks', { key: c.liveReadOnly })).status).toBe(200);
    expect((await app.request('GET', `/api/v1/webhooks/${w.id}/entregas`, { key: c.liveReadOnly })).status).toBe(200);
    expectError(await app.request('POST', '/api/v1/webhooks', { key: c.liveReadOnly, body: { url: PUBLICA } }), 403, 'solo_lectura');
    expectError(await app.request('PATCH', `/api/v1/webhooks/${w.id}`, { key: c.liveReadOnly, body: { activo: false } }), 403, 'solo_lectura');
    expectError(await app.request('DELETE', `/api/v1/webhooks/${w.id}`, { key: c.liveReadOnly }), 403, 'solo_lectura');
    expectError(await app.request('POST', `/api/v1/webhooks/${w.id}/probar`, { key: c.liveReadOnly }), 403, 'solo_lectura');
    expectError(await app.request('GET', '/api/v1/webhooks', {}), 401, 'no_autenticado');
  });

  it('pauses and resumes with PATCH {activo}; resuming clears the reason', async ({ app, c }) => {
    const w = await crearWebhookOk(app, c.live, { url: PUBLICA });
    let res = await app.request('PATCH', `/api/v1/webhooks/${w.id}`, { key: c.live, body: { activo: false } });
    let hook = Webhook.parse(res.body.webhook);
    expect(hook.activo).toBe(false);
    expect(hook.pausa_motivo).toMatch(/Pausado a mano/);
    expect(hook.pausado_at).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    res = await app.request('PATCH', `/api/v1/webhooks/${w.id}`, { key: c.live, body: { activo: true } });
    hook = Webhook.parse(res.body.webhook);
    expect(hook).toMatchObject({ activo: true, pausa_motivo: null, pausado_at: null });
    res = await app.request('PATCH', `/api/v1/webhooks/${w.id}`, { key: c.live, body: { eventos: ['deca.fin_servicio'], descripcion: '' } });
    expect(Webhook.parse(res.body.webhook)).toMatchObject({ eventos: ['deca.fin_servicio'], descripcion: null, activo: true });
    expectError(await app.request('PATCH', `/api/v1/webhooks/${w.id}`, { key: c.live, body: {} }), 422, 'validacion');
    expectError(await app.request('PATCH', `/api/v1/webhooks/${w.id}`, { key: c.live, body: { activo: 'no' } }), 422, 'validacion');
  });

  it('deletes a webhook', async ({ app, c }) => {
    const w = await crearWebhookOk(app, c.live, { url: PUBLICA });
    const res = await app.request('DELETE', `/api/v1/webhooks/${w.id}`, { key: c.live });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ eliminado: true, id: w.id });
    expectError(await app.request('GET', `/api/v1/webhooks/${w.id}`, { key: c.live }), 404, 'no_encontrado');
    expectError(await app.request('DELETE', `/api/v1/webhooks/${w.id}`, { key: c.live }), 404, 'no_encontrado');
  });

  it(`refuses more than ${MAX_WEBHOOKS} webhooks per account and environment`, async ({ app, c }) => {
    const d = await buildCuenta(app);
    for (let i = 0; i < MAX_WEBHOOKS; i++) await crearWebhookOk(app, d.live, { url: `${PUBLICA}/${i}` });
    expectError(await app.request('POST', '/api/v1/webhooks', { key: d.live, body: { url: PUBLICA } }), 409, 'limite_webhooks');
    await crearWebhookOk(app, d.test, { url: PUBLICA }, '/demo/api/v1');
  });
});
