import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Page } from 'playwright-core';
import sharp from 'sharp';
import { describe, expect, it, onTestFinished } from 'vitest';
import { ROOT } from '../support/processes';
import { auditarAccesibilidad } from './axe';
import { CHROMIUM, CHROMIUM_ARGS, esperarServiceWorker, leerQr } from './browser';
import { archivoE2e, decaCompleta, enEsteServidor, filasEnDispositivo } from './flujos';

type Trazos = [number, number][][];

/** Relative luminance of a CSS rgb() colour. */
function luminancia(css: string): number {
  const [r, g, b] = (css.match(/[\d.]+/g) ?? []).slice(0, 3).map((x) => {
    const c = Number(x) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

/**
 * Signs on the pad as a finger does: the pointer events a touch screen sends
 * (down, a run of moves, up), dispatched on the pad at page coordinates. Two
 * strokes: cursive loops and a short underline.
 */
async function firmar(page: Page, selector = '[data-testid="panel-firma"]'): Promise<void> {
  const pad = page.locator(selector);
  await pad.scrollIntoViewIfNeeded();
  await pad.evaluate((el) => {
    const caja = el.getBoundingClientRect();
    const en = (fx: number, fy: number) => ({ clientX: caja.left + fx * caja.width, clientY: caja.top + fy * caja.height });
    const evento = (tipo: string, p: { clientX: number; clientY: number }) =>
      el.dispatchEvent(new PointerEvent(tipo, { ...p, pointerId: 7, pointerType: 'touch', isPrimary: true, bubbles: true, cancelable: true, pressure: tipo === 'pointerup' ? 0 : 0.5 }));
    const trazo = (puntos: { clientX: number; clientY: number }[]) => {
      evento('pointerdown', puntos[0]!);
      for (const p of puntos.slice(1)) evento('pointermove', p);
      evento('pointerup', puntos[puntos.length - 1]!);
    };
    // Cursive loops from 10 % to 90 % of the pad's width.
    trazo(
      Array.from({ length: 60 }, (_, i) => {
        const t = i / 59;
        return en(0.1 + 0.8 * t + 0.06 * Math.sin(8 * Math.PI * t), 0.5 - 0.22 * Math.cos(8 * Math.PI * t) * (1 - 0.4 * t) + 0.1 * t);
      }),
    );
    trazo(Array.from({ length: 10 }, (_, i) => en(0.3 + (0.4 * i) / 9, 0.85)));
  });
}

/** A delivery's photo as a camera makes it: larger than the 1600 px the phone keeps. */
const fotoDeEntrega = () =>
  sharp({ create: { width: 2400, height: 1800, channels: 3, background: '#8b5a2b' } })
    .composite([{ input: Buffer.from('<svg width="2400" height="1800"><rect x="300" y="300" width="1800" height="1200" fill="#d9b38c"/></svg>') }])
    .jpeg({ quality: 85 })
    .toBuffer();

describe.skipIf(!CHROMIUM)('proof of delivery on the phone, with or without coverage', () => {
  const e2e = archivoE2e({ viewport: { width: 390, height: 844 }, politicas: true });

  it('the consignee signs offline: kept with its key in the outbox, pending on the DeCA; back online the server has it, strokes and all', async () => {
    const { env } = e2e;
    const { page, api } = await e2e.sesion({ clave: true });
    // The shipper's data was asked for by e-mail: the receipt goes to that address.
    const CARGADOR = `cargador-${Date.now()}@example.com`;
    const { deca } = await api<{ deca: { id: number; numero: string } }>('POST', '/decas', decaCompleta({ emitir: false, pedir_datos_email: CARGADOR }));
    await api('POST', `/decas/${deca.id}/emitir`, {});
    await page.goto(`${env.url}/decas/${deca.numero}`);
    await page.getByRole('heading', { name: new RegExp(`DeCA ${deca.numero}`) }).waitFor();
    await esperarServiceWorker(page);
    await page.getByTestId('entregar').waitFor();

    await env.context.setOffline(true);
    await page.getByTestId('entregar').click();
    await page.getByRole('heading', { name: `Entrega · DeCA ${deca.numero}` }).waitFor();

    // Saved with nothing: every missing piece said in plain words, nothing kept.
    await page.getByRole('button', { name: 'Guardar la entrega' }).click();
    await page.getByText('Escriba el nombre de quien recibe').waitFor();
    await page.getByText('Falta la firma de quien recibe: que firme con el dedo en el recuadro.').waitFor();
    await page.getByText('Escriba las reservas o marque «sin reservas»').waitFor();

    await page.fill('#f-receptor_nombre', 'Lucía Pérez Gil');
    await expect.poll(() => page.getByText('Escriba el nombre de quien recibe').count()).toBe(0);
    // The DNI's check letter is checked with the shared rule: a warning, never a refusal.
    await page.fill('#f-receptor_documento', '12345678A');
    await page.getByText('La letra de este DNI no cuadra con sus números: revíselo con el documento.').waitFor();
    await page.fill('#f-receptor_documento', '12345678Z');
    await expect.poll(() => page.getByText('no cuadra').count()).toBe(0);

    await firmar(page);
    const ruta = await page.getByTestId('firma-trazos').getAttribute('d');
    // Two strokes, smoothed with quadratic curves.
    expect(ruta?.match(/M/g)?.length).toBe(2);
    expect(ruta).toContain('Q');
    // «Sin reservas» is one tap; here the consignee has one to write.
    await page.getByRole('button', { name: 'Sin reservas' }).click();
    expect(await page.getByRole('button', { name: '✓ Sin reservas' }).getAttribute('aria-pressed')).toBe('true');
    await page.getByRole('button', { name: '✓ Sin reservas' }).click();
    await page.fill('#f-reservas', 'Un palé con el film roto');
    await page.setInputFiles('#fotos-entrega', { name: 'entrega.jpg', mimeType: 'image/jpeg', buffer: await fotoDeEntrega() });
    await page.getByRole('img', { name: 'Foto 1 de la entrega' }).waitFor();

    // The signing screen, for the README: from its top, name and signature in sight.
    await page.evaluate(() => {
      (document.activeElement as HTMLElement | null)?.blur();
      scrollTo(0, 0);
    });
    const captura = await page.screenshot();
    const { width, height } = await sharp(captura).metadata();
    expect([width, height]).toEqual([390, 844]);
    if (process.env.CAPTURAS) writeFileSync(path.join(ROOT, 'docs/img/entrega-firma.png'), captura);

    // Every action a thumb's size; nothing axe objects to; in dark mode the ink stays light on a dark pad.
    for (const b of await page.locator('form button, form .boton').all()) expect((await b.boundingBox())!.height).toBeGreaterThanOrEqual(48);
    expect(await auditarAccesibilidad(page)).toEqual([]);
    await page.emulateMedia({ colorScheme: 'dark' });
    const colores = await page.getByTestId('panel-firma').evaluate((el) => ({
      fondo: getComputedStyle(el).backgroundColor,
      tinta: getComputedStyle(el.querySelector('.firma-trazo')!).stroke,
    }));
    expect(luminancia(colores.fondo)).toBeLessThan(0.05);
    expect(luminancia(colores.tinta)).toBeGreaterThan(0.6);
    expect(await auditarAccesibilidad(page)).toEqual([]);
    await page.emulateMedia({ colorScheme: 'light' });

    await page.getByRole('button', { name: 'Guardar la entrega' }).click();
    await page.getByRole('heading', { name: new RegExp(`DeCA ${deca.numero}`) }).waitFor();
    const entrega = page.getByTestId('entrega');
    await entrega.waitFor();
    expect(await entrega.getByTestId('estado-entrega').textContent()).toBe('Pendiente de enviar');
    expect(await entrega.textContent()).toContain('Recibe: Lucía Pérez Gil · 12345678Z');
    expect(await entrega.textContent()).toContain('Reservas: Un palé con el film roto');
    await entrega.getByRole('img', { name: 'Firma de Lucía Pérez Gil' }).waitFor();
    expect(await page.getByTestId('cola').textContent()).toContain('entrega firmada');

    // On the device: the delivery with its photo, and its entry in the DeCA's lane with that key, then the end of service.
    const [guardada] = await filasEnDispositivo<{ clave: string; datos: Record<string, unknown>; fotos: unknown[]; estado: string }>(page, 'entregas', ['clave', 'datos', 'fotos', 'estado']);
    expect(guardada!.estado).toBe('pendiente');
    expect(guardada!.fotos.length).toBe(1);
    expect(guardada!.datos).toMatchObject({ resultado: 'entregada', receptor_nombre: 'Lucía Pérez Gil', receptor_documento: '12345678Z', reservas: 'Un palé con el film roto' });
    expect(guardada!.datos).not.toHaveProperty('sin_reservas');
    const firma = guardada!.datos.firma as { proporcion: number; trazos: Trazos };
    expect(firma.trazos.length).toBe(2);
    expect(firma.proporcion).toBeCloseTo(2, 1);
    for (const t of firma.trazos) for (const [x, y] of t) expect(x >= 0 && x <= 1 && y >= 0 && y <= 1).toBe(true);
    // The looped stroke started at 10 % of the pad and ended at 90 %; fewer points than the 60 the finger sent.
    expect(firma.trazos[0]![0]![0]).toBeCloseTo(0.1, 2);
    expect(firma.trazos[0]!.at(-1)![0]).toBeCloseTo(0.9, 2);
    expect(firma.trazos[0]!.length).toBeLessThanOrEqual(60);
    const cola = await filasEnDispositivo<{ clave: string; tipo: string; body: Record<string, unknown>; idempotencyKey: string; estado: string }>(page, 'outbox', [
      'clave',
      'tipo',
      'body',
      'idempotencyKey',
      'estado',
    ]);
    expect(cola.map((e) => e.tipo)).toEqual(['entrega', 'fin']);
    expect(cola[0]).toMatchObject({ clave: `s:${deca.id}`, body: { entrega: guardada!.clave }, idempotencyKey: guardada!.clave, estado: 'pendiente' });

    // Back in coverage it goes by itself: the server has the delivery, the signature's strokes as drawn, and the end of service.
    await env.context.setOffline(false);
    await expect.poll(() => entrega.getByTestId('estado-entrega').textContent(), { timeout: 30_000 }).toBe('Enviada');
    await expect.poll(() => page.getByTestId('cola').count(), { timeout: 20_000 }).toBe(0);
    const { data } = await api<{ data: Record<string, unknown>[] }>('GET', `/decas/${deca.id}/entregas`);
    expect(data).toHaveLength(1);
    expect(data[0]).toMatchObject({
      n: 1,
      envio: null,
      resultado: 'entregada',
      receptor_nombre: 'Lucía Pérez Gil',
      receptor_documento: '12345678Z',
      reservas: 'Un palé con el film roto',
      sin_reservas: false,
      motivo_rechazo: null,
      fotos: 1,
      posicion: null,
      canal: 'web',
    });
    expect(data[0]!.firma).toEqual(firma);
    expect((await api<{ deca: { fin_servicio_at: string | null } }>('GET', `/decas/${deca.numero}`)).deca.fin_servicio_at).not.toBeNull();
    // The shipper's e-mail: the sealed receipt attached, as the server made it.
    const alCargador = () => env.smtp.mails.filter((m) => JSON.stringify(m.to ?? '').includes(CARGADOR) && String(m.subject).startsWith('Entrega: DeCA'));
    await expect.poll(() => alCargador().length, { timeout: 20_000 }).toBe(1);
    const adjunto = alCargador()[0]!.attachments?.find((a) => a.contentType === 'application/pdf');
    expect(adjunto?.filename).toBe(`DeCA-${deca.numero}-entrega-1.pdf`);
    expect(
      createHash('sha256')
        .update(adjunto!.content as Buffer)
        .digest('hex'),
    ).toBe(data[0]!.pdf_sha256);
    // Sent, the photos leave the phone (the server keeps them); the delivery stays on the DeCA's page.
    const [enviada] = await filasEnDispositivo<{ fotos: unknown[]; estado: string }>(page, 'entregas', ['fotos', 'estado']);
    expect(enviada).toEqual({ fotos: [], estado: 'enviada' });
    await page.reload();
    await page.getByTestId('entrega').getByRole('img', { name: 'Firma de Lucía Pérez Gil' }).waitFor();
    expect(await page.getByTestId('entregar').count()).toBe(0);
  });

  it('a shipment of two refused at its destination with its reason, no signature and the position the driver added; the other, delivered from elsewhere, shown too', async () => {
    const { env } = e2e;
    const { page, api } = await e2e.sesion({ clave: true });
    const envios = [
      { origen: 'Burgos', destino: 'Bilbao', naturaleza: 'Palés de madera', peso: '8.000' },
      { origen: 'Burgos', destino: 'Vitoria', naturaleza: 'Cajas de fruta', peso: '2.000' },
    ];
    const { deca } = await api<{ deca: { id: number; numero: string } }>('POST', '/decas', decaCompleta({ envios }));
    await page.goto(`${env.url}/decas/${deca.numero}`);
    await page.getByTestId('entregar-1').click();
    await page.getByRole('heading', { name: `Entregar el envío 2 · DeCA ${deca.numero}` }).waitFor();
    await page.getByText('Destino: Vitoria').waitFor();
    await page.getByLabel('No, la rechaza').check();
    await page.getByRole('button', { name: 'Guardar el rechazo' }).click();
    await page.getByText('Escriba por qué no se acepta la entrega').waitFor();
    await page.fill('#f-receptor_nombre', 'Jefe de almacén');
    await page.fill('#f-motivo_rechazo', 'Fruta en mal estado');
    // The position only when the driver adds it (the browser asks; here it was allowed).
    await env.context.grantPermissions(['geolocation'], { origin: env.url });
    await env.context.setGeolocation({ latitude: 42.8467, longitude: -2.6716, accuracy: 15 });
    await page.getByLabel('Añadir dónde estoy (opcional)').check();
    await page.getByText('Posición añadida (a unos 15 m).').waitFor();
    await page.getByRole('button', { name: 'Guardar el rechazo' }).click();
    const entrega = page.getByTestId('entrega');
    await expect.poll(() => entrega.getByTestId('estado-entrega').textContent(), { timeout: 30_000 }).toBe('Enviada');
    expect(await entrega.textContent()).toContain('Motivo: Fruta en mal estado');
    const { data } = await api<{ data: Record<string, unknown>[] }>('GET', `/decas/${deca.id}/entregas`);
    expect(data).toEqual([
      expect.objectContaining({
        envio: 1,
        resultado: 'rechazada',
        receptor_nombre: 'Jefe de almacén',
        motivo_rechazo: 'Fruta en mal estado',
        firma: null,
        fotos: 0,
        posicion: { lat: 42.8467, lon: -2.6716, precision_m: 15 },
      }),
    ]);
    // One shipment's delivery does not end the service: the other is still to deliver.
    await page.getByTestId('entregar-0').waitFor();
    expect(await page.getByTestId('entregar-1').count()).toBe(0);
    expect((await api<{ deca: { fin_servicio_at: string | null } }>('GET', `/decas/${deca.numero}`)).deca.fin_servicio_at).toBeNull();

    // The other shipment delivered from elsewhere (another phone, the API): the page shows it too, with nothing left to deliver.
    await api('POST', `/decas/${deca.id}/entregas`, {
      envio: 0,
      resultado: 'entregada',
      receptor_nombre: 'Ana Ruiz',
      firma: {
        proporcion: 2,
        trazos: [
          [
            [0.1, 0.5],
            [0.5, 0.4],
            [0.9, 0.6],
          ],
        ],
      },
      sin_reservas: true,
      registrada_at: '2026-11-28T10:15:00+01:00',
    });
    await page.reload();
    await expect.poll(() => page.getByTestId('entrega').count(), { timeout: 20_000 }).toBe(2);
    const otra = page.getByTestId('entrega').nth(1);
    expect(await otra.textContent()).toContain('envío 1 · 28/11/2026 10:15');
    expect(await otra.textContent()).toContain('Sin reservas');
    await otra.getByRole('img', { name: 'Firma de Ana Ruiz' }).waitFor();
    expect(await page.getByTestId('entregar-0').count()).toBe(0);
  });

  it('the consignee signs on their own phone: a QR on the driver’s screen, a page with no account (and a plain one with JavaScript off); the driver’s phone sees it arrive and, the last shipment delivered, ends the service', async () => {
    const { env } = e2e;
    const { page, api } = await e2e.sesion({ clave: true });
    const envios = [
      { origen: 'Zaragoza', destino: 'Huesca', naturaleza: 'Piensos', peso: '6.000' },
      { origen: 'Zaragoza', destino: 'Jaca', naturaleza: 'Abonos en sacos', peso: '4.000' },
    ];
    const { deca } = await api<{ deca: { id: number; numero: string } }>('POST', '/decas', decaCompleta({ envios }));
    // The first shipment was delivered earlier (another phone, the API).
    await api('POST', `/decas/${deca.id}/entregas`, {
      envio: 0,
      resultado: 'entregada',
      receptor_nombre: 'Ana Ruiz',
      firma: {
        proporcion: 2,
        trazos: [
          [
            [0.1, 0.5],
            [0.9, 0.5],
          ],
        ],
      },
      sin_reservas: true,
      registrada_at: '2026-11-28T09:00:00+01:00',
    });
    await page.goto(`${env.url}/decas/${deca.numero}`);
    await page.getByTestId('entregar-1').click();
    await page.getByRole('heading', { name: `Entregar el envío 2 · DeCA ${deca.numero}` }).waitFor();
    // A first link, then «Que firme aquí»: back to the form, and that link voided on the server.
    await page.getByTestId('firmar-en-su-movil').click();
    const anulado = await page.getByTestId('enlace-firma').textContent();
    await page.getByRole('button', { name: 'Que firme aquí' }).click();
    await page.getByRole('button', { name: 'Guardar la entrega' }).waitFor();
    await expect.poll(async () => (await fetch(enEsteServidor(env, anulado!))).status, { timeout: 10_000 }).toBe(410);
    await page.getByTestId('firmar-en-su-movil').click();
    await page.getByTestId('qr-firma').waitFor();
    await page.waitForFunction(() => ((document.querySelector('[data-testid="qr-firma"]') as HTMLImageElement | null)?.naturalWidth ?? 0) > 0);
    // While the link is shown, the form to sign here is not.
    expect(await page.getByRole('button', { name: 'Guardar la entrega' }).isVisible()).toBe(false);
    if (process.env.CAPTURAS) writeFileSync(path.join(ROOT, 'docs/img/entrega-qr.png'), await page.screenshot());
    expect(await page.getByTestId('estado-firma-remota').textContent()).toMatch(/Esperando su firma… \(el código vale (29:\d\d|30:00) más\)/);
    // The QR as a phone's camera reads it from the screen: the link the page also shows.
    const enlace = await leerQr(page, 'qr-firma');
    expect(enlace).toBe(await page.getByTestId('enlace-firma').textContent());
    expect(enlace).toMatch(/\/f\/[\w-]{24}$/);

    const movil = await chromium.launch({ executablePath: CHROMIUM!, args: CHROMIUM_ARGS });
    onTestFinished(() => movil.close());
    // A phone with JavaScript off: the form is there, the pad says what it needs; nothing is signed by opening it.
    const sinJs = await (await movil.newContext({ javaScriptEnabled: false, viewport: { width: 390, height: 844 } })).newPage();
    await sinJs.goto(enEsteServidor(env, enlace));
    await sinJs.getByText('Para firmar con el dedo hace falta JavaScript').waitFor();
    expect(await sinJs.locator('#panel-firma').isVisible()).toBe(false);
    expect(await sinJs.getByText('Abonos en sacos').count()).toBe(1);
    expect(await sinJs.getByText('Piensos').count()).toBe(0);

    // The consignee's own phone, no account, no app: signs with a finger on the page's pad.
    const ajeno = await (await movil.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true })).newPage();
    await ajeno.goto(enEsteServidor(env, enlace));
    await ajeno.getByRole('heading', { name: 'Firmar la entrega' }).waitFor();
    expect(await ajeno.getByText('Para firmar con el dedo hace falta JavaScript').isVisible()).toBe(false);
    await ajeno.getByLabel('Su nombre').fill('Tomás Lasaosa');
    await firmar(ajeno, '#panel-firma');
    await ajeno.getByLabel('Recibida conforme, sin reservas').check();
    // The rejection's field only when rejecting.
    expect(await ajeno.getByLabel('Si la rechaza: ¿por qué?').isVisible()).toBe(false);
    const firma = JSON.parse((await ajeno.locator('#firma').inputValue()) || 'null') as { w: number; h: number; t: number[][][] };
    expect(firma.t).toHaveLength(2);
    expect(firma.w / firma.h).toBeCloseTo(2.5, 1);
    if (process.env.CAPTURAS) writeFileSync(path.join(ROOT, 'docs/img/firma-en-su-movil.png'), await ajeno.screenshot({ fullPage: true }));
    await ajeno.getByRole('button', { name: 'Firmar y enviar' }).click();
    await ajeno.getByText('Entrega firmada. Gracias, Tomás Lasaosa.').waitFor();

    // The driver's phone sees it arrive: back on the DeCA's page with the delivery, its signature and its receipt.
    await page.getByRole('heading', { name: new RegExp(`DeCA ${deca.numero}`) }).waitFor({ timeout: 20_000 });
    await page.getByTestId('entrega').getByRole('img', { name: 'Firma de Tomás Lasaosa' }).waitFor();
    // The last shipment delivered: the service ends by itself.
    await expect.poll(async () => (await api<{ deca: { fin_servicio_at: string | null } }>('GET', `/decas/${deca.numero}`)).deca.fin_servicio_at, { timeout: 20_000 }).not.toBeNull();
    const { data } = await api<{ data: { n: number; envio: number; receptor_nombre: string; sin_reservas: boolean; firma: { trazos: unknown[] } }[] }>('GET', `/decas/${deca.id}/entregas`);
    expect(data.map((e) => [e.n, e.envio, e.receptor_nombre])).toEqual([
      [1, 0, 'Ana Ruiz'],
      [2, 1, 'Tomás Lasaosa'],
    ]);
    expect(data[1]!.firma.trazos).toHaveLength(2);
    const nueva = page.getByTestId('entrega').filter({ hasText: 'Tomás Lasaosa' });
    const [descarga] = await Promise.all([page.waitForEvent('download'), nueva.getByTestId('justificante').click()]);
    expect(descarga.suggestedFilename()).toBe(`DeCA-${deca.numero}-entrega-2.pdf`);
    const ruta = await descarga.path();
    expect((await import('node:fs')).readFileSync(ruta).subarray(0, 5).toString()).toBe('%PDF-');
    // Nothing left to deliver on the phone either; the link is spent.
    expect(await page.getByTestId('entregar-1').count()).toBe(0);
    await ajeno.goto(enEsteServidor(env, enlace));
    await ajeno.getByText('Esta entrega ya está firmada').waitFor();
  });
});
