import { createHash } from 'node:crypto';
import { describe, expect } from 'vitest';
import { ErrorBody } from '../../shared/errors';
import { DecaCreada } from '../../shared/schemas/deca';
import type { TestApp } from '../support/app';
import { clienteDePrueba } from '../support/cliente';
import { decaCompleta } from '../support/decas';
import { it, test } from '../support/fixtures';

// A built client, so a path the app shell would take is really answered with it unless excluded.
test.override('opcionesApp', { clientDir: clienteDePrueba() });

const JSON_RPC = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'prueba', version: '1' } } };

/** A 401 with the documented body and the Bearer challenge; returns the challenge. */
function desafio(res: { status: number; body: unknown; headers: Headers }): string {
  expect(res.status).toBe(401);
  expect(ErrorBody.parse(res.body).error.codigo).toBe('no_autenticado');
  const h = res.headers.get('www-authenticate');
  expect(h).not.toBeNull();
  return h!;
}

describe('401 carries WWW-Authenticate: Bearer (RFC 9110 §11.6.1, RFC 6750 §3)', () => {
  it('without a key: the scheme and the realm of the environment, no error code', async ({ app }) => {
    expect(desafio(await app.request('GET', '/api/v1/decas'))).toBe('Bearer realm="DeCA produccion"');
    expect(desafio(await app.request('POST', '/api/v1/decas', { body: {} }))).toBe('Bearer realm="DeCA produccion"');
    expect(desafio(await app.request('GET', '/demo/api/v1/decas'))).toBe('Bearer realm="DeCA pruebas"');
    // An unknown path under the API needs a key too, and says so the same way.
    expect(desafio(await app.request('GET', '/api/v1/no-existe'))).toBe('Bearer realm="DeCA produccion"');
    // A session cookie that is no longer valid presents no key either.
    expect(desafio(await app.request('GET', '/api/v1/cuenta', { cookie: 'deca_sesion=caducada' }))).toBe('Bearer realm="DeCA produccion"');
  });

  it('with a key that is not valid here: error="invalid_token" — unknown, malformed, of the other environment, or revoked', async ({ app, cuentaNueva: c }) => {
    const invalida = 'Bearer realm="DeCA produccion", error="invalid_token"';
    expect(desafio(await app.request('GET', '/api/v1/cuenta', { key: `dg_live_${'x'.repeat(43)}` }))).toBe(invalida);
    expect(desafio(await app.request('GET', '/api/v1/cuenta', { headers: { 'X-API-Key': 'dg_live_no_existe' } }))).toBe(invalida);
    expect(desafio(await app.request('GET', '/api/v1/cuenta', { headers: { authorization: 'Basic abc' } }))).toBe(invalida);
    expect(desafio(await app.request('GET', '/api/v1/cuenta', { key: c.test }))).toBe(invalida);
    expect(desafio(await app.request('GET', '/demo/api/v1/cuenta', { key: c.live }))).toBe('Bearer realm="DeCA pruebas", error="invalid_token"');

    // Revoked in the app, by its owner: the key that worked a moment ago is refused with the same challenge.
    expect((await app.request('GET', '/api/v1/cuenta', { key: c.liveReadOnly })).status).toBe(200);
    const sesion = await app.request('POST', '/app/api/sesion', { headers: { 'X-DeCA-CSRF': '1' }, body: { email: c.email, password: c.password } });
    expect(sesion.status, sesion.text).toBe(200);
    const cookie = sesion.headers
      .getSetCookie()
      .find((s) => s.startsWith('deca_sesion='))!
      .split(';')[0]!;
    const revocada = await app.request('DELETE', `/app/api/claves/${c.keyIds.liveReadOnly}`, { cookie, headers: { 'X-DeCA-CSRF': '1' } });
    expect(revocada.status, revocada.text).toBe(200);
    const res = await app.request('GET', '/api/v1/cuenta', { key: c.liveReadOnly });
    expect(desafio(res)).toBe(invalida);
    expect(ErrorBody.parse(res.body).error.mensaje).toMatch(/revocada/);
  });

  it('MCP answers its 401s the same way (its clients read the challenge)', async ({ app, c }) => {
    const rpc = (headers: Record<string, string>, ruta = '/mcp') => app.request('POST', ruta, { headers: { accept: 'application/json, text/event-stream', ...headers }, body: JSON_RPC });
    expect(desafio(await rpc({}))).toBe('Bearer realm="DeCA produccion"');
    expect(desafio(await rpc({ authorization: 'Bearer dg_live_no_existe' }))).toBe('Bearer realm="DeCA produccion", error="invalid_token"');
    expect(desafio(await rpc({ authorization: `Bearer ${c.live}` }, '/demo/mcp'))).toBe('Bearer realm="DeCA pruebas", error="invalid_token"');
  });

  it('a request that gets in carries no challenge', async ({ app, c }) => {
    const res = await app.request('GET', '/api/v1/cuenta', { key: c.live });
    expect(res.status).toBe(200);
    expect(res.headers.get('www-authenticate')).toBeNull();
  });
});

