import { createHash } from 'node:crypto';
import { parse as parseHtml } from 'node-html-parser';
import { describe, expect } from 'vitest';
import { type Deca, DecaCreada, DescargasList } from '../../shared/schemas/deca';
import { startTestApp } from '../support/app';
import { decaCompleta } from '../support/decas';
import { type Fx, it } from '../support/fixtures';

const BROWSER = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36';

async function crear({ app, c }: Fx, over: Record<string, unknown> = {}): Promise<Deca> {
  const res = await app.request('POST', '/api/v1/decas', { key: c.live, body: decaCompleta(over) });
  expect(res.status, res.text).toBe(201);
  return DecaCreada.parse(res.body).deca;
}

/** Open a public URL as a person (or as whoever `ua` says). Relative to the app's URL. */
async function abrir({ app, c }: Fx, url: string, opts: { ua?: string; method?: string; headers?: Record<string, string> } = {}) {
  const u = new URL(url);
  const res = await fetch(`${app.url}${u.pathname}`, { method: opts.method ?? 'GET', headers: { 'user-agent': opts.ua ?? BROWSER, ...opts.headers } });
  const buf = Buffer.from(await res.arrayBuffer());
  return { status: res.status, headers: res.headers, buf, text: buf.toString('utf8') };
}

/** Pages link same-site resources by path. */
const ruta = (url: string) => new URL(url).pathname;

function textoDe(htmlText: string): string {
  return parseHtml(htmlText).querySelector('main')?.textContent.replace(/\s+/g, ' ') ?? '';
}

async function descargasDe({ app, c }: Fx, id: number) {
  const r = await app.request('GET', `/api/v1/decas/${id}/descargas`, { key: c.live });
  expect(r.status).toBe(200);
  return DescargasList.parse(r.body).descargas;
}

