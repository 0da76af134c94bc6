import { createHash } from 'node:crypto';
import { PDFDocument } from 'pdf-lib';
import type { Page } from 'playwright-core';
import { describe, expect, it, onTestFinished } from 'vitest';
import { startReceptor } from '../support/webhook-receiver';
import { CHROMIUM, enlaceDelCorreo } from './browser';
import { type Api, archivoE2e, decaCompleta } from './flujos';

interface DecaApi {
  id: number;
  numero: string;
  version: number;
  pdf_sha256: string;
  fin_servicio_at: string | null;
  urls: { ficha: string; pdf: string };
}

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const crear = async (api: Api, cambios: Record<string, unknown> = {}) => (await api<{ deca: DecaApi }>('POST', '/decas', decaCompleta(cambios))).deca;

/**
 * Keep each blob the page makes an object URL of, by URL: the test reads the bytes a frame shows from the blob
 * itself (the app's CSP lets no fetch of a blob: URL).
 */
async function guardarBlobs(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const blobs = new Map<string, Blob>();
    (window as unknown as { __blobs: Map<string, Blob> }).__blobs = blobs;
    const crear = URL.createObjectURL.bind(URL);
    URL.createObjectURL = (b: Blob | MediaSource) => {
      const u = crear(b);
      if (b instanceof Blob) blobs.set(u, b);
      return u;
    };
  });
}

/** The bytes of the PDF the hidden print frame holds (see guardarBlobs). */
async function pdfDelMarco(page: Page): Promise<Buffer> {
  const marco = page.locator('iframe.imprimir-pdf');
  await marco.waitFor({ state: 'attached' });
  const { tipo, b64 } = await marco.evaluate(async (f: HTMLIFrameElement) => {
    const blob = (window as unknown as { __blobs: Map<string, Blob> }).__blobs.get(f.src)!;
    const bytes = new Uint8Array(await blob.arrayBuffer());
    let bin = '';
    for (const b of bytes) bin += String.fromCharCode(b);
    return { tipo: f.contentDocument?.contentType ?? null, b64: btoa(bin) };
  });
  // The frame shows the PDF itself (the browser's viewer): its print() prints the document.
  expect(tipo).toBe('application/pdf');
  return Buffer.from(b64, 'base64');
}

/** Count the top page's own print() calls (the web page printed): a real print dialog cannot be driven headless. */
async function contarImpresionesDeLaPagina(page: Page): Promise<() => Promise<number>> {
  await page.addInitScript(() => {
    (window as unknown as { __impresiones: number }).__impresiones = 0;
    window.print = () => {
      (window as unknown as { __impresiones: number }).__impresiones++;
    };
  });
  return () => page.evaluate(() => (window as unknown as { __impresiones: number }).__impresiones);
}

const sinDesbordar = (page: Page) => page.evaluate(() => ({ ancho: document.scrollingElement!.scrollWidth, visible: document.scrollingElement!.clientWidth }));

