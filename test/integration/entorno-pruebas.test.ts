/**
 * A DeCA of the test environment never passes for a real one. Its number has
 * the same shape as a real one (each account and environment has its own
 * series: a fresh account's first test DeCA and first real one share it), so
 * the marks are what tell them apart: the red banner that opens its ficha
 * (the page the QR opens), its driver's page and the page of a test DeCA
 * issued with no coverage (`?o=`), which never say «en vigor»; and on every
 * page of its PDF, as poppler's pdftotext reads it, «DOCUMENTO DE PRUEBA —
 * SIN VALIDEZ», also in its title. A real one carries none of them.
 */
import { execFile } from 'node:child_process';
import { webcrypto } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { parse as parseHtml } from 'node-html-parser';
import { describe, expect } from 'vitest';
import '../../server/documents/deca-pdf';
import { emitirEnDispositivo } from '../../shared/pdf/emision-dispositivo';
import { sinSello } from '../../shared/pdf/sin-sello';
import type { Entorno } from '../../shared/schemas/cuenta';
import { type Deca, DecaCreada, DecaInput } from '../../shared/schemas/deca';
import type { TestApp } from '../support/app';
import { decaCompleta } from '../support/decas';
import { getBytes, iniciarSesion } from '../support/decas-helpers';
import { movilConReservas } from '../support/dispositivos';
import { type CuentaDePrueba, it } from '../support/fixtures';
import { herramienta } from '../support/herramientas';

const run = promisify(execFile);
const pdftotext = herramienta('pdftotext');
/** Another poppler-utils program, next to pdftotext. */
const poppler = (programa: string) => path.join(path.dirname(pdftotext!), programa);

const BANDA = 'ENTORNO DE PRUEBAS: este documento no tiene validez';
const MARCA = 'DOCUMENTO DE PRUEBA — SIN VALIDEZ';
const CSRF = { 'X-DeCA-CSRF': '1' };
const BROWSER = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36';
const API: Record<Entorno, string> = { produccion: '/api/v1', pruebas: '/demo/api/v1' };

async function crear(app: TestApp, key: string, entorno: Entorno, over: Record<string, unknown> = {}): Promise<Deca> {
  const res = await app.request('POST', `${API[entorno]}/decas`, { key, body: decaCompleta(over) });
  expect(res.status, res.text).toBe(201);
  return DecaCreada.parse(res.body).deca;
}

/** A public page as an inspector's phone opens it (on this test server: the site's URL names another port). */
async function abrir(app: TestApp, url: string) {
  const u = new URL(url);
  const res = await fetch(`${app.url}${u.pathname}${u.search}`, { headers: { 'user-agent': BROWSER } });
  const doc = parseHtml(await res.text());
  const main = doc.querySelector('main');
  return {
    status: res.status,
    titulo: doc.querySelector('title')?.textContent ?? '',
    texto: main?.textContent.replace(/\s+/g, ' ') ?? '',
    /** What the page opens with: the first thing in its main. */
    primero: main?.childNodes.find((n) => n.textContent.trim() !== '')?.textContent.trim() ?? '',
    banda: main?.querySelector('[data-entorno="pruebas"]') ?? null,
  };
}

