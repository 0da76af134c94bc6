/**
 * Password reset and change: «¿Ha olvidado la contraseña?» answers the same
 * for any address and mails a one-time link (30 minutes) through the mail
 * outbox; the link sets a password with the sign-up rules, ends every other
 * session and signs in; «Cambiar contraseña» needs the current one.
 */
import { describe, expect } from 'vitest';
import { ErrorBody } from '../../shared/errors';
import { OlvidoResponse, RestablecimientoPublico, SesionResponse } from '../../shared/schemas/cuenta';
import type { TestApp, TestResponse } from '../support/app';
import { sessionCookieOf } from '../support/decas-helpers';
import { buildCuenta } from '../support/factories';
import { it, test } from '../support/fixtures';

// Requests come from the address a trusted proxy saw, so each test picks its own.
test.override('opcionesApp', { env: { TRUST_PROXY: '1' } });

const CSRF = { 'X-DeCA-CSRF': '1' };
const MINUTO = 60_000;
let red = 0;
const ipNueva = () => `198.19.${Math.floor(++red / 250)}.${1 + (red % 250)}`;

const entrar = (app: TestApp, email: string, password: string) => app.request('POST', '/app/api/sesion', { headers: { ...CSRF, 'X-Forwarded-For': ipNueva() }, body: { email, password } });

const olvido = (app: TestApp, email: string, ip = ipNueva()) => app.request('POST', '/app/api/contrasena/olvido', { headers: { ...CSRF, 'X-Forwarded-For': ip }, body: { email } });

const correosA = (app: TestApp, email: string) =>
  app.database.db.selectFrom('correos').selectAll().where('destinatario', '=', email).where('tipo', '=', 'restablecer_contrasena').orderBy('id', 'desc').execute();

/** The token of the last reset link mailed to `email` (read from the mail outbox); noted as a secret no log line may carry. */
async function tokenDelCorreo(app: TestApp, email: string): Promise<string> {
  const m = /https?:\/\/\S+\/restablecer\/([\w-]+)/.exec((await correosA(app, email))[0]?.texto ?? '');
  if (!m?.[1]) throw new Error(`ningún enlace para restablecer a ${email}`);
  app.secreto(m[1]);
  return m[1];
}

const ver = (app: TestApp, token: string) => app.request('GET', `/app/api/contrasena/restablecer/${token}`);
const restablecer = (app: TestApp, token: string, password: string) =>
  app.request('POST', `/app/api/contrasena/restablecer/${token}`, { headers: { ...CSRF, 'X-Forwarded-For': ipNueva() }, body: { password } });

/**
 * What an answer shows a stranger: status, body and headers, less what
 * differs on every request (its id and date; a wait counted down by the second).
 */
function comoSeVe(r: TestResponse) {
  const cabeceras: [string, string][] = [];
  r.headers.forEach((v, k) => {
    if (!['date', 'x-request-id', 'content-length', 'retry-after'].includes(k)) cabeceras.push([k, v]);
  });
  const body = JSON.parse(JSON.stringify(r.body)) as { error?: { request_id?: string } };
  if (body.error) delete body.error.request_id;
  return { status: r.status, body, cabeceras, espera: r.headers.has('retry-after') };
}

