/**
 * POST /fotos over HTTP on the real database: a phone-like photo of a printed
 * delivery note (typeset with the DeCA's own font, rasterised by poppler,
 * tilted and saved as JPEG 60) read by sharp + tesseract.js into the known
 * NIFs, plates, date and weight; multipart and base64; the limits, the
 * monthly photo quota and bad input, none of which spends a read.
 */
import sharp from 'sharp';
import { beforeAll, describe, expect } from 'vitest';
import { FotoLeida } from '../../shared/schemas/fotos';
import { albaranAleatorio, degradacionAleatoria, fotografiar } from '../fixtures/albaranes';
import { it, type Fx } from '../support/fixtures';
import { herramienta } from '../support/herramientas';

const pdftoppm = herramienta('pdftoppm');
const manuscrita = herramienta('fonts-humor-sans');

const LINEAS = [
  'ALBARÁN DE ENTREGA Nº 4711',
  'Fecha: 23/11/2026',
  '',
  'Remitente:',
  'Frutas Peñalara, S.A.',
  'NIF: A58818501',
  'Camí Vell 3, 25001 Lleida',
  '',
  'Transportista:',
  'Transportes Núñez, S.L.',
  'CIF B-12345674',
  '',
  'Lugar de descarga: Mercamálaga, Málaga',
  'Matrícula: 1234 BCD   Remolque: R-5678-BBC',
  'Mercancía: Piñones',
  'Peso bruto: 18.250 kg',
];

