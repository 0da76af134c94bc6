/**
 * The QR on the issued PDF, read the way a scanner reads the paper: the PDF
 * downloaded over real HTTP, its first page rasterised by poppler's pdftoppm
 * in grey, the picture decoded by jsQR. What the code holds must be exactly
 * the DeCA's public page URL, at 150 dpi (an ordinary office scan) and at
 * 72 dpi (a coarse one: ~2.8 px per module for a ficha URL).
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { inflateSync } from 'node:zlib';
import jsQR from 'jsqr';
import { describe, expect } from 'vitest';
import { leerTtf } from '../../shared/pdf/recorte-ttf';
import { formatMadrid } from '../../shared/rules/fechas';
import { Deca, DecaCreada } from '../../shared/schemas/deca';
import { decaCompleta } from '../support/decas';
import { test } from '../support/fixtures';
import { herramienta } from '../support/herramientas';
import { cmsDelPdf } from '../support/sello';

const run = promisify(execFile);
const pdftoppm = herramienta('pdftoppm');

interface Raster {
  width: number;
  height: number;
  /** RGBA, 4 bytes a pixel, as jsQR takes it. */
  rgba: Uint8ClampedArray;
}

/**
 * Reads a binary PGM (P5, what `pdftoppm -gray` writes) or PPM (P6) with
 * 8-bit samples. The header is magic, width, height and maximum value,
 * separated by whitespace (and possibly `#` comments), then one whitespace
 * byte before the samples.
 */
function parsePnm(file: Buffer): Raster {
  const magic = file.toString('latin1', 0, 2);
  if (magic !== 'P5' && magic !== 'P6') throw new Error(`not a binary PGM/PPM: ${JSON.stringify(magic)}`);
  const channels = magic === 'P5' ? 1 : 3;
  const fields: number[] = [];
  let offset = 2;
  while (fields.length < 3) {
    const ch = file[offset]!;
    if (ch === 0x23) {
      while (file[offset] !== 0x0a) offset++; // comment to the end of the line
    } else if (ch >= 0x30 && ch <= 0x39) {
      let value = 0;
      while (file[offset]! >= 0x30 && file[offset]! <= 0x39) value = value * 10 + (file[offset++]! - 0x30);
      fields.push(value);
      continue;
    }
    offset++;
  }
  const [width, height, maxValue] = fields as [number, number, number];
  if (maxValue !== 255) throw new Error(`expected 8-bit samples, the maximum value is ${maxValue}`);
  offset++; // the single whitespace byte after the maximum value
  const pixels = width * height;
  if (file.length - offset < pixels * channels) throw new Error(`${file.length - offset} bytes of samples for ${width}×${height}×${channels}`);
  const rgba = new Uint8ClampedArray(pixels * 4);
  for (let p = 0; p < pixels; p++) {
    const s = offset + p * channels;
    rgba[p * 4] = file[s]!;
    rgba[p * 4 + 1] = file[s + (channels === 3 ? 1 : 0)]!;
    rgba[p * 4 + 2] = file[s + (channels === 3 ? 2 : 0)]!;
    rgba[p * 4 + 3] = 255;
  }
  return { width, height, rgba };
}

/** The issued DeCA's PDF on disk and its ficha URL as GET /decas/{id} gives it, once per file. */
const it = test.extend('documento', { scope: 'file' }, async ({ app, c }, { onCleanup }) => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'deca-pdf-qr-'));
  onCleanup(() => rm(dir, { recursive: true, force: true }));

  const created = await app.request('POST', '/api/v1/decas', { key: c.live, body: decaCompleta() });
  expect(created.status, created.text).toBe(201);
  const { deca } = DecaCreada.parse(created.body);
  expect(deca.estado).toBe('emitido');

  // The URL as the API gives it to an integrator, read separately from the PDF.
  const got = await app.request('GET', `/api/v1/decas/${deca.id}`, { key: c.live });
  expect(got.status, got.text).toBe(200);
  const leida = Deca.parse(got.body.deca);
  const ficha = leida.urls.ficha;

  const res = await fetch(`${app.url}/api/v1/decas/${deca.id}/pdf`, { headers: { authorization: `Bearer ${c.live}` } });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/pdf');
  const pdfPath = path.join(dir, 'deca.pdf');
  await writeFile(pdfPath, Buffer.from(await res.arrayBuffer()));
  return { dir, pdfPath, ficha, emitidoAt: leida.emitido_at };
});

