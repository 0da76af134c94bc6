import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { fotografiar } from '../fixtures/albaranes';
import { herramienta } from '../support/herramientas';
import { auditarAccesibilidad } from './axe';
import { CHROMIUM, type Entorno, esperarServiceWorker } from './browser';
import { type Api, archivoE2e } from './flujos';

/**
 * The road moment as a driver meets it on a 390×844 phone: a real review
 * before «Emitir», no API field name anywhere, a dark screen for the night
 * (the officer's views kept light), and the small words right (plurals,
 * units, the camera button, the photo counter).
 */

/** Today in Madrid, `YYYY-MM-DD`, and as the app writes it. */
const hoy = () => new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/Madrid' }).format(new Date());
const hoyEs = () => hoy().split('-').reverse().join('/');

/** An API field name shown as text: lower-case words joined by `_` (ref_externa, cargador_nif). */
const NOMBRE_DE_API = /\b[a-z]+(?:_[a-z0-9]+)+\b/g;

/** The API names in what the page shows now (its visible text, the labels and the buttons included). */
async function nombresDeApi(page: Page): Promise<string[]> {
  const texto = await page.evaluate(() => document.body.innerText);
  return texto.match(NOMBRE_DE_API) ?? [];
}

/** The relative luminance of a CSS colour `rgb(r, g, b)` (WCAG 2), 0 black to 1 white. */
function luminancia(css: string): number {
  const [r, g, b] = (css.match(/[\d.]+/g) ?? []).slice(0, 3).map((x) => {
    const c = Number(x) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

/** The colour that paints behind `selector` (its own, or the nearest ancestor's that is not transparent). */
function fondo(page: Page, selector: string): Promise<string> {
  return page.evaluate((sel) => {
    let el: Element | null = document.querySelector(sel);
    while (el) {
      const c = getComputedStyle(el).backgroundColor;
      if (c && c !== 'rgba(0, 0, 0, 0)' && c !== 'transparent') return c;
      el = el.parentElement;
    }
    return getComputedStyle(document.documentElement).backgroundColor;
  }, selector);
}

/** No WCAG A/AA violation (colour contrast included) on what the page shows now. */
async function sinInfracciones(page: Page, pantalla: string): Promise<void> {
  expect(await auditarAccesibilidad(page), pantalla).toEqual([]);
}

/** The phone form up to its last step: a shipper whose NIF has a wrong check character, a trailer, one shipment of 22.400 kg. */
async function hastaLaRevision(env: Entorno, page: Page): Promise<void> {
  await page.goto(`${env.url}/decas/nueva`);
  await page.fill('#f-cargador_nombre', 'Frutas del Cierzo SL');
  await page.fill('#f-cargador_nif', 'B12345670');
  await page.fill('#f-cargador_domicilio', 'Calle Mayor 1, Zaragoza');
  await page.getByRole('button', { name: 'Siguiente: Vehículo' }).click();
  await page.fill('#f-matricula', '1234BCD');
  await page.fill('#f-matricula_remolque', 'R1234BBB');
  await page.fill('#f-conductor_nombre', 'Ana Ruiz');
  await page.getByRole('button', { name: 'Siguiente: Envíos' }).click();
  await page.fill('#f-envios_0__origen', 'Zaragoza');
  await page.fill('#f-envios_0__destino', 'Teruel');
  await page.fill('#f-envios_0__naturaleza', 'Melocotón');
  await page.fill('#f-envios_0__peso', '22400');
  await page.getByRole('button', { name: 'Siguiente: Revisión' }).click();
  await page.getByTestId('resumen').waitFor();
}

/** An issued DeCA made through the API, with its public page's path. */
async function emitida(api: Api): Promise<{ numero: string; ficha: string }> {
  const { deca } = await api<{ deca: { numero: string; urls: { ficha: string } } }>('POST', '/decas', {
    cargador_nombre: 'Frutas del Cierzo SL',
    cargador_nif: 'B12345674',
    cargador_domicilio: 'Calle Mayor 1, Zaragoza',
    matricula: '1234BCD',
    conductor_nombre: 'Ana Ruiz',
    fecha_transporte: hoy(),
    envios: [{ origen: 'Zaragoza', destino: 'Teruel', naturaleza: 'Melocotón', peso: 22400 }],
  });
  return { numero: deca.numero, ficha: new URL(deca.urls.ficha).pathname };
}

/** Wait until the list shows the DeCA (the device has its copy). */
async function enLaLista(env: Entorno, page: Page, numero: string): Promise<void> {
  await page.goto(env.url);
  await expect.poll(async () => (await page.getByTestId('lista-decas').textContent()) ?? '', { timeout: 20_000 }).toContain(numero);
}

describe.skipIf(!CHROMIUM)('the review before issuing, dark mode and the small words, on a 390×844 phone', () => {
  const e2e = archivoE2e({ viewport: { width: 390, height: 844 }, politicas: true });

  it('«Revisión» shows the DeCA as it will be issued, with the warnings right above «Emitir»', async () => {
    const { env } = e2e;
    const { page } = await e2e.sesion();
    await hastaLaRevision(env, page);
    const resumen = page.getByTestId('resumen');
    expect(await resumen.getByTestId('resumen-cargador').innerText()).toBe('Frutas del Cierzo SL\nNIF B12345670');
    expect(await resumen.getByTestId('resumen-transportista').innerText()).toBe('Transportes Prueba SL\nNIF B12345674');
    expect(await resumen.getByTestId('resumen-matriculas').innerText()).toBe('1234BCD + R1234BBB');
    expect(await resumen.getByTestId('resumen-fecha').innerText()).toBe(hoyEs());
    expect((await resumen.getByTestId('resumen-envio').innerText()).split('\n').filter(Boolean)).toEqual(['Melocotón · 22.400 kg', 'Zaragoza → Teruel']);
    // Large type: the summary reads at arm's length.
    expect(
      await resumen
        .locator('dd')
        .first()
        .evaluate((el) => Number.parseFloat(getComputedStyle(el).fontSize)),
    ).toBeGreaterThanOrEqual(18);

    // The warning the shared rules give (the wrong check character), between the summary and «Emitir ahora».
    const avisos = page.getByTestId('avisos');
    expect(await avisos.innerText()).toMatch(/^Cargador · NIF: Revise el NIF B12345670/);
    const emitir = page.getByRole('button', { name: 'Emitir ahora' });
    const [cajaResumen, cajaAvisos, cajaEmitir] = await Promise.all([resumen.boundingBox(), page.getByTestId('faltan').boundingBox(), emitir.boundingBox()]);
    expect(cajaResumen!.y + cajaResumen!.height).toBeLessThanOrEqual(cajaAvisos!.y);
    expect(cajaAvisos!.y + cajaAvisos!.height).toBeLessThanOrEqual(cajaEmitir!.y);
    expect(await page.getByTestId('faltan').evaluate((el) => el.nextElementSibling?.contains(document.querySelector('button.primario')))).toBe(true);
    // A thumb's target, and the reference in plain words.
    expect(cajaEmitir!.height).toBeGreaterThanOrEqual(48);
    await page.getByLabel('Su referencia').waitFor();
    await page.getByText('Un código suyo para encontrar esta DeCA (pedido, albarán…)', { exact: false }).waitFor();
    await sinInfracciones(page, 'revisión');
  });

  it('no screen shows an API field name', async () => {
    const { env } = e2e;
    const { page, api } = await e2e.sesion({ clave: true });
    const { numero } = await emitida(api);
    await enLaLista(env, page, numero);
    const vistos: Record<string, string[]> = { lista: await nombresDeApi(page) };
    await page.goto(`${env.url}/decas/${numero}`);
    await page.getByRole('heading', { name: new RegExp(numero) }).waitFor();
    await page.getByTestId('ref-externa').waitFor();
    vistos.detalle = await nombresDeApi(page);
    await page.goto(`${env.url}/decas/nueva`);
    for (const paso of ['Partes', 'Vehículo', 'Envíos', 'Revisión']) {
      await page.getByRole('button', { name: new RegExp(`^\\d\\. ${paso}$`) }).click();
      vistos[`formulario ${paso}`] = await nombresDeApi(page);
    }
    await page.goto(`${env.url}/fotos`);
    await page.getByRole('heading', { name: 'Leer un albarán' }).waitFor();
    vistos.fotos = await nombresDeApi(page);
    await page.goto(`${env.url}/cuenta`);
    await page.getByTestId('tema').waitFor();
    await page.getByTestId('cuota').waitFor();
    vistos.cuenta = await nombresDeApi(page);
    expect(vistos).toEqual({ lista: [], detalle: [], 'formulario Partes': [], 'formulario Vehículo': [], 'formulario Envíos': [], 'formulario Revisión': [], fotos: [], cuenta: [] });
  });

  it('dark mode follows the system and the switch in «Cuenta», with no white first paint; the officer’s views stay light', async () => {
    const { env } = e2e;
    const { page, api } = await e2e.sesion({ clave: true });
    const { numero, ficha } = await emitida(api);
    await page.emulateMedia({ colorScheme: 'dark' });
    await enLaLista(env, page, numero);
    expect(luminancia(await fondo(page, 'main'))).toBeLessThan(0.05);
    expect(luminancia(await page.evaluate(() => getComputedStyle(document.body).color))).toBeGreaterThan(0.6);
    await sinInfracciones(page, 'lista, oscuro');
    await page.goto(`${env.url}/decas/${numero}`);
    await page.getByTestId('mostrar-agente').waitFor();
    expect((await page.getByTestId('mostrar-agente').boundingBox())!.height).toBeGreaterThanOrEqual(48);
    await sinInfracciones(page, 'detalle, oscuro');
    await hastaLaRevision(env, page);
    await sinInfracciones(page, 'revisión con avisos, oscuro');
    await page.goto(`${env.url}/fotos`);
    await page.getByRole('heading', { name: 'Leer un albarán' }).waitFor();
    await sinInfracciones(page, 'fotos, oscuro');
    await page.goto(`${env.url}/cuenta`);
    await page.getByTestId('tema').waitFor();
    await sinInfracciones(page, 'cuenta, oscuro');

    // «Mostrar al agente» and the public page: light, for the QR's contrast, whatever the phone's scheme.
    await page.goto(`${env.url}/decas/${numero}/agente`);
    await page.getByTestId('agente-qr').waitFor({ timeout: 20_000 });
    expect(luminancia(await fondo(page, '[data-testid="vista-agente"]'))).toBeGreaterThan(0.9);
    expect(luminancia(await page.getByTestId('agente-estado').evaluate((el) => getComputedStyle(el.parentElement!).color))).toBeLessThan(0.05);
    const oficial = await env.context.newPage();
    await oficial.emulateMedia({ colorScheme: 'dark' });
    await oficial.goto(`${env.url}${ficha}`);
    expect(luminancia(await fondo(oficial, 'body'))).toBeGreaterThan(0.9);
    await oficial.close();

    // The switch: «Oscuro» on a light system, kept on the device, dark from the first frame after a reload.
    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto(`${env.url}/cuenta`);
    const tema = page.getByTestId('tema');
    await tema.waitFor();
    expect(await tema.getByLabel('Sistema', { exact: false }).isChecked()).toBe(true);
    expect(luminancia(await fondo(page, 'main'))).toBeGreaterThan(0.9);
    await tema.getByLabel('Oscuro', { exact: false }).check();
    await expect.poll(async () => luminancia(await fondo(page, 'main'))).toBeLessThan(0.05);
    // Before the first frame is painted (the first animation frame runs just before it), the page is already dark.
    await page.addInitScript(() => {
      requestAnimationFrame(() => {
        (globalThis as { primerFotograma?: string }).primerFotograma = getComputedStyle(document.documentElement).backgroundColor;
      });
    });
    await page.reload();
    await page.getByTestId('tema').waitFor();
    const primero = await page.evaluate(() => (globalThis as { primerFotograma?: string }).primerFotograma);
    expect(primero, 'background of the first frame').toMatch(/^rgb/);
    expect(luminancia(primero!)).toBeLessThan(0.05);
    expect(await page.getByTestId('tema').getByLabel('Oscuro', { exact: false }).isChecked()).toBe(true);
    // Back to the system's: light again.
    await page.getByTestId('tema').getByLabel('Sistema', { exact: false }).check();
    await expect.poll(async () => luminancia(await fondo(page, 'main'))).toBeGreaterThan(0.9);
  });

  it('a change not yet sent says what it is, and a weight typed offline shows its unit', async () => {
    const { env } = e2e;
    const { page } = await e2e.sesion();
    await esperarServiceWorker(page);
    await env.context.setOffline(true);
    try {
      await hastaLaRevision(env, page);
      await page.getByRole('button', { name: 'Dejar pendiente' }).click();
      const cola = page.getByTestId('cola');
      await cola.waitFor({ timeout: 20_000 });
      expect(await cola.locator('p').first().innerText()).toBe('Pendiente de enviar: nueva DeCA.');
      await page.getByText('Zaragoza → Teruel · Melocotón · 22.400 kg').waitFor();
      expect(await nombresDeApi(page)).toEqual([]);
      await page.goto(`${env.url}/cuenta`);
      await page.getByText('1 cambio sin enviar.').waitFor();
    } finally {
      await env.context.setOffline(false);
    }
    await page.getByText('Todo enviado.').waitFor({ timeout: 30_000 });
    // The device's reserved numbers, in agreement with their count.
    const reservas = page.getByText(/Este dispositivo tiene \d+ números? reservados? en/);
    await reservas.waitFor({ timeout: 20_000 });
    const n = Number(/tiene (\d+)/.exec(await reservas.innerText())![1]);
    expect(await reservas.innerText()).toContain(n === 1 ? '1 número reservado en' : `${n} números reservados en`);
    expect(await page.evaluate(() => document.body.innerText)).not.toContain('(s)');
  });

  it('the photo screen opens the rear camera from a large button, and its counter moves after each read', async () => {
    const { env } = e2e;
    const { page, api } = await e2e.sesion({ clave: true });
    await page.goto(`${env.url}/fotos`);
    await page.getByRole('heading', { name: 'Leer un albarán' }).waitFor();
    const camara = page.getByLabel('Fotografiar albarán');
    expect(await camara.getAttribute('type')).toBe('file');
    expect(await camara.getAttribute('accept')).toBe('image/*');
    expect(await camara.getAttribute('capture')).toBe('environment');
    const galeria = page.getByLabel('Elegir de la galería');
    expect(await galeria.getAttribute('capture')).toBeNull();
    for (const boton of ['Fotografiar albarán', 'Elegir de la galería']) {
      const caja = await page.locator('label', { hasText: boton }).boundingBox();
      expect(caja!.height, boton).toBeGreaterThanOrEqual(48);
      expect(caja!.width, boton).toBeGreaterThan(150);
    }
    const cuota = page.getByTestId('cuota-fotos');
    await cuota.waitFor();
    const antes = (await api<{ cuenta: { cuota: { fotos: { usadas: number; limite: number | null } } } }>('GET', '/cuenta')).cuenta.cuota.fotos;
    expect(await cuota.innerText()).toContain(`este mes: ${antes.usadas}`);
    await sinInfracciones(page, 'fotos');

    const nota = await fotografiar(
      herramienta('pdftoppm')!,
      ['ALBARÁN Nº 77', 'Remitente:', 'Conservas del Cantábrico, S.L.', 'NIF: B12345674', 'Lugar de carga: Santoña', 'Lugar de descarga: Zaragoza', 'Mercancía: Conservas', 'Peso bruto: 9.800 kg'],
      { grados: 0.5, cizalla: 0, desenfoque: 0.5, ruido: 4, luz: 0.1, calidad: 80, perspectiva: 0 },
    );
    await camara.setInputFiles({ name: 'albaran.jpg', mimeType: 'image/jpeg', buffer: await sharp(nota).jpeg({ quality: 80 }).toBuffer() });
    await page.getByTestId('fotos').getByText('propuesta lista.').waitFor({ timeout: 60_000 });
    const despues = (await api<{ cuenta: { cuota: { fotos: { usadas: number } } } }>('GET', '/cuenta')).cuenta.cuota.fotos.usadas;
    expect(despues).toBe(antes.usadas + 1);
    await expect.poll(() => cuota.innerText(), { timeout: 20_000 }).toContain(`este mes: ${despues}`);
  });
});
