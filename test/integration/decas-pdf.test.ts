/**
 * The issued PDF over real HTTP on the real database (PGlite or PostgreSQL):
 * every art. 6 datum printed exactly (accents included), the stored hash and
 * size, versions after a method-1 change, reproducibility from the stored
 * `datos_pdf`, the 48-shipment limit and the QR.
 */
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import path from 'node:path';
import jsQR from 'jsqr';
import * as pdfjs from 'pdfjs-dist/legacy/build/pdf.mjs';
import { PNG } from 'pngjs';
import { describe, expect } from 'vitest';
import { crearSellador, renderYSellar } from '../../server/documents/sello';
import type { DecaPdfData } from '../../shared/pdf/deca-pdf-data';
import { Deca, DecaCreada, type DecaInput } from '../../shared/schemas/deca';
import type { EnvioInput } from '../../shared/schemas/envio';
import { type Fx, it } from '../support/fixtures';
import { selloDePrueba } from '../support/sello';

// Glyph metrics for the 14 standard fonts; without them pdf.js warns on every document.
const STANDARD_FONTS = path.join(path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json')), 'standard_fonts') + path.sep;

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const CUATRO_MB = 4 * 1024 * 1024;
const TELEFONO = '+34 611 222 333';

/** Every art. 6 datum, plus the optional texts, with accents wherever a real value would carry them. */
function decaConAcentos(over: Partial<DecaInput> = {}): DecaInput {
  return {
    cargador_nombre: 'Cooperativa Agrícola de Peñíscola, S. Coop.',
    cargador_nif: 'A58818501',
    cargador_domicilio: "Camí de l'Àngel 3, 25001 Lleida",
    transp_nombre: 'Transportes Núñez e Hijos, S.L.',
    transp_nif: 'B12345674',
    transp_domicilio: 'Avda. de la Ilustración 7, 50012 Zaragoza',
    fecha_transporte: '2026-11-23',
    matricula: '1234 BCD',
    matricula_remolque: 'R-5678-BBC',
    autorizacion_especial: 'AE-Ñ/2026/77',
    conductor_nombre: 'José Ángel Muñoz Ibáñez',
    conductor_tel: TELEFONO,
    observaciones: '¿Frágil? ¡Sí! Descarga en el 3º muelle; pago de 15 € en recepción.',
    referencia: 'Pedido nº 4711/ñ',
    envios: [
      { origen: 'Almería', destino: 'Cáceres', naturaleza: 'Piñones y ñoras', peso: '24.500,5', unidad: 'kg', nota: 'Entrega en muelle nº 2' },
      { origen: 'Alcalá de Henares', destino: 'Logroño', naturaleza: 'Aceite de oliva', peso: '1,5', unidad: 't' },
      { origen: 'Jaén', destino: 'Ávila', naturaleza: 'Cajas de cartón', peso: 1, unidad: 'palets' },
      { origen: 'Úbeda', destino: 'León', naturaleza: 'Gasóleo agrícola', peso: '12,75', unidad: 'm3' },
    ],
    ...over,
  };
}

/** How the PDF prints each shipment's quantity (Spanish number format, unit singular for 1). */
const CANTIDADES = ['24.500,5 kg', '1,5 t', '1 palet', '12,75 m³'];

interface PdfText {
  pages: string[];
  /** All pages, every run of whitespace (including line breaks of wrapped values) as one space. */
  flat: string;
}

/** Text per page as pdf.js (legacy build) reads it: items' `str`, a line break at each end of line. */
async function extractText(bytes: Uint8Array): Promise<PdfText> {
  // pdf.js takes ownership of the buffer it is given, and refuses a Buffer: hand it a plain copy.
  const pdf = await pdfjs.getDocument({ data: new Uint8Array(bytes), useSystemFonts: false, standardFontDataUrl: STANDARD_FONTS }).promise;
  try {
    const pages: string[] = [];
    for (let n = 1; n <= pdf.numPages; n++) {
      const content = await (await pdf.getPage(n)).getTextContent();
      pages.push(content.items.map((item) => ('str' in item ? item.str + (item.hasEOL ? '\n' : '') : '')).join(''));
    }
    return { pages, flat: pages.join('\n').replace(/\s+/g, ' ') };
  } finally {
    await pdf.destroy();
  }
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const countOf = (haystack: string, needle: string) => haystack.split(needle).length - 1;

async function crear({ app, c }: Fx, body: DecaInput): Promise<Deca> {
  const res = await app.request('POST', '/api/v1/decas', { key: c.live, body });
  expect(res.status, res.text).toBe(201);
  const { deca } = DecaCreada.parse(res.body);
  expect(deca.estado).toBe('emitido');
  return deca;
}

async function descargarPdf({ app, c }: Fx, id: number): Promise<Buffer> {
  const res = await fetch(`${app.url}/api/v1/decas/${id}/pdf`, { headers: { authorization: `Bearer ${c.live}` } });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/pdf');
  return Buffer.from(await res.arrayBuffer());
}

async function versionesGuardadas({ app, c }: Fx, decaId: number) {
  return app.database.db
    .selectFrom('deca_versiones')
    .select(['version', 'pdf', 'pdf_sha256', 'pdf_bytes', 'pdf_clave', 'datos_pdf'])
    .where('account_id', '=', c.account.id)
    .where('deca_id', '=', decaId)
    .orderBy('version')
    .execute();
}

describe('GET /decas/{id}/pdf', () => {
  let deca: Deca;
  let v1: Buffer;

  it('prints every art. 6 datum exactly, accents included, and matches pdf_sha256 and pdf_bytes', async ({ app, c }) => {
    deca = await crear({ app, c }, decaConAcentos());
    v1 = await descargarPdf({ app, c }, deca.id);
    expect(sha256(v1)).toBe(deca.pdf_sha256);
    expect(v1.length).toBe(deca.pdf_bytes);

    const { pages, flat } = await extractText(v1);
    expect(pages).toHaveLength(1);
    const input = decaConAcentos();
    for (const expected of [
      input.cargador_nombre!,
      input.cargador_nif!,
      input.cargador_domicilio!,
      input.transp_nombre!,
      input.transp_nif!,
      input.transp_domicilio!,
      '23/11/2026', // fecha_transporte as printed (DD/MM/AAAA)
      '1234BCD', // plates as stored: upper case, no spaces or hyphens
      'R5678BBC',
      input.autorizacion_especial!,
      input.conductor_nombre!,
      input.observaciones!,
      input.referencia!,
      'Entrega en muelle nº 2',
      ...input.envios!.flatMap((e) => [e.origen!, e.destino!, e.naturaleza!]),
      ...CANTIDADES,
      deca.numero,
      `DeCA ${deca.numero} · versión 1`,
      'Página 1 de 1',
    ]) {
      expect(flat, expected).toContain(expected);
    }
    // Each value next to its label, in its party's block, and each shipment on its own row.
    for (const expected of [
      `Número: ${deca.numero}`,
      'Versión: 1',
      `Cargador contractual Nombre: ${input.cargador_nombre} NIF: ${input.cargador_nif} Domicilio: ${input.cargador_domicilio}`,
      `Transportista efectivo Nombre: ${input.transp_nombre} NIF: ${input.transp_nif} Domicilio: ${input.transp_domicilio}`,
      'Fecha: 23/11/2026',
      `Conductor: ${input.conductor_nombre}`,
      'Matrícula: 1234BCD',
      'Remolque: R5678BBC',
      `Autorización especial: ${input.autorizacion_especial}`,
      `Observaciones ${input.observaciones}`,
      `Referencia: ${input.referencia}`,
      ...input.envios!.map((e, i) => `${i + 1} ${e.origen} ${e.destino} ${e.naturaleza} ${CANTIDADES[i]}`),
    ]) {
      expect(flat, expected).toContain(expected);
    }
    // The stored values are the ones printed (what the API returns is what the paper says).
    expect(deca.matricula).toBe('1234BCD');
    expect(deca.matricula_remolque).toBe('R5678BBC');
    // Version 1 prints no modification block.
    expect(flat).not.toContain('Motivo:');

    // The QR's URL is printed under it, wrapped at path separators: compare without the line breaks.
    expect(deca.urls.ficha).toMatch(/^https?:\/\/\S+\/d\/[\w-]{20,}$/);
    expect(pages[0]!.replace(/\s+/g, '')).toContain(deca.urls.ficha);

    // The driver's phone stays off the paper (DecaPdfData: the document travels with the lorry).
    const digits = flat.replace(/\D/g, '');
    expect(flat).not.toContain(TELEFONO);
    expect(digits).not.toContain('611222333');
  });

  it('method-1 PATCH prints version 2 with the reason and new data; version 1 stays stored unchanged', async ({ app, c }) => {
    expect(deca, 'needs the DeCA of the previous test').toBeDefined();
    app.clock.advance(90 * 60_000);
    const motivo = 'Avería del tractor en Alcañiz: cambio de vehículo y de destino';
    const envios = [...decaConAcentos().envios!] as EnvioInput[];
    envios[0] = { ...envios[0], destino: 'Plasencia (Cáceres)' };
    const patch = await app.request('PATCH', `/api/v1/decas/${deca.id}`, {
      key: c.live,
      body: { motivo, matricula: '5678 FGH', observaciones: 'Nueva tractora; el remolque sigue igual. ¡Atención al peaje!', envios },
    });
    expect(patch.status, patch.text).toBe(200);
    const v2deca = Deca.parse(patch.body.deca);
    expect(v2deca.version).toBe(2);
    expect(v2deca.urls.ficha).toBe(deca.urls.ficha);
    expect(v2deca.pdf_sha256).not.toBe(deca.pdf_sha256);

    const v2 = await descargarPdf({ app, c }, deca.id);
    expect(sha256(v2)).toBe(v2deca.pdf_sha256);
    expect(v2.length).toBe(v2deca.pdf_bytes);
    const { pages, flat } = await extractText(v2);
    for (const expected of [
      `DeCA ${deca.numero} · versión 2`,
      'Versión: 2',
      `Motivo: ${motivo}`,
      'Matrícula: 5678FGH',
      'Nueva tractora; el remolque sigue igual. ¡Atención al peaje!',
      '1 Almería Plasencia (Cáceres) Piñones y ñoras 24.500,5 kg',
      'R5678BBC',
      decaConAcentos().cargador_nombre!,
    ]) {
      expect(flat, expected).toContain(expected);
    }
    expect(flat).not.toContain('1234BCD');
    expect(flat).not.toContain('versión 1');
    expect(pages[0]!.replace(/\s+/g, '')).toContain(deca.urls.ficha);

    const got = await app.request('GET', `/api/v1/decas/${deca.id}`, { key: c.live });
    expect(Deca.parse(got.body.deca).pdf_sha256).toBe(sha256(v2));

    const stored = await versionesGuardadas({ app, c }, deca.id);
    expect(stored.map((v) => v.version)).toEqual([1, 2]);
    const [s1, s2] = stored;
    // The bytes are in the blob store, under their hash; the row keeps the hash, size and key.
    expect(s1!.pdf).toBeNull();
    expect(s1!.pdf_clave).toBe(`pdf/${s1!.pdf_sha256.slice(0, 2)}/${s1!.pdf_sha256}`);
    expect(Buffer.from(await app.services.blobs.leer(s1!.pdf_sha256)).equals(v1)).toBe(true);
    expect(s1!.pdf_sha256).toBe(deca.pdf_sha256);
    expect(s1!.pdf_bytes).toBe(v1.length);
    expect(Buffer.from(await app.services.blobs.leer(s2!.pdf_sha256)).equals(v2)).toBe(true);
    expect(s2!.pdf_sha256).toBe(v2deca.pdf_sha256);
  });

  it('re-rendering and sealing a stored version from its datos_pdf gives the stored bytes', async ({ app, c }) => {
    expect(deca, 'needs the DeCA of the previous tests').toBeDefined();
    const stored = await versionesGuardadas({ app, c }, deca.id);
    expect(stored).toHaveLength(2);
    for (const v of stored) {
      const datos = v.datos_pdf as DecaPdfData;
      expect(datos.version).toBe(v.version);
      expect(datos).not.toHaveProperty('conductor_tel');
      const again = await renderYSellar(datos, crearSellador(selloDePrueba()));
      expect(sha256(again), `version ${v.version}`).toBe(v.pdf_sha256);
      expect(again.byteLength).toBe(v.pdf_bytes);
    }
  });

  it('issues 48 shipments on several pages under 4 MB, every origin printed once; 49 is 422', async ({ app, c }) => {
    const envios = (n: number): EnvioInput[] =>
      Array.from({ length: n }, (_, i) => ({
        origen: `Almacén ${i + 1}-Ñ Móstoles`,
        destino: `Cádiz muelle ${i + 1}`,
        naturaleza: 'Azulejos de cerámica',
        peso: `${1000 + i}`,
        unidad: 'kg',
      }));
    const deca48 = await crear({ app, c }, decaConAcentos({ envios: envios(48) }));
    expect(deca48.envios).toHaveLength(48);
    expect(deca48.pdf_bytes).toBeLessThan(CUATRO_MB);
    const bytes = await descargarPdf({ app, c }, deca48.id);
    expect(bytes.length).toBe(deca48.pdf_bytes);
    expect(sha256(bytes)).toBe(deca48.pdf_sha256);
    const { pages, flat } = await extractText(bytes);
    expect(pages.length).toBeGreaterThanOrEqual(2);
    expect(flat).toContain(`Página ${pages.length} de ${pages.length}`);
    for (let i = 1; i <= 48; i++) expect(countOf(flat, `Almacén ${i}-Ñ Móstoles`), `origen ${i}`).toBe(1);
    expect(flat).toContain('Envíos (48)');

    const res49 = await app.request('POST', '/api/v1/decas', { key: c.live, body: decaConAcentos({ envios: envios(49) }) });
    expect(res49.status, res49.text).toBe(422);
    expect(res49.body.error.codigo).toBe('validacion');
    expect(Object.keys(res49.body.error.campos)).toContain('envios');
  });

  it('serves the QR as a PNG of the ficha URL, and the PDF prints that URL', async ({ app, c }) => {
    const d = await crear({ app, c }, decaConAcentos({ envios: [{ origen: 'Cuéllar', destino: 'Peñafiel', naturaleza: 'Cebada', peso: 900 }] }));
    const res = await fetch(`${app.url}/api/v1/decas/${d.id}/qr.png`, { headers: { authorization: `Bearer ${c.live}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    const png = Buffer.from(await res.arrayBuffer());
    expect(png.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
    expect(png.subarray(12, 16).toString('latin1')).toBe('IHDR');
    const width = png.readUInt32BE(16);
    const height = png.readUInt32BE(20);
    expect(width).toBe(height);
    expect(width).toBeGreaterThanOrEqual(200);
    expect(width).toBeLessThanOrEqual(512);
    // What a phone reads from the picture is exactly the ficha URL.
    const { data, width: w, height: h } = PNG.sync.read(png);
    expect(jsQR(new Uint8ClampedArray(data.buffer, data.byteOffset, data.length), w, h)?.data).toBe(d.urls.ficha);

    const { pages } = await extractText(await descargarPdf({ app, c }, d.id));
    expect(pages[0]!.replace(/\s+/g, '')).toContain(d.urls.ficha);
  });
});