/** The first page in grey at `dpi`, as pdftoppm rasterises it (anti-aliased, like a scan). */
async function firstPage(documento: { dir: string; pdfPath: string }, dpi: number): Promise<Raster> {
  const prefix = path.join(documento.dir, `pagina-${dpi}`);
  await run(pdftoppm!, ['-f', '1', '-l', '1', '-r', String(dpi), '-gray', '-singlefile', documento.pdfPath, prefix]);
  return parsePnm(await readFile(`${prefix}.pgm`));
}

describe.skipIf(!pdftoppm)('the QR printed on the DeCA PDF', () => {
  it.for([150, 72])('decodes at %i dpi to exactly the ficha URL of GET /decas/{id}', async (dpi, { documento }) => {
    const page = await firstPage(documento, dpi);
    // A4 at that resolution (pdftoppm rounds up): the whole page is searched, text and rules included.
    expect(page.width).toBe(Math.ceil((210 / 25.4) * dpi));
    expect(page.height).toBe(Math.ceil((297 / 25.4) * dpi));

    // Black on white: no need to also try the inverted picture.
    const code = jsQR(page.rgba, page.width, page.height, { inversionAttempts: 'dontInvert' });
    expect(code, `no QR found at ${dpi} dpi`).not.toBeNull();
    expect(code!.data).toBe(documento.ficha);
    // Found where it is printed: the top right of the first page.
    expect(code!.location.topLeftCorner.x).toBeGreaterThan(page.width / 2);
    expect(code!.location.bottomLeftCorner.y).toBeLessThan(page.height / 4);
  });
});

/** Another poppler-utils program, next to pdftoppm. */
const poppler = (programa: string) => path.join(path.dirname(pdftoppm!), programa);

describe.skipIf(!pdftoppm)('the issued PDF is PDF/A-2b', () => {
  it('embeds every font, declares PDF/A-2b in XMP with the number, version and parties, and carries an sRGB output intent', async ({ documento }) => {
    const fuentes = (await run(poppler('pdffonts'), [documento.pdfPath])).stdout.trim().split('\n').slice(2);
    expect(fuentes.length).toBeGreaterThan(0);
    for (const linea of fuentes) {
      const [, , , , emb] = /^(\S+)\s+(CID TrueType|TrueType|Type 1|Type 1C|CID Type 0C)\s+(\S+)\s+(yes|no)\s/.exec(linea) ?? [];
      expect(emb, linea).toBe('yes');
    }

    const meta = (await run(poppler('pdfinfo'), ['-meta', documento.pdfPath])).stdout;
    expect(meta).toContain('<pdfaid:part>2</pdfaid:part>');
    expect(meta).toContain('<pdfaid:conformance>B</pdfaid:conformance>');
    const info = (await run(poppler('pdfinfo'), [documento.pdfPath])).stdout;
    const titulo = /^Title:\s+(.*)$/m.exec(info)?.[1] ?? '';
    const asunto = /^Subject:\s+(.*)$/m.exec(info)?.[1] ?? '';
    expect(titulo).toMatch(/^DeCA \d{4}-\d{6} v1$/);
    expect(meta).toContain(`<dc:title><rdf:Alt><rdf:li xml:lang="x-default">${titulo}</rdf:li>`);
    expect(asunto).toContain(`Cargador: ${decaCompleta().cargador_nombre}`);
    expect(asunto).toContain(`Transportista: ${decaCompleta().transp_nombre}`);
    expect(meta).toContain(asunto.replace(/&/g, '&amp;'));
    expect(info).toMatch(/^Encrypted:\s+no$/m);

    const bytes = (await readFile(documento.pdfPath)).toString('latin1');
    expect(bytes).toMatch(/\/OutputIntents \[\d+ 0 R\]/);
    expect(bytes).toContain('/S /GTS_PDFA1 /OutputConditionIdentifier (sRGB IEC61966-2.1)');
    expect(bytes).not.toMatch(/\/JavaScript|\/JS\b|\/Encrypt/);
    expect(bytes).toMatch(/\/ID \[ <[0-9A-F]{32}> <[0-9A-F]{32}> \]/i);
  });
});

