import { describe, expect } from 'vitest';
import { ErrorBody } from '../../shared/errors';
import { ClaveCreada, CuentaResponse, SesionResponse } from '../../shared/schemas/cuenta';
import type { TestApp, TestResponse } from '../support/app';
import { buildCuenta } from '../support/factories';
import { it, test } from '../support/fixtures';

// Sign-ups are limited per IP: each one here comes from its own address (through a trusted proxy).
test.override('opcionesApp', { env: { TRUST_PROXY: '1' } });

const CSRF = { 'X-DeCA-CSRF': '1' };
let seq = 0;

function cookieOf(res: TestResponse): string {
  const set = res.headers.getSetCookie().find((c) => c.startsWith('deca_sesion='));
  if (!set) throw new Error('no session cookie');
  return set.split(';')[0] ?? '';
}

async function registrar(app: TestApp, extra: Record<string, unknown> = {}, ip = `198.51.100.${seq + 1}`) {
  seq++;
  const email = `Persona${seq}@Example.com`;
  const res = await app.request('POST', '/app/api/registro', {
    headers: { ...CSRF, 'X-Forwarded-For': ip },
    body: { nombre: 'Transportes Peñalara, S.L.', nif: 'b12345674', domicilio: 'Calle Real 2, Segovia', rol: 'cargador', email, password: 'una-clave-bien-larga', ...extra },
  });
  return { res, email };
}

describe('sign-up', () => {
  it('creates the account and its admin user and signs in', async ({ app }) => {
    const { res, email } = await registrar(app);
    expect(res.status).toBe(201);
    const body = SesionResponse.parse(res.body);
    expect(body.usuario.email).toBe(email.toLowerCase());
    expect(body.usuario.rol).toBe('admin');
    expect(body.cuenta).toMatchObject({ nombre: 'Transportes Peñalara, S.L.', nif: 'B12345674', rol: 'cargador', plan: 'free' });
    const set = res.headers.getSetCookie().join('\n');
    expect(set).toMatch(/deca_sesion=[\w-]{40,}/);
    expect(set).toMatch(/httponly/i);
    expect(set).toMatch(/samesite=lax/i);
    expect(set).toMatch(/expires=/i);

    const me = await app.request('GET', '/app/api/sesion', { cookie: cookieOf(res) });
    expect(me.status).toBe(200);
    expect(SesionResponse.parse(me.body).cuenta.id).toBe(body.cuenta.id);
  });

  it('refuses an e-mail already registered (409) without creating a second account', async ({ app }) => {
    const { email } = await registrar(app);
    const again = await app.request('POST', '/app/api/registro', {
      headers: CSRF,
      body: { nombre: 'Otra', nif: 'A58818501', domicilio: 'Calle Otra 1', email: email.toUpperCase(), password: 'otra-clave-larga' },
    });
    expect(again.status).toBe(409);
    expect(ErrorBody.parse(again.body).error.campos).toHaveProperty('email');
  });

  it('answers 12 sign-ups with one e-mail at once with one account and 409 email_registrado for the rest, never a 500', async ({ app }) => {
    const email = `carrera-${Date.now()}@example.com`;
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => registrar(app, { email }, `203.0.113.${200 + i}`)));
    const statuses = answers.map((a) => a.res.status).sort();
    expect(statuses).toEqual([201, ...Array(11).fill(409)]);
    for (const a of answers.filter((x) => x.res.status === 409)) {
      const err = ErrorBody.parse(a.res.body).error;
      expect(err.codigo).toBe('email_registrado');
      expect(err.campos).toHaveProperty('email');
    }
    const users = await app.database.db.selectFrom('users').select('id').where('email', '=', email).execute();
    expect(users).toHaveLength(1);
  });

  it('requires a minimum password length', async ({ app }) => {
    const { res } = await registrar(app, { password: 'corta' });
    expect(res.status).toBe(422);
    expect(ErrorBody.parse(res.body).error.campos.password).toMatch(/al menos 10/);
  });

  it.for([
    ['B1234', /formato no reconocido/],
    ['12345', /formato no reconocido/],
    ['B12345678', /debería ser 4/],
    ['12345678A', /debería ser Z/],
  ] as const)('refuses the company NIF %s with 422 naming nif, and creates nothing', async ([nif, motivo], { app }) => {
    const { res, email } = await registrar(app, { nif });
    expect(res.status).toBe(422);
    const err = ErrorBody.parse(res.body).error;
    expect(err.codigo).toBe('validacion');
    expect(err.campos.nif).toMatch(motivo);
    expect(await app.database.db.selectFrom('users').select('id').where('email', '=', email.toLowerCase()).execute()).toEqual([]);
  });

  it('requires the company address: it goes on every DeCA', async ({ app }) => {
    const { res } = await registrar(app, { domicilio: '  ' });
    expect(res.status).toBe(422);
    expect(ErrorBody.parse(res.body).error.campos).toHaveProperty('domicilio');
  });

  it('requires the CSRF header on writes', async ({ app }) => {
    const res = await app.request('POST', '/app/api/registro', {
      body: { nombre: 'X', nif: 'B12345674', email: 'csrf@example.com', password: 'una-clave-bien-larga' },
    });
    expect(res.status).toBe(403);
    expect(ErrorBody.parse(res.body).error.codigo).toBe('csrf');
  });
});

