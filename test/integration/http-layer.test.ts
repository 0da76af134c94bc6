import { describe, expect } from 'vitest';
import { ErrorBody } from '../../shared/errors';
import { rawRequest, startTestApp, type TestApp } from '../support/app';
import { clienteDePrueba } from '../support/cliente';
import { buildCuenta } from '../support/factories';
import { it, test } from '../support/fixtures';

test.override('opcionesApp', { clientDir: clienteDePrueba() });

const CSRF = { 'X-DeCA-CSRF': '1' };

describe('request bodies and the documented error body', () => {
  it('400 json_invalido for a body that is not JSON', async ({ app, c }) => {
    const res = await app.request('POST', '/app/api/sesion', { headers: CSRF, body: '{"email": "a@b.c",' });
    expect(res.status).toBe(400);
    const body = ErrorBody.parse(res.body);
    expect(body.error.codigo).toBe('json_invalido');
    expect(body.error.request_id).toBe(res.headers.get('x-request-id'));
  });

  it('413 demasiado_grande with the error body for an oversize body', async ({ app }) => {
    const res = await app.request('POST', '/app/api/registro', { headers: CSRF, body: JSON.stringify({ nombre: 'x'.repeat(40_000) }) });
    expect(res.status).toBe(413);
    const body = ErrorBody.parse(res.body);
    expect(body.error.codigo).toBe('demasiado_grande');
    expect(body.error.mensaje).toMatch(/16 KB/);
  });

  it('403 for a POST without Content-Length (chunked), with the error body and request id', async ({ app, c }) => {
    const res = await rawRequest(app.url, {
      method: 'POST',
      path: '/api/v1/cuenta',
      headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked', authorization: `Bearer ${c.live}` },
      chunks: ['{}'],
    });
    expect(res.status).toBe(403);
    const body = ErrorBody.parse(JSON.parse(res.body));
    expect(body.error.codigo).toBe('sin_longitud');
    expect(res.headers['x-request-id']).toBe(body.error.request_id);
  });

  it('422 validacion naming every failing field', async ({ app }) => {
    const res = await app.request('POST', '/app/api/registro', {
      headers: CSRF,
      body: { nombre: '', email: 'no-es-correo', password: 'corta' },
    });
    expect(res.status).toBe(422);
    const body = ErrorBody.parse(res.body);
    expect(body.error.codigo).toBe('validacion');
    expect(Object.keys(body.error.campos).sort()).toEqual(['domicilio', 'email', 'nif', 'nombre', 'password']);
    expect(body.error.campos.password).toMatch(/10 caracteres/);
  });

  it("400 json_invalido (the spec's code for a body that is not JSON) for a body type the route does not take", async ({ app, c }) => {
    for (const path of ['/app/api/sesion', '/api/v1/decas']) {
      const res = await app.request('POST', path, { key: c.live, headers: { ...CSRF, 'content-type': 'application/xml' }, body: '<a/>' });
      expect(res.status).toBe(400);
      const { error } = ErrorBody.parse(res.body);
      expect(error.codigo).toBe('json_invalido');
      expect(error.mensaje).toContain('application/xml');
    }
  });
});

describe('rate limit: 120 requests a minute per key', () => {
  it('sends the RateLimit fields on every response and 429 with Retry-After past the limit', async ({ app }) => {
    const k = await buildCuenta(app);
    const first = await app.request('GET', '/api/v1/cuenta', { key: k.live });
    expect(first.headers.get('ratelimit-policy')).toBe('"minuto";q=120;w=60');
    expect(first.headers.get('ratelimit')).toMatch(/^"minuto";r=119;t=(60|59)$/);
    expect(first.headers.get('ratelimit-limit')).toBe('120');
    expect(first.headers.get('ratelimit-remaining')).toBe('119');
    expect(Number(first.headers.get('ratelimit-reset'))).toBeGreaterThan(0);

    const statuses: number[] = [];
    for (let i = 0; i < 119; i++) statuses.push((await app.request('GET', '/api/v1/cuenta', { key: k.live })).status);
    expect(statuses.every((s) => s === 200)).toBe(true);

    const limited = await app.request('GET', '/api/v1/cuenta', { key: k.live });
    expect(limited.status).toBe(429);
    expect(ErrorBody.parse(limited.body).error.codigo).toBe('demasiadas_peticiones');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited.headers.get('ratelimit')).toMatch(/^"minuto";r=0;t=\d+$/);
    expect(limited.headers.get('ratelimit-remaining')).toBe('0');

    // Another key of the same account has its own budget.
    const other = await app.request('GET', '/demo/api/v1/cuenta', { key: k.test });
    expect(other.status).toBe(200);
  });
});

