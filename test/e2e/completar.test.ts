import { describe, expect, it } from 'vitest';
import { auditarAccesibilidad } from './axe';
import { CHROMIUM } from './browser';
import { archivoE2e } from './flujos';

type D = { deca: { id: number; numero: string; estado: string; cargador_nif: string | null; transp_nombre: string | null; urls: { completar: string | null } } };

/**
 * The other party's completion page as a person uses it, with no account:
 * only its own fields to fill, the app's warnings at the field, and a
 * confirmation step before issuing with them.
 */
describe.skipIf(!CHROMIUM)('the completion link in a browser', () => {
  const e2e = archivoE2e({ politicas: true });

  it('shows a wrong NIF at the field, asks before issuing, and issues once confirmed', async () => {
    const { env } = e2e;
    const { api, page } = await e2e.sesion({ clave: true });
    await page.close();
    const { deca } = await api<D>('POST', '/decas', { emitir: false, emisor_rol: 'transportista', fecha_transporte: '2026-11-25', matricula: '1234 BCD' });
    expect(deca.urls.completar).toMatch(/\/completar\//);

    const otra = await env.context.newPage();
    await otra.goto(`${env.url}${new URL(deca.urls.completar!).pathname}`);
    await otra.getByRole('button', { name: 'Continuar' }).click();
    await otra.getByRole('heading', { name: `Completar la DeCA ${deca.numero}` }).waitFor();
    // The carrier's own data is there to read, not to change.
    expect(await otra.locator('input[name^="transp_"]').count()).toBe(0);
    await otra.locator('.ro').getByText('Transportes Prueba SL').waitFor();

    await otra.getByLabel('Cargador: nombre o razón social').fill('Frutas Peñalara, S.A.');
    await otra.getByLabel('Cargador: NIF').fill('A46123456');
    await otra.getByLabel('Cargador: domicilio').fill('Camí Vell 3, 25001 Lleida');
    await otra.getByLabel('Origen').fill('Lleida');
    await otra.getByLabel('Destino').fill('Málaga');
    await otra.getByLabel('Mercancía (naturaleza)').fill('Fruta');
    await otra.getByLabel('Peso o cantidad').fill('24.500');
    await otra.getByRole('button', { name: 'Emitir la DeCA' }).click();

    // Back with the warning under the NIF, which the field is described by, and nothing issued.
    const aviso = otra.locator('[data-aviso="cargador_nif"]');
    await aviso.getByText('Revise el NIF A46123456: el dígito de control no corresponde (debería ser 1).').waitFor();
    expect(await otra.getByLabel('Cargador: NIF').getAttribute('aria-describedby')).toBe(await aviso.getAttribute('id'));
    expect(await otra.getByLabel('Cargador: NIF').inputValue()).toBe('A46123456');
    expect((await api<D>('GET', `/decas/${deca.id}`)).deca.estado).toBe('pendiente');
    expect(await auditarAccesibilidad(otra), 'the page with the warnings').toEqual([]);

    await otra.getByRole('button', { name: 'Emitir de todos modos' }).click();
    await otra.getByRole('heading', { name: `DeCA ${deca.numero} emitida` }).waitFor();
    expect((await api<D>('GET', `/decas/${deca.id}`)).deca).toMatchObject({ estado: 'emitido', cargador_nif: 'A46123456', transp_nombre: 'Transportes Prueba SL' });
  });
});