describe('public ficha (the QR page)', () => {
  it('needs no key and shows every art. 6 datum, number, version and state, escaped, under 20 KB, with security headers', async ({ app, c }) => {
    const deca = await crear({ app, c }, { matricula_remolque: 'R-1234-BCD', autorizacion_especial: 'AE-77/2026', observaciones: 'Frágil: no remontar', referencia: 'PED-99' });
    const res = await abrir({ app, c }, deca.urls.ficha);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    expect(res.buf.length).toBeLessThan(20 * 1024);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(csp).not.toContain('script-src');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(res.headers.get('x-robots-tag')).toContain('noindex');
    const doc = parseHtml(res.text);
    expect(doc.querySelector('meta[name=robots]')?.getAttribute('content')).toContain('noindex');
    expect(doc.querySelectorAll('script')).toHaveLength(0);
    const text = textoDe(res.text);
    for (const dato of [
      deca.numero,
      'Versión 1',
      'EMITIDA',
      'Frutas Peñalara, S.A.',
      'A58818501',
      'Camí Vell 3, 25001 Lleida',
      'Transportes Núñez, S.L.',
      'B12345674',
      'Avda. de la Ilustración 7, 50012 Zaragoza',
      '23/11/2026',
      '1234BCD',
      'R1234BCD',
      'Articulado',
      'AE-77/2026',
      'José Ángel Muñoz',
      'Lleida → Málaga',
      'Piñones y ñoras',
      '24.500,5 kg',
      'Frágil: no remontar',
      'PED-99',
    ]) {
      expect(text, dato).toContain(dato);
    }
    // What the inspector checks first comes first: the state, the plates and the date, before the parties.
    const enOrden = ['EMITIDA y en vigor', 'Matrículas', '1234BCD + R1234BCD', 'Fecha del transporte', '23/11/2026', 'Cargador contractual'].map((x) => text.indexOf(x));
    expect(
      enOrden.every((i) => i >= 0),
      text.slice(0, 400),
    ).toBe(true);
    expect(enOrden).toEqual([...enOrden].sort((a, b) => a - b));
    // One Spanish date-time format.
    expect(text).toMatch(/emitida el \d{2}\/\d{2}\/\d{4} \d{2}:\d{2}/);
    expect(text).not.toMatch(/\d{4}-\d{2}-\d{2}/);
    // Never the driver's phone.
    expect(res.text).not.toContain('600 000 000');
    expect(doc.querySelector(`a[href="${ruta(deca.urls.pdf)}"]`)).not.toBeNull();
  });

  it('escapes a <script> placed in every text field', async ({ app, c }) => {
    const evil = '<script>alert(1)</script>';
    const deca = await crear(
      { app, c },
      {
        cargador_nombre: `C ${evil}`,
        cargador_domicilio: `D ${evil}`,
        transp_nombre: `T ${evil}`,
        transp_domicilio: `TD ${evil}`,
        autorizacion_especial: `A ${evil}`,
        conductor_nombre: `N ${evil}`,
        observaciones: `O ${evil}`,
        referencia: `R ${evil}`,
        envios: [{ origen: `Or ${evil}`, destino: `De ${evil}`, naturaleza: `Na ${evil}`, peso: 10, nota: `No ${evil}` }],
      },
    );
    for (const url of [deca.urls.ficha, deca.urls.conductor]) {
      const res = await abrir({ app, c }, url);
      expect(res.text).not.toContain('<script>alert(1)</script>');
      expect(parseHtml(res.text).querySelectorAll('script')).toHaveLength(0);
      expect(res.text.split('&lt;script&gt;alert(1)&lt;/script&gt;').length - 1).toBeGreaterThanOrEqual(url === deca.urls.ficha ? 10 : 9);
    }
  });

  it('logs each open with IP and browser and raises descargas; robots are logged but not counted', async ({ app, c }) => {
    const deca = await crear({ app, c });
    await abrir({ app, c }, deca.urls.ficha);
    await abrir({ app, c }, deca.urls.pdf);
    await abrir({ app, c }, deca.urls.ficha, { ua: 'WhatsApp/2.23.20.0 A' });
    await abrir({ app, c }, deca.urls.ficha, { ua: 'Mozilla/5.0 (compatible; Microsoft Office/16.0; SafeLinks)' });
    await abrir({ app, c }, deca.urls.ficha, { method: 'HEAD' });
    await abrir({ app, c }, deca.urls.ficha, { headers: { 'sec-purpose': 'prefetch' } });
    const get = await app.request('GET', `/api/v1/decas/${deca.id}`, { key: c.live });
    expect(get.body.deca.descargas).toBe(2);
    const log = await descargasDe({ app, c }, deca.id);
    // The prefetch comes from the same browser as the HEAD a moment before: one robot open, logged once.
    expect(log).toHaveLength(5);
    expect(log.filter((d) => !d.robot).map((d) => d.recurso)).toEqual(['pdf', 'ficha']); // newest first
    expect(log.every((d) => d.ip === '127.0.0.1' || d.ip === '::ffff:127.0.0.1')).toBe(true);
    expect(log.at(-1)?.navegador).toBe(BROWSER);
    expect(log.filter((d) => d.robot).map((d) => d.motivo_robot)).toEqual([expect.stringContaining('HEAD'), expect.stringContaining('robot'), expect.stringContaining('robot')]);
    const eventos = await app.database.db.selectFrom('eventos').select('evento').where('deca_id', '=', deca.id).where('evento', '=', 'deca.descargado').execute();
    expect(eventos).toHaveLength(2);
  });

  it('the authenticated PDF does not count; the public PDF serves the stored bytes', async ({ app, c }) => {
    const deca = await crear({ app, c });
    const auth = await fetch(`${app.url}/api/v1/decas/${deca.id}/pdf`, { headers: { authorization: `Bearer ${c.live}` } });
    expect(auth.status).toBe(200);
    const pub = await abrir({ app, c }, deca.urls.pdf);
    expect(pub.headers.get('content-type')).toBe('application/pdf');
    expect(createHash('sha256').update(pub.buf).digest('hex')).toBe(deca.pdf_sha256);
    const get = await app.request('GET', `/api/v1/decas/${deca.id}`, { key: c.live });
    expect(get.body.deca.descargas).toBe(1);
  });

  it('takes the client IP from X-Forwarded-For only with TRUST_PROXY=1, and then the address the proxy saw (rightmost), not what the client wrote', async ({ app, c }) => {
    const deca = await crear({ app, c });
    await abrir({ app, c }, deca.urls.ficha, { headers: { 'x-forwarded-for': '203.0.113.7' } });
    expect((await descargasDe({ app, c }, deca.id))[0]?.ip).not.toBe('203.0.113.7');
    const proxied = await startTestApp({ database: app.database, env: { TRUST_PROXY: '1' } });
    try {
      const u = new URL(deca.urls.ficha);
      await fetch(`${proxied.url}${u.pathname}`, { headers: { 'user-agent': BROWSER, 'x-forwarded-for': '10.0.0.1, 203.0.113.7' } });
      expect((await descargasDe({ app, c }, deca.id))[0]?.ip).toBe('203.0.113.7');
    } finally {
      await proxied.close();
    }
  });

  it('after a method-1 change the same URL shows the new version, its reason and the new PDF', async ({ app, c }) => {
    const deca = await crear({ app, c });
    const patch = await app.request('PATCH', `/api/v1/decas/${deca.id}`, { key: c.live, body: { matricula: '9999 ZZZ', motivo: 'Avería del camión' } });
    expect(patch.status, patch.text).toBe(200);
    const html = (await abrir({ app, c }, deca.urls.ficha)).text;
    const ficha = textoDe(html);
    // When it was modified comes first, with the version and when it was issued.
    expect(ficha).toMatch(/Modificada el \d{2}\/\d{2}\/\d{4} \d{2}:\d{2} · versión 2 · emitida el \d{2}\/\d{2}\/\d{4} \d{2}:\d{2}/);
    expect(ficha).toContain('Avería del camión');
    // Says it was modified, when, and what changed (old → new), near the top: before the parties.
    const cambio = parseHtml(html).querySelector('.cambio')?.textContent.replace(/\s+/g, ' ') ?? '';
    expect(cambio).toMatch(/^MODIFICADA — versión 2, el \d{2}\/\d{2}\/\d{4} \d{2}:\d{2}\. Motivo: Avería del camión/);
    expect(cambio).toContain(`Matrícula (tractora o rígido): ${deca.matricula} → 9999ZZZ`);
    expect(ficha.indexOf('MODIFICADA')).toBeLessThan(ficha.indexOf('Cargador contractual'));
    const pdf = await abrir({ app, c }, deca.urls.pdf);
    expect(createHash('sha256').update(pdf.buf).digest('hex')).toBe(patch.body.deca.pdf_sha256);
    expect(patch.body.deca.pdf_sha256).not.toBe(deca.pdf_sha256);
  });

  it('after replacement the old ficha shows the replacement banner with the new link', async ({ app, c }) => {
    const deca = await crear({ app, c });
    const sus = await app.request('POST', `/api/v1/decas/${deca.id}/sustituir`, {
      key: c.live,
      body: { motivo: 'Cambio de destino', envios: [{ origen: 'Lleida', destino: 'Cádiz', naturaleza: 'Fruta', peso: 1000 }] },
    });
    expect(sus.status, sus.text).toBe(200);
    const nueva = sus.body.deca as Deca;
    const res = await abrir({ app, c }, deca.urls.ficha);
    const doc = parseHtml(res.text);
    const banner = doc.querySelector('.banner');
    expect(banner?.textContent).toContain('SUSTITUIDA');
    expect(banner?.querySelector('a')?.getAttribute('href')).toBe(ruta(nueva.urls.ficha));
    expect(banner?.textContent).toContain(nueva.numero);
  });

  it('says when the service ended and when a DeCA is still pending', async ({ app, c }) => {
    const deca = await crear({ app, c });
    await app.request('POST', `/api/v1/decas/${deca.id}/fin`, { key: c.live, body: {} });
    const fin = textoDe((await abrir({ app, c }, deca.urls.ficha)).text);
    expect(fin).toMatch(/SERVICIO FINALIZADO el \d{2}\/\d{2}\/\d{4} \d{2}:\d{2}: este documento ya NO ampara al vehículo/);
    expect(fin).not.toContain('en vigor');
    const pend = await app.request('POST', '/api/v1/decas', { key: c.live, body: { ...decaCompleta(), emitir: false } });
    const ficha = await abrir({ app, c }, pend.body.deca.urls.ficha);
    expect(textoDe(ficha.text)).toContain('PENDIENTE');
    expect((await abrir({ app, c }, pend.body.deca.urls.pdf)).status).toBe(409);
  });

  it('sends the page compressed to browsers that accept it', async ({ app, c }) => {
    const deca = await crear({ app, c });
    const res = await abrir({ app, c }, deca.urls.ficha, { headers: { 'accept-encoding': 'gzip' } });
    expect(res.headers.get('content-encoding')).toBe('gzip');
    expect(textoDe(res.text)).toContain(deca.numero);
  });

  it('answers an unknown token with a 404 page, never another DeCA', async ({ app, c }) => {
    const res = await abrir({ app, c }, `${app.url}/d/${'A'.repeat(32)}`);
    expect(res.status).toBe(404);
    expect(res.text).toContain('no encontrado');
  });

  it("serves the driver's page (big QR, data, PDF, manifest) and the QR image", async ({ app, c }) => {
    const deca = await crear({ app, c });
    const res = await abrir({ app, c }, deca.urls.conductor);
    expect(res.status).toBe(200);
    const doc = parseHtml(res.text);
    expect(doc.querySelector('img.qr')?.getAttribute('src')).toBe(ruta(deca.urls.qr_png));
    expect(doc.querySelector(`a[href="${ruta(deca.urls.pdf)}"]`)).not.toBeNull();
    expect(res.text).not.toContain('600 000 000');
    const manifest = doc.querySelector('link[rel=manifest]')?.getAttribute('href') ?? '';
    const m = await abrir({ app, c }, `${app.url}${manifest}`);
    expect(JSON.parse(m.text)).toMatchObject({ start_url: ruta(deca.urls.conductor), display: 'standalone' });
    const qr = await abrir({ app, c }, deca.urls.qr_png);
    expect(qr.headers.get('content-type')).toBe('image/png');
    expect(qr.buf.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
    // The driver's page is not an inspection: it does not count.
    expect((await app.request('GET', `/api/v1/decas/${deca.id}`, { key: c.live })).body.deca.descargas).toBe(0);
  });

  it('keeps a 48-shipment ficha under 20 KB', async ({ app, c }) => {
    const envios = Array.from({ length: 48 }, (_, i) => ({
      origen: `Polígono Industrial El Pilar, nave ${i}, Zaragoza`,
      destino: `Mercamadrid, puesto ${i}, Madrid`,
      naturaleza: 'Frutas y hortalizas frescas',
      peso: 500 + i,
    }));
    const deca = await crear({ app, c }, { envios });
    const res = await abrir({ app, c }, deca.urls.ficha);
    expect(res.status).toBe(200);
    expect(res.buf.length).toBeLessThan(20 * 1024);
  });
});
