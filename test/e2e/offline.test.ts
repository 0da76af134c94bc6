import { createHash } from 'node:crypto';
import type { Request } from 'playwright-core';
import { chromium } from 'playwright-core';
import { describe, expect, it, onTestFinished } from 'vitest';
import { sinSello } from '../../shared/pdf/sin-sello';
import { CHROMIUM, CHROMIUM_ARGS, cuentaNueva, entrar, esperarServiceWorker, leerQr, POLL_API_MS, reservasEnDispositivo, seguirEnlace, sinNumerosReservados } from './browser';
import { archivoE2e, descargarPdf, descargarPdfBytes, documentosEnDispositivo, enEsteServidor, esperarNumero, numerosEnServidor, rellenarDeca, sincronizacionEnSegundoPlano } from './flujos';

/**
 * The app with no network: started from the service worker, work queued and
 * sent once when the network returns (with the app open, closed mid-sync, or
 * closed and woken by Background Sync), DeCAs issued on the device with no
 * coverage, refusals and stuck changes, and a session that ends meanwhile.
 */
describe.skipIf(!CHROMIUM)('offline: the queue, issuing with no coverage, Background Sync', () => {
  const e2e = archivoE2e({ politicas: true });

  it('starts offline from the service worker, queues two DeCAs, survives a close mid-sync, and sends each once', async () => {
    const { env } = e2e;
    const sesion = await e2e.sesion({ clave: true });
    const { api } = sesion;
    let { page } = sesion;
    // A DeCA issued on this device, whose page (QR included) is open as the network goes.
    await rellenarDeca(page, { cargador: 'Frutas del Sur SA', matricula: '1234 BCD', origen: 'Almería', destino: 'Zaragoza' });
    await page.getByRole('button', { name: 'Emitir ahora' }).click();
    const primera = await esperarNumero(page);
    await page.getByTestId('qr').waitFor();
    expect(await numerosEnServidor(api)).toEqual([primera]);

    await esperarServiceWorker(page);
    await env.context.setOffline(true);
    await sinNumerosReservados(page);
    // The page is on a deep link (/decas/<número>): it reloads from the service worker, QR included.
    await page.reload();
    await page.getByRole('heading', { name: new RegExp(`DeCA ${primera}`) }).waitFor();
    await page.getByTestId('qr').waitFor();
    await page.goto(env.url);
    await page.getByRole('heading', { name: 'Sus DeCA' }).waitFor();
    await page.getByText('Sin conexión: se muestran las DeCA guardadas').waitFor();
    expect(await page.getByTestId('lista-decas').textContent()).toContain(primera);

    const temporales: string[] = [];
    for (const [cargador, matricula] of [
      ['Offline Uno SL', '1111BBB'],
      ['Offline Dos SL', '2222CCC'],
    ] as const) {
      await rellenarDeca(page, { cargador, matricula, origen: 'Huesca', destino: 'Lleida' });
      await page.getByRole('button', { name: 'Emitir ahora' }).click();
      const h1 = page.locator('h1', { hasText: /LOCAL-[0-9A-F]{6}/ });
      await h1.waitFor();
      temporales.push(/(LOCAL-[0-9A-F]{6})/.exec((await h1.textContent()) ?? '')![1]!);
      await page.getByTestId('cola').waitFor();
    }
    await page.click('a[href="/"]');
    await expect.poll(() => page.getByTestId('pendiente-sync').count()).toBe(2);

    // Back online, the first request reaches the server but its answer never comes back: the page is closed mid-sync.
    let llegada!: () => void;
    const enviada = new Promise<void>((r) => (llegada = r));
    await env.context.route('**/api/v1/decas', async (route) => {
      if (route.request().method() !== 'POST') return route.continue();
      await route.fetch(); // the server creates it…
      llegada();
      // …and the answer is lost with the page.
    });
    await env.context.setOffline(false);
    await enviada;
    await page.close();
    await env.context.unroute('**/api/v1/decas');
    expect((await numerosEnServidor(api)).length).toBe(2);

    page = await env.context.newPage();
    await page.goto(env.url);
    const filas = page.getByTestId('lista-decas').locator('[data-clave]');
    // The reopened app replays both: the first with its original key (answered again, not made twice).
    await expect.poll(async () => (await numerosEnServidor(api)).length, { timeout: 30_000, interval: POLL_API_MS }).toBe(3);
    await expect.poll(() => filas.count(), { timeout: 20_000 }).toBe(3);
    await expect.poll(() => page.getByTestId('pendiente-sync').count(), { timeout: 20_000 }).toBe(0);
    const numeros = await numerosEnServidor(api);
    await expect.poll(async () => (await page.getByTestId('lista-decas').textContent()) ?? '').toContain(numeros[2]!);
    const lista = (await page.getByTestId('lista-decas').textContent()) ?? '';
    for (const n of numeros) expect(lista).toContain(n);
    for (const t of temporales) expect(lista).not.toContain(t);
  });

  it('opens an issued DeCA, its QR and its PDF with no network', async () => {
    const { env } = e2e;
    const { page, api } = await e2e.sesion({ clave: true });
    // A DeCA never opened on this device: created with no network, numbered by the sync once it returns.
    await esperarServiceWorker(page);
    await env.context.setOffline(true);
    await sinNumerosReservados(page);
    await rellenarDeca(page, { cargador: 'Offline Tres SL', matricula: '3232DDD', origen: 'Huesca', destino: 'Lleida' });
    await page.getByRole('button', { name: 'Emitir ahora' }).click();
    await page.locator('h1', { hasText: /LOCAL-[0-9A-F]{6}/ }).waitFor();
    await page.getByTestId('cola').waitFor();
    await page.click('a[href="/"]');
    await page.getByRole('heading', { name: 'Sus DeCA' }).waitFor();
    await env.context.setOffline(false);
    await expect.poll(async () => (await numerosEnServidor(api)).length, { timeout: 30_000, interval: POLL_API_MS }).toBe(1);
    const [ultima] = await numerosEnServidor(api);
    // The road cache (issued DeCAs of ±7 days) fetched its PDF and QR once the outbox drained.
    await expect.poll(() => documentosEnDispositivo(page), { timeout: 20_000 }).toBe(1);
    await env.context.setOffline(true);
    const otra = await env.context.newPage();
    await otra.goto(`${env.url}/decas/${ultima}`);
    await otra.getByTestId('qr').waitFor();
    expect(await otra.getByTestId('qr').evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBeGreaterThan(100);
    const pdf = await descargarPdf(otra);
    expect(pdf).toMatchObject({ nombre: expect.stringMatching(new RegExp(`^DeCA-${ultima}-v\\d+\\.pdf$`)), inicio: '%PDF-' });
    expect(pdf.bytes).toBeGreaterThan(1000);
    await otra.close();
    await env.context.setOffline(false);
  });

  it('issues a DeCA with no coverage: number, signed QR and PDF at once; the inspector verifies it before the sync; the server issues the same bytes, and a PDF that differs is reported', async () => {
    const { env } = e2e;
    const { page, cuenta, api } = await e2e.sesion({ clave: true, empresa: 'Transportes Prueba SL' });
    // Signed in and online, the device registered its key and holds numbers (this account is confirmed).
    await expect.poll(() => reservasEnDispositivo(page), { timeout: 20_000 }).toBeGreaterThanOrEqual(3);
    await page.goto(`${env.url}/cuenta`);
    await page.getByTestId('dispositivos').getByText('(este dispositivo)').waitFor();
    // Its key pair lives in IndexedDB as WebCrypto keys: the private one cannot be exported.
    const clavePrivada = await page.evaluate(async () => {
      const nombre = (await indexedDB.databases()).find((d) => d.name?.endsWith('-produccion'))!.name!;
      const db = await new Promise<IDBDatabase>((ok) => {
        const r = indexedDB.open(nombre);
        r.onsuccess = () => ok(r.result);
      });
      const meta = await new Promise<{ valor: { claves: CryptoKeyPair } }>((ok) => {
        const r = db.transaction('meta').objectStore('meta').get('dispositivo');
        r.onsuccess = () => ok(r.result as { valor: { claves: CryptoKeyPair } });
      });
      db.close();
      const k = meta.valor.claves.privateKey;
      const exportada = await crypto.subtle.exportKey('jwk', k).then(
        () => true,
        () => false,
      );
      return { tipo: k.algorithm.name, extraible: k.extractable, exportada };
    });
    expect(clavePrivada).toEqual({ tipo: 'ECDSA', extraible: false, exportada: false });
    await page.goto(env.url);
    await esperarServiceWorker(page);

    await env.context.setOffline(true);
    // What issuing asks of the server: nothing (creating, issuing or numbering would be a POST).
    const alServidor: string[] = [];
    const mirar = (r: Request) => {
      if (r.url().startsWith(env.url) && r.method() !== 'GET' && /\/api\//.test(new URL(r.url()).pathname)) alServidor.push(`${r.method()} ${r.url()}`);
    };
    page.on('request', mirar);
    await rellenarDeca(page, { cargador: 'Valle Sin Red SL', matricula: '7777 FFF', origen: 'Benasque', destino: 'Huesca' });
    await page.getByRole('button', { name: 'Emitir ahora' }).click();
    const numero = await esperarNumero(page);
    const emitida = page.getByTestId('emitida-sin-cobertura');
    await emitida.waitFor();
    expect(await page.getByTestId('sin-cobertura').first().textContent()).toBe('Sin cobertura');
    const pdfLocal = await descargarPdfBytes(page);
    expect(pdfLocal.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    // The inspector scans the QR on the driver's screen.
    const enQr = await leerQr(page);
    // The summary and its signature in base41, which the QR stores in its alphanumeric mode.
    expect(enQr).toMatch(/^http:\/\/localhost:\d+\/d\/[\w-]{32}\?o=[0-9A-Z$*/:-]+$/);
    // The site's URL names no port this test server listens on: the same path and query, on it.
    const qrUrl = enEsteServidor(env, enQr);
    page.off('request', mirar);
    expect(alServidor.join(', ')).toBe('');

    // The inspector's phone has coverage and no JavaScript: the page vouches for what the device signed.
    const inspector = await chromium.launch({ executablePath: CHROMIUM!, args: CHROMIUM_ARGS });
    onTestFinished(() => inspector.close());
    const ficha = await (await inspector.newContext({ javaScriptEnabled: false })).newPage();
    await ficha.goto(qrUrl);
    const principal = async () => ((await ficha.locator('main').textContent()) ?? '').replace(/\s+/g, ' ');
    expect(await principal()).toMatch(/EMITIDA SIN COBERTURA en un dispositivo de Transportes Prueba SL el \d{2}\/\d{2}\/\d{4} a las \d{2}:\d{2}/);
    for (const dato of [`Nº ${numero}`, 'Valle Sin Red SL', 'Benasque', 'Huesca', '7777FFF', '24.500 kg']) expect(await principal()).toContain(dato);
    // A summary changed by one letter is not vouched for.
    const o = new URL(qrUrl).searchParams.get('o')!;
    const retocado = new URL(qrUrl);
    retocado.searchParams.set('o', `${o[0] === 'A' ? 'B' : 'A'}${o.slice(1)}`);
    await ficha.goto(retocado.href);
    await ficha.getByText('No se ha podido verificar este documento').waitFor();

    // The driver finds coverage: the server issues that number, with the device's PDF as its own before the seal.
    await env.context.setOffline(false);
    await page.evaluate(() => dispatchEvent(new Event('online')));
    const enServidor = async () => (await api<{ decas: { numero: string }[] }>('GET', '/decas?limite=100')).decas.some((d) => d.numero === numero);
    await expect.poll(enServidor, { timeout: 30_000, interval: POLL_API_MS }).toBe(true);
    const { deca } = await api<{ deca: { id: number; emision_offline: { dispositivo: string } | null; pdf_sha256: string } }>('GET', `/decas/${numero}`);
    expect(deca.emision_offline?.dispositivo).toMatch(/Linux · Chrome/);
    const sellado = Buffer.from(await (await fetch(`${env.url}/api/v1/decas/${deca.id}/pdf`, { headers: { Authorization: `Bearer ${cuenta.clave}` } })).arrayBuffer());
    expect(Buffer.from(sinSello(sellado)!).equals(pdfLocal)).toBe(true);
    // The app checked the same, and the ficha is now the usual one, saying how it was issued.
    await page.getByTestId('emitida-aqui').getByText('el PDF del servidor es idéntico al generado aquí').waitFor({ timeout: 20_000 });
    await ficha.goto(qrUrl);
    await ficha.getByText('EMITIDA y en vigor').waitFor();
    await ficha.getByText(/Emitida sin cobertura en un dispositivo \(Linux · Chrome\)/).waitFor();
    // The office, on its own computer, sees it marked in the list and says where and when in the detail.
    const oficina = await (await inspector.newContext({ locale: 'es-ES', timezoneId: 'Europe/Madrid' })).newPage();
    await oficina.goto(env.url);
    await oficina.fill('#f-email', cuenta.email);
    await oficina.fill('#f-password', cuenta.password);
    await oficina.getByRole('button', { name: 'Entrar' }).click();
    const fila = oficina.getByTestId('lista-decas').locator('[data-clave]', { hasText: numero });
    await fila.getByTestId('sin-cobertura').waitFor({ timeout: 20_000 });
    await seguirEnlace(oficina, fila.getByRole('link', { name: numero }), oficina.locator('h1', { hasText: `DeCA ${numero}` }));
    await oficina
      .getByTestId('emision-offline')
      .getByText(/Emitida sin cobertura en el dispositivo «Linux · Chrome» el \d{2}\/\d{2}\/\d{4} \d{2}:\d{2}, con un número reservado; el servidor la recibió el/)
      .waitFor();

    // Had the server's PDF come out different from what the device rendered (here the device's record of its render is
    // changed before the sync), the driver is told so, and the server's PDF, sealed, is the one shown from then on.
    await env.context.setOffline(true);
    await page.goto(env.url);
    await rellenarDeca(page, { cargador: 'Tercer Valle SL', matricula: '9999 HHH', origen: 'Aínsa', destino: 'Huesca' });
    await page.getByRole('button', { name: 'Emitir ahora' }).click();
    const tercero = await esperarNumero(page);
    await page.getByTestId('emitida-sin-cobertura').waitFor();
    const cambiadas = await page.evaluate(async (n) => {
      const nombre = (await indexedDB.databases()).find((d) => d.name?.endsWith('-produccion'))!.name!;
      const db = await new Promise<IDBDatabase>((ok) => {
        const r = indexedDB.open(nombre);
        r.onsuccess = () => ok(r.result);
      });
      const hechas = await new Promise<number>((ok, ko) => {
        const tx = db.transaction('emitidas', 'readwrite');
        let n2 = 0;
        tx.objectStore('emitidas').openCursor().onsuccess = (ev) => {
          const c = (ev.target as IDBRequest<IDBCursorWithValue | null>).result;
          if (!c) return;
          if ((c.value as { numero: string }).numero === n) {
            c.update({ ...c.value, sha256: '0'.repeat(64) });
            n2++;
          }
          c.continue();
        };
        tx.oncomplete = () => ok(n2);
        tx.onerror = () => ko(tx.error);
      });
      db.close();
      return hechas;
    }, tercero);
    expect(cambiadas).toBe(1);
    await env.context.setOffline(false);
    await page.evaluate(() => dispatchEvent(new Event('online')));
    await page.getByTestId('pdf-distinto').waitFor({ timeout: 30_000 });
    const delServidor = await api<{ deca: { pdf_sha256: string } }>('GET', `/decas/${tercero}`);
    const mostrado = await descargarPdfBytes(page);
    expect(createHash('sha256').update(mostrado).digest('hex')).toBe(delServidor.deca.pdf_sha256);

    // A second one, issued offline; its device is then given up on the account screen before it syncs.
    await env.context.setOffline(true);
    await page.goto(env.url);
    await rellenarDeca(page, { cargador: 'Segundo Valle SL', matricula: '8888 GGG', origen: 'Jaca', destino: 'Huesca' });
    await page.getByRole('button', { name: 'Emitir ahora' }).click();
    const segundo = await esperarNumero(page);
    const qrSegundo = enEsteServidor(env, await leerQr(page));
    await env.context.route('**/api/v1/decas', (r) => (r.request().method() === 'POST' ? r.abort() : r.continue()));
    await env.context.setOffline(false);
    await page.goto(`${env.url}/cuenta`);
    // The office's computer registered itself too when it signed in: the driver's phone is «this device».
    const este = page.getByTestId('dispositivos').getByRole('listitem').filter({ hasText: '(este dispositivo)' });
    await este.getByRole('button', { name: /Dar de baja/ }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Dar de baja' }).click();
    await expect.poll(() => este.count()).toBe(0);
    expect(await page.getByTestId('dispositivos').getByRole('listitem').count()).toBe(1);
    await ficha.goto(qrSegundo);
    await ficha.getByText('No se ha podido verificar este documento').waitFor();
    // Its sync is refused, saying why, and the refusal stays on the item; the number is never another DeCA's.
    await env.context.unroute('**/api/v1/decas');
    await page.goto(`${env.url}/decas/${segundo}`);
    await page
      .getByTestId('rechazo')
      .getByText(/El servidor rechazó «Crear la DeCA»: El QR firmado no es de este dispositivo/)
      .waitFor({ timeout: 30_000 });
    expect((await api<{ decas: { numero: string }[] }>('GET', '/decas?limite=100')).decas.map((d) => d.numero)).not.toContain(segundo);
    // The driver drops it (its number stays spent on this device: it may have been shown at the roadside).
    await page.getByTestId('rechazo').getByRole('button', { name: 'Descartar este cambio' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Descartar la DeCA' }).click();
    await page.getByRole('heading', { name: 'Sus DeCA' }).waitFor();
    expect(await page.getByTestId('lista-decas').textContent()).not.toContain(segundo);
  });

  it('with its clock behind the time its numbers were reserved, the device does not issue with them: the DeCA waits for coverage and the server issues it', async () => {
    const { env } = e2e;
    const { page, api } = await e2e.sesion({ clave: true });
    await expect.poll(() => reservasEnDispositivo(page), { timeout: 20_000 }).toBeGreaterThanOrEqual(3);
    await esperarServiceWorker(page);
    // The phone's clock runs an hour behind the server's: by it, its numbers were reserved an hour from now.
    await page.clock.install();
    await page.goto(env.url);
    await page.clock.setSystemTime(Date.now() - 3_600_000);
    await env.context.setOffline(true);
    await rellenarDeca(page, { cargador: 'Reloj Atrasado SL', matricula: '5555 DDD', origen: 'Teruel', destino: 'Valencia' });
    await page.getByRole('button', { name: 'Emitir ahora' }).click();
    // Not issued here (the server would refuse a DeCA dated before its number): queued, as with no numbers left.
    await page.locator('h1', { hasText: /LOCAL-[0-9A-F]{6}/ }).waitFor();
    await page.getByTestId('cola').waitFor();
    expect(await page.getByTestId('emitida-sin-cobertura').count()).toBe(0);

    await env.context.setOffline(false);
    await page.evaluate(() => dispatchEvent(new Event('online')));
    await expect.poll(async () => (await numerosEnServidor(api)).length, { timeout: 30_000, interval: POLL_API_MS }).toBe(1);
    const [numero] = await numerosEnServidor(api);
    const { deca } = await api<{ deca: { cargador_nombre: string; emision_offline: unknown } }>('GET', `/decas/${numero}`);
    expect(deca).toMatchObject({ cargador_nombre: 'Reloj Atrasado SL', emision_offline: null });
  });

  it('shows a server refusal on replay on the right field, and resends the fix', async () => {
    const { env } = e2e;
    const { page, api } = await e2e.sesion({ clave: true });
    await rellenarDeca(page, { cargador: 'Pendiente SL', matricula: '3333DDD', origen: 'Soria', destino: 'Burgos' });
    await page.getByRole('button', { name: 'Dejar pendiente' }).click();
    const numero = await esperarNumero(page);
    await page.locator('.insignia.pendiente').waitFor();

    await env.context.setOffline(true);
    await page.getByRole('link', { name: 'Editar' }).click();
    await page.fill('#f-ref_externa', 'PEDIDO-77');
    await page.getByRole('button', { name: 'Guardar', exact: true }).click();
    await page.getByTestId('cola').waitFor();
    // Meanwhile, another DeCA takes that ref_externa on the server.
    await api('POST', '/decas', { ref_externa: 'PEDIDO-77', emitir: false });

    await env.context.setOffline(false);
    await page.getByTestId('rechazo').waitFor({ timeout: 20_000 });
    expect(await page.getByTestId('rechazo').textContent()).toContain('PEDIDO-77');
    await page.getByRole('link', { name: 'Corregir y reenviar' }).click();
    const campo = page.locator('#f-ref_externa');
    await expect.poll(() => campo.getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('[data-campo="ref_externa"]').textContent()).toContain('Ya usada');
    expect(await campo.inputValue()).toBe('PEDIDO-77');

    await campo.fill('PEDIDO-78');
    await page.getByRole('button', { name: 'Reenviar' }).click();
    await expect.poll(() => page.getByTestId('ref-externa').textContent(), { timeout: 10_000 }).toBe('PEDIDO-78');
    await expect.poll(async () => (await api<{ deca: { ref_externa: string } }>('GET', `/decas/${numero}`)).deca.ref_externa, { timeout: 20_000, interval: POLL_API_MS }).toBe('PEDIDO-78');
    await expect.poll(() => page.getByTestId('rechazo').count()).toBe(0);
  });

  it('keeps work queued while the session is over, and sends it after signing in again', async () => {
    const { env } = e2e;
    const { page, cuenta, api } = await e2e.sesion({ clave: true });
    await esperarServiceWorker(page);
    // Nothing waits in the outbox before the network goes.
    await expect.poll(() => page.getByTestId('estado-red').textContent(), { timeout: 20_000 }).not.toMatch(/sin enviar/);
    await env.context.setOffline(true);
    await sinNumerosReservados(page);
    await rellenarDeca(page, { cargador: 'Sesión SL', matricula: '4444FFF', origen: 'Teruel', destino: 'Cuenca' });
    await page.getByRole('button', { name: 'Emitir ahora' }).click();
    await page.getByTestId('cola').waitFor();
    // The session ends on the server (signed out elsewhere) while the phone is offline.
    const cookie = (await env.context.cookies(env.url)).find((c) => c.name === 'deca_sesion')!;
    const fuera = await fetch(`${env.url}/app/api/sesion`, { method: 'DELETE', headers: { Cookie: `deca_sesion=${cookie.value}`, 'X-DeCA-CSRF': '1' } });
    expect(fuera.status).toBe(200);
    const antes = (await numerosEnServidor(api)).length;
    await env.context.setOffline(false);
    await page.getByText('Su sesión ha caducado.').waitFor({ timeout: 20_000 });
    await page.getByText('Hay 1 cambio guardado en este dispositivo').waitFor();
    expect((await numerosEnServidor(api)).length).toBe(antes);

    await page.fill('#f-email', cuenta.email);
    await page.fill('#f-password', cuenta.password);
    await page.getByRole('button', { name: 'Volver a entrar' }).click();
    await esperarNumero(page);
    expect((await numerosEnServidor(api)).length).toBe(antes + 1);
  });

  it('sends what was queued offline with the app closed, when the browser wakes the service worker (Background Sync)', async () => {
    const { env } = e2e;
    const { page, api } = await e2e.sesion({ clave: true });
    await esperarServiceWorker(page);
    const antes = (await numerosEnServidor(api)).length;
    await env.context.setOffline(true);
    await sinNumerosReservados(page);
    await rellenarDeca(page, { cargador: 'Segundo Plano SL', matricula: '3333DDD', origen: 'Soria', destino: 'Burgos' });
    await page.getByRole('button', { name: 'Emitir ahora' }).click();
    await page.locator('h1', { hasText: /LOCAL-[0-9A-F]{6}/ }).waitFor();
    await page.getByTestId('cola').waitFor();

    // The app is closed; the network comes back; the browser fires the queue's sync event.
    const sincronizar = await sincronizacionEnSegundoPlano(env, page);
    expect((await numerosEnServidor(api)).length).toBe(antes);
    await sincronizar();
    await expect.poll(async () => (await numerosEnServidor(api)).length, { timeout: 20_000, interval: POLL_API_MS }).toBe(antes + 1);

    // Opened again, the app shows it numbered, with nothing left to send.
    await page.goto(env.url);
    await expect.poll(() => page.getByTestId('pendiente-sync').count(), { timeout: 20_000 }).toBe(0);
    const [ultimo] = (await numerosEnServidor(api)).slice(-1);
    await expect.poll(async () => (await page.getByTestId('lista-decas').textContent()) ?? '', { timeout: 20_000 }).toContain(ultimo!);
  });

  it('one DeCA the server keeps failing never holds back another; it is shown as stuck and goes after «Reintentar»', async () => {
    const { env } = e2e;
    const cuenta = await cuentaNueva(env, { clave: true });
    const api = e2e.api(cuenta);
    const p = await env.context.newPage();
    await p.clock.install(); // the engine's backoff runs on the page's clock, advanced below
    await entrar(env, p, cuenta);
    await esperarServiceWorker(p);
    const antes = (await numerosEnServidor(api)).length;
    await env.context.setOffline(true);
    await sinNumerosReservados(p);
    for (const cargador of ['Veneno SL', 'Buena SL']) {
      await rellenarDeca(p, { cargador, matricula: '4444FFF', origen: 'Jaén', destino: 'Almería' });
      await p.getByRole('button', { name: 'Emitir ahora' }).click();
      await p.locator('h1', { hasText: /LOCAL-[0-9A-F]{6}/ }).waitFor();
    }
    // The server fails every create of «Veneno SL» (a bug on its side); the rest goes through.
    // (On the context, so the service worker's Background Sync meets the same server.)
    await env.context.route('**/api/v1/decas', (route) =>
      route.request().method() === 'POST' && (route.request().postData() ?? '').includes('Veneno SL')
        ? route.fulfill({
            status: 500,
            contentType: 'application/json',
            body: JSON.stringify({ error: { codigo: 'error_interno', mensaje: 'Error interno del servidor.', campos: {}, avisos: [], request_id: 'req_e2e' } }),
          })
        : route.continue(),
    );
    await env.context.setOffline(false);
    await expect.poll(async () => (await numerosEnServidor(api)).length, { timeout: 20_000, interval: POLL_API_MS }).toBe(antes + 1);

    // A day of failures later it is stuck: shown as such, no longer retried on its own.
    await p.clock.fastForward('25:00:00');
    await p.click('a[href="/"]');
    const fila = p.locator('[data-clave]', { has: p.getByTestId('atascada') });
    await fila.waitFor({ timeout: 40_000 });
    await fila.getByRole('link').first().click();
    const atasco = p.getByTestId('atasco');
    await atasco.waitFor();
    expect(await atasco.textContent()).toContain('No se ha podido enviar «Crear la DeCA»');

    // Fixed on the server: «Reintentar» sends it, once.
    await env.context.unroute('**/api/v1/decas');
    await atasco.getByRole('button', { name: 'Reintentar' }).click();
    await expect.poll(async () => (await numerosEnServidor(api)).length, { timeout: 30_000, interval: POLL_API_MS }).toBe(antes + 2);
    await expect.poll(() => atasco.count(), { timeout: 20_000 }).toBe(0);
  });
});
