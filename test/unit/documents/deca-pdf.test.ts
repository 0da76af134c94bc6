import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { inflateSync } from 'node:zlib';
import * as pdfjs from 'pdfjs-dist/legacy/build/pdf.mjs';
import QRCode from 'qrcode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pdfCreationDate, pdfFileId, renderDecaPdf } from '../../../server/documents/deca-pdf';
import { createInProcessPdfPool, createPdfPool, workerExecArgv } from '../../../server/documents/pdf-pool';
import { renderQrPng } from '../../../server/documents/qr';
import { crearSellador, renderYSellar } from '../../../server/documents/sello';
import { datosPdf } from '../../../shared/pdf/datos-pdf';
import { MARCA_PRUEBA } from '../../../shared/pdf/deca-pdf';
import type { DecaPdfData, DecaPdfEnvio } from '../../../shared/pdf/deca-pdf-data';
import { darkRuns, qrModules } from '../../../shared/pdf/qr';
import { sinSello } from '../../../shared/pdf/sin-sello';
import { completarDatos, datosDeEntrada } from '../../../shared/rules/datos-deca';
import { DecaInput } from '../../../shared/schemas/deca';
import { decaCompleta } from '../../support/decas';
import { PDF_WORKER_URL } from '../../support/processes';
import { selloDePrueba } from '../../support/sello';