describe('the fonts embedded in the issued PDF', () => {
  /** An object's dictionary and (inflated) stream, by number. */
  function objeto(pdf: Buffer, n: number): { dict: string; stream: Buffer | null } {
    const texto = pdf.toString('latin1');
    const m = new RegExp(`(?:^|\\n)${n} 0 obj\\s*<<([\\s\\S]*?)>>\\s*(stream\\r?\\n|endobj)`).exec(texto);
    if (!m) throw new Error(`object ${n} not found`);
    if (m[2] === 'endobj') return { dict: m[1]!, stream: null };
    const inicio = m.index + m[0].length;
    const longitud = Number(/\/Length (\d+)/.exec(m[1]!)![1]);
    return { dict: m[1]!, stream: inflateSync(pdf.subarray(inicio, inicio + longitud)) };
  }
  const ref = (dict: string, clave: string) => Number(new RegExp(`/${clave} \\[?(\\d+) 0 R`).exec(dict)![1]);

  it('are cut to the glyphs the document prints: every glyph of its text keeps its outline, no other does', async ({ documento }) => {
    const pdf = await readFile(documento.pdfPath);
    const originales = await Promise.all(
      ['DejaVuSans-DeCA.ttf', 'DejaVuSans-Bold-DeCA.ttf'].map(async (f) => leerTtf(new Uint8Array(await readFile(new URL(`../../shared/pdf/fuentes/${f}`, import.meta.url))))),
    );
    const tipo0 = [...pdf.toString('latin1').matchAll(/(\d+) 0 obj\s*<<\/Type \/Font \/Subtype \/Type0/g)].map((m) => Number(m[1]));
    expect(tipo0).toHaveLength(2);
    for (const n of tipo0) {
      const fuente = objeto(pdf, n).dict;
      const usados = new Set(
        [
          ...objeto(pdf, ref(fuente, 'ToUnicode'))
            .stream!.toString('latin1')
            .matchAll(/<([0-9a-f]{4})><[0-9a-f]{4}>/g),
        ].map((m) => parseInt(m[1]!, 16)),
      );
      const descriptor = objeto(pdf, ref(objeto(pdf, ref(fuente, 'DescendantFonts')).dict, 'FontDescriptor')).dict;
      const programa = objeto(pdf, ref(descriptor, 'FontFile2'));
      const ttf = leerTtf(new Uint8Array(programa.stream!));
      // Regular and bold have different glyph counts: the embedded one keeps its font's.
      const original = originales.find((o) => o.numGlyphs === ttf.numGlyphs)!;
      expect(original, `${ttf.numGlyphs} glyphs`).toBeDefined();
      expect(programa.stream!.length).toBeLessThan(12_000);
      expect([...ttf.tablas.keys()]).toEqual(['glyf', 'head', 'hhea', 'hmtx', 'loca', 'maxp']);
      const largo = (g: number) => ttf.inicios[g + 1]! - ttf.inicios[g]!;
      expect(usados.size).toBeGreaterThan(20);
      const vacioEnOriginal = (g: number) => original.inicios[g + 1] === original.inicios[g]; // the space has no outline
      for (const g of usados) if (!vacioEnOriginal(g)) expect(largo(g), `glyph ${g} printed but empty`).toBeGreaterThan(0);
      const conContorno = Array.from({ length: ttf.numGlyphs }, (_, g) => g).filter((g) => largo(g) > 0);
      expect(conContorno.length).toBeLessThan(usados.size + 20); // the printed glyphs, .notdef and composite parts
    }
  });
});

const openssl = herramienta('openssl');

