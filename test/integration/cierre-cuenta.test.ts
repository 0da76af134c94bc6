/**
 * «Cerrar la cuenta»: an administrator, with their password and the
 * company's NIF, closes the account. First a ZIP of everything (every DeCA
 * in CSV, every issued PDF byte for byte, the account in JSON) is written and
 * its one-time link e-mailed; then, in one transaction, keys, sessions and
 * devices stop at once and what the law does not require to keep is
 * deleted, while the issued DeCAs, their versions and history stay.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { unzipSync } from 'fflate';
import { afterAll, describe, expect } from 'vitest';
import { runAdminCommand } from '../../server/admin/commands';
import { runMaintenanceOnce } from '../../server/jobs/maintenance';
import { ErrorBody } from '../../shared/errors';
import { CuentaCerrada } from '../../shared/schemas/cuenta';
import type { TestApp } from '../support/app';
import { decaCompleta } from '../support/decas';
import { CSRF, crearDecaOk, DEMO, getBytes, iniciarSesion } from '../support/decas-helpers';
import { descargar, tokenExportacion } from '../support/exportacion';
import type { CuentaDePrueba } from '../support/factories';
import { it, test } from '../support/fixtures';
import { usuarioCon } from '../support/usuarios';
import { crearWebhookOk } from '../support/webhooks';

const DATA_DIR = mkdtempSync(path.join(os.tmpdir(), 'deca-cierre-'));
afterAll(() => rmSync(DATA_DIR, { recursive: true, force: true }));
test.override('opcionesApp', { env: { DATA_DIR } });

const EXPORTACIONES = path.join(DATA_DIR, 'exportaciones');
const archivos = () => {
  try {
    return readdirSync(EXPORTACIONES);
  } catch {
    return [];
  }
};

const cerrar = (app: TestApp, cookie: string, body: unknown) => app.request('POST', '/app/api/cuenta/cierre', { cookie, headers: CSRF, body });

/** The link is spent once the whole file went out: that is noted just after the response ends. */
async function esperarDescargada(app: TestApp, accountId: number): Promise<void> {
  for (let i = 0; i < 100; i++) {
    const e = await app.database.db.selectFrom('exportaciones').select('descargada_at').where('account_id', '=', accountId).executeTakeFirst();
    if (e?.descargada_at) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('la descarga no se anotó');
}

/** Rows of `tabla` that belong to the account. */
async function filas(app: TestApp, tabla: 'agenda' | 'webhooks' | 'sessions' | 'invitaciones' | 'idempotencia' | 'uso_mensual' | 'eventos', accountId: number): Promise<number> {
  const r = await app.database.db
    .selectFrom(tabla)
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('account_id', '=', accountId)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/** An account in use: issued DeCAs (one modified: two versions), a pending one, a test one, a webhook, address book, a pending invitation. */
async function cuentaEnUso(app: TestApp, c: CuentaDePrueba, admin: string) {
  const a = (await crearDecaOk(app, c.live, decaCompleta({ referencia: 'CIERRE-1', ref_externa: 'cierre-1' }))).deca;
  const b = (await crearDecaOk(app, c.live, decaCompleta({ referencia: 'CIERRE-2', matricula: '5678 FGH' }))).deca;
  const mod = await app.request('PATCH', `/api/v1/decas/${b.id}`, { key: c.live, body: { motivo: 'Cambio de conductor', conductor_nombre: 'Ana Pérez' } });
  expect(mod.status, mod.text).toBe(200);
  const pendiente = (await crearDecaOk(app, c.live, decaCompleta({ referencia: 'CIERRE-PENDIENTE', emitir: false }))).deca;
  const prueba = (await crearDecaOk(app, c.test, decaCompleta({ referencia: 'CIERRE-PRUEBA' }), DEMO)).deca;
  await crearWebhookOk(app, c.live, { url: 'https://93.184.216.34/deca-cierre', descripcion: 'ERP' });
  const inv = await app.request('POST', '/app/api/usuarios', { cookie: admin, headers: CSRF, body: { email: `invitada-${Date.now()}@example.com`, rol: 'oficina' } });
  expect(inv.status, inv.text).toBe(201);
  return { a, b, pendiente, prueba };
}

describe('«Cerrar la cuenta»', () => {
  it('exports everything first (CSV rows, PDFs byte for byte, the account in JSON), then deletes what is not kept and keeps the issued DeCAs', async ({ app, cuentaNueva: c }) => {
    const admin = await iniciarSesion(app, c.email, c.password);
    const { a, b, pendiente, prueba } = await cuentaEnUso(app, c, admin);
    const pdfAntes = new Map<number, Buffer>();
    for (const d of [a, b]) pdfAntes.set(d.id, (await getBytes(app, c.live, `/api/v1/decas/${d.id}/pdf`)).bytes);
    const pdfB1 = await app.database.db.selectFrom('deca_versiones').select('pdf_sha256').where('deca_id', '=', b.id).where('version', '=', 1).executeTakeFirstOrThrow();

    const res = await cerrar(app, admin, { password: c.password, nif: ' b-12345674 ' });
    expect(res.status, res.text).toBe(200);
    const r = CuentaCerrada.parse(res.body);
    expect(r).toMatchObject({ sesion_cerrada: true, exportacion: { enviada_a: c.email }, decas_conservadas: 2, conservacion: 'un año' });
    // The app's cookie goes with the session.
    expect(res.headers.getSetCookie().some((s) => /^deca_sesion=;/.test(s) || /deca_sesion=.*(Max-Age=0|expires=Thu, 01 Jan 1970)/i.test(s))).toBe(true);

    // The link's page: a button, no download on a mere GET (mail scanners open links).
    const token = await tokenExportacion(app, c.email);
    const pagina = await app.request('GET', `/p/exportacion/${token}`);
    expect(pagina.status).toBe(200);
    expect(pagina.text).toContain('Descargar los datos');
    expect(pagina.headers.get('content-security-policy')).toContain("default-src 'none'");

    const zip = await descargar(app, token);
    expect(zip.status, zip.text.slice(0, 300)).toBe(200);
    expect(zip.type).toBe('application/zip');
    const dentro = unzipSync(new Uint8Array(zip.bytes));
    const nombres = Object.keys(dentro).sort();
    expect(nombres).toEqual(
      [
        'LEAME.txt',
        'cuenta.json',
        'decas.csv',
        `pdf/DeCA-${a.numero}-v1.pdf`,
        `pdf/DeCA-${b.numero}-v1.pdf`,
        `pdf/DeCA-${b.numero}-v2.pdf`,
        'pruebas/decas.csv',
        `pruebas/pdf/DeCA-${prueba.numero}-v1.pdf`,
      ].sort(),
    );
    // Every PDF exactly as the API served it before closing (and the first version as stored).
    expect(Buffer.from(dentro[`pdf/DeCA-${a.numero}-v1.pdf`]!).equals(pdfAntes.get(a.id)!)).toBe(true);
    expect(Buffer.from(dentro[`pdf/DeCA-${b.numero}-v2.pdf`]!).equals(pdfAntes.get(b.id)!)).toBe(true);
    expect(createHash('sha256').update(dentro[`pdf/DeCA-${b.numero}-v1.pdf`]!).digest('hex')).toBe(pdfB1.pdf_sha256);
    // The CSV of GET /decas.csv: a header, then one row per shipment of every DeCA (the pending one too).
    const csv = new TextDecoder().decode(dentro['decas.csv']);
    const lineas = csv
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lineas[0]).toMatch(/^ref_externa;referencia;fecha_transporte;/);
    expect(lineas).toHaveLength(4);
    for (const ref of ['CIERRE-1', 'CIERRE-2', 'CIERRE-PENDIENTE']) expect(lineas.filter((l) => l.includes(`;${ref};`))).toHaveLength(1);
    expect(lineas.find((l) => l.includes('CIERRE-2'))).toContain('Ana Pérez');
    expect(new TextDecoder().decode(dentro['pruebas/decas.csv'])).toContain('CIERRE-PRUEBA');
    // The account: company, users, keys by name and prefix (never a secret), webhooks by URL, the address book.
    const textoJson = new TextDecoder().decode(dentro['cuenta.json']);
    for (const secreto of [c.live, c.test, c.liveReadOnly, c.password]) expect(textoJson).not.toContain(secreto);
    expect(textoJson).not.toMatch(/whsec_|scrypt\$/);
    const json = JSON.parse(textoJson);
    expect(json.empresa).toMatchObject({ nombre: c.account.nombre, nif: 'B12345674' });
    expect(json.usuarios.map((u: { email: string }) => u.email)).toEqual([c.email]);
    expect(json.claves).toHaveLength(3);
    expect(json.claves.every((k: { prefijo: string; revocada_at: string | null }) => /^dg_(live|test)_/.test(k.prefijo) && k.revocada_at === null)).toBe(true);
    expect(json.webhooks).toEqual([expect.objectContaining({ url: 'https://93.184.216.34/deca-cierre', descripcion: 'ERP' })]);
    expect(json.agenda.length).toBeGreaterThan(0);
    expect(json.invitaciones).toHaveLength(1);
    expect(json.decas).toMatchObject({ total: 4, pdf: 4 });

    // One whole download, then the link is spent.
    await esperarDescargada(app, c.account.id);
    const otra = await descargar(app, token);
    expect(otra.status).toBe(404);
    expect(otra.text).toContain('ya se descargó');

    // Kept: the issued DeCAs with their versions and history; their public pages still work.
    const db = app.database.db;
    const decas = await db.selectFrom('decas').select(['id', 'estado', 'entorno']).where('account_id', '=', c.account.id).orderBy('id').execute();
    expect(decas.map((d) => d.id)).toEqual([a.id, b.id]);
    expect(await db.selectFrom('deca_versiones').select('version').where('deca_id', '=', b.id).execute()).toHaveLength(2);
    expect((await db.selectFrom('deca_cambios').select('id').where('deca_id', '=', b.id).execute()).length).toBeGreaterThanOrEqual(2);
    // Gone: the pending and the test DeCAs, and everything that is not the DeCAs.
    expect(await db.selectFrom('decas').select('id').where('id', 'in', [pendiente.id, prueba.id]).execute()).toEqual([]);
    for (const t of ['agenda', 'webhooks', 'sessions', 'invitaciones', 'idempotencia', 'uso_mensual', 'eventos'] as const) expect(await filas(app, t, c.account.id), t).toBe(0);
    const correos = await db.selectFrom('correos').select('tipo').where('account_id', '=', c.account.id).execute();
    expect(correos.map((m) => m.tipo)).toEqual(['exportacion_cuenta']);
    const claves = await db.selectFrom('api_keys').select('revocada_at').where('account_id', '=', c.account.id).execute();
    expect(claves.every((k) => k.revocada_at !== null)).toBe(true);
    // Users keep only what names who made each DeCA.
    const usuarios = await db.selectFrom('users').select(['email', 'password_hash', 'confirmacion_hash', 'matriculas']).where('account_id', '=', c.account.id).execute();
    expect(usuarios).toEqual([{ email: c.email, password_hash: 'cuenta-cerrada', confirmacion_hash: null, matriculas: [] }]);
    const cuenta = await db.selectFrom('accounts').select('cerrada_at').where('id', '=', c.account.id).executeTakeFirstOrThrow();
    expect(cuenta.cerrada_at).not.toBeNull();
    // The kept DeCAs' public pages still work for inspections.
    const ficha = await app.request('GET', new URL(a.urls.ficha).pathname);
    expect(ficha.status).toBe(200);
    expect(ficha.text).toContain(a.numero);
  });

  it('refuses every key and every session at once, and the sign-in says why', async ({ app, cuentaNueva: c }) => {
    const admin = await iniciarSesion(app, c.email, c.password);
    const otra = await iniciarSesion(app, c.email, c.password);
    // Cached before closing: the cache must not let them through afterwards.
    expect((await app.request('GET', '/api/v1/cuenta', { key: c.live })).status).toBe(200);
    expect((await app.request('GET', '/app/api/sesion', { cookie: otra })).status).toBe(200);

    expect((await cerrar(app, admin, { password: c.password, nif: c.account.nif })).status).toBe(200);

    for (const [key, base] of [
      [c.live, '/api/v1'],
      [c.liveReadOnly, '/api/v1'],
      [c.test, '/demo/api/v1'],
    ] as const) {
      const res = await app.request('GET', `${base}/cuenta`, { key });
      expect(res.status).toBe(401);
      expect(ErrorBody.parse(res.body).error.mensaje).toMatch(/se cerró el .*ni usar sus claves de API/);
    }
    for (const cookie of [admin, otra]) expect((await app.request('GET', '/app/api/sesion', { cookie })).status).toBe(401);
    const entrar = await app.request('POST', '/app/api/sesion', { headers: CSRF, body: { email: c.email, password: c.password } });
    expect(entrar.status).toBe(403);
    expect(ErrorBody.parse(entrar.body).error.mensaje).toContain(`La cuenta de ${c.account.nombre} se cerró`);
    // Nor a way back in through a password reset: nothing is mailed.
    const olvido = await app.request('POST', '/app/api/contrasena/olvido', { headers: CSRF, body: { email: c.email } });
    expect(olvido.status).toBe(202);
    const resets = await app.database.db.selectFrom('correos').select('id').where('destinatario', '=', c.email).where('tipo', '=', 'restablecer_contrasena').execute();
    expect(resets).toEqual([]);
    // Its address is not free for a new account: it names who made the DeCAs kept.
    const alta = await app.request('POST', '/app/api/registro', {
      headers: CSRF,
      body: { nombre: 'Otra, S.L.', nif: 'B12345674', domicilio: 'Calle 1', rol: 'transportista', email: c.email, password: 'otra-clave-larga' },
    });
    expect(alta.status).toBe(409);
    expect(ErrorBody.parse(alta.body).error.campos.email).toBe('Es de una cuenta cerrada');
  });

  it('refuses a wrong password or NIF (422) and anyone but an administrator (403), changing nothing', async ({ app, cuentaNueva: c }) => {
    const admin = await iniciarSesion(app, c.email, c.password);
    const antes = archivos().length;
    const mal = await cerrar(app, admin, { password: 'no-es-la-contraseña', nif: c.account.nif });
    expect(mal.status).toBe(422);
    expect(ErrorBody.parse(mal.body).error.campos).toEqual({ password: 'No es su contraseña' });
    const nif = await cerrar(app, admin, { password: c.password, nif: 'A58818501' });
    expect(nif.status).toBe(422);
    expect(ErrorBody.parse(nif.body).error.campos.nif).toContain('B12345674');
    const vacio = await cerrar(app, admin, {});
    expect(vacio.status).toBe(422);
    expect(Object.keys(ErrorBody.parse(vacio.body).error.campos).sort()).toEqual(['nif', 'password']);
    const oficina = await usuarioCon(app, admin, 'oficina');
    const noAdmin = await cerrar(app, oficina.cookie, { password: 'una-clave-bien-larga', nif: c.account.nif });
    expect(noAdmin.status).toBe(403);
    // An API key cannot reach the app's endpoint at all.
    expect((await app.request('POST', '/app/api/cuenta/cierre', { key: c.live, headers: CSRF, body: { password: c.password, nif: c.account.nif } })).status).toBe(401);

    expect((await app.request('GET', '/api/v1/cuenta', { key: c.live })).status).toBe(200);
    expect((await app.request('GET', '/app/api/sesion', { cookie: admin })).status).toBe(200);
    const cuenta = await app.database.db.selectFrom('accounts').select('cerrada_at').where('id', '=', c.account.id).executeTakeFirstOrThrow();
    expect(cuenta.cerrada_at).toBeNull();
    expect(await app.database.db.selectFrom('exportaciones').select('id').where('account_id', '=', c.account.id).execute()).toEqual([]);
    expect(archivos().length).toBe(antes);
  });

  it('account:close does the same for the operator, prints the link, and refuses a second closure', async ({ app, cuentaNueva: c }) => {
    await crearDecaOk(app, c.live, decaCompleta({ referencia: 'CIERRE-CLI' }));
    const r = (await runAdminCommand(app.services, 'account:close', { account: String(c.account.id) })) as { enlace: string; enviada_a: string; decas_conservadas: number };
    app.secreto(r.enlace.split('/').pop()!);
    expect(r).toMatchObject({ enviada_a: c.email, decas_conservadas: 1 });
    expect(r.enlace).toMatch(/\/p\/exportacion\/[\w-]{40,}$/);
    expect((await app.request('GET', '/api/v1/cuenta', { key: c.live })).status).toBe(401);
    await expect(runAdminCommand(app.services, 'account:close', { account: String(c.account.id) })).rejects.toMatchObject({ codigo: 'sin_cambios' });
    // The link works (page), and the maintenance deletes the file and its row once it expires.
    const token = r.enlace.split('/').pop()!;
    expect((await app.request('GET', `/p/exportacion/${token}`)).status).toBe(200);
    const fila = await app.database.db.selectFrom('exportaciones').select('archivo').where('account_id', '=', c.account.id).executeTakeFirstOrThrow();
    expect(archivos()).toContain(fila.archivo);
    app.clock.advance(8 * 86_400_000);
    const m = await runMaintenanceOnce({ db: app.database.db, clock: app.clock, exportaciones: app.services.exportaciones });
    expect(m.exportaciones).toBeGreaterThanOrEqual(1);
    expect(archivos()).not.toContain(fila.archivo);
    expect((await app.request('GET', `/p/exportacion/${token}`)).status).toBe(404);
  });
});
