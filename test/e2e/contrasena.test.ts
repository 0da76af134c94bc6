import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { auditarAccesibilidad } from './axe';
import { CHROMIUM, cuentaNueva, type Entorno, enlaceDelCorreo, entrar, seguirEnlace } from './browser';
import { archivoE2e } from './flujos';

/**
 * Passwords on a phone: «¿Ha olvidado la contraseña?» on the sign-in screen,
 * the e-mailed link, a new password and the app signed in (the other
 * sessions ended); «Cambiar contraseña» in «Cuenta», with the current one.
 */
describe.skipIf(!CHROMIUM)('password reset and change on a phone', () => {
  const e2e = archivoE2e({ viewport: { width: 390, height: 844 }, politicas: true });

  /** The status the server gives a session cookie (another device's, from the test process). */
  const estadoSesion = async (env: Entorno, cookie: string) => (await fetch(`${env.url}/app/api/sesion`, { headers: { cookie } })).status;
  /** The status the page's own session gets. */
  const estadoEnPagina = (page: Page) => page.evaluate(async () => (await fetch('/app/api/sesion')).status);

  it('«¿Ha olvidado la contraseña?» → the e-mail → its link → a new password → signed in; the link works once', async () => {
    const { env } = e2e;
    // The sign-up's session stands for another device the user is signed in on.
    const cuenta = await cuentaNueva(env);
    expect(await estadoSesion(env, cuenta.cookie)).toBe(200);
    const page = await env.context.newPage();
    await page.goto(env.url);
    await page.getByRole('heading', { name: 'Entrar' }).waitFor();
    await seguirEnlace(page, page.getByRole('link', { name: '¿Ha olvidado la contraseña?' }), page.getByRole('heading', { name: '¿Ha olvidado la contraseña?' }));
    expect(await auditarAccesibilidad(page), '¿Ha olvidado la contraseña?').toEqual([]);
    await page.fill('#f-email', cuenta.email);
    await page.getByRole('button', { name: 'Enviar el enlace' }).click();
    await page
      .getByTestId('olvido-enviado')
      .getByText(/^Si hay una cuenta con ese correo, le hemos enviado un enlace/)
      .waitFor();

    const enlace = await enlaceDelCorreo(env, cuenta.email, /^\/restablecer\//);
    await page.goto(env.url + enlace);
    await page.getByRole('heading', { name: 'Elija una contraseña nueva' }).waitFor();
    expect(await page.inputValue('#f-email')).toBe(cuenta.email);
    // The sign-up's rules, at the field.
    await page.fill('#f-password', 'corta');
    await page.getByRole('button', { name: 'Guardar y entrar' }).click();
    await page
      .locator('#f-password-error')
      .getByText(/al menos 10/)
      .waitFor();
    expect(await auditarAccesibilidad(page), 'Elija una contraseña nueva').toEqual([]);

    const nueva = `nueva-del-movil-${Date.now()}`;
    env.recordar(nueva);
    await page.fill('#f-password', nueva);
    await page.getByRole('button', { name: 'Guardar y entrar' }).click();
    await page.getByRole('heading', { name: 'Sus DeCA' }).waitFor({ timeout: 20_000 });
    expect(await estadoEnPagina(page)).toBe(200);
    expect(await estadoSesion(env, cuenta.cookie)).toBe(401);

    // The same link again, on another phone: used.
    await env.perfilNuevo();
    const otra = await env.context.newPage();
    await otra.goto(env.url + enlace);
    await otra
      .getByRole('alert')
      .getByText(/no existe, ya se usó o caducó/)
      .waitFor();
    // The new password signs in; the old one does not.
    await otra.goto(env.url);
    await otra.getByRole('heading', { name: 'Entrar' }).waitFor();
    await otra.fill('#f-email', cuenta.email);
    await otra.fill('#f-password', cuenta.password);
    await otra.getByRole('button', { name: 'Entrar' }).click();
    await otra.getByRole('alert').getByText('Correo o contraseña incorrectos.').waitFor();
    await entrar(env, otra, { email: cuenta.email, password: nueva });
  });

  it('«Cambiar contraseña» in «Cuenta» asks for the current one and ends the other sessions', async () => {
    const { env } = e2e;
    const { page, cuenta } = await e2e.sesion({ ruta: '/cuenta' });
    await page.getByRole('heading', { name: 'Cuenta', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Cambiar contraseña' }).click();
    const nueva = `cambiada-en-cuenta-${Date.now()}`;
    env.recordar(nueva);
    await page.fill('#f-actual', 'no-es-la-actual');
    await page.fill('#f-password', nueva);
    await page.getByRole('button', { name: 'Guardar la contraseña' }).click();
    await page.locator('#f-actual-error').getByText('No es la contraseña actual').waitFor();
    expect(await auditarAccesibilidad(page), 'Cambiar contraseña').toEqual([]);
    expect(await estadoSesion(env, cuenta.cookie)).toBe(200);

    await page.fill('#f-actual', cuenta.password);
    await page.getByRole('button', { name: 'Guardar la contraseña' }).click();
    await page
      .getByRole('status')
      .getByText(/Contraseña cambiada/)
      .waitFor();
    expect(await estadoSesion(env, cuenta.cookie)).toBe(401);
    expect(await estadoEnPagina(page)).toBe(200);

    await env.perfilNuevo();
    await entrar(env, await env.context.newPage(), { email: cuenta.email, password: nueva });
  });
});