describe.skipIf(!pdftoppm || !openssl)('the issued PDF carries the service’s PAdES seal', () => {
  it('pdfsig finds one valid ETSI.CAdES.detached signature over the whole document, signed at the issue time', async ({ documento }) => {
    const { stdout } = await run(poppler('pdfsig'), [documento.pdfPath]);
    expect(stdout.match(/^Signature #\d+:/gm)).toHaveLength(1);
    expect(stdout).toMatch(/Signature Validation: Signature is Valid\./);
    expect(stdout).toMatch(/Total document signed/);
    expect(stdout).toMatch(/Signature Type: ETSI\.CAdES\.detached/);
    expect(stdout).toMatch(/Signing Hash Algorithm: SHA-256/);
    // The test servers seal with the P12 of test/fixtures/sello.
    expect(stdout).toMatch(/Signer Certificate Common Name: Sello de pruebas DeCA/);

    // /M is the version's issue time (a DeCA issued at creation: emitido_at, Madrid wall time in the API).
    expect(documento.emitidoAt).not.toBeNull();
    const m = /\/M \(D:(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})([+-])(\d{2})'(\d{2})'\)/.exec((await readFile(documento.pdfPath)).toString('latin1'));
    expect(m, 'the signature dictionary has /M').not.toBeNull();
    const [, a, mes, d, h, min, s, signo, oh, om] = m!;
    expect(formatMadrid(new Date(`${a}-${mes}-${d}T${h}:${min}:${s}${signo}${oh}:${om}`))).toBe(documento.emitidoAt);
  });

  it('is one revision: the seal sits in the document (one %%EOF, the trailer keeps its ID), not in an appended update', async ({ documento }) => {
    const bytes = (await readFile(documento.pdfPath)).toString('latin1');
    expect(bytes.match(/%%EOF/g)).toHaveLength(1);
    expect(bytes.match(/\/ByteRange \[0 (\d+) (\d+) (\d+) *\]/)).not.toBeNull();
    const [, , inicio, resto] = /\/ByteRange \[0 (\d+) (\d+) (\d+) *\]/.exec(bytes)!.map(Number);
    expect(inicio! + resto!).toBe(bytes.length);
    expect(bytes).toMatch(/\/AcroForm <<\/Fields \[\d+ 0 R\] \/SigFlags 3>>/);
    expect(bytes).toMatch(/\/Annot \/Subtype \/Widget \/FT \/Sig \/T \(Sello\) \/F 132 \/Rect \[0 0 0 0\]/);
  });

  it('its CMS is PAdES baseline B-B: content-type, message-digest and signing-certificate-v2 of the seal, no signing-time, the chain included', async ({ documento }) => {
    const dir = documento.dir;
    const cms = path.join(dir, 'sello.der');
    await writeFile(cms, cmsDelPdf(await readFile(documento.pdfPath)));
    const { stdout } = await run(openssl!, ['cms', '-cmsout', '-print', '-inform', 'DER', '-in', cms]);
    const firmados = stdout.slice(stdout.indexOf('signedAttrs:'), stdout.indexOf('signatureAlgorithm:', stdout.indexOf('signedAttrs:')));
    expect(firmados).toContain('contentType (1.2.840.113549.1.9.3)');
    expect(firmados).toContain('messageDigest (1.2.840.113549.1.9.4)');
    expect(firmados).toContain('id-smime-aa-signingCertificateV2 (1.2.840.113549.1.9.16.2.47)');
    expect(firmados).not.toContain('signingTime');

    // The certHash of signing-certificate-v2 is the SHA-256 of the seal's certificate.
    const certs = path.join(dir, 'certs.pem');
    await run(openssl!, ['pkcs7', '-inform', 'DER', '-in', cms, '-print_certs', '-out', certs]);
    const pem = await readFile(certs, 'utf8');
    expect(pem).toMatch(/subject=.*CN ?= ?Sello de pruebas DeCA/);
    expect(pem).toMatch(/subject=.*CN ?= ?Autoridad de pruebas/);
    const huella = (await run(openssl!, ['x509', '-in', certs, '-noout', '-fingerprint', '-sha256'])).stdout.replace(/^.*=|:|\s/g, '').toLowerCase();
    expect(firmados.replace(/\s/g, '').toLowerCase()).toContain(huella);

    // And OpenSSL verifies the detached signature over the byte range against the test CA.
    const pdf = await readFile(documento.pdfPath);
    const [, , l1, s2, l2] = /\/ByteRange \[(\d+) (\d+) (\d+) (\d+) *\]/.exec(pdf.toString('latin1'))!.map(Number);
    const contenido = path.join(dir, 'firmado.bin');
    await writeFile(contenido, Buffer.concat([pdf.subarray(0, l1), pdf.subarray(s2!, s2! + l2!)]));
    const ca = new URL('../fixtures/sello/ca.pem', import.meta.url).pathname;
    const verificado = await run(openssl!, ['cms', '-verify', '-binary', '-inform', 'DER', '-in', cms, '-content', contenido, '-CAfile', ca, '-purpose', 'any', '-out', '/dev/null']);
    expect(verificado.stderr).toMatch(/Verification successful/);
  });
});