describe('«¿Ha olvidado la contraseña?»', () => {
  it('answers an unknown address exactly as a known one, and mails only the known one a link', async ({ app }) => {
    const c = await buildCuenta(app);
    const nadie = `nadie-${Date.now()}@example.com`;
    const conocido = await olvido(app, c.email.toUpperCase());
    const desconocido = await olvido(app, nadie);
    expect(conocido.status).toBe(202);
    expect(OlvidoResponse.parse(conocido.body).mensaje).toMatch(/^Si hay una cuenta con ese correo, le hemos enviado un enlace/);
    expect(comoSeVe(desconocido)).toEqual(comoSeVe(conocido));

    const correos = await correosA(app, c.email);
    expect(correos).toHaveLength(1);
    expect(correos[0]).toMatchObject({ account_id: c.account.id, entorno: 'produccion', estado: 'pendiente', asunto: 'Restablecer su contraseña de DeCA' });
    expect(correos[0]!.texto).toMatch(/\/restablecer\/[\w-]{40,}/);
    expect(correos[0]!.texto).toMatch(/30 minutos/);
    expect(await app.database.db.selectFrom('correos').select('id').where('destinatario', '=', nadie).execute()).toEqual([]);
    // Only the token's hash is stored.
    const token = await tokenDelCorreo(app, c.email);
    const guardados = await app.database.db.selectFrom('restablecimientos').selectAll().execute();
    expect(JSON.stringify(guardados)).not.toContain(token);
  });

  it('sets the password once through the link: every other session ends, this device is signed in', async ({ app }) => {
    const c = await buildCuenta(app);
    const otro = sessionCookieOf(await entrar(app, c.email, c.password));
    expect((await app.request('GET', '/app/api/sesion', { cookie: otro })).status).toBe(200);

    expect((await olvido(app, c.email)).status).toBe(202);
    const token = await tokenDelCorreo(app, c.email);
    const visto = await ver(app, token);
    expect(visto.status).toBe(200);
    expect(RestablecimientoPublico.parse(visto.body.restablecimiento).email).toBe(c.email);

    // The sign-up's rules; a refusal does not spend the link.
    const corta = await restablecer(app, token, 'corta');
    expect(corta.status).toBe(422);
    expect(ErrorBody.parse(corta.body).error.campos.password).toMatch(/al menos 10/);

    const nueva = 'la-contraseña-nueva-2026';
    const hecho = await restablecer(app, token, nueva);
    expect(hecho.status, hecho.text).toBe(200);
    expect(SesionResponse.parse(hecho.body).usuario.email).toBe(c.email);
    const aqui = sessionCookieOf(hecho);
    expect((await app.request('GET', '/app/api/sesion', { cookie: aqui })).status).toBe(200);
    expect((await app.request('GET', '/app/api/sesion', { cookie: otro })).status).toBe(401);

    // Once only.
    expect((await restablecer(app, token, 'otra-contraseña-larga')).status).toBe(404);
    expect((await ver(app, token)).status).toBe(404);
    expect((await entrar(app, c.email, c.password)).status).toBe(401);
    expect((await entrar(app, c.email, nueva)).status).toBe(200);
  });

  it('two uses of one link at once: one sets the password, the other finds it used', async ({ app }) => {
    const c = await buildCuenta(app);
    await olvido(app, c.email);
    const token = await tokenDelCorreo(app, c.email);
    const [a, b] = await Promise.all([restablecer(app, token, 'primera-contraseña-larga'), restablecer(app, token, 'segunda-contraseña-larga')]);
    expect([a.status, b.status].sort()).toEqual([200, 404]);
    const gana = a.status === 200 ? 'primera-contraseña-larga' : 'segunda-contraseña-larga';
    expect((await entrar(app, c.email, gana)).status).toBe(200);
  });

  it('a link works for 30 minutes', async ({ app }) => {
    const c = await buildCuenta(app);
    await olvido(app, c.email);
    const token = await tokenDelCorreo(app, c.email);
    app.clock.advance(29 * MINUTO);
    expect((await ver(app, token)).status).toBe(200);
    app.clock.advance(2 * MINUTO);
    const caducado = await ver(app, token);
    expect(caducado.status).toBe(404);
    expect(ErrorBody.parse(caducado.body).error.mensaje).toMatch(/caducó/);
    expect((await restablecer(app, token, 'demasiado-tarde-ya')).status).toBe(404);
    expect((await entrar(app, c.email, c.password)).status).toBe(200);
  });

  it("a link asked for earlier still works after a newer one (a stranger asking for links does not spoil the owner's)", async ({ app }) => {
    const c = await buildCuenta(app);
    await olvido(app, c.email);
    const primero = await tokenDelCorreo(app, c.email);
    await olvido(app, c.email);
    const segundo = await tokenDelCorreo(app, c.email);
    expect(segundo).not.toBe(primero);
    expect((await restablecer(app, primero, 'la-del-primer-enlace')).status).toBe(200);
    // Setting the password spends every open link of the user.
    expect((await ver(app, segundo)).status).toBe(404);
  });

  it('limits requests per address, known or not, with the same 429', async ({ app }) => {
    const c = await buildCuenta(app);
    const nadie = `nadie-limite-${Date.now()}@example.com`;
    for (let i = 0; i < 5; i++) {
      expect((await olvido(app, c.email)).status).toBe(202);
      expect((await olvido(app, nadie)).status).toBe(202);
    }
    const conocido = await olvido(app, c.email);
    const desconocido = await olvido(app, nadie);
    expect(conocido.status).toBe(429);
    expect(Number(conocido.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(comoSeVe(desconocido)).toEqual(comoSeVe(conocido));
    expect(await correosA(app, c.email)).toHaveLength(5);
  });

  it('limits requests per IP', async ({ app }) => {
    const ip = ipNueva();
    for (let i = 0; i < 20; i++) expect((await olvido(app, `ip-${i}-${Date.now()}@example.com`, ip)).status).toBe(202);
    expect((await olvido(app, `ip-otra-${Date.now()}@example.com`, ip)).status).toBe(429);
  });
});

describe('«Cambiar contraseña»', () => {
  const cambiar = (app: TestApp, cookie: string, actual: string, password: string) => app.request('POST', '/app/api/contrasena', { headers: CSRF, cookie, body: { actual, password } });

  it('needs the current password; changing it ends the other sessions and keeps this device in', async ({ app }) => {
    const c = await buildCuenta(app);
    const movil = sessionCookieOf(await entrar(app, c.email, c.password));
    const oficina = sessionCookieOf(await entrar(app, c.email, c.password));

    const mal = await cambiar(app, movil, 'no-es-la-actual', 'una-contraseña-nueva');
    expect(mal.status).toBe(422);
    expect(ErrorBody.parse(mal.body).error.campos).toHaveProperty('actual');
    const corta = await cambiar(app, movil, c.password, 'corta');
    expect(corta.status).toBe(422);
    expect(ErrorBody.parse(corta.body).error.campos.password).toMatch(/al menos 10/);
    // Nothing changed.
    expect((await app.request('GET', '/app/api/sesion', { cookie: oficina })).status).toBe(200);
    expect((await entrar(app, c.email, c.password)).status).toBe(200);

    const nueva = 'una-contraseña-nueva';
    const hecho = await cambiar(app, movil, c.password, nueva);
    expect(hecho.status, hecho.text).toBe(200);
    const sigue = sessionCookieOf(hecho);
    expect((await app.request('GET', '/app/api/sesion', { cookie: sigue })).status).toBe(200);
    expect((await app.request('GET', '/app/api/sesion', { cookie: oficina })).status).toBe(401);
    expect((await app.request('GET', '/app/api/sesion', { cookie: movil })).status).toBe(401);
    expect((await entrar(app, c.email, c.password)).status).toBe(401);
    expect((await entrar(app, c.email, nueva)).status).toBe(200);
  });

  it('guessing the current password with a session is limited like signing in', async ({ app }) => {
    const c = await buildCuenta(app);
    const cookie = sessionCookieOf(await entrar(app, c.email, c.password));
    for (let i = 0; i < 10; i++) expect((await cambiar(app, cookie, `mala-${i}-xxxxxx`, 'una-contraseña-nueva')).status).toBe(422);
    const limitado = await cambiar(app, cookie, c.password, 'una-contraseña-nueva');
    expect(limitado.status).toBe(429);
    expect((await entrar(app, c.email, c.password)).status).toBe(200);
  });

  it('is for a signed-in user, not an API key', async ({ app }) => {
    const c = await buildCuenta(app);
    const r = await app.request('POST', '/app/api/contrasena', { headers: CSRF, key: c.live, body: { actual: c.password, password: 'una-contraseña-nueva' } });
    expect(r.status).toBe(401);
  });
});
