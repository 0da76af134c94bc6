/**
 * The receipt of a delivery («Justificante de entrega»), checked as the
 * DeCA's PDF is (decas-pdf-qr.test.ts): downloaded over HTTP, its fonts
 * embedded, PDF/A-2b declared, the service's seal valid over the whole file,
 * the text there, the signature as vectors (the only pictures are the photos'
 * thumbnails), and its QR decoding to its own verification page.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import jsQR from 'jsqr';
import { parse as parseHtml } from 'node-html-parser';
import sharp from 'sharp';
import { describe, expect } from 'vitest';
import { DecaCreada } from '../../shared/schemas/deca';
import { EntregaCreada } from '../../shared/schemas/entrega';
import { decaCompleta } from '../support/decas';
import { it } from '../support/fixtures';
import { herramienta } from '../support/herramientas';

const run = promisify(execFile);
const texto = (html: string) => parseHtml(html).querySelector('main')?.textContent.replace(/\s+/g, ' ') ?? '';

/** Upload through the check's form, as a browser sends it. */
async function comprobar(url: string, bytes: Buffer): Promise<string> {
  const form = new FormData();
  form.append('pdf', new Blob([new Uint8Array(bytes)], { type: 'application/pdf' }), 'justificante.pdf');
  const res = await fetch(`${url}/verificar`, { method: 'POST', body: form });
  expect(res.status).toBe(200);
  return texto(await res.text());
}
const pdftoppm = herramienta('pdftoppm');
const poppler = (programa: string) => path.join(path.dirname(pdftoppm!), programa);

const foto = (r: number, ancho: number, alto: number) =>
  sharp({ create: { width: ancho, height: alto, channels: 3, background: { r, g: 100, b: 50 } } })
    .jpeg()
    .toBuffer()
    .then((b) => b.toString('base64'));