/** GET the PDF with optional extra headers: status, ETag and the body's bytes. */
async function pdf(app: TestApp, key: string, id: number, headers: Record<string, string> = {}, method = 'GET') {
  const res = await fetch(`${app.url}/api/v1/decas/${id}/pdf`, { method, headers: { authorization: `Bearer ${key}`, ...headers } });
  const body = Buffer.from(await res.arrayBuffer());
  return { status: res.status, etag: res.headers.get('etag'), headers: res.headers, body };
}

describe('If-None-Match on a GET that sends an ETag → 304 Not Modified (RFC 9110 §13.1.2, §15.4.5)', () => {
  it('the PDF of a DeCA: 304 with no body and the same ETag while it is the same; 200 with the new one once the DeCA changes', async ({ app, c }) => {
    const creada = await app.request('POST', '/api/v1/decas', { key: c.live, body: decaCompleta() });
    expect(creada.status, creada.text).toBe(201);
    const { deca } = DecaCreada.parse(creada.body);

    const v1 = await pdf(app, c.live, deca.id);
    expect(v1.status).toBe(200);
    expect(v1.etag).toBe(`"${deca.pdf_sha256}"`);
    expect(createHash('sha256').update(v1.body).digest('hex')).toBe(deca.pdf_sha256);

    for (const campo of [v1.etag!, `W/${v1.etag}`, `"otra", ${v1.etag}`, '*']) {
      const r = await pdf(app, c.live, deca.id, { 'if-none-match': campo });
      expect(r.status, campo).toBe(304);
      expect(r.body.length, campo).toBe(0);
      expect(r.etag, campo).toBe(v1.etag);
      expect(r.headers.get('cache-control')).toBe('private, no-cache');
      expect(r.headers.get('content-type')).toBeNull();
    }
    const head = await pdf(app, c.live, deca.id, { 'if-none-match': v1.etag! }, 'HEAD');
    expect(head.status).toBe(304);
    expect(head.etag).toBe(v1.etag);

    // Another tag, or none: the whole PDF.
    const otra = await pdf(app, c.live, deca.id, { 'if-none-match': '"otra"' });
    expect(otra.status).toBe(200);
    expect(otra.body.equals(v1.body)).toBe(true);

    // Method 1 modification: version 2, another PDF, another ETag — the old one no longer matches.
    app.clock.advance(60_000);
    const mod = await app.request('PATCH', `/api/v1/decas/${deca.id}`, { key: c.live, body: { matricula: '5678 FGH', motivo: 'Cambio de camión por avería' } });
    expect(mod.status, mod.text).toBe(200);
    const v2 = await pdf(app, c.live, deca.id, { 'if-none-match': v1.etag! });
    expect(v2.status).toBe(200);
    expect(v2.etag).not.toBe(v1.etag);
    expect(v2.etag).toBe(`"${createHash('sha256').update(v2.body).digest('hex')}"`);
    expect((await pdf(app, c.live, deca.id, { 'if-none-match': v2.etag! })).status).toBe(304);
  });

  it('a refusal stays a refusal: no key → 401, a pending DeCA → 409, whatever If-None-Match says', async ({ app, c }) => {
    const creada = await app.request('POST', '/api/v1/decas', { key: c.live, body: { emitir: false, referencia: 'sin emitir' } });
    expect(creada.status, creada.text).toBe(201);
    const id = DecaCreada.parse(creada.body).deca.id;
    const sinClave = await fetch(`${app.url}/api/v1/decas/${id}/pdf`, { headers: { 'if-none-match': '*' } });
    expect(sinClave.status).toBe(401);
    expect((await pdf(app, c.live, id, { 'if-none-match': '*' })).status).toBe(409);
  });
});

