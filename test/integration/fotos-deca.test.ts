/**
 * The photo of a delivery note stays with the DeCA made from it: POST /fotos
 * keeps the photo as received and answers its `foto_id`; POST /decas with it
 * links it; GET /decas/{id}/foto gives the same bytes to the account, and to
 * no one else, never on a public page. A photo that became no DeCA is
 * deleted by the hourly maintenance 30 days after it was read; a linked one
 * goes with its DeCA's month.
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { unzipSync } from 'fflate';
import sharp from 'sharp';
import { describe, expect } from 'vitest';
import { mesDeId } from '../../server/db/particiones';
import { runMaintenanceOnce } from '../../server/jobs/maintenance';
import { FotoLeida } from '../../shared/schemas/fotos';
import { decaCompleta } from '../support/decas';
import { CSRF, iniciarSesion } from '../support/decas-helpers';
import { errorDe, postDeca } from '../support/decas-http';
import { descargar, tokenExportacion } from '../support/exportacion';
import { type CuentaDePrueba, it, type TestApp } from '../support/fixtures';
import { fotoGuardada } from '../support/fotos';
import { usuarioCon } from '../support/usuarios';

const DIA = 86_400_000;

/** A small picture (nothing to read on it: the reading is quick), a different one for each `n`. */
const foto = (n: number) =>
  sharp({ create: { width: 320, height: 200, channels: 3, background: { r: 255, g: 255 - n, b: 255 } } })
    .png()
    .toBuffer();

/** POST /fotos as a form, as the app sends it. */
async function leer(app: TestApp, key: string, bytes: Uint8Array, headers: Record<string, string> = {}) {
  const form = new FormData();
  form.append('foto', new Blob([bytes as BlobPart], { type: 'image/png' }), 'albaran.png');
  const res = await fetch(`${app.url}/api/v1/fotos`, { method: 'POST', headers: { authorization: `Bearer ${key}`, ...headers }, body: form });
  return { status: res.status, body: (await res.json()) as unknown, replayed: res.headers.get('idempotent-replayed') };
}

/** GET /decas/{id}/foto with a key or a session cookie: status, type and the bytes as they came. */
async function fotoDe(app: TestApp, id: number | string, auth: { key?: string; cookie?: string }, base = '/api/v1') {
  const headers: Record<string, string> = auth.key ? { authorization: `Bearer ${auth.key}` } : auth.cookie ? { cookie: auth.cookie } : {};
  const res = await fetch(`${app.url}${base}/decas/${id}/foto`, { headers });
  const bytes = Buffer.from(await res.arrayBuffer());
  return { status: res.status, tipo: res.headers.get('content-type'), etag: res.headers.get('etag'), cache: res.headers.get('cache-control'), bytes };
}

/** The photo's row and whether its blob is in the store. */
async function guardada(app: TestApp, fotoId: number) {
  const f = await app.database.db.selectFrom('fotos').selectAll().where('id', '=', fotoId).executeTakeFirst();
  return { fila: f ?? null, blob: f ? await app.services.blobs.existe(f.sha256, f.clave) : false };
}

/** A DeCA made from photo `fotoId` (issued); its id and public URLs. */
async function decaConFoto(app: TestApp, c: CuentaDePrueba, fotoId: number, extra: Record<string, unknown> = {}) {
  const res = await postDeca(app, c.live, { ...decaCompleta(), foto_id: fotoId, ...extra });
  expect(res.status, res.text).toBe(201);
  return res.body.deca as { id: number; numero: string; urls: { ficha: string; conductor: string; pdf: string; completar: string | null } };
}