describe.skipIf(!pdftoppm)('the delivery receipt PDF', () => {
  it('is a sealed PDF/A-2b with embedded fonts, the delivery’s text, the signature as vectors, the photos as thumbnails and a QR to its verification page', async ({ app, c }) => {
    const creada = await app.request('POST', '/api/v1/decas', { key: c.live, body: decaCompleta() });
    expect(creada.status, creada.text).toBe(201);
    const deca = DecaCreada.parse(creada.body).deca;
    const res = await app.request('POST', `/api/v1/decas/${deca.id}/entregas`, {
      key: c.live,
      body: {
        resultado: 'entregada',
        receptor_nombre: 'Lucía Fernández Ñúñez',
        receptor_documento: 'X1234567L',
        firma: {
          proporcion: 2.5,
          trazos: [
            [
              [0.1, 0.7],
              [0.2, 0.2],
              [0.3, 0.7],
              [0.45, 0.3],
            ],
            [
              [0.6, 0.5],
              [0.9, 0.5],
            ],
          ],
        },
        reservas: 'Dos cajas aplastadas en el palé 3',
        fotos: [await foto(200, 1600, 1200), await foto(40, 900, 1600)],
        registrada_at: '2026-11-25T10:15:00+01:00',
      },
    });
    expect(res.status, res.text).toBe(200);
    const { entrega } = EntregaCreada.parse(res.body);

    const pdf = await fetch(entrega.urls.pdf.replace(/^https?:\/\/[^/]+/, app.url), { headers: { Authorization: `Bearer ${c.live}` } });
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    const bytes = Buffer.from(await pdf.arrayBuffer());
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(entrega.pdf_sha256);
    expect(pdf.headers.get('etag')).toBe(`"${entrega.pdf_sha256}"`);
    // Only the account's: a read-only key of it may, another account may not.
    expect((await app.request('GET', `/api/v1/decas/${deca.id}/entregas/1/pdf`, { key: c.liveReadOnly })).status).toBe(200);
    expect((await app.request('GET', `/api/v1/decas/${deca.id}/entregas/2/pdf`, { key: c.live })).status).toBe(404);

    const dir = await mkdtemp(path.join(os.tmpdir(), 'justificante-'));
    try {
      const archivo = path.join(dir, 'justificante.pdf');
      await writeFile(archivo, bytes);

      const fuentes = (await run(poppler('pdffonts'), [archivo])).stdout.trim().split('\n').slice(2);
      expect(fuentes.length).toBeGreaterThan(0);
      for (const linea of fuentes) expect(/\s(yes|no)\s+(yes|no)\s+(yes|no)\s/.exec(linea)?.[1], linea).toBe('yes');

      const meta = (await run(poppler('pdfinfo'), ['-meta', archivo])).stdout;
      expect(meta).toContain('<pdfaid:part>2</pdfaid:part>');
      expect(meta).toContain('<pdfaid:conformance>B</pdfaid:conformance>');
      const info = (await run(poppler('pdfinfo'), [archivo])).stdout;
      expect(/^Title:\s+(.*)$/m.exec(info)?.[1]).toBe(`Justificante de entrega ${deca.numero}-1`);
      expect(bytes.toString('latin1')).toContain('/S /GTS_PDFA1 /OutputConditionIdentifier (sRGB IEC61966-2.1)');

      const sig = (await run(poppler('pdfsig'), [archivo])).stdout;
      expect(sig.match(/^Signature #\d+:/gm)).toHaveLength(1);
      expect(sig).toMatch(/Signature Validation: Signature is Valid\./);
      expect(sig).toMatch(/Total document signed/);
      expect(sig).toMatch(/Signature Type: ETSI\.CAdES\.detached/);
      expect(sig).toMatch(/Signer Certificate Common Name: Sello de pruebas DeCA/);

      const texto = (await run(poppler('pdftotext'), ['-layout', archivo, '-'])).stdout;
      for (const t of [
        'Justificante de entrega',
        `DeCA ${deca.numero} · entrega 1`,
        'Lucía Fernández Ñúñez',
        'X1234567L',
        'Dos cajas aplastadas en el palé 3',
        '25/11/2026 10:15:00',
        'Firma de quien recibe',
      ]) {
        expect(texto).toContain(t);
      }

      // The two photos are the only pictures, shrunk to thumbnails; the signature is paths, not an image.
      const imagenes = (await run(poppler('pdfimages'), ['-list', archivo])).stdout.trim().split('\n').slice(2);
      expect(imagenes).toHaveLength(2);
      const tamanos = imagenes.map((l) => l.trim().split(/\s+/).slice(3, 5).map(Number));
      expect(tamanos).toEqual([
        [440, 330],
        [248, 440],
      ]);
      expect(imagenes.every((l) => /\sjpeg\s/.test(l))).toBe(true);

      // The QR, read from the first page as a scanner would, is the receipt's own verification page.
      await run(pdftoppm!, ['-f', '1', '-l', '1', '-r', '150', '-png', '-singlefile', archivo, path.join(dir, 'p')]);
      const { data, info: im } = await sharp(path.join(dir, 'p.png')).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
      const qr = jsQR(new Uint8ClampedArray(data), im.width, im.height, { inversionAttempts: 'dontInvert' });
      expect(qr?.data).toBe(entrega.urls.verificar);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }

    // The QR's page confirms the receipt: which DeCA, delivered when, its fingerprint; never who signed or the photos.
    const pagina = await fetch(`${app.url}${new URL(entrega.urls.verificar).pathname}`);
    expect(pagina.status).toBe(200);
    const textoPagina = texto(await pagina.text());
    expect(textoPagina).toContain('AUTÉNTICO: es un justificante de entrega');
    expect(textoPagina).toContain(`DeCA ${deca.numero} · entrega 1`);
    expect(textoPagina).toContain('ENTREGADA el 25/11/2026');
    expect(textoPagina).toContain(entrega.pdf_sha256);
    for (const privado of ['Lucía', 'X1234567L', 'cajas aplastadas']) expect(textoPagina).not.toContain(privado);
    expect((await fetch(`${app.url}/e/no-existe-este-token`)).status).toBe(404);

    // The authenticity check knows the receipt's PDF, and one byte changed is not it.
    const comprobado = await comprobar(app.url, bytes);
    expect(comprobado).toContain('AUTÉNTICO: es un justificante de entrega emitido por este servicio');
    expect(comprobado).toContain(`DeCA ${deca.numero} · entrega 1`);
    const alterado = Buffer.from(bytes);
    alterado[alterado.length - 10] = alterado.at(-10)! ^ 1;
    expect(await comprobar(app.url, alterado)).toContain('NO AUTÉNTICO');

    // The inspector's page says it was delivered, and when; nothing of who or how.
    const ficha = texto(await (await fetch(`${app.url}${new URL(deca.urls.ficha).pathname}`)).text());
    expect(ficha).toContain('Entregada el 25/11/2026');
    for (const privado of ['Lucía', 'X1234567L', 'cajas aplastadas']) expect(ficha).not.toContain(privado);
  });
});
