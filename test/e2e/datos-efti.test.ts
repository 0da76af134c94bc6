/**
 * The eFTI data in the app's form: folded away under each party, the vehicle
 * and each shipment, checked offline with the server's rules, sent with the
 * DeCA, and back in the form when the DeCA is changed; usable on a 390 px phone.
 */
import { describe, expect, it } from 'vitest';
import { CHROMIUM } from './browser';
import { archivoE2e, esperarNumero, rellenarDeca } from './flujos';

type D = {
  deca: {
    cargador_cp: string | null;
    cargador_municipio: string | null;
    cargador_pais: string | null;
    matricula_pais: string | null;
    envios: { destinatario_nombre: string | null; destinatario_nif: string | null }[];
  };
};

describe.skipIf(!CHROMIUM)('eFTI data in the DeCA form', () => {
  const e2e = archivoE2e({ politicas: true });

  it('folded by default; a bad postcode is refused at its field before sending; issued with the data; opened again when the DeCA is changed', async () => {
    const { env } = e2e;
    const { page, api } = await e2e.sesion({ clave: true });
    await rellenarDeca(page, { cargador: 'Frutas del Sur SA', matricula: '1234 BCD', origen: 'Almería', destino: 'Zaragoza' });
    // Nothing of it in the way: folded, its fields hidden.
    expect(await page.locator('details.efti[open]').count()).toBe(0);
    expect(await page.locator('#f-cargador_cp').isVisible()).toBe(false);

    await page.locator('fieldset', { hasText: 'Cargador' }).locator('details.efti summary').first().click();
    await page.fill('#f-cargador_cp', '2800');
    await page.locator('#f-cargador_cp[aria-invalid="true"]').waitFor();
    await page
      .getByText(/Código postal español no válido: son 5 cifras/)
      .first()
      .waitFor();
    await page.fill('#f-cargador_cp', '04001');
    await page.fill('#f-cargador_municipio', 'Almería');
    await page.locator('.envio details.efti summary').first().click();
    await page.fill('#f-envios_0__destinatario_nombre', 'Mercazaragoza, S.A.');
    await page.fill('#f-envios_0__destinatario_nif', 'A50000009');
    await page.getByText('Lista para emitir.').waitFor();
    await page.getByRole('button', { name: 'Emitir ahora' }).click();
    const numero = await esperarNumero(page);
    const { deca } = await api<D>('GET', `/decas/${numero}`);
    expect(deca).toMatchObject({ cargador_cp: '04001', cargador_municipio: 'Almería', cargador_pais: null, matricula_pais: null });
    expect(deca.envios[0]).toMatchObject({ destinatario_nombre: 'Mercazaragoza, S.A.', destinatario_nif: 'A50000009' });

    // Changing it: the eFTI sections that hold data come open, with the data.
    await page.goto(`${env.url}/decas/${numero}`);
    await page.getByRole('link', { name: 'Modificar' }).click();
    await expect.poll(() => page.inputValue('#f-cargador_cp')).toBe('04001');
    expect(await page.locator('#f-cargador_cp').isVisible()).toBe(true);
    expect(await page.inputValue('#f-envios_0__destinatario_nombre')).toBe('Mercazaragoza, S.A.');
  });
});

describe.skipIf(!CHROMIUM)('eFTI data in the DeCA form on a phone', () => {
  const e2e = archivoE2e({ viewport: { width: 390, height: 844 }, politicas: true });

  it('fits a 390 px screen: each section folded, opened within the width', async () => {
    const { env } = e2e;
    const { page } = await e2e.sesion();
    await page.goto(`${env.url}/decas/nueva`);
    await page.locator('#f-cargador_nombre').waitFor();
    const resumenes = page.locator('details.efti summary');
    expect(await resumenes.count()).toBe(2);
    await resumenes.first().click();
    for (const id of ['#f-cargador_cp', '#f-cargador_municipio', '#f-cargador_provincia', '#f-cargador_pais']) {
      const caja = await page.locator(id).boundingBox();
      expect(caja, id).not.toBeNull();
      expect(caja!.x + caja!.width, id).toBeLessThanOrEqual(390);
    }
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  });
});