async function enviarFoto({ app, c }: Fx, foto: Uint8Array, key = c.live, base = '/api/v1') {
  const form = new FormData();
  form.append('foto', new Blob([foto as BlobPart], { type: 'image/jpeg' }), 'albaran.jpg');
  const res = await fetch(`${app.url}${base}/fotos`, { method: 'POST', headers: { authorization: `Bearer ${key}` }, body: form });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

const fotosUsadas = async ({ app, c }: Fx) => (await app.request('GET', '/api/v1/cuenta', { key: c.live })).body.cuenta.cuota.fotos as { limite: number | null; usadas: number };

describe.skipIf(!pdftoppm)('POST /fotos', () => {
  let foto: Buffer;
  /** The top of the note (title, date, sender and its NIF): quick to read. */
  let cabecera: Buffer;
  beforeAll(async () => {
    foto = await fotografiar(pdftoppm!, LINEAS, { grados: 2, cizalla: 0.01, desenfoque: 0.6, ruido: 10, luz: 0.2, calidad: 60, perspectiva: 0.02 });
    cabecera = await sharp(foto).extract({ left: 0, top: 0, width: 1000, height: 330 }).jpeg({ quality: 80 }).toBuffer();
  });

  it('reads a photographed delivery note into a DeCA proposal with the known NIFs, plates, date and weight, and spends one read', { timeout: 60_000 }, async ({ app, cuentaNueva: c }) => {
    const fx = { app, c } as Fx;
    expect(await fotosUsadas(fx)).toEqual({ limite: 20, usadas: 0, restantes: 20 });
    const r = await enviarFoto(fx, foto);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const leida = FotoLeida.parse(r.body);
    expect(leida.propuesta).toMatchObject({
      cargador_nif: 'A58818501',
      cargador_nombre: 'Frutas Peñalara, S.A.',
      transp_nif: 'B12345674',
      fecha_transporte: '2026-11-23',
      matricula: '1234BCD',
      matricula_remolque: 'R5678BBC',
      envios: [expect.objectContaining({ peso: 18250, unidad: 'kg', naturaleza: 'Piñones' })],
    });
    expect(leida.confianza.cargador_nif).toBeGreaterThanOrEqual(0.8);
    expect(leida.texto).toMatch(/Remitente/);
    expect((await fotosUsadas(fx)).usadas).toBe(1);
    // Nothing was created.
    expect((await app.request('GET', '/api/v1/decas', { key: c.live })).body.decas).toHaveLength(0);

    // The same photo as JSON base64, with a data: prefix.
    const b64 = await app.request('POST', '/api/v1/fotos', { key: c.live, body: { imagen_base64: `data:image/jpeg;base64,${foto.toString('base64')}` } });
    expect(b64.status).toBe(200);
    expect(b64.body.propuesta.transp_nif).toBe('B12345674');
    expect((await fotosUsadas(fx)).usadas).toBe(2);
  });

  it('refuses what is not a readable photo, or too big, with a clear error and without spending a read', { timeout: 60_000 }, async ({ app, cuentaNueva: c }) => {
    const fx = { app, c } as Fx;
    const texto = await enviarFoto(fx, new TextEncoder().encode('Esto es un albarán escrito en un .txt'));
    expect(texto.status).toBe(422);
    expect(texto.body.error.codigo).toBe('validacion');
    expect(texto.body.error.campos.foto).toMatch(/No es una imagen válida/);
    const truncada = await enviarFoto(fx, foto.subarray(0, Math.floor(foto.length / 2)));
    expect(truncada.status).toBe(422);
    expect(truncada.body.error.campos).toHaveProperty('foto');
    const vacia = await app.request('POST', '/api/v1/fotos', { key: c.live, body: {} });
    expect(vacia.status).toBe(422);
    expect(vacia.body.error.campos).toHaveProperty('imagen_base64');
    const grande = await enviarFoto(fx, new Uint8Array(3 * 1024 * 1024));
    expect(grande.status).toBe(413);
    expect(grande.body.error.mensaje).toMatch(/2 MB/);
    const grandeB64 = await app.request('POST', '/api/v1/fotos', { key: c.live, body: { imagen_base64: Buffer.alloc(3 * 1024 * 1024).toString('base64') } });
    expect(grandeB64.status).toBe(413);
    const noBase64 = await app.request('POST', '/api/v1/fotos', { key: c.live, body: { imagen_base64: '¡esto no!' } });
    expect(noBase64.status).toBe(422);
    expect((await fotosUsadas(fx)).usadas).toBe(0);
    const soloLectura = await enviarFoto(fx, foto, c.liveReadOnly);
    expect(soloLectura.status).toBe(403);
  });

  it('reads PNG, WebP and HEIF (AV1) as well as JPEG; a HEIC coded in HEVC gets its own explanation', { timeout: 60_000 }, async ({ app, cuentaNueva: c }) => {
    const fx = { app, c } as Fx;
    for (const formato of ['png', 'webp', 'heif'] as const) {
      const bytes = await sharp(cabecera).toFormat(formato, formato === 'heif' ? { compression: 'av1' } : {}).toBuffer();
      const r = await enviarFoto(fx, bytes, c.test, '/demo/api/v1');
      expect(r.status, `${formato}: ${JSON.stringify(r.body)}`).toBe(200);
      expect(r.body.propuesta.cargador_nif, formato).toBe('A58818501');
    }
    // iPhones save HEIC coded in HEVC, which sharp's prebuilt libheif does not decode. No HEVC
    // encoder ships with sharp, so the HEIC here is an AV1 HEIF relabelled with HEVC's brand and codec.
    const heic = Buffer.from(await sharp(cabecera).heif({ compression: 'av1' }).toBuffer());
    for (const [de, a] of [['avif', 'heic'], ['av01', 'hvc1'], ['av1C', 'hvcC']]) {
      for (let i = heic.indexOf(de!, 0, 'latin1'); i >= 0; i = heic.indexOf(de!, i + 1, 'latin1')) heic.write(a!, i, 'latin1');
    }
    const r = await enviarFoto(fx, heic, c.test, '/demo/api/v1');
    expect(r.status).toBe(422);
    expect(r.body.error.campos.foto).toMatch(/HEIC en formato HEVC.*envíela como JPEG/);
  });

  it('queues a burst of 20 photos on the reader’s two workers instead of starting 20', { timeout: 120_000 }, async ({ app, cuentaNueva: c }) => {
    const fx = { app, c } as Fx;
    const visto = { trabajadores: 0, enCola: 0 };
    const muestreo = setInterval(() => {
      const e = app.services.fotos.estado();
      visto.trabajadores = Math.max(visto.trabajadores, e.trabajadores);
      visto.enCola = Math.max(visto.enCola, e.enCola);
    }, 5);
    try {
      const respuestas = await Promise.all(Array.from({ length: 20 }, () => enviarFoto(fx, cabecera, c.test, '/demo/api/v1')));
      expect(respuestas.map((r) => r.status)).toEqual(Array(20).fill(200));
      expect(new Set(respuestas.map((r) => r.body.propuesta.cargador_nif))).toEqual(new Set(['A58818501']));
    } finally {
      clearInterval(muestreo);
    }
    expect(visto.trabajadores).toBeLessThanOrEqual(2);
    expect(visto.trabajadores).toBeGreaterThan(0);
    // All but the two being read waited their turn.
    expect(visto.enCola).toBeGreaterThanOrEqual(15);
    expect(app.services.fotos.estado()).toEqual({ trabajadores: visto.trabajadores, enCola: 0 });
  });

  it.skipIf(!manuscrita)('reads again, closer, the NIF and plate lines of a handwritten note that the page reading got wrong', { timeout: 60_000 }, async ({ app, cuentaNueva: c }) => {
    const fx = { app, c } as Fx;
    // Generated forms filled in by hand (seeds the benchmark does not use). Read as a whole page, the first
    // gives no CIF for its shipper (its B taken for an 8 and a digit misread: no check digit holds) and the
    // second no tractor plate; each line read again, enlarged, holds.
    for (const [semilla, campo] of [[6, 'cargador_nif'], [21, 'matricula']] as const) {
      const { lineas, verdad, estilo } = albaranAleatorio(semilla, undefined, ['manuscrito']);
      const r = await enviarFoto(fx, await fotografiar(pdftoppm!, lineas, degradacionAleatoria(semilla), estilo), c.test, '/demo/api/v1');
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(r.body.propuesta[campo], `${semilla}: ${r.body.texto}`).toBe(verdad[campo]);
    }
  });

  it('answers a photo sent again with the same Idempotency-Key with the first reading, spending one read', { timeout: 60_000 }, async ({ app, cuentaNueva: c }) => {
    const fx = { app, c } as Fx;
    const enviar = (foto: Uint8Array, clave: string) => {
      const form = new FormData();
      form.append('foto', new Blob([foto as BlobPart], { type: 'image/jpeg' }), 'albaran.jpg');
      return fetch(`${app.url}/api/v1/fotos`, { method: 'POST', headers: { authorization: `Bearer ${c.live}`, 'idempotency-key': clave }, body: form });
    };
    const primera = await enviar(cabecera, 'foto-1');
    expect(primera.status).toBe(200);
    const otra = await enviar(cabecera, 'foto-1');
    expect(otra.status).toBe(200);
    expect(otra.headers.get('idempotent-replayed')).toBe('true');
    expect(await otra.json()).toEqual(await primera.json());
    expect((await fotosUsadas(fx)).usadas).toBe(1);
    // Another photo under the same key is a mistake, not a repeat.
    const distinta = await enviar(foto, 'foto-1');
    expect(distinta.status).toBe(422);
    expect(((await distinta.json()) as { error: { campos: Record<string, string> } }).error.campos).toHaveProperty('Idempotency-Key');
    expect((await fotosUsadas(fx)).usadas).toBe(1);
  });

  it('stops at 20 reads a month on the free plan (429 limite_plan, no work done); the test environment has no limit', { timeout: 60_000 }, async ({ app, cuentaNueva: c }) => {
    const fx = { app, c } as Fx;
    const mes = (await app.request('GET', '/api/v1/cuenta', { key: c.live })).body.cuenta.cuota.periodo as string;
    await app.database.db.insertInto('uso_mensual').values({ account_id: c.account.id, entorno: 'produccion', mes, decas: 0, fotos: 20 }).execute();
    const r = await enviarFoto(fx, foto);
    expect(r.status).toBe(429);
    expect(r.body.error.codigo).toBe('limite_plan');
    expect(r.body.error.mensaje).toMatch(/20 lecturas de fotos/);
    expect((await fotosUsadas(fx)).usadas).toBe(20);
    const pruebas = await enviarFoto(fx, foto, c.test, '/demo/api/v1');
    expect(pruebas.status).toBe(200);
  });
});