describe('a delivery-note photo kept with its DeCA', () => {
  it('is kept as received when read, its foto_id answered (the same to a repeat), and linked to the DeCA created with it', { timeout: 60_000 }, async ({ app, cuentaNueva: c }) => {
    const bytes = await foto(1);
    const r = await leer(app, c.live, bytes, { 'idempotency-key': 'foto-deca-1' });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const leida = FotoLeida.parse(r.body);
    expect(leida.foto_id).toBeGreaterThan(0);
    // A repeat of the request gets the same reading and the same photo; another reading of the same bytes is another photo.
    const repetida = await leer(app, c.live, bytes, { 'idempotency-key': 'foto-deca-1' });
    expect(repetida.replayed).toBe('true');
    expect(FotoLeida.parse(repetida.body).foto_id).toBe(leida.foto_id);
    const otra = FotoLeida.parse((await leer(app, c.live, bytes)).body);
    expect(otra.foto_id).not.toBe(leida.foto_id);
    expect(await app.database.db.selectFrom('fotos').select('id').where('account_id', '=', c.account.id).execute()).toHaveLength(2);

    // The bytes as received, in the blob store; waiting for a DeCA, due in 30 days.
    const { fila, blob } = await guardada(app, leida.foto_id);
    expect(blob).toBe(true);
    expect(fila).toMatchObject({ entorno: 'produccion', tipo: 'image/png', bytes: bytes.length, deca_id: null });
    expect(Buffer.from(await app.services.blobs.leer(fila!.sha256, fila!.clave)).equals(bytes)).toBe(true);
    expect(fila!.caduca_at!.getTime() - fila!.created_at.getTime()).toBe(30 * DIA);

    const deca = await decaConFoto(app, c, leida.foto_id);
    expect((await guardada(app, leida.foto_id)).fila).toMatchObject({ deca_id: deca.id, caduca_at: null });
    for (const ref of [deca.id, deca.numero]) {
      const f = await fotoDe(app, ref, { key: c.live });
      expect(f.status).toBe(200);
      expect(f.tipo).toBe('image/png');
      expect(f.bytes.equals(bytes)).toBe(true);
      expect(f.etag).toBe(`"${fila!.sha256}"`);
      expect(f.cache).toBe('private, no-cache');
    }
    // A read-only key and a signed-in user of the account see it too (the app shows it in the DeCA's page).
    expect((await fotoDe(app, deca.id, { key: c.liveReadOnly })).bytes.equals(bytes)).toBe(true);
    const admin = await iniciarSesion(app, c.email, c.password);
    const sesion = await fotoDe(app, deca.id, { cookie: admin });
    expect(sesion.status).toBe(200);
    expect(sesion.bytes.equals(bytes)).toBe(true);
  });

  it('is the account’s only: another account, the other environment, a driver the DeCA is not theirs and no key get nothing; no public page shows it', { timeout: 60_000 }, async ({
    app,
    cuentaNueva: c,
    c: otra,
  }) => {
    const bytes = await foto(2);
    const fotoId = await fotoGuardada(app, c.account.id, 'produccion', bytes);
    const deca = await decaConFoto(app, c, fotoId, { emitir: false, cargador_nombre: undefined, cargador_nif: undefined });
    expect((await fotoDe(app, deca.id, { key: c.live })).status).toBe(200);

    for (const [quien, pedir] of [
      ['another account', () => fotoDe(app, deca.id, { key: otra.live })],
      ['the test environment', () => fotoDe(app, deca.id, { key: c.test }, '/demo/api/v1')],
      ['no key', () => fotoDe(app, deca.id, {})],
    ] as const) {
      const f = await pedir();
      expect(f.status, quien).toBe(quien === 'no key' ? 401 : 404);
      expect(f.bytes.includes(bytes.subarray(0, 64)), quien).toBe(false);
    }
    const admin = await iniciarSesion(app, c.email, c.password);
    const conductor = await usuarioCon(app, admin, 'conductor');
    expect((await fotoDe(app, deca.id, { cookie: conductor.cookie })).status).toBe(404);

    // The public pages (the inspector's ficha, the driver's page, the completion link) name no photo and carry none of it.
    const emitida = await decaConFoto(app, c, await fotoGuardada(app, c.account.id, 'produccion', await foto(3)));
    const fila = (await guardada(app, fotoId)).fila!;
    for (const url of [emitida.urls.ficha, emitida.urls.conductor, deca.urls.completar!]) {
      const res = await fetch(`${app.url}${new URL(url).pathname}`);
      const html = await res.text();
      expect(res.status, url).toBe(200);
      expect(html, url).not.toMatch(/\/foto\b|albaran/);
      expect(html, url).not.toContain(fila.sha256);
      expect(html, url).not.toContain(fila.clave);
    }
  });

  it('refuses with 422 on foto_id a photo unknown, of another account or environment, or already another DeCA’s, before taking a number', async ({ app, cuentaNueva: c, c: otra }) => {
    const deOtra = await fotoGuardada(app, otra.account.id, 'produccion', await foto(4));
    const dePruebas = await fotoGuardada(app, c.account.id, 'pruebas', await foto(5));
    const propia = await fotoGuardada(app, c.account.id, 'produccion', await foto(6));
    for (const fotoId of [999_999_999, deOtra, dePruebas]) {
      const res = await postDeca(app, c.live, { ...decaCompleta(), foto_id: fotoId });
      expect(res.status, res.text).toBe(422);
      const e = errorDe(res);
      expect(e.codigo).toBe('validacion');
      expect(e.campos).toEqual({ foto_id: 'No hay una foto con ese id en la cuenta' });
      expect(e.mensaje).toContain(`No hay ninguna foto con foto_id ${fotoId} en esta cuenta`);
    }
    expect((await postDeca(app, c.live, { ...decaCompleta(), foto_id: 'doce' })).body.error.campos).toHaveProperty('foto_id');
    const primera = await decaConFoto(app, c, propia);
    const segunda = await postDeca(app, c.live, { ...decaCompleta(), foto_id: propia });
    expect(segunda.status).toBe(422);
    expect(errorDe(segunda).campos).toEqual({ foto_id: `Ya es de la DeCA ${primera.numero}` });
    // None of the refusals took a number: the next DeCA is the one after the first.
    const siguiente = await postDeca(app, c.live, decaCompleta());
    expect(Number(siguiente.body.deca.numero.slice(5))).toBe(Number(primera.numero.slice(5)) + 1);
    // The photo's owner still gets its own photo; a DeCA with none answers 404 saying so.
    expect((await fotoDe(app, primera.id, { key: c.live })).status).toBe(200);
    const sin = await app.request('GET', `/api/v1/decas/${siguiente.body.deca.id}/foto`, { key: c.live });
    expect(sin.status).toBe(404);
    expect(errorDe(sin).mensaje).toBe(`La DeCA ${siguiente.body.deca.numero} no tiene foto del albarán: no se creó a partir de una.`);
  });

  it('deletes with the hourly maintenance a photo that became no DeCA 30 days after it was read (or at once once its pending DeCA is deleted), keeping the linked ones', async ({
    app,
    cuentaNueva: c,
  }) => {
    const ahora = app.clock.now();
    const vieja = await fotoGuardada(app, c.account.id, 'produccion', await foto(7), new Date(ahora.getTime() - 29 * DIA));
    const reciente = await fotoGuardada(app, c.account.id, 'produccion', await foto(8));
    const unida = await fotoGuardada(app, c.account.id, 'produccion', await foto(9), new Date(ahora.getTime() - 29 * DIA));
    const deca = await decaConFoto(app, c, unida);
    const deBorrada = await fotoGuardada(app, c.account.id, 'produccion', await foto(10));
    const pendiente = await decaConFoto(app, c, deBorrada, { emitir: false });
    expect((await app.request('DELETE', `/api/v1/decas/${pendiente.id}`, { key: c.live })).status).toBe(200);
    const blobs = app.services.blobs;

    // Now: only the photo of the deleted DeCA goes.
    const hoy = await runMaintenanceOnce({ db: app.database.db, clock: app.clock, retencion: { blobs, meses: 12 } });
    expect(hoy.fotos).toBeGreaterThanOrEqual(1);
    expect(await guardada(app, deBorrada)).toEqual({ fila: null, blob: false });
    for (const id of [vieja, reciente, unida]) expect((await guardada(app, id)).blob, String(id)).toBe(true);

    // Two days on, the photo read 31 days before is gone, row and bytes; the others stay.
    const despues = { now: () => new Date(ahora.getTime() + 2 * DIA) };
    const r = await runMaintenanceOnce({ db: app.database.db, clock: despues, retencion: { blobs, meses: 12 } });
    expect(r.fotos).toBe(1);
    expect(await guardada(app, vieja)).toEqual({ fila: null, blob: false });
    expect((await guardada(app, reciente)).blob).toBe(true);
    expect((await guardada(app, unida)).fila).toMatchObject({ deca_id: deca.id });
    expect((await guardada(app, unida)).blob).toBe(true);
    expect((await fotoDe(app, deca.id, { key: c.live })).status).toBe(200);
    // A DeCA can no longer be made with the photo that went.
    const tarde = await postDeca(app, c.live, { ...decaCompleta(), foto_id: vieja });
    expect(errorDe(tarde).campos).toEqual({ foto_id: 'No hay una foto con ese id en la cuenta' });
  });

  it('lets go at once, when the account is closed, every photo but those of the issued DeCAs it keeps', async ({ app, cuentaNueva: c }) => {
    const deEmitida = await fotoGuardada(app, c.account.id, 'produccion', await foto(13));
    const emitida = await decaConFoto(app, c, deEmitida);
    const dePendiente = await fotoGuardada(app, c.account.id, 'produccion', await foto(14));
    const pendiente = await decaConFoto(app, c, dePendiente, { emitir: false });
    const suelta = await fotoGuardada(app, c.account.id, 'produccion', await foto(15));
    const dePruebas = await fotoGuardada(app, c.account.id, 'pruebas', await foto(16));
    const prueba = await postDeca(app, c.test, { ...decaCompleta(), foto_id: dePruebas }, { entorno: 'pruebas' });
    expect(prueba.status, prueba.text).toBe(201);

    const admin = await iniciarSesion(app, c.email, c.password);
    const cierre = await app.request('POST', '/app/api/cuenta/cierre', { cookie: admin, headers: CSRF, body: { password: c.password, nif: c.account.nif } });
    expect(cierre.status, cierre.text).toBe(200);
    // The export holds every photo as received: a DeCA's under its number, a photo that became no DeCA by its id, each environment's apart.
    const zip = await descargar(app, await tokenExportacion(app, c.email));
    expect(zip.status, zip.text.slice(0, 300)).toBe(200);
    const dentro = unzipSync(new Uint8Array(zip.bytes));
    const fotos = Object.keys(dentro).filter((n) => n.includes('fotos/'));
    expect(fotos.sort()).toEqual([`fotos/DeCA-${emitida.numero}.png`, `fotos/DeCA-${pendiente.numero}.png`, `fotos/foto-${suelta}.png`, `pruebas/fotos/DeCA-${prueba.body.deca.numero}.png`].sort());
    expect(Buffer.from(dentro[`fotos/foto-${suelta}.png`]!).equals(await foto(15))).toBe(true);
    expect(Buffer.from(dentro[`fotos/DeCA-${emitida.numero}.png`]!).equals(await foto(13))).toBe(true);
    expect(JSON.parse(new TextDecoder().decode(dentro['cuenta.json'])).decas.fotos).toBe(4);
    await runMaintenanceOnce({ db: app.database.db, clock: app.clock, retencion: { blobs: app.services.blobs, meses: 12 } });
    for (const id of [dePendiente, suelta, dePruebas]) expect(await guardada(app, id), String(id)).toEqual({ fila: null, blob: false });
    expect(await guardada(app, deEmitida)).toMatchObject({ fila: { deca_id: emitida.id, caduca_at: null }, blob: true });
  });

  // Last: it lets go this month's DeCAs of the file's database.
  it('lets a linked photo go, row and bytes, with its DeCA’s month', async ({ app, cuentaNueva: c }) => {
    const fotoId = await fotoGuardada(app, c.account.id, 'produccion', await foto(11));
    const deca = await decaConFoto(app, c, fotoId);
    const suelta = await fotoGuardada(app, c.account.id, 'produccion', await foto(12));
    const blobs = app.services.blobs;
    const hoy = app.clock.now();
    const catorceMeses = new Date(Date.UTC(hoy.getUTCFullYear(), hoy.getUTCMonth() + 14, 15));
    // Within the photo's 30 days by its own clock, so only the month takes it.
    const r = await runMaintenanceOnce({ db: app.database.db, clock: { now: () => catorceMeses }, retencion: { blobs, meses: 12 } });
    const mes = r.soltados.meses.find((m) => m.particion === `decas_p${mesDeId(deca.id)}`);
    expect(mes?.fotos).toBeGreaterThanOrEqual(1);
    expect(await guardada(app, fotoId)).toEqual({ fila: null, blob: false });
    expect((await fotoDe(app, deca.id, { key: c.live })).status).toBe(404);
    // The unlinked one went by its own 30 days in the same round, not with the month.
    expect(await guardada(app, suelta)).toEqual({ fila: null, blob: false });
    expect(r.fotos).toBeGreaterThanOrEqual(1);
  });

  it('keeps no photo whose read was refused in the transaction: at the month’s last read, of three sent at once one is kept, row and bytes', { timeout: 60_000 }, async ({ app, cuentaNueva: c }) => {
    const mes = (await app.request('GET', '/api/v1/cuenta', { key: c.live })).body.cuenta.cuota.periodo as string;
    await app.database.db.insertInto('uso_mensual').values({ account_id: c.account.id, entorno: 'produccion', mes, decas: 0, fotos: 19 }).execute();
    const enDisco = async () => {
      const dir = path.join(app.services.blobs.descripcion.replace(/^disco /, ''), 'foto');
      return (await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => [])).filter((e) => e.isFile() && !e.name.startsWith('.')).length;
    };
    const antes = await enDisco();
    // All three pass the check before reading; the count in the transaction lets one through.
    const r = await Promise.all([10, 11, 12].map(async (n) => leer(app, c.live, await foto(n))));
    expect(r.map((x) => x.status).sort()).toEqual([200, 429, 429]);
    const filas = await app.database.db.selectFrom('fotos').select(['id', 'sha256', 'clave']).where('account_id', '=', c.account.id).execute();
    expect(filas).toHaveLength(1);
    expect(await enDisco()).toBe(antes + 1);
    expect(await app.services.blobs.existe(filas[0]!.sha256, filas[0]!.clave)).toBe(true);
  });
});
