import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Request } from 'playwright-core';
import { describe, expect, it, onTestFinished } from 'vitest';
import { CHROMIUM, enlaceDelCorreo, esperarServiceWorker, llamarApi, reservasEnDispositivo } from './browser';
import { archivoE2e, descargarPdf, esperarNumero, numerosEnServidor, rellenarDeca } from './flujos';

/**
 * The app as it is served and installed: its policies, the API reference,
 * a new version deployed under a running app, and a company signing up
 * through the form to its first issued DeCA on an installable app.
 */
describe.skipIf(!CHROMIUM)('the PWA’s shell: policies, reference, updates, sign-up and installation', () => {
  // On disk: Chromium offers to install an app only from a profile on disk, never from an off-the-record one.
  const e2e = archivoE2e({ politicas: true, enDisco: true });

  it('serves the app under a strict CSP that the browser enforces', async () => {
    const { env, politicas } = e2e;
    const page = await env.context.newPage();
    const res = (await page.goto(env.url))!;
    const csp = res.headers()['content-security-policy'] ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    await page.getByRole('heading', { name: 'Entrar' }).waitFor();
    // An injected inline script does not run, and the watch sees the refusal.
    await page.evaluate(() => {
      const s = document.createElement('script');
      s.textContent = 'document.body.dataset.inyectado = "1"';
      document.head.append(s);
    });
    await expect.poll(() => politicas.length).toBeGreaterThan(0);
    expect(politicas.join('\n')).toMatch(/script-src/);
    expect(await page.evaluate(() => document.body.dataset.inyectado)).toBeUndefined();
    politicas.length = 0;

    // Another site cannot frame the app (clickjacking on «Revocar» or «Eliminar»).
    const ajena = await env.context.newPage();
    await ajena.setContent(`<iframe src="${env.url}/cuenta" title="app"></iframe>`);
    await expect.poll(() => politicas.some((m) => /frame-ancestors/.test(m)), { timeout: 10_000 }).toBe(true);
    expect(ajena.frames().some((f) => f !== ajena.mainFrame() && f.url().startsWith(env.url))).toBe(false);
    await ajena.close();
    politicas.length = 0;
  });

  it('renders the API reference at /docs from this server, with no CDN, under its CSP', async () => {
    const { env } = e2e;
    const externas: string[] = [];
    const ref = await env.context.newPage();
    ref.on('request', (r) => {
      if (!r.url().startsWith(env.url) && !r.url().startsWith('data:')) externas.push(r.url());
    });
    await ref.goto(`${env.url}/docs`);
    await ref.getByText('Crear (y emitir) una DeCA').first().waitFor({ timeout: 30_000 });
    expect(await ref.getByText('/decas/{id}/sustituir').count()).toBeGreaterThan(0);
    expect(externas).toEqual([]);
    await ref.close();
  });

  // A profile with nothing queued: an event still running in the old worker (a Background Sync drain)
  // rightly holds the new one's activation, and that is not what this test is about.
  it('offers a new version when one is deployed, and reloads into it', async () => {
    const { env } = e2e;
    const page = await env.context.newPage();
    await page.goto(env.url);
    await esperarServiceWorker(page);
    const sw = path.join(env.clientDir, 'sw.js');
    const original = readFileSync(sw);
    onTestFinished(() => writeFileSync(sw, original));
    const aviso = page.getByText('Hay una versión nueva de la aplicación.');
    // A deploy changes the service worker's bytes; the app checks for it (here at once, in use on visibility).
    // Then the original comes back: a second deploy, offered the same way.
    for (const version of [Buffer.concat([original, Buffer.from(`\n// versión ${Date.now()}\n`)]), original]) {
      writeFileSync(sw, version);
      await page.evaluate(async () => {
        const reg = await navigator.serviceWorker.getRegistration();
        await reg?.update();
      });
      await aviso.waitFor({ timeout: 30_000 });
      const recarga = page.waitForEvent('framenavigated', { timeout: 30_000 });
      await page.getByRole('button', { name: 'Actualizar' }).click();
      await recarga;
      await page.locator('main').first().waitFor();
      expect(await aviso.count()).toBe(0);
    }
  });

  // The one flow that signs up through the form; every other test's account is made through the server's endpoints.
  it('signs up, creates and issues a DeCA, and shows its QR and PDF; the app is installable', async () => {
    const { env } = e2e;
    const EMAIL = 'conductora@example.com';
    const PASSWORD = 'una-clave-larga-1';
    env.recordar(PASSWORD);
    const page = await env.context.newPage();
    await page.goto(env.url);
    await page.getByRole('heading', { name: 'Entrar' }).waitFor();
    await page.click('a[href="/registro"]');
    await page.fill('#f-nombre', 'Transportes Prueba SL');
    await page.fill('#f-nif', 'B12345674');
    await page.fill('#f-domicilio', 'Polígono Sur 3, Zaragoza');
    await page.fill('#f-email', EMAIL);
    await page.fill('#f-password', PASSWORD);
    // What every page of this browser asks about this device (the confirmation link opens the app in a second tab).
    const dispositivo: string[] = [];
    const mirar = (r: Request) => {
      if (new URL(r.url()).pathname.startsWith('/app/api/dispositivos')) dispositivo.push(`${r.method()} ${new URL(r.url()).pathname}`);
    };
    env.context.on('request', mirar);
    await page.getByRole('button', { name: 'Crear cuenta' }).click();
    await page.getByRole('heading', { name: 'Sus DeCA' }).waitFor();
    // The app installs itself on this first page (see `entrar` for why a later navigation must not race the install).
    await esperarServiceWorker(page);

    // Until the e-mail is confirmed the app says what waits for it; the link can be sent again.
    const aviso = page.getByTestId('sin-confirmar');
    await aviso.getByText('Confirme su correo.').waitFor();
    const primerEnlace = await enlaceDelCorreo(env, EMAIL, /^\/confirmar\//);
    await aviso.getByRole('button', { name: 'Reenviar el enlace' }).click();
    await aviso.getByText(`Enlace enviado a ${EMAIL}`).waitFor();
    const enlace = await enlaceDelCorreo(env, EMAIL, /^\/confirmar\//, primerEnlace);
    // Opening the link only shows a button (mail scanners follow links); pressing it confirms.
    const correo = await env.context.newPage();
    await correo.goto(`${env.url}${enlace}`);
    const antesDeConfirmar = dispositivo.length;
    await correo.getByRole('button', { name: 'Confirmar el correo' }).click();
    await correo.getByRole('heading', { name: 'Correo confirmado' }).waitFor();
    await correo.close();
    // Back in the app, the notice goes once the session is refreshed.
    await page.bringToFront();
    await expect
      .poll(
        async () => {
          await page.evaluate(() => dispatchEvent(new Event('focus')));
          return aviso.count();
        },
        { timeout: 15_000, interval: 2_500 },
      )
      .toBe(0);
    // Real numbers wait for the confirmation (the server would refuse them): until then the device asked for none;
    // once confirmed, it registers one key and takes them at once, though two tabs were open.
    await expect.poll(() => reservasEnDispositivo(page), { timeout: 20_000 }).toBeGreaterThanOrEqual(3);
    env.context.off('request', mirar);
    expect(antesDeConfirmar).toBe(0);
    expect(dispositivo).toEqual(['POST /app/api/dispositivos', expect.stringMatching(/^POST \/app\/api\/dispositivos\/\d+\/reservas$/)]);

    // The caller's side is prefilled from the account.
    await page.click('a[href="/decas/nueva"]');
    expect(await page.inputValue('#f-transp_nombre')).toBe('Transportes Prueba SL');
    // Live validation with the shared rules: exactly what is missing to issue.
    const faltan = page.getByTestId('faltan');
    await expect.poll(() => faltan.textContent()).toContain('Cargador · Nombre o razón social');
    await expect.poll(() => faltan.textContent()).toContain('Envío 1 · Peso o cantidad');
    await page.fill('#f-matricula', '1234');
    await page.fill('#f-envios_0__peso', 'mucho');
    await page.locator('[data-campo="envios[0].peso"]').waitFor();
    await expect.poll(() => faltan.textContent()).toContain('Datos no válidos (1)');

    await page.goto(`${env.url}/`);
    await rellenarDeca(page, { cargador: 'Frutas del Sur SA', matricula: '1234 BCD', origen: 'Almería', destino: 'Zaragoza' });
    await page.getByRole('button', { name: 'Emitir ahora' }).click();
    const primera = await esperarNumero(page);
    const qr = page.getByTestId('qr');
    await qr.waitFor();
    expect(await qr.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBeGreaterThan(100);
    expect(await descargarPdf(page)).toMatchObject({ nombre: `DeCA-${primera}-v1.pdf`, inicio: '%PDF-' });
    // «Abrir PDF» shows it in Chromium's viewer, under the policy the blob: page inherits from the app.
    const [visor] = await Promise.all([env.context.waitForEvent('page'), page.getByTestId('abrir-pdf').click()]);
    await expect.poll(() => visor.frames().some((f) => f.url().startsWith('chrome-extension://')), { timeout: 10_000 }).toBe(true);
    await visor.close();

    // An API key made from the app, to check the server side of what follows.
    const r = await page.evaluate(async () => {
      const res = await fetch('/app/api/claves', { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-DeCA-CSRF': '1' }, body: JSON.stringify({ entorno: 'produccion' }) });
      return (await res.json()) as { key: string };
    });
    const api = <T>(method: string, ruta: string, body?: unknown) => llamarApi<T>(env, r.key, method, ruta, body);
    expect(await numerosEnServidor(api)).toEqual([primera]);

    // An inspector opens the public page: the detail lists the open (the download log).
    const { deca } = await api<{ deca: { urls: { ficha: string } } }>('GET', `/decas/${primera}`);
    await fetch(`${env.url}${new URL(deca.urls.ficha).pathname}`, { headers: { 'User-Agent': 'Mozilla/5.0 (Linux; Android 14) Chrome/126.0 Mobile' } });
    await page.reload();
    await expect.poll(() => page.getByTestId('aperturas').locator('li').count(), { timeout: 20_000 }).toBe(1);

    await esperarServiceWorker(page);
    const cdp = await env.context.newCDPSession(page);
    const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as { installabilityErrors: unknown[] };
    expect(installabilityErrors).toEqual([]);
    await cdp.detach();
  });
});
