import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { fotografiar } from '../fixtures/albaranes';
import { herramienta } from '../support/herramientas';
import { CHROMIUM, type Entorno, esperarServiceWorker, POLL_API_MS } from './browser';
import { type Api, archivoE2e, decaCompleta, filasEnDispositivo, sincronizacionEnSegundoPlano } from './flujos';

/** The outbox entries on the device, as the sync engine reads them. */
const colaEnDispositivo = (p: Page) => filasEnDispositivo<{ clave: string; tipo: string; idempotencyKey: string; estado: string }>(p, 'outbox', ['clave', 'tipo', 'idempotencyKey', 'estado']);

/** The delivery-note photos on the device: their key and state. */
const fotosEnDispositivo = (p: Page) => filasEnDispositivo<{ clave: string; idempotencyKey: string; estado: string }>(p, 'fotos', ['clave', 'idempotencyKey', 'estado']);

/** Photo reads the server counted this month for the account. */
async function lecturas(api: Api): Promise<number> {
  return (await api<{ cuenta: { cuota: { fotos: { usadas: number } } } }>('GET', '/cuenta')).cuenta.cuota.fotos.usadas;
}

/** A delivery note as a phone's camera takes it. */
async function albaran(): Promise<Buffer> {
  const nota = await fotografiar(
    herramienta('pdftoppm')!,
    [
      'ALBARÁN DE ENTREGA Nº 902',
      'Fecha: 26/11/2026',
      'Remitente:',
      'Conservas del Cantábrico, S.L.',
      'NIF: B12345674',
      'Lugar de carga: Santoña',
      'Lugar de descarga: Zaragoza',
      'Matrícula: 4321 KLM',
      'Mercancía: Conservas',
      'Peso bruto: 9.800 kg',
    ],
    { grados: 0.5, cizalla: 0, desenfoque: 0.5, ruido: 4, luz: 0.1, calidad: 80, perspectiva: 0 },
  );
  return sharp(nota).resize({ height: 2200 }).jpeg({ quality: 80 }).toBuffer();
}

/** Take a photo on the «Leer un albarán» screen with no network: it is kept, with its outbox entry, and said to wait. */
async function fotoSinCobertura(env: Entorno, page: Page): Promise<{ clave: string; idempotencyKey: string }> {
  await page.goto(`${env.url}/fotos`);
  await page.getByRole('heading', { name: 'Leer un albarán' }).waitFor();
  await page.getByTestId('cuota-fotos').waitFor();
  await esperarServiceWorker(page);
  await env.context.setOffline(true);
  await page.setInputFiles('input[type=file]', { name: 'albaran.jpg', mimeType: 'image/jpeg', buffer: await albaran() });
  const item = page.getByTestId('fotos').locator('li');
  await item.getByText('se leerá cuando haya conexión.').waitFor();
  expect(await item.getAttribute('data-envio')).toBe('sin-conexion');
  const [foto] = await fotosEnDispositivo(page);
  expect(foto).toMatchObject({ estado: 'pendiente', idempotencyKey: expect.stringMatching(/^foto-/) });
  // One more lane of the outbox, sent with the photo's own key.
  expect(await colaEnDispositivo(page)).toEqual([{ clave: `foto:${foto!.clave}`, tipo: 'foto', idempotencyKey: foto!.idempotencyKey, estado: 'pendiente' }]);
  return foto!;
}

/**
 * The DeCA form says «Lista para emitir» only when the server would issue
 * it (the shared rules), and a delivery-note photo taken with no coverage
 * goes through the outbox: sent when the network returns, with the app open
 * or closed (Background Sync), read once.
 */
