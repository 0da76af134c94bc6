import { describe, expect } from 'vitest';
import { ErrorBody } from '../../shared/errors';
import { InvitacionPublica, SesionResponse, UsuariosResponse } from '../../shared/schemas/cuenta';
import type { TestApp } from '../support/app';
import { decaCompleta } from '../support/decas';
import { iniciarSesion, sessionCookieOf } from '../support/decas-helpers';
import { clavePublica } from '../support/dispositivos';
import { type CuentaDePrueba, it } from '../support/fixtures';
import { tokenInvitacion, usuarioCon } from '../support/usuarios';

const CSRF = { 'X-DeCA-CSRF': '1' };
let seq = 0;

async function sesionAdmin(app: TestApp, c: CuentaDePrueba): Promise<string> {
  return iniciarSesion(app, c.email, c.password);
}

describe('users of an account', () => {
  it('invites by e-mail with a role; the link shows the company and makes a signed-in user, once', async ({ app, c }) => {
    const admin = await sesionAdmin(app, c);
    const email = 'Nueva.Conductora@Example.com';
    const inv = await app.request('POST', '/app/api/usuarios', { cookie: admin, headers: CSRF, body: { email, rol: 'conductor' } });
    expect(inv.status).toBe(201);
    expect(inv.body.invitacion).toMatchObject({ email: email.toLowerCase(), rol: 'conductor' });
    const correo = await app.database.db.selectFrom('correos').selectAll().where('destinatario', '=', email.toLowerCase()).executeTakeFirstOrThrow();
    expect(correo.asunto).toContain(c.account.nombre);
    expect(correo.texto).toContain('como conductor');
    const token = await tokenInvitacion(app, email.toLowerCase());
    // The administrator gets the e-mail's link too, to copy or share it; the link list never shows it again.
    expect(inv.body.enlace).toBe(`${app.config.siteUrl}/invitacion/${token}`);
    expect(JSON.stringify((await app.request('GET', '/app/api/usuarios', { cookie: admin })).body)).not.toContain(token);
    // Only the hash is kept.
    expect(JSON.stringify(await app.database.db.selectFrom('invitaciones').selectAll().execute())).not.toContain(token);

    const ver = await app.request('GET', `/app/api/invitacion/${token}`);
    expect(ver.status).toBe(200);
    expect(InvitacionPublica.parse(ver.body.invitacion)).toMatchObject({ empresa: c.account.nombre, email: email.toLowerCase(), rol: 'conductor' });

    const corta = await app.request('POST', `/app/api/invitacion/${token}`, { headers: CSRF, body: { password: 'corta' } });
    expect(corta.status).toBe(422);
    expect(ErrorBody.parse(corta.body).error.campos).toHaveProperty('password');

    const acepta = await app.request('POST', `/app/api/invitacion/${token}`, { headers: CSRF, body: { password: 'una-clave-bien-larga' } });
    expect(acepta.status).toBe(201);
    const sesion = SesionResponse.parse(acepta.body);
    expect(sesion.usuario).toMatchObject({ email: email.toLowerCase(), rol: 'conductor', email_confirmado: true });
    expect(sesion.cuenta.id).toBe(c.account.id);
    const me = await app.request('GET', '/app/api/sesion', { cookie: sessionCookieOf(acepta) });
    expect(SesionResponse.parse(me.body).usuario.rol).toBe('conductor');

    // Spent: a second use and a look at it are the same 404 as an unknown link.
    for (const [metodo, ruta] of [
      ['POST', `/app/api/invitacion/${token}`],
      ['GET', `/app/api/invitacion/${token}`],
      ['GET', `/app/api/invitacion/${'x'.repeat(43)}`],
    ] as const) {
      const r = await app.request(metodo, ruta, { headers: CSRF, body: metodo === 'POST' ? { password: 'una-clave-bien-larga' } : undefined });
      expect(r.status).toBe(404);
      expect(ErrorBody.parse(r.body).error.mensaje).toMatch(/no existe, ya se usó, caducó/);
    }
    const lista = UsuariosResponse.parse((await app.request('GET', '/app/api/usuarios', { cookie: admin })).body);
    expect(lista.usuarios.map((u) => [u.email, u.rol])).toEqual(
      expect.arrayContaining([
        [c.email, 'admin'],
        [email.toLowerCase(), 'conductor'],
      ]),
    );
    expect(lista.invitaciones.map((i) => i.email)).not.toContain(email.toLowerCase());
  });

  it('refuses an address that already has a user; inviting again replaces the link; an expired or withdrawn link is refused', async ({ app, c }) => {
    const admin = await sesionAdmin(app, c);
    const ya = await app.request('POST', '/app/api/usuarios', { cookie: admin, headers: CSRF, body: { email: c.email, rol: 'oficina' } });
    expect(ya.status).toBe(409);
    expect(ErrorBody.parse(ya.body).error.campos).toHaveProperty('email');

    const email = `repetida-${Date.now()}@example.com`;
    await app.request('POST', '/app/api/usuarios', { cookie: admin, headers: CSRF, body: { email, rol: 'oficina' } });
    const primero = await tokenInvitacion(app, email);
    await app.request('POST', '/app/api/usuarios', { cookie: admin, headers: CSRF, body: { email, rol: 'conductor' } });
    const segundo = await tokenInvitacion(app, email);
    expect(segundo).not.toBe(primero);
    expect((await app.request('GET', `/app/api/invitacion/${primero}`)).status).toBe(404);
    expect((await app.request('GET', `/app/api/invitacion/${segundo}`)).body.invitacion.rol).toBe('conductor');
    const abiertas = UsuariosResponse.parse((await app.request('GET', '/app/api/usuarios', { cookie: admin })).body).invitaciones.filter((i) => i.email === email);
    expect(abiertas).toHaveLength(1);

    // Withdrawn: the link stops working.
    const anulada = await app.request('DELETE', `/app/api/invitaciones/${abiertas[0]!.id}`, { cookie: admin, headers: CSRF });
    expect(anulada.status).toBe(200);
    expect((await app.request('GET', `/app/api/invitacion/${segundo}`)).status).toBe(404);

    // Expired after 7 days.
    const tarde = `tarde-${Date.now()}@example.com`;
    await app.request('POST', '/app/api/usuarios', { cookie: admin, headers: CSRF, body: { email: tarde, rol: 'oficina' } });
    const token = await tokenInvitacion(app, tarde);
    app.clock.advance(7 * 86_400_000 + 1000);
    try {
      const r = await app.request('POST', `/app/api/invitacion/${token}`, { headers: CSRF, body: { password: 'una-clave-bien-larga' } });
      expect(r.status).toBe(404);
      expect(await app.database.db.selectFrom('users').select('id').where('email', '=', tarde).execute()).toEqual([]);
    } finally {
      app.clock.advance(-(7 * 86_400_000 + 1000));
    }
  });

  it('changes a role from the next request; never leaves the account with no administrator; a removed user is signed out at once', async ({ app, c }) => {
    const admin = await sesionAdmin(app, c);
    const otro = await usuarioCon(app, admin, 'oficina');
    expect((await app.request('GET', '/api/v1/cuenta', { cookie: otro.cookie })).status).toBe(200);
    const cambio = await app.request('PATCH', `/app/api/usuarios/${otro.id}`, { cookie: admin, headers: CSRF, body: { rol: 'conductor' } });
    expect(cambio.status).toBe(200);
    expect(cambio.body.usuario.rol).toBe('conductor');
    expect((await app.request('GET', '/api/v1/cuenta', { cookie: otro.cookie })).status).toBe(403);

    // The only administrator cannot step down nor be removed.
    const yo = UsuariosResponse.parse((await app.request('GET', '/app/api/usuarios', { cookie: admin })).body).usuarios.find((u) => u.email === c.email)!;
    const bajar = await app.request('PATCH', `/app/api/usuarios/${yo.id}`, { cookie: admin, headers: CSRF, body: { rol: 'oficina' } });
    expect(bajar.status).toBe(409);
    expect(ErrorBody.parse(bajar.body).error.mensaje).toMatch(/sin administrador/);
    expect((await app.request('DELETE', `/app/api/usuarios/${yo.id}`, { cookie: admin, headers: CSRF })).status).toBe(409);

    // With a second administrator, the first may step down.
    await app.request('PATCH', `/app/api/usuarios/${otro.id}`, { cookie: admin, headers: CSRF, body: { rol: 'admin' } });
    const ahora = await app.request('PATCH', `/app/api/usuarios/${yo.id}`, { cookie: admin, headers: CSRF, body: { rol: 'oficina' } });
    expect(ahora.status).toBe(200);
    expect((await app.request('GET', '/app/api/usuarios', { cookie: admin })).status).toBe(403);
    await app.request('PATCH', `/app/api/usuarios/${yo.id}`, { cookie: otro.cookie, headers: CSRF, body: { rol: 'admin' } });

    // Removed: their session no longer opens anything.
    const quitar = await app.request('DELETE', `/app/api/usuarios/${otro.id}`, { cookie: admin, headers: CSRF });
    expect(quitar.status).toBe(200);
    expect((await app.request('GET', '/app/api/sesion', { cookie: otro.cookie })).status).toBe(401);
    expect((await app.request('GET', '/api/v1/decas', { cookie: otro.cookie })).status).toBe(401);
  });

  it("keeps another account's users out of reach", async ({ app, c, cuentaNueva }) => {
    const admin = await sesionAdmin(app, c);
    const ajeno = await iniciarSesion(app, cuentaNueva.email, cuentaNueva.password);
    const suyo = UsuariosResponse.parse((await app.request('GET', '/app/api/usuarios', { cookie: ajeno })).body).usuarios[0]!;
    expect((await app.request('PATCH', `/app/api/usuarios/${suyo.id}`, { cookie: admin, headers: CSRF, body: { rol: 'conductor' } })).status).toBe(404);
    expect((await app.request('DELETE', `/app/api/usuarios/${suyo.id}`, { cookie: admin, headers: CSRF })).status).toBe(404);
  });
});

