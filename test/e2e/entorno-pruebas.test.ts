import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { chromium } from 'playwright-core';
import { describe, expect, it, onTestFinished } from 'vitest';
import { sinSello } from '../../shared/pdf/sin-sello';
import { herramienta } from '../support/herramientas';
import { CHROMIUM, CHROMIUM_ARGS, esperarServiceWorker, leerQr, reservasEnDispositivo } from './browser';
import { archivoE2e, descargarPdfBytes, enEsteServidor, esperarNumero, rellenarDeca } from './flujos';

const run = promisify(execFile);
const pdftotext = herramienta('pdftotext');
const BANDA = 'ENTORNO DE PRUEBAS: este documento no tiene validez';
const MARCA = 'DOCUMENTO DE PRUEBA — SIN VALIDEZ';

/** The PDF's text as poppler's pdftotext reads it, one string a page. */
async function paginasDe(pdf: Buffer): Promise<string[]> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'deca-e2e-pruebas-'));
  try {
    await writeFile(path.join(dir, 'deca.pdf'), pdf);
    const { stdout, stderr } = await run(pdftotext!, ['-enc', 'UTF-8', path.join(dir, 'deca.pdf'), '-']);
    expect(stderr).toBe('');
    return stdout.split('\f').slice(0, -1);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * A DeCA of the test environment as the people who handle it see it: the
 * driver who issues it with no coverage and shows it to the agent, the
 * agent's phone that opens its QR, and its PDF read back as text. Its number
 * looks like a real one; the marks are what say it has no validity.
 */
describe.skipIf(!CHROMIUM || !pdftotext)('the test environment: the marks a person sees', () => {
  const e2e = archivoE2e({ politicas: true });

  it('a test DeCA issued with no coverage carries the mark on its PDF (pdftotext), its QR page and «Mostrar al agente» open in red, and the server’s PDF is still the phone’s, byte for byte', async () => {
    const { env } = e2e;
    const { page } = await e2e.sesion({ empresa: 'Transportes Prueba SL', ruta: '/cuenta' });
    await esperarServiceWorker(page);
    // Switched in the app, as a user does (the page is not reloaded after this).
    await page.getByLabel('Pruebas: datos sin validez, separados de los reales').click();
    await page.getByTestId('banda-pruebas').waitFor();
    // The device holds numbers of the test series too.
    await expect.poll(() => reservasEnDispositivo(page, 'pruebas'), { timeout: 20_000 }).toBeGreaterThanOrEqual(3);

    await env.context.setOffline(true);
    await rellenarDeca(page, { cargador: 'Demo Sin Red SL', matricula: '6666 JJJ', origen: 'Teruel', destino: 'Cuenca' });
    await page.getByRole('button', { name: 'Emitir ahora' }).click();
    const numero = await esperarNumero(page);
    expect(numero).toMatch(/^\d{4}-\d{6}$/); // the shape of a real one
    await page.getByTestId('emitida-sin-cobertura').waitFor();
    expect(await page.getByTestId('insignia-prueba').textContent()).toBe('Prueba: sin validez');

    // The PDF the phone made, as the driver downloads it: the mark on every page, as text.
    const pdfLocal = await descargarPdfBytes(page);
    const paginas = await paginasDe(pdfLocal);
    expect(paginas.length).toBeGreaterThan(0);
    for (const p of paginas) expect(p).toContain(MARCA);

    // The agent's phone (coverage, no JavaScript) opens the QR on the driver's screen: the red banner first.
    const qrUrl = enEsteServidor(env, await leerQr(page));
    expect(qrUrl).toContain('?o=');
    const inspector = await chromium.launch({ executablePath: CHROMIUM!, args: CHROMIUM_ARGS });
    onTestFinished(() => inspector.close());
    const ficha = await (await inspector.newContext({ javaScriptEnabled: false })).newPage();
    const abreEnRojo = async () => {
      const primero = ficha.locator('main > :first-child');
      expect((await primero.textContent())?.trim()).toBe(`${BANDA}.`);
      expect(await primero.isVisible()).toBe(true);
      expect(await primero.evaluate((el) => getComputedStyle(el).borderTopColor)).toBe('rgb(163, 0, 0)');
      expect(await ficha.locator('main').textContent()).not.toContain('en vigor');
    };
    await ficha.goto(qrUrl);
    await abreEnRojo();
    expect(await ficha.locator('main').textContent()).toContain('EMITIDA SIN COBERTURA');

    // Coverage again: the server issues it; its PDF, unsealed, is the phone's, and the same QR opens its ficha, in red.
    await env.context.setOffline(false);
    await page.evaluate(() => dispatchEvent(new Event('online')));
    await page.getByTestId('emitida-aqui').getByText('el PDF del servidor es idéntico al generado aquí').waitFor({ timeout: 30_000 });
    const sellado = Buffer.from(await page.evaluate(async (n) => Array.from(new Uint8Array(await (await fetch(`/demo/api/v1/decas/${n}/pdf`)).arrayBuffer())), numero));
    expect(Buffer.from(sinSello(sellado)!).equals(pdfLocal)).toBe(true);
    for (const p of await paginasDe(sellado)) expect(p).toContain(MARCA);
    await ficha.goto(qrUrl);
    await abreEnRojo();

    // «Mostrar al agente»: the red mark over the QR, and never the green «EMITIDA».
    await page.getByTestId('mostrar-agente').click({ timeout: 20_000 });
    const marca = page.getByTestId('agente-prueba');
    await marca.waitFor();
    expect(await marca.textContent()).toBe(BANDA);
    expect(await marca.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(179, 38, 30)');
    expect(await page.getByTestId('agente-estado').textContent()).toBe('EMITIDA EN PRUEBAS');
    await page.getByTestId('agente-qr').waitFor({ timeout: 20_000 });
    const [m, q] = [(await marca.boundingBox())!, (await page.getByTestId('agente-qr').boundingBox())!];
    expect(m.y + m.height).toBeLessThanOrEqual(q.y); // above the QR, on the screen
    expect(q.y + q.height).toBeLessThanOrEqual(page.viewportSize()!.height);
  });
});