describe('/.well-known/ is never the app shell', () => {
  it('the OAuth metadata MCP clients probe, and any other /.well-known/ path: 404 with the JSON error body', async ({ app }) => {
    // The shell is really served here for an unknown client route (so the 404s below are not for want of one).
    expect((await app.request('GET', '/cualquier/ruta')).text).toContain('<div id="app">');
    for (const ruta of [
      '/.well-known/oauth-protected-resource',
      '/.well-known/oauth-protected-resource/mcp',
      '/.well-known/oauth-authorization-server',
      '/.well-known/openid-configuration',
      '/.well-known/security.txt',
      '/.well-known',
    ]) {
      const res = await app.request('GET', ruta);
      expect(res.status, ruta).toBe(404);
      expect(res.headers.get('content-type'), ruta).toMatch(/^application\/json/);
      expect(res.text, ruta).not.toContain('<');
      expect(ErrorBody.parse(res.body).error.codigo, ruta).toBe('no_encontrado');
      const head = await fetch(`${app.url}${ruta}`, { method: 'HEAD' });
      expect(head.status, ruta).toBe(404);
    }
  });
});

describe('the OpenAPI document declares them', () => {
  interface Cabecera {
    $ref?: string;
    required?: boolean;
    schema?: { pattern?: string };
  }
  interface Doc {
    paths: Record<string, Record<string, { responses: Record<string, { headers?: Record<string, Cabecera>; content?: unknown }>; parameters?: { in: string; name: string }[] }>>;
    webhooks: Record<string, { post: { parameters: { in: string; name: string; required?: boolean; schema: { pattern?: string } }[] } }>;
    components: { headers: Record<string, Cabecera>; responses: Record<string, { headers?: Record<string, Cabecera> }> };
  }

  it('WWW-Authenticate on every 401, 304 with its ETag where an ETag is sent, and the Standard Webhooks headers of a delivery', async ({ app }) => {
    const doc = (await app.request('GET', '/api/v1/openapi.json')).body as Doc;
    const www = doc.components.headers['WWW-Authenticate']!;
    expect(www.required).toBe(true);
    const patron = new RegExp(www.schema!.pattern!);
    // What the server really sends matches what is declared, with and without a key.
    expect(patron.test(desafio(await app.request('GET', '/api/v1/decas')))).toBe(true);
    expect(patron.test(desafio(await app.request('GET', '/api/v1/decas', { key: 'dg_live_no_existe' })))).toBe(true);
    let operaciones = 0;
    for (const [ruta, metodos] of Object.entries(doc.paths)) {
      for (const [metodo, op] of Object.entries(metodos)) {
        operaciones++;
        expect(op.responses['401'], `${metodo} ${ruta}`).toEqual({ $ref: '#/components/responses/NoAutenticado' });
        const conEtag = Object.values(op.responses).some((r) => r.headers?.ETag);
        expect(op.responses['304'] !== undefined, `${metodo} ${ruta}`).toBe(metodo === 'get' && conEtag);
      }
    }
    expect(operaciones).toBeGreaterThan(30);
    expect(doc.components.responses.NoAutenticado!.headers!['WWW-Authenticate']).toEqual({ $ref: '#/components/headers/WWW-Authenticate' });
    const pdfGet = doc.paths['/decas/{id}/pdf']!.get!;
    expect(pdfGet.responses['304']!.headers!.ETag).toBeDefined();
    expect(pdfGet.responses['304']!.content).toBeUndefined();
    expect(pdfGet.parameters!.some((p) => p.in === 'header' && p.name === 'If-None-Match')).toBe(true);

    for (const [evento, { post }] of Object.entries(doc.webhooks)) {
      const nombres = post.parameters.filter((p) => p.in === 'header').map((p) => p.name);
      expect(nombres, evento).toEqual(expect.arrayContaining(['webhook-id', 'webhook-timestamp', 'webhook-signature']));
    }
  });
});