describe('roles, enforced by the server', () => {
  /** Each request of the app with what each role gets: [admin, oficina, conductor]. */
  const MATRIZ: [string, string, unknown, [number, number, number]][] = [
    ['GET', '/api/v1/decas', undefined, [200, 200, 200]],
    ['POST', '/api/v1/decas', decaCompleta(), [201, 201, 201]],
    ['GET', '/api/v1/agenda/empresas', undefined, [200, 200, 200]],
    ['POST', '/api/v1/agenda/empresas', { nombre: 'Cargas del Sur', nif: 'B65410011' }, [200, 200, 403]],
    ['GET', '/api/v1/decas.csv', undefined, [200, 200, 403]],
    ['GET', '/api/v1/cuenta', undefined, [200, 200, 403]],
    ['GET', '/api/v1/webhooks', undefined, [200, 403, 403]],
    ['POST', '/api/v1/webhooks', { url: 'https://93.184.215.14/hook', eventos: ['deca.emitido'] }, [201, 403, 403]],
    ['GET', '/app/api/claves', undefined, [200, 403, 403]],
    ['POST', '/app/api/claves', { entorno: 'pruebas' }, [201, 403, 403]],
    ['GET', '/app/api/usuarios', undefined, [200, 403, 403]],
    ['POST', '/app/api/usuarios', { email: 'quien@example.com', rol: 'conductor' }, [201, 403, 403]],
    ['PATCH', '/app/api/cuenta', { domicilio: 'Calle Nueva 1, Segovia' }, [200, 403, 403]],
    ['GET', '/app/api/dispositivos', undefined, [200, 200, 200]],
    ['POST', '/app/api/dispositivos', undefined, [201, 201, 201]],
  ];

  it('answers each role as its permissions say, on the API the app uses and on its own endpoints', async ({ app, c }) => {
    const admin = await sesionAdmin(app, c);
    const oficina = await usuarioCon(app, admin, 'oficina');
    const conductor = await usuarioCon(app, admin, 'conductor');
    const vistos: string[] = [];
    const esperados: string[] = [];
    for (const [metodo, ruta, body, [a, o, d]] of MATRIZ) {
      for (const [quien, cookie, esperado] of [
        ['admin', admin, a],
        ['oficina', oficina.cookie, o],
        ['conductor', conductor.cookie, d],
      ] as const) {
        // The invitation e-mail is unique per account: one address per request.
        // A device's key is registered once: one key per request.
        const cuerpo =
          metodo !== 'POST'
            ? body
            : ruta === '/app/api/usuarios'
              ? { email: `m${++seq}@example.com`, rol: 'conductor' }
              : ruta === '/app/api/dispositivos'
                ? { nombre: 'Móvil', clave_publica: await clavePublica() }
                : body;
        const r = await app.request(metodo, ruta, { cookie, headers: CSRF, body: cuerpo });
        vistos.push(`${metodo} ${ruta} ${quien} → ${r.status}`);
        esperados.push(`${metodo} ${ruta} ${quien} → ${esperado}`);
        if (r.status === 403) expect(ErrorBody.parse(r.body).error.codigo).toBe('prohibido');
      }
    }
    expect(vistos).toEqual(esperados);
  });

  it('says which role refuses what, in Spanish', async ({ app, c }) => {
    const admin = await sesionAdmin(app, c);
    const conductor = await usuarioCon(app, admin, 'conductor');
    const r = await app.request('GET', '/api/v1/webhooks', { cookie: conductor.cookie });
    expect(ErrorBody.parse(r.body).error.mensaje).toBe('Su función en la cuenta (Conductor) no permite gestionar las claves de API ni los webhooks. Pídaselo a un administrador.');
  });

  it('leaves API keys acting for the whole account', async ({ app, c }) => {
    expect((await app.request('GET', '/api/v1/webhooks', { key: c.live })).status).toBe(200);
    expect((await app.request('GET', '/api/v1/cuenta', { key: c.live })).status).toBe(200);
    expect((await app.request('GET', '/api/v1/decas.csv', { key: c.live })).status).toBe(200);
  });
});
