import { describe, expect } from 'vitest';
import { ManualClock } from '../../server/clock';
import { Deca } from '../../shared/schemas/deca';
import { Dispositivo, ReservasRespuesta } from '../../shared/schemas/dispositivo';
import type { TestApp } from '../support/app';
import { decaCompleta } from '../support/decas';
import { iniciarSesion } from '../support/decas-helpers';
import { clavePublica } from '../support/dispositivos';
import { buildCuenta } from '../support/factories';
import { it } from '../support/fixtures';

/**
 * A series that reads as a series: a DeCA the app creates with coverage takes
 * its device's next reserved number (README: numbering), an API key's takes
 * the account's next free one, never inside a device's range, and a burst of
 * both at once never gives a number twice. On PGlite and on PostgreSQL.
 */

const reloj = new ManualClock('2027-06-10T10:00:00+02:00');
it.override('opcionesApp', { clock: reloj });

const CSRF = { 'X-DeCA-CSRF': '1' };
const serie = (desde: number, n: number) => Array.from({ length: n }, (_, i) => `2027-${String(desde + i).padStart(6, '0')}`);

async function dispositivo(app: TestApp, cookie: string, nombre: string) {
  const res = await app.request('POST', '/app/api/dispositivos', { cookie, headers: CSRF, body: { nombre, clave_publica: await clavePublica() } });
  expect(res.status, res.text).toBe(201);
  const d = Dispositivo.parse(res.body.dispositivo);
  const r = await app.request('POST', `/app/api/dispositivos/${d.id}/reservas`, { cookie, headers: CSRF, body: { entorno: 'produccion' } });
  expect(r.status, r.text).toBe(200);
  return { id: d.id, reservas: ReservasRespuesta.parse(r.body).reservas };
}

/** POST /decas as the app does it (session cookie, Idempotency-Key), naming the device's number when given. */
async function desdeLaApp(app: TestApp, cookie: string, clave: string, reserva?: { dispositivo_id: number; numero: string }, status = 201) {
  const res = await app.request('POST', '/api/v1/decas', {
    cookie,
    headers: { ...CSRF, 'Idempotency-Key': clave },
    body: { ...decaCompleta(), emitir: true, ...(reserva ? { reserva_dispositivo: reserva } : {}) },
  });
  expect(res.status, res.text).toBe(status);
  return Deca.parse(res.body.deca);
}

async function conClave(app: TestApp, key: string, extra: Record<string, unknown> = {}) {
  const res = await app.request('POST', '/api/v1/decas', { key, body: { ...decaCompleta(), ...extra } });
  expect(res.status, res.text).toBe(201);
  return Deca.parse(res.body.deca);
}

