import { describe, expect } from 'vitest';
import { ErrorBody } from '../../shared/errors';
import { CuentaResponse } from '../../shared/schemas/cuenta';
import { buildCuenta } from '../support/factories';
import { it } from '../support/fixtures';

function expectError(res: { status: number; body: unknown; headers: Headers }, status: number, codigo: string) {
  expect(res.status).toBe(status);
  const body = ErrorBody.parse(res.body);
  expect(body.error.codigo).toBe(codigo);
  expect(body.error.request_id).toBe(res.headers.get('x-request-id'));
  expect(body.error.mensaje.length).toBeGreaterThan(10);
  return body;
}

describe('API authentication', () => {
  it('accepts the key as Authorization: Bearer', async ({ app, c }) => {
    const res = await app.request('GET', '/api/v1/cuenta', { key: c.live });
    expect(res.status).toBe(200);
    const body = CuentaResponse.parse(res.body);
    expect(body.cuenta.id).toBe(c.account.id);
    expect(body.cuenta.entorno).toBe('produccion');
    expect(res.headers.get('x-request-id')).toMatch(/^req_[\w-]{10,}$/);
  });

  it('accepts the key as X-API-Key', async ({ app, c }) => {
    const res = await app.request('GET', '/api/v1/cuenta', { headers: { 'X-API-Key': c.live } });
    expect(res.status).toBe(200);
    expect(res.body.cuenta.nombre).toBe(c.account.nombre);
  });

  it('gives each request its own id', async ({ app, c }) => {
    const a = await app.request('GET', '/api/v1/cuenta', { key: c.live });
    const b = await app.request('GET', '/api/v1/cuenta', { key: c.live });
    expect(a.headers.get('x-request-id')).not.toBe(b.headers.get('x-request-id'));
  });

  it('401 no_autenticado without a key', async ({ app, c }) => {
    expectError(await app.request('GET', '/api/v1/cuenta'), 401, 'no_autenticado');
  });

  it('401 no_autenticado with an unknown key', async ({ app, c }) => {
    const res = await app.request('GET', '/api/v1/cuenta', { key: `dg_live_${'x'.repeat(43)}` });
    expectError(res, 401, 'no_autenticado');
  });

  it('401 no_autenticado with a malformed Authorization header', async ({ app, c }) => {
    const res = await app.request('GET', '/api/v1/cuenta', { headers: { authorization: 'Basic abc' } });
    expectError(res, 401, 'no_autenticado');
  });

  it('401 when a live key is used on the test environment, saying which environment it belongs to', async ({ app, c }) => {
    const res = await app.request('GET', '/demo/api/v1/cuenta', { key: c.live });
    const body = expectError(res, 401, 'no_autenticado');
    expect(body.error.mensaje).toContain('producción');
  });

  it('401 when a test key is used on production, saying which environment it belongs to', async ({ app, c }) => {
    const res = await app.request('GET', '/api/v1/cuenta', { key: c.test });
    const body = expectError(res, 401, 'no_autenticado');
    expect(body.error.mensaje).toContain('pruebas');
  });

  it('serves the test environment with a test key', async ({ app, c }) => {
    const res = await app.request('GET', '/demo/api/v1/cuenta', { key: c.test });
    expect(res.status).toBe(200);
    expect(CuentaResponse.parse(res.body).cuenta.entorno).toBe('pruebas');
  });

  it('403 solo_lectura for a write with a read-only key, while reads work', async ({ app, c }) => {
    expect((await app.request('GET', '/api/v1/cuenta', { key: c.liveReadOnly })).status).toBe(200);
    for (const [method, path] of [
      ['POST', '/api/v1/decas'],
      ['POST', '/api/v1/webhooks'],
    ] as const) {
      expectError(await app.request(method, path, { key: c.liveReadOnly, body: { emitir: false, url: 'https://ejemplo.es/x' } }), 403, 'solo_lectura');
    }
    const antes = await app.database.db.selectFrom('decas').select('id').where('account_id', '=', c.account.id).execute();
    expect(antes).toEqual([]);
    // The same write with a read-write key works.
    expect((await app.request('POST', '/api/v1/decas', { key: c.live, body: { emitir: false } })).status).toBe(201);
  });

  it('answers unknown API paths with 404 no_encontrado and a request id', async ({ app, c }) => {
    const res = await app.request('GET', '/api/v1/no-existe', { key: c.live });
    expectError(res, 404, 'no_encontrado');
    const outside = await app.request('GET', '/nada/aqui.json');
    expectError(outside, 404, 'no_encontrado');
  });

  it('keeps last_used_at', async ({ app, c }) => {
    await app.request('GET', '/api/v1/cuenta', { key: c.live });
    const row = await app.database.db.selectFrom('api_keys').select('last_used_at').where('id', '=', c.keyIds.live).executeTakeFirstOrThrow();
    expect(row.last_used_at).toBeInstanceOf(Date);
  });

  it('stores only a hash of the key', async ({ app, c }) => {
    const rows = await app.database.db.selectFrom('api_keys').selectAll().where('account_id', '=', c.account.id).execute();
    for (const r of rows) {
      expect(JSON.stringify(r)).not.toContain(c.live.slice(8));
      expect(r.hash).toMatch(/^[0-9a-f]{64}$/);
    }
  });

  it('keys carry at least 160 random bits', ({ c }) => {
    const secret = c.live.slice('dg_live_'.length);
    expect(c.live.startsWith('dg_live_')).toBe(true);
    expect(c.test.startsWith('dg_test_')).toBe(true);
    expect(secret.length * 6).toBeGreaterThanOrEqual(160);
  });

  it('scopes data to the account of the key', async ({ app, c }) => {
    const other = await buildCuenta(app, { nombre: 'Otra Empresa' });
    const res = await app.request('GET', '/api/v1/cuenta', { key: other.live });
    expect(res.body.cuenta.id).toBe(other.account.id);
    expect(res.body.cuenta.nombre).toBe('Otra Empresa');
  });
});
