import jsQR from 'jsqr';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { CHROMIUM, esperarServiceWorker, POLL_API_MS, reservasEnDispositivo } from './browser';
import { type Api, archivoE2e, esperarNumero, filasEnDispositivo, rellenarDeca, type Sesion } from './flujos';

/**
 * The road moment on a 390×844 phone: «Mostrar al agente» from the phone's own
 * copy of a DeCA issued with no coverage, before it syncs (QR read back from a
 * screenshot, nothing over it), and a network that comes and goes every
 * 50–400 ms while the DeCA syncs never leaves it without its QR.
 */

const TELEFONO = { width: 390, height: 844 };
/** The server's API paths that give a DeCA's PDF and QR to keep (the road copy). */
const COPIA_DEL_SERVIDOR = /\/api\/v1\/(decas\/[^/]+\/(pdf|qr\.png)|camino)(\?|$)/;

/** A DeCA issued on the phone with no coverage (filled in at desktop width, then looked at as on the phone). */
async function emitidaSinCobertura(e2e: ReturnType<typeof archivoE2e>, s: Sesion, datos: { cargador: string; matricula: string }): Promise<string> {
  const { env } = e2e;
  await expect.poll(() => reservasEnDispositivo(s.page), { timeout: 20_000 }).toBeGreaterThanOrEqual(3);
  await s.page.goto(env.url);
  await esperarServiceWorker(s.page);
  await env.context.setOffline(true);
  await rellenarDeca(s.page, { ...datos, origen: 'Benasque', destino: 'Huesca' });
  await s.page.getByRole('button', { name: 'Emitir ahora' }).click();
  const numero = await esperarNumero(s.page);
  await s.page.getByTestId('emitida-sin-cobertura').waitFor();
  await s.page.setViewportSize(TELEFONO);
  return numero;
}

/** The QR content the phone issued for that number (what its own copy carries). */
async function qrDelDispositivo(page: Page, numero: string): Promise<string> {
  const filas = await filasEnDispositivo<{ numero: string; qrUrl: string }>(page, 'emitidas', ['numero', 'qrUrl']);
  return filas.find((f) => f.numero === numero)!.qrUrl;
}

/**
 * The agent's view as the agent sees it: the QR read from a screenshot of the
 * whole screen, at least 300 CSS px a side, nothing drawn over any part of it
 * (elementFromPoint over a grid of its area), no menu, and the number, plate,
 * date and state in large type.
 */