/** A dispatcher at a desk, 1440×900: printing, the list, bulk actions, keys, webhooks and invitations. */
describe.skipIf(!CHROMIUM)('the office’s desk at 1440×900', () => {
  const e2e = archivoE2e({ viewport: { width: 1440, height: 900 }, politicas: true });

  it('«Imprimir» prints the DeCA’s own PDF, never the page; on paper the page never shows the download log', async () => {
    const { env } = e2e;
    const { page, api } = await e2e.sesion({ clave: true });
    const deca = await crear(api);
    // Someone opens the public page: the download log now has an IP and a browser.
    expect((await fetch(deca.urls.ficha.replace(/^https?:\/\/[^/]+/, env.url))).status).toBe(200);
    const impresionesDeLaPagina = await contarImpresionesDeLaPagina(page);
    await guardarBlobs(page);
    const pedidas: string[] = [];
    page.on('request', (r) => pedidas.push(new URL(r.url()).pathname));
    await page.goto(`${env.url}/decas/${deca.numero}`);
    await page.getByTestId('aperturas').waitFor();
    await page.getByRole('button', { name: 'Imprimir', exact: true }).click();
    const pdf = await pdfDelMarco(page);
    // The official document: the bytes the server keeps for this version, sealed, as they are.
    expect(pedidas).toContain(`/api/v1/decas/${deca.id}/pdf`);
    expect(sha256(pdf)).toBe(deca.pdf_sha256);
    expect(await impresionesDeLaPagina()).toBe(0);
    // With no coverage: the copy this device keeps, the same bytes.
    await page.context().setOffline(true);
    const antes = await page.locator('iframe.imprimir-pdf').getAttribute('src');
    await page.getByRole('button', { name: 'Imprimir', exact: true }).click();
    await expect.poll(() => page.locator('iframe.imprimir-pdf').getAttribute('src')).not.toBe(antes);
    expect(sha256(await pdfDelMarco(page))).toBe(deca.pdf_sha256);
    expect(await impresionesDeLaPagina()).toBe(0);
    await page.context().setOffline(false);

    // Printed as a page anyway (Ctrl+P): no IP or browser of the download log on paper.
    await page.emulateMedia({ media: 'print' });
    expect(await page.getByTestId('registro-aperturas').isVisible()).toBe(false);
    expect(await page.getByRole('heading', { name: 'Datos' }).isVisible()).toBe(true);
    await page.emulateMedia({ media: 'screen' });
    expect(await page.getByTestId('registro-aperturas').isVisible()).toBe(true);
  });

  it('prints a selection as one PDF with every page of each DeCA, loading the merger only then; each DeCA’s file stays as it was', async () => {
    const { env } = e2e;
    const { page, api, cuenta } = await e2e.sesion({ clave: true });
    const decas = [await crear(api, { matricula: '1111 BBB' }), await crear(api, { matricula: '2222 CCC' }), await crear(api, { matricula: '3333 DDD' })];
    await guardarBlobs(page);
    const scripts: string[] = [];
    page.on('request', (r) => {
      if (r.resourceType() === 'script') scripts.push(r.url());
    });
    await page.goto(env.url);
    const lista = page.getByTestId('lista-decas');
    for (const d of decas) await lista.locator(`[data-clave="s:${d.id}"]`).waitFor();
    const antes = scripts.length;
    for (const d of decas) await lista.getByLabel(`Seleccionar ${d.numero}`).check();
    const barra = page.getByRole('region', { name: 'Acciones con las seleccionadas' });
    await barra.getByRole('button', { name: 'Imprimir' }).click();
    await page
      .getByTestId('progreso')
      .getByText(/una copia unida de 3 DeCA/)
      .waitFor({ timeout: 30_000 });
    const unida = await PDFDocument.load(await pdfDelMarco(page));
    // Page by page: the pages of each DeCA's own PDF, all of them.
    let paginas = 0;
    for (const d of decas) {
      const res = await fetch(`${env.url}/api/v1/decas/${d.id}/pdf`, { headers: { Authorization: `Bearer ${cuenta.clave}` } });
      const propio = Buffer.from(await res.arrayBuffer());
      expect(sha256(propio)).toBe(d.pdf_sha256);
      paginas += (await PDFDocument.load(propio)).getPageCount();
    }
    expect(unida.getPageCount()).toBe(paginas);
    expect(unida.getTitle()).toMatch(/^Copia para imprimir de 3 DeCA .*sin sello/);
    // The merger came with the print, not with the list.
    expect(scripts.slice(0, antes).some((u) => /pdf-lib|unir-pdf/.test(u))).toBe(false);
    expect(scripts.slice(antes).some((u) => /unir-pdf/.test(u))).toBe(true);
  });

  it('fits the desk with no sideways scroll from 1280 px, keeping number, state, date, plate and shipper; the plate filters by any part as it is typed', async () => {
    const { env } = e2e;
    const { page, api } = await e2e.sesion({ clave: true });
    const larga = 'Distribuciones Agroalimentarias del Mediterráneo Oriental y Levante, Sociedad Limitada';
    const a = await crear(api, { matricula: '1234 BCD', cargador_nombre: larga, conductor_nombre: 'María de las Mercedes Fernández-Villaverde', referencia: 'ALBARAN2026000000123456789ABCDEF' });
    // (A reference without a break in it cannot wrap: only the columns' own widths keep it in the row.)
    const b = await crear(api, { matricula: '5678 FGH', matricula_remolque: 'R-1234-XYZ', transp_nombre: larga });
    const c = await crear(api, { matricula: '9999 KKK' });
    await page.goto(env.url);
    const lista = page.getByTestId('lista-decas');
    for (const d of [a, b, c]) await lista.locator(`[data-clave="s:${d.id}"]`).waitFor();
    for (const ancho of [1440, 1280]) {
      await page.setViewportSize({ width: ancho, height: 900 });
      await expect.poll(() => sinDesbordar(page)).toSatisfy(({ ancho: w, visible }) => w <= visible);
      for (const col of ['Número', 'Estado', 'Fecha', 'Matrícula', 'Cargador']) expect(await lista.getByRole('columnheader', { name: col }).isVisible(), `${ancho}: ${col}`).toBe(true);
      const fila = lista.locator(`[data-clave="s:${a.id}"]`);
      // The number on one line.
      const num = fila.getByRole('link', { name: a.numero });
      const caja = await num.boundingBox();
      expect(caja!.height, `${ancho}: número en una línea`).toBeLessThan(30);
    }

    // Any part of the vehicle's or the trailer's plate, as written, filtered while typing (no Enter).
    const filas = lista.locator('[data-clave]');
    const pedida = page.waitForRequest((r) => r.url().includes('/api/v1/decas?') && new URL(r.url()).searchParams.get('matricula_contiene') === '34 b');
    await page.locator('#f-matricula').pressSequentially('34 b');
    await expect.poll(() => filas.count()).toBe(1);
    expect(await lista.locator(`[data-clave="s:${a.id}"]`).count()).toBe(1);
    await pedida;
    await page.locator('#f-matricula').fill('12-34');
    await expect.poll(async () => (await filas.evaluateAll((els) => els.map((e) => e.getAttribute('data-clave')))).sort()).toEqual([`s:${a.id}`, `s:${b.id}`].sort());
    await page.locator('#f-matricula').fill('');
    await expect.poll(() => filas.count()).toBe(3);
  });

  it('ends the service of the selected DeCAs at once, through the outbox as one DeCA does; a pending one is left and said so', async () => {
    const { env } = e2e;
    const { page, api } = await e2e.sesion({ clave: true });
    const emitidas = [await crear(api), await crear(api)];
    const pendiente = (await api<{ deca: DecaApi }>('POST', '/decas', { emitir: false, referencia: 'sin-emitir' })).deca;
    await page.goto(env.url);
    const lista = page.getByTestId('lista-decas');
    for (const d of [...emitidas, pendiente]) await lista.getByLabel(`Seleccionar ${d.numero}`).check();
    const barra = page.getByRole('region', { name: 'Acciones con las seleccionadas' });
    await barra.getByRole('button', { name: 'Fin de servicio' }).click();
    const dialogo = page.getByRole('dialog');
    for (const d of emitidas) expect(await dialogo.textContent()).toContain(d.numero);
    expect(await dialogo.textContent()).not.toContain(pendiente.numero);
    await dialogo.getByRole('button', { name: 'Marcar fin de servicio' }).click();
    await page.getByTestId('progreso').getByText('Fin de servicio marcado en 2 DeCA. 1 no está emitida o ya tenía fin de servicio.').waitFor();
    for (const d of emitidas) {
      await expect.poll(async () => (await api<{ deca: DecaApi }>('GET', `/decas/${d.id}`)).deca.fin_servicio_at, { timeout: 20_000 }).not.toBeNull();
    }
    expect((await api<{ deca: DecaApi }>('GET', `/decas/${pendiente.id}`)).deca.fin_servicio_at).toBeNull();
    const { cambios } = await api<{ cambios: { tipo: string }[] }>('GET', `/decas/${emitidas[0]!.id}/cambios`);
    expect(cambios.filter((c) => c.tipo === 'fin_servicio')).toHaveLength(1);
  });

  it('sends the selected issued DeCAs to the driver, each by the same e-mail with its PDF as one DeCA’s «Enviar»', async () => {
    const { env } = e2e;
    const { page, api } = await e2e.sesion({ clave: true });
    const emitidas = [await crear(api, { matricula: '4444 FFF' }), await crear(api, { matricula: '4444 FFF' })];
    const pendiente = (await api<{ deca: DecaApi }>('POST', '/decas', { emitir: false, referencia: 'sin-emitir' })).deca;
    await page.goto(env.url);
    const lista = page.getByTestId('lista-decas');
    for (const d of [...emitidas, pendiente]) await lista.getByLabel(`Seleccionar ${d.numero}`).check();
    const barra = page.getByRole('region', { name: 'Acciones con las seleccionadas' });
    await barra.getByRole('button', { name: 'Enviar al conductor' }).click();
    const CONDUCTOR = 'conductor.lote@example.com';
    await barra.getByLabel('Correo del conductor').fill(CONDUCTOR);
    await barra.getByRole('button', { name: 'Enviar 3 DeCA' }).click();
    await page.getByTestId('progreso').getByText(`2 DeCA enviadas a ${CONDUCTOR}, cada una con su PDF. 1 no está emitida: no se envía.`).waitFor({ timeout: 20_000 });
    const correos = () => env.smtp.mails.filter((m) => JSON.stringify(m.to ?? '').includes(CONDUCTOR));
    await expect.poll(() => correos().length, { timeout: 20_000 }).toBe(2);
    for (const d of emitidas) expect(correos().some((m) => (m.attachments ?? []).some((a) => a.contentType === 'application/pdf') && `${m.subject} ${m.text}`.includes(d.numero))).toBe(true);
    await barra.getByRole('button', { name: 'Compartir los enlaces' }).waitFor();
  });

  it('shows a revoked key as revoked, never «Copie la clave ahora»; the API names the screen where to make another, which exists', async () => {
    const { env } = e2e;
    const { page } = await e2e.sesion();
    await page.goto(`${env.url}/cuenta`);
    await page.getByRole('button', { name: 'Nueva clave de producción' }).click();
    await page.getByText('Copie la clave ahora: no se volverá a mostrar.').waitFor();
    const key = (await page.getByTestId('clave-nueva').textContent())!;
    env.recordar(key);
    const prefijo = key.slice(0, 16);
    const activa = page
      .getByTestId('claves')
      .locator('li')
      .filter({ hasText: prefijo.slice(0, 12) });
    await activa.getByRole('button', { name: /^Revocar la clave/ }).click();
    await page
      .getByRole('dialog')
      .getByRole('button', { name: /^Revocar / })
      .click();
    const revocadas = page.getByTestId('claves-revocadas');
    await revocadas.waitFor();
    expect(await revocadas.textContent()).toMatch(/Revocada/);
    expect(await page.getByText('Copie la clave ahora').count()).toBe(0);
    expect(await page.getByTestId('clave-nueva').count()).toBe(0);

    const res = await fetch(`${env.url}/api/v1/cuenta`, { headers: { Authorization: `Bearer ${key}` } });
    expect(res.status).toBe(401);
    const { error } = (await res.json()) as { error: { mensaje: string } };
    const [, pantalla, seccion] = /en «([^»]+)» → «([^»]+)»/.exec(error.mensaje) ?? [];
    expect(pantalla).toBe('Cuenta');
    await page.getByRole('link', { name: pantalla! }).first().click();
    await page.getByRole('heading', { level: 1, name: pantalla! }).waitFor();
    expect(await page.getByRole('heading', { level: 2, name: seccion! }).isVisible()).toBe(true);
  });

  it('shows each webhook delivery’s DeCA number as a link and its event in words', async () => {
    const { env } = e2e;
    const { page, api } = await e2e.sesion({ clave: true });
    const rx = await startReceptor();
    onTestFinished(() => rx.close());
    await api('POST', '/webhooks', { url: `${rx.url}/deca`, eventos: ['deca.emitido'] });
    const deca = await crear(api);
    await rx.esperar(1, 30_000);
    await page.goto(`${env.url}/webhooks`);
    const item = page.getByTestId('webhooks').locator('li').last();
    await item.getByRole('button', { name: 'Entregas' }).click();
    const enlace = item.getByRole('link', { name: deca.numero });
    await enlace.waitFor();
    expect(await enlace.getAttribute('href')).toBe(`/decas/${deca.numero}`);
    const fila = item.locator('tr').filter({ has: page.getByRole('link', { name: deca.numero }) });
    expect(await fila.textContent()).toContain('Emitida');
    await enlace.click();
    await page.getByRole('heading', { name: new RegExp(`DeCA ${deca.numero}`) }).waitFor();
  });

  it('gives the invitation’s link to copy and share, the same the e-mail carries', async () => {
    const { env } = e2e;
    const { page } = await e2e.sesion({ alias: 'jefa' });
    await env.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: env.url });
    await page.goto(`${env.url}/usuarios`);
    await page.fill('#f-invitar_email', 'nuevo.conductor@example.com');
    await page.selectOption('#f-invitar_rol', 'conductor');
    await page.getByRole('button', { name: 'Enviar invitación' }).click();
    const panel = page.getByTestId('enlace-invitacion');
    const campo = panel.getByLabel('Enlace de la invitación a nuevo.conductor@example.com');
    await campo.waitFor();
    const enlace = await campo.inputValue();
    env.recordar(enlace.split('/').pop()!);
    expect(new URL(enlace).pathname).toBe(await enlaceDelCorreo(env, 'nuevo.conductor@example.com', /^\/invitacion\//));
    await panel.getByRole('button', { name: 'Copiar el enlace' }).click();
    // Said only once the clipboard took it.
    await panel.getByRole('button', { name: 'Enlace copiado' }).waitFor();
  });
});
