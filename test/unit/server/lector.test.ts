/**
 * The photo's pre-processing on pictures at the edges of what it takes:
 * sizes refused before a pixel is decoded, the light evened out on a
 * one-byte-a-pixel grey picture, and the straightened page of a long thin
 * picture (no tesseract here: these are sharp's steps).
 */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { girada, ImagenNoValida, LADO_MINIMO, prepararImagen } from '../../../server/ocr/lector';

const blanca = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: '#ffffff' } })
    .png()
    .toBuffer();
/** A prepared picture's grey bytes (sharp would hand a one-channel PNG back as sRGB). */
const gris = (png: Buffer) => sharp(png).extractChannel(0).raw().toBuffer({ resolveWithObject: true });

async function rechazo(p: Promise<unknown>): Promise<ImagenNoValida> {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(ImagenNoValida);
  return e as ImagenNoValida;
}

describe('prepararImagen', () => {
  it.each([
    [1, 1],
    [LADO_MINIMO - 1, 500],
    [3000, 20],
    [4000, 35],
  ])('refuses %i × %i before decoding it, as too small or too thin', async (w, h) => {
    const e = await rechazo(prepararImagen(await blanca(w, h)));
    expect(e.tamano?.campo).toMatch(new RegExp(`^Demasiado (pequeña|estrecha) para leerla \\(${w} × ${h} px\\)`));
  });

  it.each([
    [LADO_MINIMO, LADO_MINIMO],
    [1800, LADO_MINIMO],
    [LADO_MINIMO, 1800],
    [3600, 64],
    [33, 35],
  ])('prepares %i × %i: one grey byte a pixel, long side at most 1800', async (w, h) => {
    const { imagen: png } = await prepararImagen(await blanca(w, h));
    expect((await sharp(png).metadata()).channels).toBe(1);
    const { data, info } = await gris(png);
    expect(Math.max(info.width, info.height)).toBe(Math.min(1800, Math.max(w, h)));
    expect(Math.min(...data)).toBe(255);
  });

  it('evens out the light down the whole page: paper lit at the top and in shadow at the bottom comes out white everywhere', async () => {
    const w = 400;
    const h = 600;
    // Paper from 240 at the top to 110 at the bottom, with a dark line of «words» (strokes 16 px long) every 60 rows.
    const pixeles = Buffer.alloc(w * h);
    for (let y = 0; y < h; y++) {
      const papel = Math.round(240 - (130 * y) / (h - 1));
      for (let x = 0; x < w; x++) pixeles[y * w + x] = y % 60 >= 28 && y % 60 < 32 && x > 40 && x < 360 && x % 24 < 16 ? Math.round(papel * 0.3) : papel;
    }
    const foto = await sharp(pixeles, { raw: { width: w, height: h, channels: 1 } })
      .png()
      .toBuffer();
    const { data } = await gris((await prepararImagen(foto)).imagen);
    for (const y of [10, 100, 200, 440, 590]) {
      expect(data[y * w + 200], `paper at row ${y}`).toBeGreaterThanOrEqual(250);
    }
    for (const y of [30, 330, 570]) {
      expect(data[y * w + 196], `ink at row ${y}`).toBeLessThan(128);
    }
  });
});

describe('girada', () => {
  it.each([0, 0.003, 0.1, -0.2, 0.5])('gives the page of a long thin picture turned by %f rad at its own size, one byte a pixel', async (radianes) => {
    const { imagen } = await prepararImagen(await blanca(1800, 40));
    const pagina = await girada(imagen, radianes);
    expect([pagina.width, pagina.height]).toEqual([1800, 40]);
    expect(pagina.data.length).toBe(1800 * 40);
    expect(Math.min(...pagina.data)).toBeGreaterThanOrEqual(250); // white, the parts turned out of the frame included
  });
});
