import { chromium, type Page } from 'playwright-core';
import sharp from 'sharp';
import { describe, expect, it, onTestFinished } from 'vitest';
import { qrSinCobertura } from '../support/dispositivos';
import { CHROMIUM, CHROMIUM_ARGS, cuentaNueva, llamarApi } from './browser';
import { archivoE2e } from './flujos';

/**
 * The officer at the roadside: a phone of 390×844 with JavaScript off opens
 * the QR of the DeCA the driver shows. What decides a stop is on the first
 * screen, without scrolling: the state, the plates (on one line), the
 * transport date and the load (goods, weight with its unit, from → to); a
 * modified DeCA says when. The page stays black on white with the phone in
 * dark mode, so a QR or a banner keeps its contrast.
 */

const PANTALLA = { width: 390, height: 844 };

/** A DeCA as a long-haul trip has it: a trailer, a weight with decimals, long Spanish names, two shipments. */
const CUERPO = {
  cargador_nombre: 'Cooperativa Agrícola San Isidro de Almería, S.C.A.',
  cargador_nif: 'F04012345',
  cargador_domicilio: 'Ctra. de Málaga 12, 04700 El Ejido',
  transp_nombre: 'Transportes Frigoríficos Hermanos Núñez, S.L.',
  transp_nif: 'B12345674',
  transp_domicilio: 'Avda. de la Ilustración 7, 50012 Zaragoza',
  fecha_transporte: new Date().toISOString().slice(0, 10),
  matricula: '1234 BCD',
  matricula_remolque: 'R-5678-BBC',
  conductor_nombre: 'José María Fernández-Villaverde',
  envios: [
    { origen: 'Polígono Industrial La Redonda, El Ejido (Almería)', destino: 'Mercazaragoza, Ctra. de Cogullada 65, Zaragoza', naturaleza: 'Pimiento y calabacín en cajas', peso: '18.500,5' },
    { origen: 'El Ejido', destino: 'Huesca', naturaleza: 'Tomate pera', peso: '4,2 t' },
  ],
};