describe('per-IP limits behind TRUST_PROXY=1: the client is the address the proxy saw (rightmost X-Forwarded-For), not what the client wrote', () => {
  const CSRF = { 'X-DeCA-CSRF': '1' };
  const registro = (app: TestApp, n: number, xff: string) =>
    app.request('POST', '/app/api/registro', {
      headers: { ...CSRF, 'X-Forwarded-For': xff },
      body: {
        nombre: `Transportes Proxy ${n}, S.L.`,
        nif: 'B12345674',
        domicilio: 'Calle Real 2, Segovia',
        rol: 'cargador',
        email: `proxy${n}-${Date.now()}@example.com`,
        password: 'una-clave-bien-larga',
      },
    });

  it('8 sign-ups with X-Forwarded-For "203.0.113.N, 127.0.0.1" are one client: 5 accounts, then 429 (5 an hour); another proxied address still signs up', async () => {
    const app = await startTestApp({ env: { TRUST_PROXY: '1' } });
    try {
      const estados: number[] = [];
      for (let n = 1; n <= 8; n++) estados.push((await registro(app, n, `203.0.113.${n}, 127.0.0.1`)).status);
      expect(estados).toEqual([201, 201, 201, 201, 201, 429, 429, 429]);
      const limitada = await registro(app, 9, '203.0.113.9, 127.0.0.1');
      expect(ErrorBody.parse(limitada.body).error.codigo).toBe('demasiadas_peticiones');
      // The header is read (not the socket's address): a client the proxy saw elsewhere has its own budget.
      expect((await registro(app, 10, '203.0.113.9, 198.51.100.20')).status).toBe(201);
    } finally {
      await app.close();
    }
  });

  it('35 checks at /verificar with a different leftmost address each: 30 answered, then 429', async () => {
    const app = await startTestApp({ env: { TRUST_PROXY: '1' } });
    try {
      const estados: number[] = [];
      for (let n = 1; n <= 35; n++) {
        const form = new FormData();
        form.append('pdf', new Blob([new TextEncoder().encode('%PDF-1.7 no es de ninguna DeCA')], { type: 'application/pdf' }), 'x.pdf');
        const res = await fetch(`${app.url}/verificar`, { method: 'POST', body: form, headers: { 'X-Forwarded-For': `198.18.${n}.${n}, 192.0.2.44` } });
        await res.arrayBuffer();
        estados.push(res.status);
      }
      expect(estados.filter((s) => s === 200)).toHaveLength(30);
      expect(estados.slice(30)).toEqual([429, 429, 429, 429, 429]);
    } finally {
      await app.close();
    }
  });
});

describe('web app shell, health', () => {
  it('serves the built client at / and client routes (deep links) with index.html', async ({ app }) => {
    const root = await app.request('GET', '/');
    expect(root.status).toBe(200);
    expect(root.text).toContain('<div id="app">');
    expect(root.headers.get('cache-control')).toBe('no-cache');
    expect(root.headers.get('x-request-id')).toMatch(/^req_/);
    const deep = await app.request('GET', '/decas/2026-000001');
    expect(deep.status).toBe(200);
    expect(deep.text).toContain('<div id="app">');
  });

  it('caches hashed assets for a year', async ({ app }) => {
    const res = await app.request('GET', '/assets/main-abc123.js');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toContain('immutable');
  });

  it('does not serve files outside the client folder', async ({ app }) => {
    const res = await rawRequest(app.url, { method: 'GET', path: '/../../../../etc/passwd' });
    expect(res.body).not.toContain('root:');
    const enc = await rawRequest(app.url, { method: 'GET', path: '/%2e%2e/%2e%2e/etc/passwd' });
    expect(enc.body).not.toContain('root:');
  });

  it('GET /healthz says the process answers (liveness); GET /readyz that it can serve: the database answers and its workers run (readiness)', async ({ app }) => {
    for (const ruta of ['/healthz', '/readyz']) {
      const res = await app.request('GET', ruta);
      expect([res.status, res.body], ruta).toEqual([200, { ok: true }]);
      expect(res.headers.get('cache-control'), ruta).toBe('no-store');
    }
  });

  it('GET /readyz answers 503 no_disponible, saying why, while a worker is not running or the process is stopping; /healthz still 200', async () => {
    const app = await startTestApp();
    try {
      let corre = true;
      app.services.readiness.watch('webhooks', () => corre);
      expect((await app.request('GET', '/readyz')).status).toBe(200);
      corre = false;
      const parado = await app.request('GET', '/readyz');
      expect(parado.status).toBe(503);
      expect(ErrorBody.parse(parado.body).error).toMatchObject({ codigo: 'no_disponible', mensaje: expect.stringMatching(/webhooks/) });
      expect(Number(parado.headers.get('retry-after'))).toBeGreaterThan(0);
      corre = true;
      app.services.readiness.stop();
      const deteniendo = await app.request('GET', '/readyz');
      expect(deteniendo.status).toBe(503);
      expect(ErrorBody.parse(deteniendo.body).error.mensaje).toMatch(/deteniendo/);
      expect((await app.request('GET', '/healthz')).status).toBe(200);
    } finally {
      await app.close();
    }
  });
});