describe.skipIf(!CHROMIUM)('the form and the server agree on issuing; photos go through the outbox', () => {
  const e2e = archivoE2e({ politicas: true });

  it('editing a pending DeCA, clearing the company’s own name is «falta para emitir», as the server says', async () => {
    const { env } = e2e;
    const { page, api } = await e2e.sesion({ clave: true });
    const { cuenta } = await api<{ cuenta: { rol: 'cargador' | 'transportista' } }>('GET', '/cuenta');
    const propio = cuenta.rol === 'cargador' ? 'cargador' : 'transp';
    // Complete but pending: the server fills the account's own side.
    const { deca } = await api<{ deca: { numero: string } }>(
      'POST',
      '/decas',
      decaCompleta({ emitir: false, transp_nombre: 'Transportes Ruiz SL', transp_nif: 'B12345674', transp_domicilio: 'Calle Alta 9, Zaragoza' }),
    );
    await page.goto(env.url);
    await expect.poll(async () => (await page.getByTestId('lista-decas').textContent()) ?? '', { timeout: 20_000 }).toContain(deca.numero);
    await page.goto(`${env.url}/decas/${deca.numero}/editar`);
    const faltan = page.getByTestId('faltan');
    await faltan.getByText('Lista para emitir.').waitFor();

    // The company's own name cleared: the server fills it from the account only when it creates a DeCA, so now it is missing.
    // (The form used to fill it from the account here too, and said «Lista para emitir».)
    await page.fill(`#f-${propio}_nombre`, '');
    await faltan.getByText('Falta para emitir (1):').waitFor();
    expect(await faltan.locator('li').count()).toBe(1);
    expect(await faltan.locator('li a').getAttribute('href')).toBe(`#f-${propio}_nombre`);
    await page.getByRole('button', { name: 'Guardar y emitir' }).click();
    await page.getByText('Faltan datos para emitir (1).', { exact: false }).waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe(`f-${propio}_nombre`);

    // The server, given the same change, refuses to issue for that field alone.
    await expect(api('PATCH', `/decas/${deca.numero}`, { [`${propio}_nombre`]: null, emitir: true })).rejects.toThrow(new RegExp(`422 .*"campos":\\{"${propio}_nombre":"Obligatorio para emitir"\\}`));
    // Typed again, it is ready, and issuing it from the form goes through.
    await page.fill(`#f-${propio}_nombre`, 'Transportes Prueba SL');
    await faltan.getByText('Lista para emitir.').waitFor();
    await page.getByRole('button', { name: 'Guardar y emitir' }).click();
    await expect.poll(async () => (await api<{ deca: { estado: string } }>('GET', `/decas/${deca.numero}`)).deca.estado, { timeout: 20_000, interval: POLL_API_MS }).toBe('emitido');
  });

  it('a photo taken with no coverage is sent by the outbox when the network returns, with the app open, and read once', async () => {
    const { env } = e2e;
    const { page, api } = await e2e.sesion({ clave: true });
    const foto = await fotoSinCobertura(env, page);
    expect(await lecturas(api)).toBe(0);

    await env.context.setOffline(false);
    const item = page.getByTestId('fotos').locator('li');
    await item.getByText('propuesta lista.').waitFor({ timeout: 60_000 });
    expect(await item.getAttribute('data-envio')).toBe('lista');
    expect(await fotosEnDispositivo(page)).toEqual([{ clave: foto.clave, idempotencyKey: foto.idempotencyKey, estado: 'lista' }]);
    expect(await colaEnDispositivo(page)).toEqual([]);
    expect(await lecturas(api)).toBe(1);
    await page.getByRole('button', { name: 'Revisar y crear la DeCA' }).click();
    await page.getByRole('heading', { name: 'Nueva DeCA' }).waitFor();
    expect(await page.inputValue('#f-matricula')).toBe('4321KLM');
  });

  it('a photo taken with no coverage is sent with the app closed, when the browser wakes the service worker (Background Sync)', async () => {
    const { env } = e2e;
    const { page, api } = await e2e.sesion({ clave: true });
    const foto = await fotoSinCobertura(env, page);

    // The app is closed; the network comes back; the browser fires the queue's sync event.
    const sincronizar = await sincronizacionEnSegundoPlano(env, page);
    expect(await lecturas(api)).toBe(0);
    await sincronizar();
    await expect.poll(() => lecturas(api), { timeout: 60_000, interval: POLL_API_MS }).toBe(1);

    // Opened again, the proposal is there, nothing is left to send, and the photo was read once.
    await page.goto(`${env.url}/fotos`);
    const item = page.getByTestId('fotos').locator('li');
    await item.getByText('propuesta lista.').waitFor({ timeout: 20_000 });
    expect(await fotosEnDispositivo(page)).toEqual([{ clave: foto.clave, idempotencyKey: foto.idempotencyKey, estado: 'lista' }]);
    expect(await colaEnDispositivo(page)).toEqual([]);
    expect(await lecturas(api)).toBe(1);
  });
});