/** The confirmation link of the last mail sent to `email` (the mail outbox keeps it). */
async function enlaceConfirmacion(app: TestApp, email: string): Promise<string> {
  const rows = await app.database.db
    .selectFrom('correos')
    .select(['texto', 'tipo'])
    .where('destinatario', '=', email.toLowerCase())
    .where('tipo', '=', 'confirmar_email')
    .orderBy('id', 'desc')
    .execute();
  const m = /https?:\/\/\S+\/confirmar\/[\w-]+/.exec(rows[0]?.texto ?? '');
  if (!m) throw new Error(`no confirmation mail for ${email}`);
  return m[0];
}

/** Open the confirmation link as a person does: the page, then its button. */
async function confirmar(app: TestApp, email: string): Promise<TestResponse> {
  const path = new URL(await enlaceConfirmacion(app, email)).pathname;
  const page = await app.request('GET', path);
  expect(page.status).toBe(200);
  expect(page.text).toContain(`action="${path}"`);
  return app.request('POST', path, { body: '', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
}

describe('e-mail confirmation and sign-up limits', () => {
  it('limits sign-ups per IP: the sixth within the hour gets 429 with Retry-After', async ({ app }) => {
    const ip = '203.0.113.99';
    for (let i = 0; i < 5; i++) expect((await registrar(app, {}, ip)).res.status).toBe(201);
    const sixth = await registrar(app, {}, ip);
    expect(sixth.res.status).toBe(429);
    expect(ErrorBody.parse(sixth.res.body).error.codigo).toBe('demasiadas_peticiones');
    expect(Number(sixth.res.headers.get('retry-after'))).toBeGreaterThan(0);
    const accounts = await app.database.db.selectFrom('users').select('id').where('email', '=', sixth.email.toLowerCase()).execute();
    expect(accounts).toEqual([]);
    // Another address is not affected.
    expect((await registrar(app, {}, '203.0.113.100')).res.status).toBe(201);
  });

  it('mails a confirmation link; until it is opened, no live keys and only 5 live DeCAs, while the test environment works', async ({ app }) => {
    const { res, email } = await registrar(app);
    const cookie = cookieOf(res);
    const sesion = SesionResponse.parse(res.body);
    expect(sesion.cuenta.confirmada).toBe(false);
    expect(sesion.usuario.email_confirmado).toBe(false);
    expect(await enlaceConfirmacion(app, email)).toMatch(/\/confirmar\/[\w-]{40,}$/);

    const live = await app.request('POST', '/app/api/claves', { headers: CSRF, cookie, body: { entorno: 'produccion' } });
    expect(live.status).toBe(409);
    expect(ErrorBody.parse(live.body).error.codigo).toBe('cuenta_sin_confirmar');
    const test = await app.request('POST', '/app/api/claves', { headers: CSRF, cookie, body: { entorno: 'pruebas' } });
    expect(test.status).toBe(201);
    const testKey = ClaveCreada.parse(test.body).key;

    for (let i = 0; i < 5; i++) {
      expect((await app.request('POST', '/api/v1/decas', { headers: CSRF, cookie, body: { emitir: false, referencia: `R${i}` } })).status).toBe(201);
    }
    const sixth = await app.request('POST', '/api/v1/decas', { headers: CSRF, cookie, body: { emitir: false } });
    expect(sixth.status).toBe(409);
    const err = ErrorBody.parse(sixth.body).error;
    expect(err.codigo).toBe('cuenta_sin_confirmar');
    expect(err.mensaje).toMatch(/Confirme el correo/);
    for (let i = 0; i < 7; i++) expect((await app.request('POST', '/demo/api/v1/decas', { key: testKey, body: { emitir: false } })).status).toBe(201);

    // Opening the link's page confirms nothing (mail scanners open links); its button does.
    const path = new URL(await enlaceConfirmacion(app, email)).pathname;
    await app.request('GET', path);
    expect(SesionResponse.parse((await app.request('GET', '/app/api/sesion', { cookie })).body).cuenta.confirmada).toBe(false);
    const done = await confirmar(app, email);
    expect(done.status).toBe(200);
    expect(done.text).toContain('Correo confirmado');
    const after = SesionResponse.parse((await app.request('GET', '/app/api/sesion', { cookie })).body);
    expect(after.cuenta.confirmada).toBe(true);
    expect(after.usuario.email_confirmado).toBe(true);
    expect((await app.request('POST', '/api/v1/decas', { headers: CSRF, cookie, body: { emitir: false } })).status).toBe(201);
    expect((await app.request('POST', '/app/api/claves', { headers: CSRF, cookie, body: { entorno: 'produccion' } })).status).toBe(201);
    // A used link is gone.
    const again = await app.request('POST', path, { body: '', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(again.status).toBe(404);
  });

  it('resends the link (the old one stops working), and refuses when already confirmed', async ({ app }) => {
    const { res, email } = await registrar(app);
    const cookie = cookieOf(res);
    const first = await enlaceConfirmacion(app, email);
    const resend = await app.request('POST', '/app/api/confirmacion', { headers: CSRF, cookie });
    expect(resend.status).toBe(200);
    expect(resend.body).toEqual({ enviado_a: email.toLowerCase() });
    const second = await enlaceConfirmacion(app, email);
    expect(second).not.toBe(first);
    expect((await app.request('POST', new URL(first).pathname, { body: '', headers: { 'content-type': 'application/x-www-form-urlencoded' } })).status).toBe(404);
    expect((await confirmar(app, email)).status).toBe(200);
    const twice = await app.request('POST', '/app/api/confirmacion', { headers: CSRF, cookie });
    expect(twice.status).toBe(409);
  });

  it('accounts made by the operator (CLI) are confirmed', async ({ app }) => {
    const c = await buildCuenta(app);
    const me = await app.request('GET', '/api/v1/cuenta', { key: c.live });
    expect(CuentaResponse.parse(me.body).cuenta.confirmada).toBe(true);
  });
});

describe('sign-in, sign-out, session expiry', () => {
  it('signs in with the right password, and gives one generic error for a wrong password or unknown user', async ({ app }) => {
    const { email } = await registrar(app);
    const ok = await app.request('POST', '/app/api/sesion', { headers: CSRF, body: { email, password: 'una-clave-bien-larga' } });
    expect(ok.status).toBe(200);
    expect(cookieOf(ok)).toMatch(/^deca_sesion=/);

    const bad = await app.request('POST', '/app/api/sesion', { headers: CSRF, body: { email, password: 'no-es-esta' } });
    const unknown = await app.request('POST', '/app/api/sesion', { headers: CSRF, body: { email: 'nadie@example.com', password: 'no-es-esta' } });
    expect(bad.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(ErrorBody.parse(bad.body).error.mensaje).toBe(ErrorBody.parse(unknown.body).error.mensaje);
    expect(ErrorBody.parse(bad.body).error.codigo).toBe('no_autenticado');
  });

  it('throttles after repeated failures, even with the right password', async ({ app }) => {
    const { email } = await registrar(app);
    for (let i = 0; i < 10; i++) {
      const r = await app.request('POST', '/app/api/sesion', { headers: CSRF, body: { email, password: `mala-${i}-xxxx` } });
      expect(r.status).toBe(401);
    }
    const blocked = await app.request('POST', '/app/api/sesion', { headers: CSRF, body: { email, password: 'una-clave-bien-larga' } });
    expect(blocked.status).toBe(429);
    expect(ErrorBody.parse(blocked.body).error.codigo).toBe('demasiadas_peticiones');
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('signs out: the cookie stops working at once', async ({ app }) => {
    const { res } = await registrar(app);
    const cookie = cookieOf(res);
    const out = await app.request('DELETE', '/app/api/sesion', { headers: CSRF, cookie });
    expect(out.status).toBe(200);
    expect(out.headers.getSetCookie().join()).toMatch(/deca_sesion=;/);
    expect((await app.request('GET', '/app/api/sesion', { cookie })).status).toBe(401);
  });

  it('slides the 30-day expiry on use and expires after 30 idle days', async ({ app }) => {
    const { res } = await registrar(app);
    const cookie = cookieOf(res);
    app.clock.advance(20 * 86_400_000);
    const used = await app.request('GET', '/app/api/sesion', { cookie });
    expect(used.status).toBe(200);
    expect(used.headers.getSetCookie().join()).toMatch(/deca_sesion=/); // renewed
    app.clock.advance(20 * 86_400_000); // 40 days after sign-in, 20 after last use
    expect((await app.request('GET', '/app/api/sesion', { cookie })).status).toBe(200);
    app.clock.advance(31 * 86_400_000);
    const expired = await app.request('GET', '/app/api/sesion', { cookie });
    expect(expired.status).toBe(401);
    expect(ErrorBody.parse(expired.body).error.mensaje).toMatch(/caducado/);
  });
});

describe('web session on the API routes', () => {
  it('accepts the session cookie as the account user, and requires the CSRF header for writes', async ({ app }) => {
    const { res } = await registrar(app);
    const cookie = cookieOf(res);
    const cuentaId = SesionResponse.parse(res.body).cuenta.id;
    const get = await app.request('GET', '/api/v1/cuenta', { cookie });
    expect(get.status).toBe(200);
    expect(CuentaResponse.parse(get.body).cuenta.id).toBe(cuentaId);
    const demo = await app.request('GET', '/demo/api/v1/cuenta', { cookie });
    expect(CuentaResponse.parse(demo.body).cuenta.entorno).toBe('pruebas');
    const write = await app.request('POST', '/api/v1/decas', { cookie, body: { emitir: false } });
    expect(write.status).toBe(403);
    expect(ErrorBody.parse(write.body).error.codigo).toBe('csrf');
  });
});

describe('company data', () => {
  it('an administrator changes name, NIF and address: the API shows them at once and new DeCAs carry them', async ({ app }) => {
    const { res, email } = await registrar(app, { rol: 'transportista' });
    const cookie = cookieOf(res);
    await confirmar(app, email);
    const { key } = ClaveCreada.parse((await app.request('POST', '/app/api/claves', { headers: CSRF, cookie, body: { entorno: 'produccion' } })).body);
    expect(CuentaResponse.parse((await app.request('GET', '/api/v1/cuenta', { key })).body).cuenta.nif).toBe('B12345674'); // cached by the key

    const bad = await app.request('PATCH', '/app/api/cuenta', { headers: CSRF, cookie, body: { nif: 'B12345678' } });
    expect(bad.status).toBe(422);
    expect(ErrorBody.parse(bad.body).error.campos.nif).toMatch(/debería ser 4/);

    const ok = await app.request('PATCH', '/app/api/cuenta', { headers: CSRF, cookie, body: { nombre: 'Peñalara Logística, S.L.', nif: 'a-58818501', domicilio: 'Nave 4, 40006 Segovia' } });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.cuenta).toMatchObject({ nombre: 'Peñalara Logística, S.L.', nif: 'A58818501', domicilio: 'Nave 4, 40006 Segovia' });
    expect(CuentaResponse.parse((await app.request('GET', '/api/v1/cuenta', { key })).body).cuenta).toMatchObject({ nif: 'A58818501', domicilio: 'Nave 4, 40006 Segovia' });
    const deca = await app.request('POST', '/api/v1/decas', { key, body: { emitir: false } });
    expect(deca.body.deca).toMatchObject({ transp_nombre: 'Peñalara Logística, S.L.', transp_nif: 'A58818501', transp_domicilio: 'Nave 4, 40006 Segovia' });

    expect((await app.request('PATCH', '/app/api/cuenta', { headers: CSRF, cookie, body: { domicilio: '' } })).status).toBe(422);
    expect((await app.request('PATCH', '/app/api/cuenta', { headers: CSRF, cookie, body: {} })).status).toBe(422);
    expect((await app.request('PATCH', '/app/api/cuenta', { headers: CSRF, body: { nombre: 'Sin sesión' } })).status).toBe(401);
  });
});

describe('API keys from the web app', () => {
  it('creates a key shown once, lists it without the secret, and revocation takes effect at once', async ({ app }) => {
    const { res } = await registrar(app);
    const cookie = cookieOf(res);
    const created = await app.request('POST', '/app/api/claves', { headers: CSRF, cookie, body: { entorno: 'pruebas', nombre: 'ERP' } });
    expect(created.status).toBe(201);
    const { key, clave } = ClaveCreada.parse(created.body);
    expect(key).toMatch(/^dg_test_[\w-]{43}$/);
    expect(clave).toMatchObject({ entorno: 'pruebas', solo_lectura: false, nombre: 'ERP', revocada_at: null });

    const list = await app.request('GET', '/app/api/claves', { cookie });
    expect(list.text).not.toContain(key);
    expect(list.body.claves.map((k: { id: number }) => k.id)).toContain(clave.id);

    expect((await app.request('GET', '/demo/api/v1/cuenta', { key })).status).toBe(200);
    const revoked = await app.request('DELETE', `/app/api/claves/${clave.id}`, { headers: CSRF, cookie });
    expect(revoked.status).toBe(200);
    expect(revoked.body.clave.revocada_at).not.toBeNull();
    const after = await app.request('GET', '/demo/api/v1/cuenta', { key });
    expect(after.status).toBe(401);
    // It names where to make another: the app's «Cuenta» screen, section «Claves de API» (no «Integraciones» screen exists).
    expect(ErrorBody.parse(after.body).error.mensaje).toBe('Esta clave de API está revocada. Cree otra en la aplicación, en «Cuenta» → «Claves de API».');
  });

  it('creates read-only keys', async ({ app }) => {
    const { res, email } = await registrar(app);
    const cookie = cookieOf(res);
    await confirmar(app, email);
    const created = await app.request('POST', '/app/api/claves', { headers: CSRF, cookie, body: { entorno: 'produccion', solo_lectura: true } });
    const { key } = ClaveCreada.parse(created.body);
    expect(key.startsWith('dg_live_')).toBe(true);
    const write = await app.request('POST', '/api/v1/decas', { key, body: { emitir: false } });
    expect(write.status).toBe(403);
    expect(ErrorBody.parse(write.body).error.codigo).toBe('solo_lectura');
  });

  it("cannot revoke another account's key", async ({ app }) => {
    const other = await buildCuenta(app);
    const { res } = await registrar(app);
    const r = await app.request('DELETE', `/app/api/claves/${other.keyIds.live}`, { headers: CSRF, cookie: cookieOf(res) });
    expect(r.status).toBe(404);
    expect((await app.request('GET', '/api/v1/cuenta', { key: other.live })).status).toBe(200);
  });

  it('needs a session', async ({ app }) => {
    const r = await app.request('GET', '/app/api/claves');
    expect(r.status).toBe(401);
  });
});
