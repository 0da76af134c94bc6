import { describe, expect, it } from 'vitest';
import { auditarAccesibilidad } from './axe';
import { CHROMIUM, esperarServiceWorker, POLL_API_MS } from './browser';
import { archivoE2e, decaCompleta } from './flujos';

/**
 * The address book an office keeps clean, at a 1440×900 desk: a company
 * learnt twice (once from a DeCA whose shipper NIF has a wrong check
 * character) is marked, not suggested by the form, and merged into the right
 * one with the uses of both; a NIF fixed with no network reaches the server
 * when it returns.
 */

/** «Cítricos La Ribera SL»: its NIF, and the one a CSV row carried with a wrong check character. */
const BUENO = 'B96712344';
const MALO = 'B96712341';
const EMPRESA = 'Cítricos La Ribera SL';

type Entradas = { entradas: { nif: string; usos: number; lado: string | null; avisos: unknown[] }[] };

describe.skipIf(!CHROMIUM)('the address book at the desk: marked NIFs, merge, offline edits', () => {
  const e2e = archivoE2e({ viewport: { width: 1440, height: 900 }, politicas: true });

  it('merges two entries of one company, one with a wrong NIF: one entry is left, with the right NIF and the uses of both', async () => {
    const { env } = e2e;
    const { page, api } = await e2e.sesion({ clave: true });
    // Two DeCAs learnt the wrong NIF (issued with its warning), one the right one.
    for (const nif of [MALO, MALO, BUENO]) await api('POST', '/decas', decaCompleta({ cargador_nombre: EMPRESA, cargador_nif: nif }));

    await page.goto(`${env.url}/agenda`);
    const lista = page.getByTestId('agenda');
    const mala = lista.locator(`[data-clave="${MALO}"]`);
    await mala.waitFor({ timeout: 20_000 });
    await lista.locator(`[data-clave="${BUENO}"]`).waitFor();
    expect(await mala.textContent()).toContain('NIF a revisar');
    expect(await mala.textContent()).toContain(`Revise el NIF ${MALO}: el dígito de control no corresponde (debería ser 4).`);
    expect(await lista.locator(`[data-clave="${BUENO}"]`).textContent()).not.toContain('NIF a revisar');

    // The form offers the right one only.
    await page.goto(`${env.url}/decas/nueva`);
    await expect.poll(() => page.locator(`#agenda-nifs option[value="${BUENO}"]`).count(), { timeout: 20_000 }).toBe(1);
    expect(await page.locator(`#agenda-nifs option[value="${MALO}"]`).count()).toBe(0);

    // «Fusionar» on the wrong one: the other entry of the same name is proposed, and its data (the right NIF) kept.
    await page.goto(`${env.url}/agenda`);
    await mala.getByRole('button', { name: /^Fusionar/ }).click();
    const fusion = page.getByTestId('agenda-fusion');
    await fusion.waitFor();
    expect(await page.locator('#f-fusion_con').inputValue()).toBe(BUENO);
    await expect.poll(() => fusion.getByRole('radio', { name: new RegExp(`${BUENO}.*1 DeCA`) }).isChecked()).toBe(true);
    expect(await fusion.getByRole('radio', { name: new RegExp(`${MALO}.*2 DeCA.*NIF a revisar`) }).isChecked()).toBe(false);
    expect(await auditarAccesibilidad(page)).toEqual([]);
    await fusion.getByRole('button', { name: 'Fusionar', exact: true }).click();
    await page.getByText(`Fusionadas: queda «${EMPRESA}» (${BUENO}) con 3 DeCA.`).waitFor();
    // (The other company of the list is the account's own, the carrier of those DeCAs.)
    await expect.poll(() => lista.locator('li', { hasText: EMPRESA }).count()).toBe(1);
    expect(await lista.locator(`[data-clave="${MALO}"]`).count()).toBe(0);
    expect(await lista.locator(`[data-clave="${BUENO}"]`).textContent()).toContain('3 DeCA');

    // On the server: one entry, the right NIF, the uses added.
    await expect
      .poll(async () => (await api<Entradas>('GET', '/agenda/empresas?q=ribera&con_avisos=1')).entradas.map((e) => [e.nif, e.usos, e.avisos.length]), {
        timeout: 20_000,
        interval: POLL_API_MS,
      })
      .toEqual([[BUENO, 3, 0]]);
    await expect.poll(async () => (await lista.locator(`[data-clave="${BUENO}"]`).textContent()) ?? '', { timeout: 20_000 }).not.toContain('pendiente');
  });

  it('fixes a wrong NIF with no network, with the form’s warning while it is typed; the fix reaches the server when it returns', async () => {
    const { env } = e2e;
    const { page, api } = await e2e.sesion({ clave: true });
    await api('POST', '/decas', decaCompleta({ cargador_nombre: EMPRESA, cargador_nif: MALO }));
    await page.goto(`${env.url}/agenda`);
    const lista = page.getByTestId('agenda');
    await lista.locator(`[data-clave="${MALO}"]`).waitFor({ timeout: 20_000 });
    await esperarServiceWorker(page);
    await env.context.setOffline(true);

    await lista
      .locator(`[data-clave="${MALO}"]`)
      .getByRole('button', { name: /^Editar/ })
      .click();
    // The NIF can be edited, and says what is wrong as the DeCA form does.
    expect(await page.getAttribute('#f-agenda_nif', 'readonly')).toBeNull();
    const aviso = page.locator('#f-agenda_nif-aviso');
    await aviso.getByText(`Revise el NIF ${MALO}: el dígito de control no corresponde (debería ser 4).`).waitFor();
    await page.fill('#f-agenda_nif', 'B96712340');
    await aviso.getByText('Revise el NIF B96712340: el dígito de control no corresponde (debería ser 4).').waitFor();
    await page.fill('#f-agenda_nif', 'b-96712344');
    await expect.poll(() => aviso.count()).toBe(0);
    // Every field is the office's to change: the side it appears on too.
    expect(await page.inputValue('#f-agenda_lado')).toBe('cargador');
    await page.selectOption('#f-agenda_lado', 'ambos');
    await page.getByRole('button', { name: 'Guardar' }).click();
    await page.getByText(`«${EMPRESA}» guardado en este dispositivo: se enviará cuando haya conexión.`).waitFor();
    const buena = lista.locator(`[data-clave="${BUENO}"]`);
    expect(await buena.textContent()).toContain('pendiente de enviar');
    expect(await buena.textContent()).not.toContain('NIF a revisar');
    expect(await lista.locator(`[data-clave="${MALO}"]`).count()).toBe(0);
    // Still offline, the form suggests it now.
    await page.goto(`${env.url}/decas/nueva`);
    await expect.poll(() => page.locator(`#agenda-nifs option[value="${BUENO}"]`).count()).toBe(1);

    await env.context.setOffline(false);
    // The same entry on the server, fixed: suggested again (found without con_avisos), its use kept.
    await expect
      .poll(async () => (await api<Entradas>('GET', '/agenda/empresas?q=ribera')).entradas.map((e) => [e.nif, e.usos, e.lado]), { timeout: 20_000, interval: POLL_API_MS })
      .toEqual([[BUENO, 1, 'ambos']]);
    await page.goto(`${env.url}/agenda`);
    await expect.poll(async () => (await lista.locator(`[data-clave="${BUENO}"]`).textContent()) ?? '', { timeout: 20_000 }).not.toContain('pendiente');
  });
});