// Glyph metrics for the 14 standard fonts; without them pdf.js warns on every document.
const STANDARD_FONTS = path.join(path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json')), 'standard_fonts') + path.sep;

const POOL_TIMEOUT = 30_000;

function buildDeca(overrides: Partial<DecaPdfData> = {}): DecaPdfData {
  return {
    entorno: 'produccion',
    numero: '2025-000123',
    version: 2,
    estado: 'emitido',
    cargador_nombre: 'Transportes Peñalara, S.L.',
    cargador_nif: 'B12345678',
    cargador_domicilio: "Camí de l'Àngel 3, Lleida",
    transp_nombre: 'Logística Güeñes Ibérica, S.A.',
    transp_nif: 'A87654321',
    transp_domicilio: null,
    fecha_transporte: '2025-11-21',
    tipo_vehiculo: 'articulado',
    matricula: '1234 BCD',
    matricula_remolque: 'R-5678-BBC',
    autorizacion_especial: 'AE-Ñ/2025/77',
    conductor_nombre: 'José Núñez Öller',
    observaciones: '¿Frágil? ¡Sí! 3º piso, 15 €',
    referencia: 'Pedido nº 4711/ñ',
    envios: [
      {
        origen: 'Alcalá de Henares (Madrid)',
        destino: 'Logroño, La Rioja',
        naturaleza: 'Piñones y ñoras',
        peso: 24500.5,
        unidad: 'kg',
        nota: 'Entrega en muelle nº 2, güisqui aparte',
      },
      { origen: 'Almería', destino: 'Cáceres', naturaleza: 'Cajas de cartón', peso: 1, unidad: 'palets', nota: null },
    ],
    emitido_at: '2025-11-20 18:05:09',
    modificado_at: '2025-11-21 07:45:00',
    motivo_modificacion: 'Cambio de matrícula por avería del vehículo',
    sustituye_a: '2025-000100',
    ficha_url: 'https://deca.example.es/ficha/2025-000123?t=Zx81kPq0aB7cD9eF3gH5',
    ...overrides,
  };
}

function buildEnvios(count: number): DecaPdfEnvio[] {
  const relleno = 'con texto largo de acentos áéíóú, eñes y diéresis pingüino para forzar varias líneas en la celda';
  return Array.from({ length: count }, (_, i) => ({
    origen: `Origen ${i + 1} polígono El Señorío ${relleno.slice(0, 20 + (i % 4) * 20)}`,
    destino: `Destino ${i + 1} Badajoz`,
    naturaleza: `Mercancía ${i + 1} ${relleno.slice(0, 15 + (i % 5) * 15)}`,
    peso: 1000 + i * 1234.25,
    unidad: 'kg',
    nota: i % 3 === 0 ? `Nota ${i + 1} ${relleno}` : null,
  }));
}

interface Extracted {
  pages: string[];
  info: Record<string, unknown>;
  fingerprints: (string | null)[];
  imagesOnFirstPage: number;
}

/** Text per page as pdf.js reads it (items' `str`, a line break at each end of line). */
async function extract(bytes: Uint8Array): Promise<Extracted> {
  // pdf.js takes ownership of the buffer it is given: hand it a copy.
  const pdf = await pdfjs.getDocument({ data: bytes.slice(), useSystemFonts: false, standardFontDataUrl: STANDARD_FONTS }).promise;
  try {
    const pages: string[] = [];
    let imagesOnFirstPage = 0;
    for (let n = 1; n <= pdf.numPages; n++) {
      const page = await pdf.getPage(n);
      const content = await page.getTextContent();
      pages.push(content.items.map((item) => ('str' in item ? item.str + (item.hasEOL ? '\n' : '') : '')).join(''));
      if (n === 1) {
        const ops = await page.getOperatorList();
        imagesOnFirstPage = ops.fnArray.filter((fn) => fn === pdfjs.OPS.paintImageXObject).length;
      }
    }
    const { info } = await pdf.getMetadata();
    return { pages, info: info as Record<string, unknown>, fingerprints: pdf.fingerprints, imagesOnFirstPage };
  } finally {
    await pdf.destroy();
  }
}

/** Whitespace-insensitive view: wrapped lines join back with single spaces. */
const flat = (text: string) => text.replace(/\s+/g, ' ');
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describe('renderDecaPdf', () => {
  it('prints every datum, accents included, and extracts back exactly', async () => {
    const data = buildDeca();
    const bytes = await renderDecaPdf(data);
    const { pages, info, imagesOnFirstPage } = await extract(bytes);
    expect(pages).toHaveLength(1);
    const text = flat(pages[0]!);

    for (const expected of [
      'Documento de control (DeCA)',
      'Orden FOM/2861/2012, art. 6',
      data.numero,
      'Emitida',
      '20/11/2025 18:05:09',
      '21/11/2025 07:45:00',
      data.motivo_modificacion!,
      'Sustituye a la DeCA 2025-000100',
      'Cargador contractual',
      'Transportista efectivo',
      data.cargador_nombre,
      data.cargador_nif,
      data.cargador_domicilio,
      data.transp_nombre,
      data.transp_nif,
      '21/11/2025',
      'Articulado',
      data.matricula,
      data.matricula_remolque!,
      data.autorizacion_especial!,
      data.conductor_nombre!,
      data.observaciones!,
      data.referencia!,
      'Alcalá de Henares (Madrid)',
      'Logroño, La Rioja',
      'Piñones y ñoras',
      '24.500,5 kg',
      'Entrega en muelle nº 2, güisqui aparte',
      'Almería',
      'Cáceres',
      '1 palet',
      'Naturaleza de la mercancía',
      'Página 1 de 1',
    ]) {
      expect(text).toContain(expected);
    }
    expect(text).toMatch(/Versión:\s*2\b/);
    expect(text).toMatch(/Domicilio:\s*no consta/); // transportista without domicilio
    // The URL may wrap under the QR: compare it with whitespace removed.
    expect(pages[0]!.replace(/\s+/g, '')).toContain(data.ficha_url);
    expect(imagesOnFirstPage).toBe(0); // the QR is vectors, not an image

    expect(info.Title).toBe('DeCA 2025-000123 v2');
    expect(info.Creator).toBe('DeCA');
    expect(String(info.Subject)).toContain('Orden FOM/2861/2012');
    // 07:45 in Madrid in November (CET, UTC+1) is 06:45 UTC.
    expect(info.CreationDate).toBe("D:20251121064500+00'00'");
  });

  it('leaves out what version 1 does not have and prints «no consta» for missing data', async () => {
    const data = buildDeca({
      version: 1,
      modificado_at: null,
      motivo_modificacion: null,
      sustituye_a: null,
      tipo_vehiculo: null,
      matricula_remolque: null,
      autorizacion_especial: null,
      conductor_nombre: null,
      observaciones: null,
      referencia: null,
    });
    const { pages, info } = await extract(await renderDecaPdf(data));
    const text = flat(pages.join('\n'));
    expect(text).not.toContain('Última modificación');
    expect(text).not.toContain('Sustituye a');
    expect(text).toMatch(/Tipo de vehículo:\s*no consta/);
    expect(text).toMatch(/Remolque:\s*no consta/);
    expect(text).toMatch(/Conductor:\s*no consta/);
    expect(text).toMatch(/Referencia:\s*no consta/);
    expect(info.CreationDate).toBe("D:20251120170509+00'00'"); // emitido_at, CET
  });

  it('prints every Latin letter of the embedded font, and stands in for what it lacks (old rows) without garbling the line', async () => {
    const data = buildDeca({ conductor_nombre: 'Łukasz Wałęsa Őry Ştefan 😀', observaciones: 'Zürich\u00a0–\u200b Kraków\tok' });
    const text = flat((await extract(await renderDecaPdf(data))).pages.join('\n'));
    expect(text).toContain('Łukasz Wałęsa Őry Ştefan ?');
    expect(text).toContain('Zürich – Kraków ok');
  });

  it('spreads 48 long shipments over several pages with the header repeated', async () => {
    const envios = buildEnvios(48);
    const bytes = await renderDecaPdf(buildDeca({ envios }));
    console.log(`48-shipment DeCA: ${bytes.byteLength} bytes`);
    expect(bytes.byteLength).toBeLessThan(4 * 1024 * 1024);

    const { pages } = await extract(bytes);
    const total = pages.length;
    expect(total).toBeGreaterThan(1);
    const all = flat(pages.join('\n'));
    for (const envio of envios) {
      expect(all).toContain(envio.origen);
      expect(all).toContain(envio.naturaleza);
    }
    expect(all).toContain('49.135,75 kg'); // row 40: 1000 + 39 × 1234,25
    for (const [i, page] of pages.entries()) expect(page).toContain(`Página ${i + 1} de ${total}`);
    // Every page the table continues on repeats its header.
    for (const page of pages.slice(1)) {
      if (!page.includes('Envíos (continuación)')) continue;
      expect(flat(page)).toMatch(/Nº Origen Destino Naturaleza de la mercancía Peso \/ cantidad Nota/);
    }
    expect(pages.slice(1).some((page) => page.includes('Envíos (continuación)'))).toBe(true);
  });

  it('splits a shipment longer than a page instead of cutting it off', async () => {
    const nota = Array.from({ length: 400 }, (_, i) => `palabra${i}`).join(' ');
    const { pages } = await extract(await renderDecaPdf(buildDeca({ envios: [{ ...buildEnvios(1)[0]!, nota }] })));
    expect(pages.length).toBeGreaterThan(2);
    // Each page interrupts the note with its footer and the repeated header; the words stay complete and in order.
    expect(pages.join('\n').match(/palabra\d+/g)).toEqual(nota.split(' '));
  });

  it('draws the QR as one rectangle per run of dark modules, in its 40 mm square and clear of a 4-module quiet zone', async () => {
    const data = buildDeca();
    const rects = rectangles(await renderDecaPdf(data));
    const modules = qrModules(data.ficha_url);
    // Nothing else on the page is a rectangle: the rules are lines.
    expect(rects).toHaveLength(darkRuns(modules).length);

    // The square is where the image was: centred in the 45 mm column at the
    // right margin (A4, 15 mm margins), its top at the top margin. The code
    // starts 4 modules in from its edges.
    const module = 40 / (modules.size + 8);
    const codeLeft = 210 - 15 - 45 + 2.5 + 4 * module;
    const codeTop = 15 + 4 * module;
    const mm = (pt: number) => (pt * 25.4) / 72;

    // Read each rectangle back as (row, column, length) in modules; coordinates
    // are rounded to 1/100 pt, so each must sit within 0.01 mm of the grid.
    const painted = new Array<number>(modules.size * modules.size).fill(0);
    for (const r of rects) {
      const exact = { col: (mm(r.x) - codeLeft) / module, row: (297 - mm(r.y) - codeTop) / module, length: mm(r.w) / module, height: mm(-r.h) / module };
      const grid = { col: Math.round(exact.col), row: Math.round(exact.row), length: Math.round(exact.length) };
      expect(Math.abs(exact.col - grid.col) * module).toBeLessThan(0.01);
      expect(Math.abs(exact.row - grid.row) * module).toBeLessThan(0.01);
      expect(Math.abs(exact.length - grid.length) * module).toBeLessThan(0.01);
      expect(Math.abs(exact.height - 1) * module).toBeLessThan(0.01);
      // Inside the code's square: nothing on the quiet zone.
      expect(grid.row).toBeGreaterThanOrEqual(0);
      expect(grid.col).toBeGreaterThanOrEqual(0);
      expect(grid.row).toBeLessThan(modules.size);
      expect(grid.col + grid.length).toBeLessThanOrEqual(modules.size);
      for (let c = grid.col; c < grid.col + grid.length; c++) painted[grid.row * modules.size + c]! += 1;
    }
    const expected = Array.from({ length: modules.size * modules.size }, (_, i) => modules.get(Math.floor(i / modules.size), i % modules.size));
    expect(painted).toEqual(expected);
  });

  it('wraps a long ficha URL under the QR and keeps it whole', async () => {
    const ficha_url = `https://deca.example.es/ficha/2025-000123/${'a1b2c3d4'.repeat(12)}?token=${'Zz9'.repeat(10)}&v=2`;
    const { pages } = await extract(await renderDecaPdf(buildDeca({ ficha_url })));
    expect(pages[0]!.replace(/\s+/g, '')).toContain(ficha_url);
  });

  it('gives byte-identical output for the same data, whatever the time zone', async () => {
    const data = buildDeca({ envios: buildEnvios(10) });
    const first = await renderDecaPdf(data);
    const second = await renderDecaPdf(structuredClone(data));
    expect(sha256(second)).toBe(sha256(first));

    const tz = process.env.TZ;
    try {
      process.env.TZ = 'Pacific/Kiritimati';
      expect(sha256(await renderDecaPdf(data))).toBe(sha256(first));
    } finally {
      if (tz === undefined) delete process.env.TZ;
      else process.env.TZ = tz;
    }

    const v3 = await renderDecaPdf({ ...data, version: 3, modificado_at: '2025-11-22 09:00:00' });
    expect(sha256(v3)).not.toBe(sha256(first));
    const { fingerprints } = await extract(v3);
    expect(fingerprints[0]).toBe(pdfFileId(data.numero, 3));
  });

  it('differs for version 2 of the same DeCA', async () => {
    const v1 = buildDeca({ version: 1, modificado_at: null, motivo_modificacion: null });
    const v2 = buildDeca({ version: 2, modificado_at: '2025-11-21 07:45:00', motivo_modificacion: 'Cambio de matrícula' });
    expect(sha256(await renderDecaPdf(v1))).not.toBe(sha256(await renderDecaPdf(v2)));
  });

  it('refuses a malformed timestamp loudly', async () => {
    await expect(renderDecaPdf(buildDeca({ emitido_at: '20/11/2025', version: 1 }))).rejects.toThrow(/YYYY-MM-DD HH:MM:SS/);
  });
});

interface Texto {
  str: string;
  /** [a, b, c, d, e, f]: PDF points, the font size included. */
  transform: number[];
  width: number;
  height: number;
}

/** Every piece of text of every page, in the order the page draws it, as pdf.js reads it. */
async function textos(bytes: Uint8Array): Promise<Texto[][]> {
  const pdf = await pdfjs.getDocument({ data: bytes.slice(), useSystemFonts: false, standardFontDataUrl: STANDARD_FONTS }).promise;
  try {
    const pages: Texto[][] = [];
    for (let n = 1; n <= pdf.numPages; n++) {
      const content = await (await pdf.getPage(n)).getTextContent();
      pages.push(content.items.flatMap((i) => ('str' in i && i.str !== '' ? [{ str: i.str, transform: i.transform as number[], width: i.width, height: i.height }] : [])));
    }
    return pages;
  } finally {
    await pdf.destroy();
  }
}

/**
 * Whether the strip a line of text covers (its baseline's length, from a
 * quarter of its size below it to its size above) overlaps the axis-aligned
 * box [x0, x1] × [y0, y1]: two rectangles overlap unless one of their four
 * edge directions separates them.
 */
function cubre(t: Texto, caja: { x0: number; x1: number; y0: number; y1: number }): boolean {
  const [a, b, c, d, e, f] = t.transform as [number, number, number, number, number, number];
  const size = Math.hypot(a, b);
  const u = [a / size, b / size] as const;
  const n = [c / Math.hypot(c, d), d / Math.hypot(c, d)] as const;
  const tira = [
    [e - 0.25 * size * n[0], f - 0.25 * size * n[1]],
    [e + size * n[0], f + size * n[1]],
    [e + t.width * u[0] + size * n[0], f + t.width * u[1] + size * n[1]],
    [e + t.width * u[0] - 0.25 * size * n[0], f + t.width * u[1] - 0.25 * size * n[1]],
  ];
  const esquinas = [
    [caja.x0, caja.y0],
    [caja.x1, caja.y0],
    [caja.x1, caja.y1],
    [caja.x0, caja.y1],
  ];
  const separa = (eje: readonly number[]) => {
    const p = (q: number[]) => q[0]! * eje[0]! + q[1]! * eje[1]!;
    const [t0, t1] = [Math.min(...tira.map(p)), Math.max(...tira.map(p))];
    const [c0, c1] = [Math.min(...esquinas.map(p)), Math.max(...esquinas.map(p))];
    return t1 < c0 || c1 < t0;
  };
  return ![[1, 0], [0, 1], u, n].some(separa);
}

describe('a DeCA of the test environment', () => {
  const pt = (mm: number) => (mm * 72) / 25.4;

  it('carries «DOCUMENTO DE PRUEBA — SIN VALIDEZ» across every page, drawn first (under everything), slanted and large, and says so in its title', async () => {
    const data = buildDeca({ entorno: 'pruebas', envios: buildEnvios(48) });
    const bytes = await renderDecaPdf(data);
    const pages = await textos(bytes);
    expect(pages.length).toBeGreaterThan(2);
    pages.forEach((page, i) => {
      const marcas = page.filter((t) => t.str === MARCA_PRUEBA);
      expect(marcas, `página ${i + 1}`).toHaveLength(1);
      expect(page[0]!.str, `página ${i + 1}: la marca va debajo de todo`).toBe(MARCA_PRUEBA);
      const [a, b] = page[0]!.transform as [number, number];
      expect(Math.hypot(a, b)).toBeGreaterThan(30); // points: the document's own text is 9 to 14
      expect(Math.abs(b)).toBeGreaterThan(Math.abs(a) / 2); // slanted, not along a line of the page
      expect(page[0]!.width).toBeGreaterThan(pt(250)); // most of the page's diagonal
    });
    const { info } = await extract(bytes);
    expect(info.Title).toBe('DeCA 2025-000123 v2 (DOCUMENTO DE PRUEBA, SIN VALIDEZ)');
    // In the two embedded fonts, like the rest of the text: no third one.
    expect(
      Buffer.from(bytes)
        .toString('latin1')
        .match(/\/Type \/Font \/Subtype \/Type0/g),
    ).toHaveLength(2);
    expect(Buffer.from(bytes).toString('latin1')).not.toMatch(/\/BaseFont \/(Helvetica|Times|Courier)/);
  });

  it('keeps clear of the QR: the mark’s strip does not touch the code’s square', async () => {
    const [first] = await textos(await renderDecaPdf(buildDeca({ entorno: 'pruebas' })));
    const marca = first!.find((t) => t.str === MARCA_PRUEBA)!;
    // The QR's 40 mm square, quiet zone included, and the URL printed under it.
    const qr = { x0: pt(152.5), x1: pt(192.5), y0: pt(297 - 72), y1: pt(297 - 15) };
    expect(cubre(marca, qr)).toBe(false);
    // The check does find a square the mark crosses: the middle of the page.
    expect(cubre(marca, { x0: pt(95), x1: pt(115), y0: pt(138), y1: pt(158) })).toBe(true);
  });

  it('changes nothing else: every other text is the real one’s, at the same place and size, across page breaks', async () => {
    const comun = { envios: buildEnvios(40), observaciones: Array.from({ length: 300 }, (_, i) => `línea${i}`).join(' ') };
    const [real, prueba] = await Promise.all([renderDecaPdf(buildDeca(comun)), renderDecaPdf(buildDeca({ ...comun, entorno: 'pruebas' }))]);
    const sinMarca = (await textos(prueba)).map((page) => page.filter((t) => t.str !== MARCA_PRUEBA));
    const deReal = await textos(real);
    expect(deReal.flat().some((t) => t.str.includes('PRUEBA'))).toBe(false);
    expect(sinMarca).toEqual(deReal);
    expect(deReal.length).toBeGreaterThan(2);
  });

  it('is the data both sides render from: datosPdf carries the environment it is given', () => {
    const d = completarDatos(datosDeEntrada(DecaInput.parse(decaCompleta())), 'transportista', { nombre: 'Cargas SL', nif: 'B12345674', domicilio: null });
    const meta = { numero: '2026-000001', version: 1, emitidoAt: new Date('2026-11-25T10:00:00Z'), modificadoAt: null, motivo: null, sustituyeA: null, qrUrl: 'https://deca.example.es/d/x' };
    expect(datosPdf(d, { ...meta, entorno: 'pruebas' }).entorno).toBe('pruebas');
    expect(datosPdf(d, { ...meta, entorno: 'produccion' }).entorno).toBe('produccion');
  });
});

describe('pdfCreationDate', () => {
  it('converts Europe/Madrid wall time to UTC across the clock changes', () => {
    expect(pdfCreationDate('2025-01-01 00:30:00')).toBe("D:20241231233000+00'00'");
    expect(pdfCreationDate('2025-07-01 12:00:00')).toBe("D:20250701100000+00'00'");
    expect(pdfCreationDate('2025-03-30 01:59:59')).toBe("D:20250330005959+00'00'");
    expect(pdfCreationDate('2025-03-30 03:00:00')).toBe("D:20250330010000+00'00'");
    expect(pdfCreationDate('2025-10-26 02:30:00')).toBe("D:20251026003000+00'00'"); // repeated hour: first one
    expect(pdfCreationDate('2025-10-26 03:00:00')).toBe("D:20251026020000+00'00'");
    expect(pdfCreationDate('2024-02-29 23:59:59')).toBe("D:20240229225959+00'00'");
  });

  it('agrees with the time zone database on every instant of two years, sampled every 37 minutes', () => {
    const madrid = new Intl.DateTimeFormat('en-CA', {
      timeZone: 'Europe/Madrid',
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    const wall = (ms: number) => {
      const p = Object.fromEntries(madrid.formatToParts(ms).map((part) => [part.type, part.value]));
      return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}:${p.second}`;
    };
    const pdfDate = (ms: number) => `D:${new Date(ms).toISOString().slice(0, 19).replace(/[-T:]/g, '')}+00'00'`;
    let mismatches = 0;
    for (let ms = Date.UTC(2025, 0, 1); ms < Date.UTC(2027, 0, 1); ms += 37 * 60_000) {
      const local = wall(ms);
      // The repeated October hour has two answers; the renderer picks the first.
      if (pdfCreationDate(local) !== pdfDate(ms) && pdfCreationDate(local) !== pdfDate(ms - 3_600_000)) mismatches++;
    }
    expect(mismatches).toBe(0);
  });
});

describe('renderQrPng', () => {
  it('returns a PNG holding exactly the QR code of the URL (error correction M, margin 2)', async () => {
    const url = 'https://deca.example.es/ficha/2025-000123?t=Zx81kPq0aB7cD9eF3gH5';
    const png = await renderQrPng(url, 300);
    expect(png.byteLength).toBeGreaterThan(100);
    expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

    const { width, height, pixel } = decodePng(png);
    const qr = QRCode.create(url, { errorCorrectionLevel: 'M' });
    const modules = qr.modules.size;
    const scale = width / (modules + 4);
    expect(width).toBe(height);
    expect(width).toBeLessThanOrEqual(300);
    expect(Number.isInteger(scale)).toBe(true); // whole pixels per module
    for (let row = -2; row < modules + 2; row++) {
      for (let col = -2; col < modules + 2; col++) {
        const dark = row >= 0 && col >= 0 && row < modules && col < modules && qr.modules.get(row, col) === 1;
        const x = Math.floor((col + 2 + 0.5) * scale);
        const y = Math.floor((row + 2 + 0.5) * scale);
        expect(pixel(x, y), `module ${row},${col}`).toBe(dark ? 0 : 255);
      }
    }
  });
});

describe('createPdfPool', () => {
  const sello = selloDePrueba();
  const sellador = crearSellador(sello);

  it('a sealed PDF gives back, byte for byte, the render it sealed (what the app compares with its own)', async () => {
    for (const data of [buildDeca(), buildDeca({ numero: '2025-000777', envios: buildEnvios(30) })]) {
      const sinSellar = await renderDecaPdf(data, { capacidadSello: sellador.capacidad });
      const sellado = await sellador.sellar(sinSellar);
      expect(sha256(sellado)).not.toBe(sha256(sinSellar));
      expect(sha256(sinSello(sellado)!)).toBe(sha256(sinSellar));
      // An unsealed render, or a file that is not ours, has no seal to take off.
      expect(sinSello(sinSellar)).toBeNull();
      expect(sinSello(new TextEncoder().encode('%PDF-1.7 /ByteRange [0 10 20 30] /Contents <00>'))).toBeNull();
    }
    // The pool says how much room its seal takes, and renders what sealing that render gives.
    const pool = createInProcessPdfPool(sello);
    expect(pool.capacidadSello).toBe(sellador.capacidad);
    const data = buildDeca();
    expect(sha256(sinSello(await pool.render(data))!)).toBe(sha256(await renderDecaPdf(data, { capacidadSello: pool.capacidadSello })));
  });

  it(
    'renders and seals 8 concurrent jobs on 2 workers of the compiled server, byte-identical to in-process rendering and sealing',
    async () => {
      const datas = Array.from({ length: 8 }, (_, i) => buildDeca({ numero: `2025-00020${i}`, envios: buildEnvios(1 + i * 6) }));
      const expected = await Promise.all(datas.map((data) => renderYSellar(data, sellador)));
      const pool = createPdfPool({ sello, size: 2, workerUrl: PDF_WORKER_URL });
      const threadsBefore = countThreads();
      try {
        const results = await Promise.all(datas.map((data) => pool.render(data)));
        for (const [i, bytes] of results.entries()) expect(sha256(bytes)).toBe(sha256(expected[i]!));
      } finally {
        await pool.close();
      }
      await expect(pool.render(datas[0]!)).rejects.toThrow(/closed/);
      if (threadsBefore !== null) expect(countThreads()).toBeLessThanOrEqual(threadsBefore - 2);
    },
    POOL_TIMEOUT,
  );

  it(
    'runs the worker from its TypeScript source too (`npm run dev`), with the same bytes',
    async () => {
      const pool = createPdfPool({ sello, size: 1 });
      try {
        const data = buildDeca({ numero: '2025-000250' });
        expect(sha256(await pool.render(data))).toBe(sha256(await renderYSellar(data, sellador)));
      } finally {
        await pool.close();
      }
    },
    POOL_TIMEOUT,
  );

  it(
    'rejects only the failing job and keeps serving in FIFO order',
    async () => {
      const pool = createPdfPool({ sello, size: 1, workerUrl: PDF_WORKER_URL });
      try {
        const order: number[] = [];
        const [first, bad, third] = await Promise.allSettled([
          pool.render(buildDeca({ numero: '2025-000301' })).then(() => order.push(1)),
          pool.render(buildDeca({ emitido_at: 'ayer', version: 1 })).catch((error: Error) => {
            order.push(2);
            throw error;
          }),
          pool.render(buildDeca({ numero: '2025-000303' })).then(() => order.push(3)),
        ]);
        expect(first.status).toBe('fulfilled');
        expect(bad.status === 'rejected' && String(bad.reason)).toMatch(/YYYY-MM-DD HH:MM:SS/);
        expect(third.status).toBe('fulfilled');
        expect(order).toEqual([1, 2, 3]);
      } finally {
        await pool.close();
      }
    },
    POOL_TIMEOUT,
  );

  describe('with a worker that crashes on demand', () => {
    let dir: string;
    let workerUrl: URL;

    beforeAll(async () => {
      dir = await mkdtemp(path.join(os.tmpdir(), 'deca-pdf-pool-'));
      const file = path.join(dir, 'crashing-worker.mjs');
      await writeFile(
        file,
        // The real (compiled) worker first, so its listener is in place before any job arrives.
        [
          "import { parentPort } from 'node:worker_threads';",
          `import ${JSON.stringify(PDF_WORKER_URL.href)};`,
          'parentPort.on("message", ({ data }) => {',
          "  if (data.numero === 'EXIT') process.exit(3);",
          "  if (data.numero === 'THROW') throw new Error('boom');",
          '});',
        ].join('\n'),
      );
      workerUrl = pathToFileURL(file);
    });

    afterAll(async () => {
      await rm(dir, { recursive: true, force: true });
    });

    it(
      'replaces a crashed worker and rejects only its job',
      async () => {
        const pool = createPdfPool({ sello, size: 1, workerUrl });
        try {
          const expected = sha256(await renderYSellar(buildDeca(), sellador));
          const [exited, afterExit, thrown, afterThrow] = await Promise.allSettled([
            pool.render(buildDeca({ numero: 'EXIT' })),
            pool.render(buildDeca()),
            pool.render(buildDeca({ numero: 'THROW' })),
            pool.render(buildDeca()),
          ]);
          expect(exited.status === 'rejected' && exited.reason).toBeInstanceOf(Error);
          expect(exited.status === 'rejected' && String(exited.reason)).toMatch(/exited with code 3/);
          expect(afterExit.status === 'fulfilled' && sha256(afterExit.value)).toBe(expected);
          expect(thrown.status === 'rejected' && String(thrown.reason)).toMatch(/crashed: boom/);
          expect(afterThrow.status === 'fulfilled' && sha256(afterThrow.value)).toBe(expected);
        } finally {
          await pool.close();
        }
      },
      POOL_TIMEOUT,
    );
  });

  it(
    'replaces a worker that exceeds the job timeout',
    async () => {
      const pool = createPdfPool({ sello, size: 1, jobTimeoutMs: 1, workerUrl: PDF_WORKER_URL });
      try {
        await expect(pool.render(buildDeca())).rejects.toThrow(/longer than 1 ms/);
      } finally {
        await pool.close();
      }
    },
    POOL_TIMEOUT,
  );

  it(
    'drops a queued job when its signal aborts',
    async () => {
      const pool = createPdfPool({ sello, size: 1, workerUrl: PDF_WORKER_URL });
      try {
        const controller = new AbortController();
        const running = pool.render(buildDeca());
        const queued = pool.render(buildDeca(), { signal: controller.signal });
        controller.abort(new Error('cliente desconectado'));
        await expect(queued).rejects.toThrow('cliente desconectado');
        expect((await running).byteLength).toBeGreaterThan(1000);
      } finally {
        await pool.close();
      }
    },
    POOL_TIMEOUT,
  );

  it('rejects queued work on close', async () => {
    const pool = createPdfPool({ sello, size: 1, workerUrl: PDF_WORKER_URL });
    const pending = Promise.allSettled([pool.render(buildDeca()), pool.render(buildDeca())]);
    await pool.close();
    for (const result of await pending) expect(result.status === 'rejected' && String(result.reason)).toMatch(/closed/);
  });

  it('has an in-process twin with the same contract', async () => {
    const pool = createInProcessPdfPool(sello);
    const data = buildDeca();
    expect(sha256(await pool.render(data))).toBe(sha256(await renderYSellar(data, sellador)));
    await pool.close();
    await expect(pool.render(data)).rejects.toThrow(/closed/);
  });
});

describe('workerExecArgv', () => {
  it('drops the parent’s tsx loader (registered once in the worker) and --input-type, keeps the rest', () => {
    expect(workerExecArgv(['--import', 'tsx', '--conditions', 'development'])).toEqual(['--conditions', 'development']);
    expect(workerExecArgv(['--require', '/app/node_modules/tsx/dist/preflight.cjs', '--import', 'file:///app/node_modules/tsx/dist/loader.mjs', '--enable-source-maps'])).toEqual([
      '--enable-source-maps',
    ]);
    expect(workerExecArgv(['--import=tsx', '--input-type=module', '--import=./otel.mjs'])).toEqual(['--import', './otel.mjs']);
  });
});

/** OS threads of this process (Linux), to see that close() really ended the workers. */
function countThreads(): number | null {
  try {
    const status = readFileSync('/proc/self/status', 'utf8');
    return Number(/^Threads:\s+(\d+)/m.exec(status)?.[1] ?? NaN);
  } catch {
    return null;
  }
}

/**
 * The `x y w h re` operators of the PDF's content streams, in points with the
 * origin at the bottom left (PDF's own coordinates; `h` negative downwards).
 */
function rectangles(pdf: Uint8Array): { x: number; y: number; w: number; h: number }[] {
  const text = Buffer.from(pdf).toString('latin1');
  const rects: { x: number; y: number; w: number; h: number }[] = [];
  for (const match of text.matchAll(/stream\r?\n([\s\S]*?)\r?\nendstream/g)) {
    let content: string;
    try {
      content = inflateSync(Buffer.from(match[1]!, 'latin1')).toString('latin1');
    } catch {
      continue; // not a deflated stream
    }
    for (const re of content.matchAll(/(-?[\d.]+) (-?[\d.]+) (-?[\d.]+) (-?[\d.]+) re\b/g)) {
      const [x, y, w, h] = re.slice(1, 5).map(Number) as [number, number, number, number];
      rects.push({ x, y, w, h });
    }
  }
  return rects;
}

/** Minimal PNG reader (8-bit grey/RGB/RGBA, no interlace): enough to check the QR pixels. */
function decodePng(png: Buffer): { width: number; height: number; pixel: (x: number, y: number) => number } {
  let offset = 8;
  let width = 0;
  let height = 0;
  let channels = 0;
  const idat: Buffer[] = [];
  while (offset < png.length) {
    const length = png.readUInt32BE(offset);
    const type = png.toString('latin1', offset + 4, offset + 8);
    const body = png.subarray(offset + 8, offset + 8 + length);
    if (type === 'IHDR') {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      expect(body[8]).toBe(8); // bit depth
      expect(body[12]).toBe(0); // no interlace
      channels = ({ 0: 1, 2: 3, 4: 2, 6: 4 } as Record<number, number>)[body[9]!]!;
    } else if (type === 'IDAT') {
      idat.push(body);
    }
    offset += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  const out = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]!;
    for (let i = 0; i < stride; i++) {
      const cur = raw[y * (stride + 1) + 1 + i]!;
      const a = i >= channels ? out[y * stride + i - channels]! : 0;
      const b = y > 0 ? out[(y - 1) * stride + i]! : 0;
      const c = i >= channels && y > 0 ? out[(y - 1) * stride + i - channels]! : 0;
      const p = a + b - c;
      const pa = Math.abs(p - a);
      const pb = Math.abs(p - b);
      const pc = Math.abs(p - c);
      const paeth = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      const predictor = [0, a, b, (a + b) >> 1, paeth][filter]!;
      out[y * stride + i] = (cur + predictor) & 0xff;
    }
  }
  return { width, height, pixel: (x, y) => out[y * stride + x * channels]! };
}