describe.skipIf(!CHROMIUM)('the officer’s first screen, JavaScript off, 390×844', () => {
  const e2e = archivoE2e({ viewport: PANTALLA });

  /** With `dark`, a phone in dark mode, and with the browser's own darkening of pages on (Chrome's «Modo oscuro para el contenido web»). */
  async function telefonoDelAgente(colorScheme: 'light' | 'dark' = 'light'): Promise<Page> {
    const oscurecer = colorScheme === 'dark' ? ['--enable-features=WebContentsForceDark'] : [];
    const navegador = await chromium.launch({ executablePath: CHROMIUM!, args: [...CHROMIUM_ARGS, ...oscurecer] });
    onTestFinished(() => navegador.close());
    return (await navegador.newContext({ javaScriptEnabled: false, viewport: PANTALLA, colorScheme })).newPage();
  }

  /** Every one of these is inside the first 844 px of the page as it opens, and the plates are one line high. */
  async function enLaPrimeraPantalla(p: Page, que: string, estado: string): Promise<void> {
    for (const [nombre, selector] of [
      ['estado', estado],
      ['matrículas', '.placas'],
      ['fecha', '.fecha'],
      ['mercancía', '.mercancia'],
      ['peso', '.peso'],
      ['origen → destino', '.ruta'],
    ] as const) {
      const caja = await p.locator(selector).first().boundingBox();
      expect(caja, `${que}: ${nombre}`).not.toBeNull();
      expect(caja!.y, `${que}: ${nombre}`).toBeGreaterThanOrEqual(0);
      expect(caja!.y + caja!.height, `${que}: ${nombre} (${JSON.stringify(caja)})`).toBeLessThanOrEqual(PANTALLA.height);
    }
    const placas = p.locator('.placas');
    const [alto, linea] = await placas.evaluate((el) => [el.getBoundingClientRect().height, Number.parseFloat(getComputedStyle(el).lineHeight)]);
    expect(Math.abs(alto! - linea!), `${que}: matrículas en una línea (${alto} px, línea de ${linea} px)`).toBeLessThan(1);
    expect(await placas.evaluate((el) => el.scrollWidth <= el.clientWidth + 1), `${que}: matrículas sin desbordar`).toBe(true);
    expect(await p.locator('script').count()).toBe(0);
  }

  it('an issued DeCA, a modified one (version 2) and one issued with no coverage: state, plates, date, goods and weight without scrolling', async () => {
    const { env } = e2e;
    const cuenta = await cuentaNueva(env, { clave: true });
    const api = <T>(method: string, ruta: string, body?: unknown) => llamarApi<T>(env, cuenta.clave!, method, ruta, body);
    const local = (url: string) => `${env.url}${new URL(url).pathname}${new URL(url).search}`;
    const agente = await telefonoDelAgente();

    // Issued.
    const { deca } = await api<{ deca: { id: number; urls: { ficha: string } } }>('POST', '/decas', CUERPO);
    await agente.goto(local(deca.urls.ficha));
    expect(await agente.locator('.banner.ok').first().textContent()).toBe('EMITIDA y en vigor.');
    expect(await agente.locator('.placas').textContent()).toBe('1234BCD + R5678BBC');
    expect(await agente.locator('.peso').first().textContent()).toBe('18.500,5 kg');
    expect(await agente.locator('.ruta').first().textContent()).toBe(`${CUERPO.envios[0]!.origen} → ${CUERPO.envios[0]!.destino}`);
    await enLaPrimeraPantalla(agente, 'emitida', '.banner.ok');

    // Modified (method 1): when, first, with the version and the original issue.
    await api('PATCH', `/decas/${deca.id}`, { matricula: '4321 BCF', motivo: 'Avería de la tractora en Fraga' });
    await agente.goto(local(deca.urls.ficha));
    const version = (await agente.locator('.version').textContent()) ?? '';
    expect(version).toMatch(/^Modificada el \d{2}\/\d{2}\/\d{4} \d{2}:\d{2} · versión 2 · emitida el \d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/);
    expect(await agente.locator('.placas').textContent()).toBe('4321BCF + R5678BBC');
    await enLaPrimeraPantalla(agente, 'modificada', '.version');
    await enLaPrimeraPantalla(agente, 'modificada', '.banner.ok');

    // Issued with no coverage, before its phone syncs: the device's signature, verified, first.
    const qr = await qrSinCobertura(env.url, cuenta, CUERPO);
    await agente.goto(local(qr));
    expect(await agente.locator('.firma .veredicto').textContent()).toBe('✓ Firma del dispositivo verificada');
    expect(await agente.locator('.mercancia').textContent()).toBe('Pimiento y calabacín en cajas');
    // The weight of both shipments, in kg, as a total apart from the first's goods; the places whole.
    expect(await agente.locator('.peso').textContent()).toBe('22.700,5 kg');
    expect(await agente.locator('.peso').locator('..').textContent()).toBe('Peso total: 22.700,5 kg');
    expect(await agente.locator('.ruta').textContent()).toBe(`${CUERPO.envios[0]!.origen} → ${CUERPO.envios[0]!.destino}`);
    await enLaPrimeraPantalla(agente, 'sin cobertura', '.firma .veredicto');

    // A summary changed after signing: refused, as plainly.
    const o = new URL(qr).searchParams.get('o')!;
    await agente.goto(local(qr.replace(o, `${o.slice(0, 20)}${o[20] === 'A' ? 'B' : 'A'}${o.slice(21)}`)));
    expect(await agente.locator('.banner.bad .veredicto').textContent()).toBe('✗ Firma no verificada');
    const rechazo = await agente.locator('.banner.bad .veredicto').boundingBox();
    expect(rechazo!.y + rechazo!.height).toBeLessThanOrEqual(PANTALLA.height / 2);
  });

  it('stays black on white with the phone in dark mode, even with the browser darkening pages', async () => {
    const { env } = e2e;
    const cuenta = await cuentaNueva(env, { clave: true });
    const { deca } = await llamarApi<{ deca: { urls: { ficha: string } } }>(env, cuenta.clave!, 'POST', '/decas', CUERPO);
    const oscuro = await telefonoDelAgente('dark');
    for (const url of [`${env.url}${new URL(deca.urls.ficha).pathname}`, new URL(await qrSinCobertura(env.url, cuenta, CUERPO)).href.replace(/^https?:\/\/[^/]+/, env.url)]) {
      await oscuro.goto(url);
      expect(await oscuro.evaluate(() => matchMedia('(prefers-color-scheme: dark)').matches)).toBe(true);
      const [fondo, texto] = await oscuro.locator('body').evaluate((el) => [getComputedStyle(el).backgroundColor, getComputedStyle(el).color]);
      expect([fondo, texto]).toEqual(['rgb(255, 255, 255)', 'rgb(0, 0, 0)']);
      // As the screen shows it (the browser darkens what it paints, not the styles): white margins.
      const { data, info } = await sharp(await oscuro.screenshot())
        .raw()
        .toBuffer({ resolveWithObject: true });
      const pixel = (x: number, y: number) => [...data.subarray((y * info.width + x) * info.channels, (y * info.width + x) * info.channels + 3)];
      expect(pixel(3, 3)).toEqual([255, 255, 255]);
      expect(pixel(info.width - 3, info.height - 3)).toEqual([255, 255, 255]);
    }
  });
});
