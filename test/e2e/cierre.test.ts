import { describe, expect, it } from 'vitest';
import { auditarAccesibilidad } from './axe';
import { CHROMIUM, enlaceDelCorreo } from './browser';
import { archivoE2e } from './flujos';

/**
 * «Cerrar la cuenta» at the bottom of «Cuenta», on a phone: what happens is
 * said before; the password and the company's NIF confirm it; then the app
 * signs out, forgets the account on the device and says what comes next;
 * the e-mailed link opens the page that downloads the data.
 */
describe.skipIf(!CHROMIUM)('closing the account on a phone', () => {
  const e2e = archivoE2e({ viewport: { width: 390, height: 844 }, politicas: true });

  it('warns, asks for the password and the NIF, closes, signs out and says what happens next', async () => {
    const { env } = e2e;
    const { page, cuenta } = await e2e.sesion({ ruta: '/cuenta' });
    await page.getByRole('heading', { name: 'Cerrar la cuenta' }).waitFor();
    await page.getByRole('link', { name: 'Privacidad', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Cerrar la cuenta…' }).click();
    await page
      .getByTestId('cerrar-cuenta-aviso')
      .getByText(/no se puede deshacer/)
      .waitFor();
    expect(await auditarAccesibilidad(page), 'Cerrar la cuenta').toEqual([]);

    await page.fill('#f-cierre_password', cuenta.password);
    await page.fill('#f-cierre_nif', 'A58818501');
    await page.getByRole('button', { name: 'Cerrar la cuenta definitivamente' }).click();
    await page
      .locator('#f-cierre_nif-error')
      .getByText(/B12345674/)
      .waitFor();
    expect((await fetch(`${env.url}/app/api/sesion`, { headers: { cookie: cuenta.cookie } })).status).toBe(200);

    await page.fill('#f-cierre_nif', 'b12345674');
    await page.getByRole('button', { name: 'Cerrar la cuenta definitivamente' }).click();
    const aviso = page.getByTestId('cuenta-cerrada');
    await aviso.getByText(`Hemos enviado a`).waitFor({ timeout: 20_000 });
    expect(await aviso.textContent()).toContain(cuenta.email);
    await page.getByRole('heading', { name: 'Entrar' }).waitFor();
    expect(await auditarAccesibilidad(page), 'Cuenta cerrada').toEqual([]);
    expect((await fetch(`${env.url}/app/api/sesion`, { headers: { cookie: cuenta.cookie } })).status).toBe(401);
    // Nothing of the account stays on the device.
    const bases = await page.evaluate(async () => (await indexedDB.databases()).map((d) => d.name ?? ''));
    expect(bases.filter((n) => n.startsWith(`deca-u${cuenta.usuarioId}-`))).toEqual([]);

    const enlace = await enlaceDelCorreo(env, cuenta.email, /^\/p\/exportacion\//);
    env.recordar(enlace.split('/').pop() ?? '');
    await page.goto(env.url + enlace);
    await page.getByRole('button', { name: 'Descargar los datos' }).waitFor();
  });
});