/** The PDF's text as poppler's pdftotext reads it, one string a page, and its title (pdfinfo). */
async function leerPdf(bytes: Uint8Array): Promise<{ paginas: string[]; titulo: string; xmp: string; fuentes: string[] }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'deca-pruebas-'));
  try {
    const archivo = path.join(dir, 'deca.pdf');
    await writeFile(archivo, bytes);
    const { stdout: texto, stderr } = await run(pdftotext!, ['-enc', 'UTF-8', archivo, '-']);
    expect(stderr, 'poppler reads the file without a complaint').toBe('');
    const paginas = texto.split('\f').slice(0, -1);
    const info = (await run(poppler('pdfinfo'), ['-enc', 'UTF-8', archivo])).stdout;
    const xmp = (await run(poppler('pdfinfo'), ['-meta', archivo])).stdout;
    const fuentes = (await run(poppler('pdffonts'), [archivo])).stdout.trim().split('\n').slice(2);
    return { paginas, titulo: /^Title:\s+(.*)$/m.exec(info)?.[1] ?? '', xmp, fuentes };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** A test DeCA's PDF: the mark on every page (one page or several), the title saying so, every font embedded (PDF/A). */
async function esperarMarcado(bytes: Uint8Array, paginas?: number): Promise<void> {
  const pdf = await leerPdf(bytes);
  if (paginas) expect(pdf.paginas).toHaveLength(paginas);
  expect(pdf.paginas.length).toBeGreaterThan(0);
  for (const [i, p] of pdf.paginas.entries()) expect(p, `página ${i + 1}`).toContain(MARCA);
  expect(pdf.titulo).toMatch(/^DeCA \d{4}-\d{6} v\d+ \(DOCUMENTO DE PRUEBA, SIN VALIDEZ\)$/);
  // PDF/A: the XMP title repeats the Info dictionary's.
  expect(pdf.xmp).toContain(`<dc:title><rdf:Alt><rdf:li xml:lang="x-default">${pdf.titulo}</rdf:li>`);
  for (const f of pdf.fuentes) expect(f, 'embedded').toMatch(/^DejaVuSans\S*\s+CID TrueType\s+Identity-H\s+yes\s/);
}

const envios = (n: number) => Array.from({ length: n }, (_, i) => ({ origen: `Polígono ${i + 1}, Lleida`, destino: 'Málaga', naturaleza: 'Piñones y ñoras en sacos', peso: '1.000' }));

describe.skipIf(!pdftotext)('a DeCA of the test environment', () => {
  it('shares the real series’ shape (same number), and only the marks tell: ficha, driver’s page and every page of the PDF', async ({ app, cuentaNueva: c }) => {
    const real = await crear(app, c.live, 'produccion', { envios: envios(30) });
    const prueba = await crear(app, c.test, 'pruebas', { envios: envios(30) });
    expect(prueba.numero).toMatch(/^\d{4}-\d{6}$/);
    expect(prueba.numero).toBe(real.numero);

    for (const url of [prueba.urls.ficha, prueba.urls.conductor]) {
      const p = await abrir(app, url);
      expect(p.status, url).toBe(200);
      expect(p.primero, url).toBe(`${BANDA}.`);
      expect(p.banda?.getAttribute('class'), url).toContain('bad');
      expect(p.banda?.getAttribute('role'), url).toBe('alert');
      expect(p.texto, url).not.toContain('en vigor');
      expect(p.texto, url).toContain('EMITIDA en el entorno de pruebas: no ampara ningún transporte.');
      expect(p.titulo, url).toContain('PRUEBAS, sin validez');
    }
    for (const url of [real.urls.ficha, real.urls.conductor]) {
      const p = await abrir(app, url);
      expect(p.status, url).toBe(200);
      expect(p.banda, url).toBeNull();
      expect(p.texto, url).not.toContain('PRUEBAS');
      expect(p.texto, url).toContain('EMITIDA y en vigor.');
    }

    // Several pages, each marked: the PDF through the API and the one the inspector downloads from the ficha.
    const pdf = (await getBytes(app, c.test, `${API.pruebas}/decas/${prueba.id}/pdf`)).bytes;
    await esperarMarcado(pdf);
    expect((await leerPdf(pdf)).paginas.length).toBeGreaterThan(1);
    const publico = Buffer.from(await (await fetch(`${app.url}${new URL(prueba.urls.pdf).pathname}`, { headers: { 'user-agent': BROWSER } })).arrayBuffer());
    expect(publico.equals(pdf)).toBe(true);

    const pdfReal = await leerPdf((await getBytes(app, c.live, `${API.produccion}/decas/${real.id}/pdf`)).bytes);
    expect(pdfReal.paginas.length).toBeGreaterThan(1);
    for (const p of pdfReal.paginas) {
      expect(p).not.toContain('DOCUMENTO DE PRUEBA');
      expect(p).not.toContain('SIN VALIDEZ');
    }
    expect(pdfReal.titulo).toBe(`DeCA ${real.numero} v1`);
    expect(pdfReal.xmp).not.toContain('PRUEBA');
  });

  it('is marked in every version it is issued as: issued later, modified (method 1), replaced (method 2), and says so in any state', async ({ app, cuentaNueva: c }) => {
    const key = c.test;
    const base = API.pruebas;
    const pendiente = await crear(app, key, 'pruebas', { emitir: false });
    const pPendiente = await abrir(app, pendiente.urls.ficha);
    expect(pPendiente.primero).toBe(`${BANDA}.`);
    expect(pPendiente.texto).toContain('PENDIENTE');

    const emitida = await app.request('POST', `${base}/decas/${pendiente.id}/emitir`, { key, body: {} });
    expect(emitida.status, emitida.text).toBe(200);
    await esperarMarcado((await getBytes(app, key, `${base}/decas/${pendiente.id}/pdf`)).bytes, 1);

    const modificada = await app.request('PATCH', `${base}/decas/${pendiente.id}`, { key, body: { matricula: '5678 FGH', motivo: 'Cambio de tractora' } });
    expect(modificada.status, modificada.text).toBe(200);
    expect(modificada.body.deca.version).toBe(2);
    await esperarMarcado((await getBytes(app, key, `${base}/decas/${pendiente.id}/pdf`)).bytes, 1);
    const pModificada = await abrir(app, pendiente.urls.ficha);
    expect(pModificada.primero).toBe(`${BANDA}.`);
    expect(pModificada.texto).not.toContain('en vigor');

    const sustituta = await app.request('POST', `${base}/decas/${pendiente.id}/sustituir`, { key, body: { matricula: '9012 HJK', motivo: 'Cambio de vehículo' } });
    expect(sustituta.status, sustituta.text).toBe(200);
    const nueva = sustituta.body.deca as Deca;
    await esperarMarcado((await getBytes(app, key, `${base}/decas/${nueva.id}/pdf`)).bytes, 1);
    for (const url of [pendiente.urls.ficha, nueva.urls.ficha, nueva.urls.conductor]) {
      const p = await abrir(app, url);
      expect(p.primero, url).toBe(`${BANDA}.`);
      expect(p.texto, url).not.toContain('en vigor');
    }
  });
});

/** A phone of the account as the app sets it up for `entorno`: its key registered and numbers reserved. */
async function movil(app: TestApp, c: CuentaDePrueba, entorno: Entorno) {
  const cookie = await iniciarSesion(app, c.email, c.password);
  const { id, privada, ...r } = await movilConReservas(app, cookie, entorno);
  expect(r.entorno).toBe(entorno);
  const firmar = async (datos: Uint8Array) => new Uint8Array(await webcrypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, privada, datos));
  const cuerpo = decaCompleta({ observaciones: 'Descarga por la puerta trasera' });
  // Issued a second from now: after its number was reserved, well inside the clock allowance.
  const local = await emitirEnDispositivo(
    DecaInput.parse(cuerpo),
    c.account,
    { ...r.reservas[0]!, entorno, dispositivo_id: id, capacidad_sello: r.capacidad_sello },
    new Date(Date.now() + 1000),
    firmar,
  );
  return { cookie, cuerpo, local };
}