describe('the numbering of DeCAs made by the app with coverage and by the API', () => {
  it('a one-phone account reads 1, 2, 3…; an API key takes the next number after every reserved one; a number that is not the device’s any more is not taken', async ({ app }) => {
    reloj.set('2027-06-10T10:00:00+02:00');
    const c = await buildCuenta(app, { plan: 'pro' });
    const cookie = await iniciarSesion(app, c.email, c.password);
    const movil = await dispositivo(app, cookie, 'Móvil');
    expect(movil.reservas.map((r) => r.numero)).toEqual(serie(1, 10));

    // The very first DeCA is 2027-000001, and its public link is the reservation's.
    const hechas = [];
    for (const [i, r] of movil.reservas.slice(0, 3).entries()) hechas.push(await desdeLaApp(app, cookie, `serie-${i}`, { dispositivo_id: movil.id, numero: r.numero }));
    expect(hechas.map((d) => d.numero)).toEqual(serie(1, 3));
    for (const [i, d] of hechas.entries()) {
      expect(d.estado).toBe('emitido');
      expect(d.urls.ficha).toBe(movil.reservas[i]!.ficha_url);
      // Made with coverage: nothing says it was issued with none.
      expect(d.emision_offline).toBeNull();
    }
    const usadas = await app.database.db
      .selectFrom('reservas')
      .select(['numero', 'deca_id', 'usada_at'])
      .where('account_id', '=', c.account.id)
      .where('usada_at', 'is not', null)
      .orderBy('numero')
      .execute();
    expect(usadas.map((u) => [u.numero, u.deca_id])).toEqual(hechas.map((d) => [d.numero, d.id]));

    // The same request again (the answer was lost) is answered with the same DeCA and spends nothing more.
    expect((await desdeLaApp(app, cookie, 'serie-0', { dispositivo_id: movil.id, numero: movil.reservas[0]!.numero }, 200)).id).toBe(hechas[0]!.id);

    // An API key is no device: the account's next free number, after every reserved one, whatever its body names.
    expect((await conClave(app, c.live)).numero).toBe('2027-000011');
    expect((await conClave(app, c.live, { reserva_dispositivo: { dispositivo_id: movil.id, numero: movil.reservas[3]!.numero } })).numero).toBe('2027-000012');
    // A number already used, another device's, or one that expired: the account's next one instead.
    const tableta = await dispositivo(app, cookie, 'Tableta');
    expect(tableta.reservas.map((r) => r.numero)).toEqual(serie(13, 10));
    expect((await desdeLaApp(app, cookie, 'usada', { dispositivo_id: movil.id, numero: movil.reservas[0]!.numero })).numero).toBe('2027-000023');
    expect((await desdeLaApp(app, cookie, 'ajena', { dispositivo_id: movil.id, numero: tableta.reservas[0]!.numero })).numero).toBe('2027-000024');
    reloj.advance(31 * 86_400_000);
    const tarde = await iniciarSesion(app, c.email, c.password);
    expect((await desdeLaApp(app, tarde, 'caducada', { dispositivo_id: movil.id, numero: movil.reservas[4]!.numero })).numero).toBe('2027-000025');
  });

  it('two phones and an API key issuing at once never get the same number, and the phones keep to their own', async ({ app }) => {
    reloj.set('2027-06-10T10:00:00+02:00');
    const c = await buildCuenta(app, { plan: 'pro' });
    const cookie = await iniciarSesion(app, c.email, c.password);
    const [a, b] = [await dispositivo(app, cookie, 'Móvil A'), await dispositivo(app, cookie, 'Móvil B')];
    const deA = a.reservas.map((r) => r.numero);
    const deB = b.reservas.map((r) => r.numero);
    // Each phone issues 8 of its numbers, twice naming the same one (a misbehaving client: one gets it,
    // the other the account's next); the API key issues 12 meanwhile.
    const pedidas = (d: typeof a, p: string) =>
      [...d.reservas.slice(0, 8), d.reservas[0]!, d.reservas[1]!].map((r, i) => () => desdeLaApp(app, cookie, `${p}-${i}`, { dispositivo_id: d.id, numero: r.numero }));
    const api = Array.from({ length: 12 }, () => () => conClave(app, c.live));
    const todas = [...pedidas(a, 'a'), ...pedidas(b, 'b'), ...api];
    const decas = await Promise.all(todas.map((f) => f()));
    const numeros = decas.map((d) => d.numero);
    expect(new Set(numeros).size).toBe(numeros.length);
    const delApi = decas.slice(20).map((d) => d.numero);
    const deAEmitidas = decas.slice(0, 10).map((d) => d.numero);
    const deBEmitidas = decas.slice(10, 20).map((d) => d.numero);
    // Each phone's eight distinct numbers are its own first eight, whichever request of a pair won.
    expect(new Set(deAEmitidas.filter((n) => deA.includes(n)))).toEqual(new Set(deA.slice(0, 8)));
    expect(new Set(deBEmitidas.filter((n) => deB.includes(n)))).toEqual(new Set(deB.slice(0, 8)));
    // Nothing outside a phone's own range lands inside another's; the API's never inside either.
    for (const n of [...delApi, ...deAEmitidas.filter((x) => !deA.includes(x)), ...deBEmitidas.filter((x) => !deB.includes(x))]) {
      expect(deA).not.toContain(n);
      expect(deB).not.toContain(n);
    }
    // And the database agrees: one DeCA per number, each reservation linked to the DeCA that took it.
    const filas = await app.database.db.selectFrom('decas').select(['numero']).where('account_id', '=', c.account.id).where('entorno', '=', 'produccion').execute();
    expect(filas.length).toBe(32);
    const enlazadas = await app.database.db
      .selectFrom('reservas as r')
      .innerJoin('decas as d', 'd.id', 'r.deca_id')
      .select(['r.numero as reservado', 'd.numero'])
      .where('r.account_id', '=', c.account.id)
      .execute();
    expect(enlazadas.length).toBe(16);
    for (const e of enlazadas) expect(e.numero).toBe(e.reservado);
  });

  it('a replacement the app makes with coverage takes the device’s next number too, and an API key’s the account’s', async ({ app }) => {
    reloj.set('2027-06-10T10:00:00+02:00');
    const c = await buildCuenta(app, { plan: 'pro' });
    const cookie = await iniciarSesion(app, c.email, c.password);
    const movil = await dispositivo(app, cookie, 'Móvil');
    const primera = await desdeLaApp(app, cookie, 'sust-0', { dispositivo_id: movil.id, numero: movil.reservas[0]!.numero });
    const res = await app.request('POST', `/api/v1/decas/${primera.id}/sustituir`, {
      cookie,
      headers: { ...CSRF, 'Idempotency-Key': 'sust-1' },
      body: { matricula: '5678 FGH', motivo: 'Cambio de camión', reserva_dispositivo: { dispositivo_id: movil.id, numero: movil.reservas[1]!.numero } },
    });
    expect(res.status, res.text).toBe(200);
    const nueva = Deca.parse(res.body.deca);
    expect(nueva.numero).toBe(serie(2, 1)[0]);
    expect(nueva.urls.ficha).toBe(movil.reservas[1]!.ficha_url);
    const reserva = await app.database.db.selectFrom('reservas').select(['deca_id', 'usada_at']).where('account_id', '=', c.account.id).where('numero', '=', nueva.numero).executeTakeFirstOrThrow();
    expect(reserva.deca_id).toBe(nueva.id);
    // An API key is no device: its replacement takes the account's next number, after every reserved one.
    const otra = await app.request('POST', `/api/v1/decas/${nueva.id}/sustituir`, {
      key: c.live,
      body: { matricula: '9012 JKL', motivo: 'Otro camión', reserva_dispositivo: { dispositivo_id: movil.id, numero: movil.reservas[2]!.numero } },
    });
    expect(otra.status, otra.text).toBe(200);
    expect(Deca.parse(otra.body.deca).numero).toBe(serie(11, 1)[0]);
  });
});