async function comprobarVistaAgente(page: Page, numero: string, matricula: string): Promise<string> {
  const vista = page.getByTestId('vista-agente');
  await vista.waitFor();
  const qr = page.getByTestId('agente-qr');
  await qr.waitFor({ timeout: 10_000 });
  await expect.poll(() => qr.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
  const caja = (await qr.boundingBox())!;
  expect(caja.width).toBeGreaterThanOrEqual(300);
  expect(caja.height).toBeGreaterThanOrEqual(300);
  expect(caja.x).toBeGreaterThanOrEqual(0);
  expect(caja.y).toBeGreaterThanOrEqual(0);
  expect(caja.x + caja.width).toBeLessThanOrEqual(TELEFONO.width);
  expect(caja.y + caja.height).toBeLessThanOrEqual(TELEFONO.height);
  const tapado = await qr.evaluate((img) => {
    const r = img.getBoundingClientRect();
    const fuera: string[] = [];
    for (let i = 0; i <= 12; i++) {
      for (let j = 0; j <= 12; j++) {
        const x = r.left + 0.5 + ((r.width - 1) * i) / 12;
        const y = r.top + 0.5 + ((r.height - 1) * j) / 12;
        const el = document.elementFromPoint(x, y);
        if (el !== img) fuera.push(`${Math.round(x)},${Math.round(y)}: ${el ? `${el.tagName}.${el.className}` : 'nada'}`);
      }
    }
    return fuera;
  });
  expect(tapado).toEqual([]);
  expect(await page.getByRole('navigation', { name: 'Principal' }).count()).toBe(0);
  // Read back as a camera would: from the pixels of the whole screen.
  const { data, info } = await sharp(await page.screenshot())
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const leido = jsQR(new Uint8ClampedArray(data.buffer, data.byteOffset, data.byteLength), info.width, info.height);
  expect(leido, 'el QR se lee de la pantalla').not.toBeNull();
  const grande = async (testid: string) => Number.parseFloat(await page.getByTestId(testid).evaluate((el) => getComputedStyle(el).fontSize));
  expect(await page.getByTestId('agente-numero').textContent()).toBe(numero);
  expect(await grande('agente-numero')).toBeGreaterThanOrEqual(24);
  expect(await page.getByTestId('agente-estado').textContent()).toBe('EMITIDA');
  expect(await grande('agente-estado')).toBeGreaterThanOrEqual(24);
  const dato = page.locator('.agente-dato');
  expect(await dato.textContent()).toMatch(new RegExp(`^${matricula} · \\d{2}/\\d{2}/\\d{4}$`));
  expect(Number.parseFloat(await dato.evaluate((el) => getComputedStyle(el).fontSize))).toBeGreaterThanOrEqual(20);
  return leido!.data;
}

/** The DeCA as the server has it, once it has it. */
async function enServidor(api: Api, numero: string): Promise<{ urls: { ficha: string } }> {
  await expect.poll(async () => (await api<{ decas: { numero: string }[] }>('GET', '/decas?limite=100')).decas.some((d) => d.numero === numero), { timeout: 60_000, interval: POLL_API_MS }).toBe(true);
  return (await api<{ deca: { urls: { ficha: string } } }>('GET', `/decas/${numero}`)).deca;
}

/**
 * Watch, inside the page, every 10 ms, whether a QR image is on screen (found
 * by `selector`, loaded): each moment it is not, once it has been, is kept.
 */
async function vigilarQr(page: Page, selector: string): Promise<() => Promise<number>> {
  await page.evaluate((sel) => {
    const w = window as unknown as { __sinQr: number; __visto: boolean };
    w.__sinQr = 0;
    w.__visto = false;
    setInterval(() => {
      const img = document.querySelector<HTMLImageElement>(sel);
      const hay = Boolean(img && img.naturalWidth > 0 && img.getBoundingClientRect().width > 0);
      if (hay) w.__visto = true;
      else if (w.__visto) w.__sinQr++;
    }, 10);
  }, selector);
  return () => page.evaluate(() => (window as unknown as { __sinQr: number }).__sinQr);
}

describe.skipIf(!CHROMIUM)('«Mostrar al agente» on a 390×844 phone, from the phone’s own copy', () => {
  const e2e = archivoE2e({ politicas: true });

  it('a DeCA issued with no coverage, before it syncs: one tap from its card and from its page, the QR readable from the screen and never covered; the next, issued with coverage, takes the phone’s next number', async () => {
    const { env } = e2e;
    const s = await e2e.sesion({ clave: true });
    const { page, api } = s;
    const numero = await emitidaSinCobertura(e2e, s, { cargador: 'Valle Sin Red SL', matricula: '7777 FFF' });
    const esperado = await qrDelDispositivo(page, numero);

    // From its page: the button, one tap.
    await page.getByTestId('mostrar-agente').click();
    expect(await comprobarVistaAgente(page, numero, '7777FFF')).toBe(esperado);
    await page.getByRole('link', { name: 'Cerrar' }).click();
    await page.locator('h1', { hasText: `DeCA ${numero}` }).waitFor();

    // From its card in the list (the app started again with no network).
    await page.goto(env.url);
    const tarjeta = page.getByTestId('lista-decas').locator('[data-clave]', { hasText: numero });
    await tarjeta.getByRole('link', { name: 'Mostrar al agente' }).click();
    expect(await comprobarVistaAgente(page, numero, '7777FFF')).toBe(esperado);

    // Coverage: the server issues it with that number, and the QR the phone showed opens its ficha.
    await env.context.setOffline(false);
    const deca = await enServidor(api, numero);
    expect(esperado.startsWith(`${deca.urls.ficha}?o=`)).toBe(true);

    // Issued with coverage, the next DeCA takes this phone's next number: the series reads on with no jump.
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(env.url);
    await rellenarDeca(page, { cargador: 'Valle Con Red SL', matricula: '7878 FFF', origen: 'Huesca', destino: 'Zaragoza' });
    await page.getByRole('button', { name: 'Emitir ahora' }).click();
    const siguiente = `${numero.slice(0, 5)}${String(Number(numero.slice(5)) + 1).padStart(6, '0')}`;
    expect(await esperarNumero(page)).toBe(siguiente);
    expect(await page.getByTestId('emitida-sin-cobertura').count()).toBe(0);
  });

  it('a network that comes and goes every 50–400 ms while the DeCA syncs never leaves it without its QR, on its page or in the agent’s view; the server’s copy takes its place at the end', async () => {
    const { env } = e2e;
    const s = await e2e.sesion({ clave: true });
    const { page, api } = s;
    const numero = await emitidaSinCobertura(e2e, s, { cargador: 'Puerto Intermitente SL', matricula: '4545 KKK' });
    const agente = await env.context.newPage();
    await agente.setViewportSize(TELEFONO);
    await agente.goto(`${env.url}/decas/${numero}/agente`);
    await agente.getByTestId('agente-qr').waitFor();
    await page.getByTestId('qr').waitFor();
    const sinQrPagina = await vigilarQr(page, '[data-testid="qr"]');
    const sinQrAgente = await vigilarQr(agente, '[data-testid="agente-qr"]');

    // While the network flaps, the server's copy cannot be fetched: whatever the sync reaches, the phone has only its own.
    let pedidasCopia = 0;
    await env.context.route(COPIA_DEL_SERVIDOR, (r) => {
      pedidasCopia++;
      return r.abort('internetdisconnected');
    });
    let enLinea = false;
    for (let i = 0; i < 24; i++) {
      enLinea = !enLinea;
      await env.context.setOffline(!enLinea);
      await new Promise((ok) => setTimeout(ok, 50 + Math.floor(Math.random() * 351)));
    }
    // Coverage at last: the DeCA reaches the server, and still only the phone's own copy is there to show.
    await env.context.setOffline(false);
    await enServidor(api, numero);
    await expect.poll(() => page.getByTestId('emitida-aqui').count(), { timeout: 30_000 }).toBe(1);
    await expect.poll(() => pedidasCopia, { timeout: 30_000 }).toBeGreaterThan(0);
    expect(await page.getByTestId('qr').getAttribute('data-fuente')).toBe('dispositivo');
    expect(await agente.getByTestId('agente-qr').getAttribute('data-fuente')).toBe('dispositivo');
    expect(await page.getByText('Sin conexión y sin copia').count()).toBe(0);

    // The server's copy can be had again: it is stored and takes the phone's place, checked identical
    // (the page is opened again, which looks for it at once).
    expect(await sinQrPagina()).toBe(0);
    await env.context.unroute(COPIA_DEL_SERVIDOR);
    await page.reload();
    await page.getByTestId('emitida-aqui').getByText('el PDF del servidor es idéntico al generado aquí').waitFor({ timeout: 30_000 });
    await expect.poll(() => page.getByTestId('qr').getAttribute('data-fuente'), { timeout: 20_000 }).toBe('servidor');
    await expect.poll(() => agente.getByTestId('agente-qr').getAttribute('data-fuente'), { timeout: 20_000 }).toBe('servidor');
    expect(await sinQrAgente()).toBe(0);
    const ficha = (await api<{ deca: { urls: { ficha: string } } }>('GET', `/decas/${numero}`)).deca.urls.ficha;
    expect((await comprobarVistaAgente(agente, numero, '4545KKK')).startsWith(ficha)).toBe(true);
  });
});