describe.skipIf(!pdftotext)('a test DeCA issued on a phone with no coverage', () => {
  it('its signed QR page opens with the banner before the sync and after it; the phone’s PDF is marked and is the server’s, unsealed, byte for byte', async ({ app, cuentaNueva: c }) => {
    const m = await movil(app, c, 'pruebas');
    // The phone's own PDF, shown to the agent at once, carries the mark.
    await esperarMarcado(m.local.pdf, 1);

    // Before the sync: the summary the device signed, vouched for, and marked (the summary itself does not say the environment).
    const antes = await abrir(app, m.local.qrUrl);
    expect(antes.status).toBe(200);
    expect(antes.primero).toBe(`${BANDA}.`);
    expect(antes.texto).toContain('EMITIDA SIN COBERTURA');
    expect(antes.texto).not.toContain('en vigor');
    expect(antes.titulo).toContain('PRUEBAS, sin validez');

    // The sync: the server issues the same test DeCA; the same QR now opens its ficha, marked.
    const res = await app.request('POST', `${API.pruebas}/decas`, {
      cookie: m.cookie,
      headers: { ...CSRF, 'Idempotency-Key': 'sin-cobertura-pruebas' },
      body: { ...m.cuerpo, emitir: true, emision_offline: m.local.emision },
    });
    expect(res.status, res.text).toBe(201);
    const despues = await abrir(app, m.local.qrUrl);
    expect(despues.status).toBe(200);
    expect(despues.primero).toBe(`${BANDA}.`);
    expect(despues.texto).toContain('Emitida sin cobertura en un dispositivo');
    expect(despues.texto).not.toContain('en vigor');

    const sellado = (await getBytes(app, c.test, `${API.pruebas}/decas/${res.body.deca.id}/pdf`)).bytes;
    expect(Buffer.from(sinSello(sellado)!).equals(Buffer.from(m.local.pdf))).toBe(true);
    await esperarMarcado(sellado, 1);
  });

  it('a real one’s signed QR page carries no test banner', async ({ app, cuentaNueva: c }) => {
    const m = await movil(app, c, 'produccion');
    const p = await abrir(app, m.local.qrUrl);
    expect(p.status).toBe(200);
    expect(p.banda).toBeNull();
    expect(p.texto).not.toContain('PRUEBAS');
    expect(p.primero).toBe('Documento de control (DeCA)');
    expect(p.texto).toContain('EMITIDA SIN COBERTURA');
    for (const pagina of (await leerPdf(m.local.pdf)).paginas) expect(pagina).not.toContain('DOCUMENTO DE PRUEBA');
  });
});
