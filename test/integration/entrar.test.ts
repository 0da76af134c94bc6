/**
 * Sign-in limits a stranger cannot turn against the owner: failures count per
 * e-mail and source IP together, the e-mail's own limit never makes its owner
 * wait more than a few seconds, and every point is spent before the password
 * is checked (150 tries at once get no more checks than the limits allow).
 * On both databases: the limiter's store is PostgreSQL or memory.
 */
import { describe, expect } from 'vitest';
import { hashPassword } from '../../server/domain/accounts/passwords';
import { LOGIN_GOTEO_S } from '../../server/limits';
import { ErrorBody } from '../../shared/errors';
import { SesionResponse } from '../../shared/schemas/cuenta';
import type { TestApp, TestResponse } from '../support/app';
import { buildCuenta } from '../support/factories';
import { it, test } from '../support/fixtures';

// Each try comes from the address a trusted proxy saw (a single-address X-Forwarded-For).
test.override('opcionesApp', { env: { TRUST_PROXY: '1' } });

const CSRF = { 'X-DeCA-CSRF': '1' };
let red = 0;
/** A new source address (198.18.0.0/15, for benchmarks), never used before in this file. */
const ipNueva = () => {
  red++;
  return `198.18.${Math.floor(red / 250)}.${1 + (red % 250)}`;
};

const entrar = (app: TestApp, email: string, password: string, ip: string) => app.request('POST', '/app/api/sesion', { headers: { ...CSRF, 'X-Forwarded-For': ip }, body: { email, password } });

/**
 * The owner's right password from a new device: in, at once or after the
 * wait the answer names, which is never more than a few seconds.
 */
async function entraElDueno(app: TestApp, email: string, password: string): Promise<TestResponse> {
  const ip = ipNueva();
  for (let intento = 0; ; intento++) {
    const r = await entrar(app, email, password, ip);
    if (r.status !== 429 || intento >= 3) return r;
    const espera = Number(r.headers.get('retry-after'));
    expect(espera, ErrorBody.parse(r.body).error.mensaje).toBeLessThanOrEqual(LOGIN_GOTEO_S);
    await new Promise((resolve) => setTimeout(resolve, espera * 1000));
  }
}

describe('sign-in that a stranger cannot lock', () => {
  it('150 wrong passwords at once from 150 addresses get only the checks the limits allow; then the owner signs in from a new address within seconds', async ({ app }) => {
    const c = await buildCuenta(app);
    const inicio = Date.now();
    const intentos = await Promise.all(Array.from({ length: 150 }, (_, i) => entrar(app, c.email, `no-es-la-clave-${i}`, ipNueva())));
    const duracion = Date.now() - inicio;
    const porEstado = (s: number) => intentos.filter((r) => r.status === s);
    // 401 = the password was checked; 429 = it was not. Nothing else.
    expect(porEstado(401).length + porEstado(429).length).toBe(150);
    // 10 checks an e-mail gets in 15 minutes, then one every LOGIN_GOTEO_S seconds while the burst lasted.
    const permitidas = 10 + 1 + Math.floor(duracion / (LOGIN_GOTEO_S * 1000));
    expect(porEstado(401).length).toBeGreaterThanOrEqual(11);
    expect(porEstado(401).length).toBeLessThanOrEqual(permitidas);
    for (const r of porEstado(429)) {
      const { error } = ErrorBody.parse(r.body);
      expect(error.codigo).toBe('demasiadas_peticiones');
      // Each address tried once: what held them back is the e-mail's short wait, never a lock of minutes.
      expect(Number(r.headers.get('retry-after'))).toBeLessThanOrEqual(LOGIN_GOTEO_S);
      expect(error.mensaje).toMatch(/Espere \d s/);
    }

    const dueno = await entraElDueno(app, c.email, c.password);
    expect(dueno.status, dueno.text).toBe(200);
    expect(SesionResponse.parse(dueno.body).usuario.email).toBe(c.email);
  }, 120_000);

  it('10 failures from one address lock that address out of that e-mail for minutes; the owner elsewhere signs in at once', async ({ app }) => {
    const c = await buildCuenta(app);
    const extrano = ipNueva();
    for (let i = 0; i < 10; i++) expect((await entrar(app, c.email, `mala-${i}-xxxxxx`, extrano)).status).toBe(401);
    const bloqueado = await entrar(app, c.email, c.password, extrano);
    expect(bloqueado.status).toBe(429);
    expect(Number(bloqueado.headers.get('retry-after'))).toBeGreaterThan(60);
    expect(ErrorBody.parse(bloqueado.body).error.mensaje).toMatch(/desde esta conexión/);

    const dueno = await entraElDueno(app, c.email, c.password);
    expect(dueno.status, dueno.text).toBe(200);
    // The stranger's address is still held back for this e-mail, not for another one.
    expect((await entrar(app, c.email, 'otra-mala-xxxxxx', extrano)).status).toBe(429);
    const otra = await buildCuenta(app);
    expect((await entrar(app, otra.email, otra.password, extrano)).status).toBe(200);
  });

  it("a password set before today's text rules (an emoji joined by U+200D) still signs in and can be changed; a new one may not contain it", async ({ app }) => {
    const c = await buildCuenta(app);
    const antigua = 'clave-👩\u200d🚒-de-siempre';
    await app.database.db
      .updateTable('users')
      .set({ password_hash: await hashPassword(antigua) })
      .where('email', '=', c.email)
      .execute();
    const r = await entrar(app, c.email, antigua, ipNueva());
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const cookie = r.headers.get('set-cookie')!.split(';')[0]!;
    const nueva = await app.request('POST', '/app/api/contrasena', { cookie, headers: CSRF, body: { actual: antigua, password: 'otra\u200bclave-larga' } });
    expect(nueva.status).toBe(422);
    expect(JSON.stringify(nueva.body)).toContain('U+200B');
    const cambio = await app.request('POST', '/app/api/contrasena', { cookie, headers: CSRF, body: { actual: antigua, password: 'otra-clave-larga' } });
    expect(cambio.status, JSON.stringify(cambio.body)).toBe(200);
  });

  it('counts failures only: 15 right sign-ins in a row from one address all get in', async ({ app }) => {
    const c = await buildCuenta(app);
    const ip = ipNueva();
    for (let i = 0; i < 15; i++) expect((await entrar(app, c.email, c.password, ip)).status).toBe(200);
  });

  it('an unknown e-mail is limited like a known one, with the same answer', async ({ app }) => {
    const ip = ipNueva();
    const nadie = `nadie-${Date.now()}@example.com`;
    const primeras = await Promise.all(Array.from({ length: 12 }, () => entrar(app, nadie, 'no-es-la-clave', ip)));
    expect(primeras.filter((r) => r.status === 401)).toHaveLength(10);
    expect(primeras.filter((r) => r.status === 429)).toHaveLength(2);
    expect(ErrorBody.parse(primeras.find((r) => r.status === 401)!.body).error.mensaje).toBe('Correo o contraseña incorrectos.');
  });
});
