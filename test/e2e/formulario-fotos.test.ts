import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { fotografiar } from '../fixtures/albaranes';
import { herramienta } from '../support/herramientas';
import { auditarAccesibilidad } from './axe';
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

/** A photo's reading on the device, as the server sent it (and the form reads it). */
interface LecturaEnDispositivo {
  propuesta: Record<string, unknown>;
  confianza: Record<string, number>;
  zonas?: Record<string, [number, number][]>;
  foto_id?: number;
}

/**
 * Change the reading of the photo `clave` on the device (before the form opens it): the server's zones and
 * photo id are kept, the confidences replaced, so which field is to be reviewed is known.
 */
function ponerConfianza(p: Page, clave: string, confianza: Record<string, number>): Promise<void> {
  return p.evaluate(
    async ([clave, confianza]) => {
      const nombre = (await indexedDB.databases()).find((d) => d.name?.endsWith('-produccion'))!.name!;
      const db = await new Promise<IDBDatabase>((ok, mal) => {
        const r = indexedDB.open(nombre);
        r.onsuccess = () => ok(r.result);
        r.onerror = () => mal(r.error);
      });
      try {
        await new Promise<void>((ok, mal) => {
          const tx = db.transaction('fotos', 'readwrite');
          const fotos = tx.objectStore('fotos');
          const r = fotos.get(clave);
          r.onsuccess = () => fotos.put({ ...r.result, lectura: { ...r.result.lectura, confianza } });
          tx.oncomplete = () => ok();
          tx.onerror = () => mal(tx.error);
        });
      } finally {
        db.close();
      }
    },
    [clave, confianza] as const,
  );
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

  it('on a phone, the proposal opens under its photo on the field to review, whose zone the photo shows; the DeCA made with no coverage keeps the photo, shown in its page', async () => {
    const { env } = e2e;
    const { page, api } = await e2e.sesion({ clave: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${env.url}/fotos`);
    await page.getByRole('heading', { name: 'Leer un albarán' }).waitFor();
    await esperarServiceWorker(page);
    await page.setInputFiles('input[type=file]', { name: 'albaran.jpg', mimeType: 'image/jpeg', buffer: await albaran() });
    await page.getByTestId('fotos').locator('li').getByText('propuesta lista.').waitFor({ timeout: 60_000 });

    // The server said where it read each field, and kept the photo.
    const [foto] = await filasEnDispositivo<{ clave: string; lectura: LecturaEnDispositivo }>(page, 'fotos', ['clave', 'lectura']);
    const { propuesta, zonas = {}, foto_id } = foto!.lectura;
    expect(foto_id).toBeGreaterThan(0);
    // One field read (with its zone) made the one to review: the plate if it has a zone, else the first that has.
    const leidos = Object.keys(zonas).filter((k) => (k in propuesta || /^envios\[0\]\./.test(k)) && !/unidad$|tipo_vehiculo/.test(k));
    expect(leidos.length, JSON.stringify(zonas)).toBeGreaterThan(0);
    const dudoso = leidos.includes('matricula') ? 'matricula' : leidos[0]!;
    await ponerConfianza(page, foto!.clave, Object.fromEntries(Object.keys(foto!.lectura.confianza).map((k) => [k, k === dudoso ? 0.3 : 0.95])));

    await page.getByRole('button', { name: 'Revisar y crear la DeCA' }).click();
    await page.getByRole('heading', { name: 'Nueva DeCA' }).waitFor();
    // The photo is above the form, open, and loaded.
    const propuestaFoto = page.getByTestId('foto-propuesta');
    await propuestaFoto.waitFor();
    expect(await propuestaFoto.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(true);
    const visor = page.getByTestId('foto-visor');
    await expect.poll(() => visor.locator('img').evaluate((i) => (i as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
    const [cajaFoto, cajaForm] = [await propuestaFoto.boundingBox(), await page.locator('form').boundingBox()];
    expect(cajaFoto!.y + cajaFoto!.height).toBeLessThanOrEqual(cajaForm!.y);

    // The field to review has the focus, says «revisar» in words (and to a screen reader), and its zone is drawn where the photo shows it.
    const id = `f-${dudoso.replace(/[^a-zA-Z0-9_-]/g, '_')}`;
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe(id);
    const campo = page.locator(`#${id}`);
    expect(await campo.getAttribute('data-revisar')).toBe('');
    expect(await page.locator(`#${id}-revisar`).textContent()).toBe('revisar: leído de la foto con poca seguridad');
    expect(await campo.getAttribute('aria-describedby')).toContain(`${id}-revisar`);
    const zona = visor.getByTestId('zona');
    await expect.poll(() => zona.getAttribute('data-campo')).toBe(dudoso);
    expect((await zona.getAttribute('points'))!.split(' ').map((p) => p.split(',').map(Number))).toEqual(zonas[dudoso]);
    await expect.poll(() => page.getByTestId('foto-propuesta').locator('figcaption').textContent()).toContain('Leído aquí');
    // Moved to it: the middle of the zone is within the photo's frame on the screen.
    await expect
      .poll(async () => {
        const [z, v] = [await zona.boundingBox(), await visor.boundingBox()];
        const [cx, cy] = [z!.x + z!.width / 2, z!.y + z!.height / 2];
        return cx >= v!.x && cx <= v!.x + v!.width && cy >= v!.y && cy <= v!.y + v!.height;
      })
      .toBe(true);
    // As usable with a screen reader as the rest of the app.
    expect(await auditarAccesibilidad(page)).toEqual([]);
    // Two fingers apart on the photo zoom it in (pointer events, as a phone sends them).
    const escala = () => visor.locator('.foto-lienzo').evaluate((l) => new DOMMatrix(getComputedStyle(l).transform).a);
    const antes = await escala();
    await visor.evaluate((v) => {
      const r = v.getBoundingClientRect();
      const dedo = (tipo: string, pointerId: number, x: number) =>
        v.dispatchEvent(new PointerEvent(tipo, { pointerId, pointerType: 'touch', isPrimary: pointerId === 1, clientX: r.left + x, clientY: r.top + 60, bubbles: true }));
      dedo('pointerdown', 1, 100);
      dedo('pointerdown', 2, 150);
      dedo('pointermove', 2, 200);
      dedo('pointerup', 1, 100);
      dedo('pointerup', 2, 200);
    });
    await expect.poll(escala).toBeGreaterThan(Math.min(antes * 1.5, 4.9));
    // Typed over, the datum is the user's: no longer to review.
    await campo.fill(`${await campo.inputValue()}9`);
    expect(await page.locator(`#${id}-revisar`).count()).toBe(0);
    await campo.fill((await campo.inputValue()).slice(0, -1));

    // With no coverage, «Dejar pendiente»: the queued create carries the photo's id, and the DeCA's page shows this device's copy.
    await env.context.setOffline(true);
    const siguiente = page.getByRole('button', { name: /^Siguiente/ });
    while ((await siguiente.count()) > 0) await siguiente.click();
    await page.getByRole('button', { name: 'Dejar pendiente' }).click();
    await page.getByRole('heading', { name: /^DeCA LOCAL-/ }).waitFor();
    const cola = await filasEnDispositivo<{ tipo: string; body: Record<string, unknown> }>(page, 'outbox', ['tipo', 'body']);
    expect(cola.filter((e) => e.tipo === 'crear').map((e) => e.body.foto_id)).toEqual([foto_id]);
    const enDetalle = page.getByTestId('foto-deca');
    await enDetalle.waitFor();
    expect(await enDetalle.locator('img').getAttribute('src')).toMatch(/^blob:/);
    expect(await fotosEnDispositivo(page)).toEqual([{ clave: foto!.clave, idempotencyKey: expect.any(String), estado: 'usada' }]);

    // The network back: the DeCA reaches the server with its photo, and its page shows the server's copy.
    await env.context.setOffline(false);
    await page.getByRole('heading', { name: /^DeCA \d{4}-\d{6}/ }).waitFor({ timeout: 30_000 });
    const { decas } = await api<{ decas: { id: number; numero: string }[] }>('GET', '/decas');
    expect(decas).toHaveLength(1);
    // The server's copy is the photo this device sent (the one it kept, shrunk), byte for byte.
    const iguales = await page.evaluate(async (url) => {
      const servidor = new Uint8Array(await (await fetch(url)).arrayBuffer());
      const r = indexedDB.open((await indexedDB.databases()).find((d) => d.name?.endsWith('-produccion'))!.name!);
      const db = await new Promise<IDBDatabase>((ok) => (r.onsuccess = () => ok(r.result)));
      const fotos = await new Promise<{ foto: Blob }[]>((ok) => {
        const q = db.transaction('fotos').objectStore('fotos').getAll();
        q.onsuccess = () => ok(q.result);
      });
      db.close();
      const local = new Uint8Array(await fotos[0]!.foto.arrayBuffer());
      return servidor.length === local.length && servidor.every((b, i) => b === local[i]);
    }, `/api/v1/decas/${decas[0]!.id}/foto`);
    expect(iguales).toBe(true);
    await expect.poll(() => enDetalle.locator('img').getAttribute('src'), { timeout: 20_000 }).toBe(`/api/v1/decas/${decas[0]!.id}/foto`);
    await expect.poll(() => enDetalle.locator('img').evaluate((i) => (i as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
    expect(await enDetalle.isVisible()).toBe(true);
  });
});
