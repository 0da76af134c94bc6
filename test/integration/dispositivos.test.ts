import { describe, expect } from 'vitest';
import { ManualClock } from '../../server/clock';
import { ErrorBody } from '../../shared/errors';
import { type ClavePublica, Dispositivo, ReservasRespuesta } from '../../shared/schemas/dispositivo';
import type { TestApp } from '../support/app';
import { decaCompleta } from '../support/decas';
import { iniciarSesion } from '../support/decas-helpers';
import { clavePublica, parDeClaves, qrFirmado, resumenDe } from '../support/dispositivos';
import { type CuentaDePrueba, it, test } from '../support/fixtures';
import { usuarioCon } from '../support/usuarios';

/**
 * The devices that issue DeCAs with no coverage, and the numbers each holds
 * (shared/rules/reservas.ts): through the app's endpoints, on PGlite and on
 * PostgreSQL.
 */

const reloj = new ManualClock('2027-06-10T10:00:00+02:00');
test.override('opcionesApp', { clock: reloj });

const CSRF = { 'X-DeCA-CSRF': '1' };

async function registrar(app: TestApp, cookie: string, nombre = 'Android · Chrome', clave?: ClavePublica): Promise<Dispositivo> {
  const res = await app.request('POST', '/app/api/dispositivos', { cookie, headers: CSRF, body: { nombre, clave_publica: clave ?? (await clavePublica()) } });
  expect(res.status, res.text).toBe(201);
  return Dispositivo.parse(res.body.dispositivo);
}

async function reservar(app: TestApp, cookie: string, id: number, entorno: 'produccion' | 'pruebas' = 'pruebas') {
  const res = await app.request('POST', `/app/api/dispositivos/${id}/reservas`, { cookie, headers: CSRF, body: { entorno } });
  return { status: res.status, body: res.body, reservas: res.status === 200 ? ReservasRespuesta.parse(res.body).reservas : [] };
}

const numeros = (rs: { numero: string }[]) => rs.map((r) => r.numero);
const serie = (anio: number, desde: number, n: number) => Array.from({ length: n }, (_, i) => `${anio}-${String(desde + i).padStart(6, '0')}`);

async function sesion(app: TestApp, c: CuentaDePrueba): Promise<string> {
  return iniciarSesion(app, c.email, c.password);
}

describe('devices that issue with no coverage', () => {
  it('holds 10 numbers with their tokens per environment, from the account’s own series, refilled only below 3', async ({ app, cuentaNueva: c }) => {
    reloj.set('2027-06-10T10:00:00+02:00');
    const cookie = await sesion(app, c);
    const d = await registrar(app, cookie);
    expect(d).toMatchObject({ nombre: 'Android · Chrome', usuario: c.email, revocado_at: null });
    expect(d.huella).toMatch(/^[0-9a-f]{16}$/);

    const antes = reloj.now().getTime();
    const primera = await reservar(app, cookie, d.id);
    const despues = reloj.now().getTime();
    expect(primera.status).toBe(200);
    expect(numeros(primera.reservas)).toEqual(serie(2027, 1, 10));
    for (const r of primera.reservas) {
      expect(r.token).toMatch(/^[A-Za-z0-9_-]{32}$/);
      // 30 days from the moment of the request (the answer gives whole seconds).
      expect(new Date(r.caduca_at).getTime()).toBeGreaterThanOrEqual(antes + 30 * 86_400_000 - 1_000);
      expect(new Date(r.caduca_at).getTime()).toBeLessThanOrEqual(despues + 30 * 86_400_000);
    }
    expect(new Set(primera.reservas.map((r) => r.token)).size).toBe(10);
    // Asking again gives the same ten: nothing is taken while enough are left.
    expect((await reservar(app, cookie, d.id)).reservas).toEqual(primera.reservas);
    // Production has a series of its own.
    expect(numeros((await reservar(app, cookie, d.id, 'produccion')).reservas)).toEqual(serie(2027, 1, 10));

    // A DeCA made online takes the next number of the series, never a reserved one.
    const online = await app.request('POST', '/demo/api/v1/decas', { key: c.test, body: decaCompleta() });
    expect(online.status, online.text).toBe(201);
    expect(online.body.deca.numero).toBe('2027-000011');

    // With 2 left (8 used on the device), the refill brings it back to 10 with the numbers after the DeCA's.
    await app.database.db.updateTable('reservas').set({ usada_at: reloj.now() }).where('entorno', '=', 'pruebas').where('numero', '<=', '2027-000008').where('account_id', '=', c.account.id).execute();
    const recarga = await reservar(app, cookie, d.id);
    expect(numeros(recarga.reservas)).toEqual([...serie(2027, 9, 2), ...serie(2027, 12, 8)]);
  });

  it('lets a number expire after 30 days, and never gives one of last year in January', async ({ app, cuentaNueva: c }) => {
    reloj.set('2027-11-01T10:00:00+01:00');
    let cookie = await sesion(app, c);
    const d = await registrar(app, cookie);
    expect(numeros((await reservar(app, cookie, d.id)).reservas)).toEqual(serie(2027, 1, 10));
    reloj.advance(30 * 86_400_000 + 1000);
    cookie = await sesion(app, c);
    expect(numeros((await reservar(app, cookie, d.id)).reservas)).toEqual(serie(2027, 11, 10));

    reloj.set('2027-12-31T09:50:00+01:00'); // ten minutes before they expire
    cookie = await sesion(app, c);
    expect(numeros((await reservar(app, cookie, d.id)).reservas)).toEqual(serie(2027, 11, 10));
    // Were they still within their 30 days in the new year, they would be of last year's series.
    await app.database.db
      .updateTable('reservas')
      .set({ caduca_at: new Date('2028-01-20T00:00:00+01:00') })
      .where('account_id', '=', c.account.id)
      .execute();
    reloj.set('2028-01-01T00:05:00+01:00');
    expect(numeros((await reservar(app, cookie, d.id)).reservas)).toEqual(serie(2028, 1, 10));
  });

  it('never gives one number twice: two devices refilling five times at once each', async ({ app, cuentaNueva: c }) => {
    reloj.set('2027-06-10T10:00:00+02:00');
    const cookie = await sesion(app, c);
    const a = await registrar(app, cookie, 'Móvil');
    const b = await registrar(app, cookie, 'Tableta');
    const respuestas = await Promise.all([...Array(5).fill(a.id), ...Array(5).fill(b.id)].map((id: number) => reservar(app, cookie, id)));
    for (const r of respuestas) expect(r.status).toBe(200);
    const deA = new Set(respuestas.slice(0, 5).flatMap((r) => numeros(r.reservas)));
    const deB = new Set(respuestas.slice(5).flatMap((r) => numeros(r.reservas)));
    expect(deA.size).toBe(10);
    expect(deB.size).toBe(10);
    expect(new Set([...deA, ...deB])).toEqual(new Set(serie(2027, 1, 20)));
  });

  it('registers a key once; refuses another user’s device, a revoked one, and a revoked key registered again', async ({ app, cuentaNueva: c }) => {
    reloj.set('2027-06-10T10:00:00+02:00');
    const admin = await sesion(app, c);
    const clave = await clavePublica();
    const d = await registrar(app, admin, 'Móvil', clave);
    expect((await registrar(app, admin, 'Móvil otra vez', clave)).id).toBe(d.id);

    const chofer = await usuarioCon(app, admin, 'conductor');
    const suyo = await registrar(app, chofer.cookie, 'Móvil del chófer');
    // Another user's device: as if it did not exist.
    const ajeno = await reservar(app, chofer.cookie, d.id);
    expect(ajeno.status).toBe(404);
    expect(ErrorBody.parse(ajeno.body).error.codigo).toBe('no_encontrado');
    // The same key for another user of the account is refused.
    const misma = await app.request('POST', '/app/api/dispositivos', { cookie: chofer.cookie, headers: CSRF, body: { nombre: 'x', clave_publica: clave } });
    expect(misma.status).toBe(409);
    // The administrator sees every device; the driver only theirs, and cannot revoke the administrator's.
    const todos = (await app.request('GET', '/app/api/dispositivos', { cookie: admin })).body.dispositivos as Dispositivo[];
    expect(todos.map((x) => x.id).sort()).toEqual([d.id, suyo.id].sort());
    expect(((await app.request('GET', '/app/api/dispositivos', { cookie: chofer.cookie })).body.dispositivos as Dispositivo[]).map((x) => x.id)).toEqual([suyo.id]);
    expect((await app.request('DELETE', `/app/api/dispositivos/${d.id}`, { cookie: chofer.cookie, headers: CSRF })).status).toBe(403);

    // Revoked by the administrator: no more numbers, and its unused ones are never given again.
    expect(numeros((await reservar(app, chofer.cookie, suyo.id)).reservas)).toEqual(serie(2027, 1, 10));
    const baja = await app.request('DELETE', `/app/api/dispositivos/${suyo.id}`, { cookie: admin, headers: CSRF });
    expect(baja.status, baja.text).toBe(200);
    expect(Dispositivo.parse(baja.body.dispositivo).revocado_at).not.toBeNull();
    const tras = await reservar(app, chofer.cookie, suyo.id);
    expect(tras.status).toBe(409);
    expect(ErrorBody.parse(tras.body).error.mensaje).toMatch(/dio de baja/);
    expect(
      (
        await app.request('POST', '/app/api/dispositivos', {
          cookie: chofer.cookie,
          headers: CSRF,
          body: { nombre: 'x', clave_publica: (await app.database.db.selectFrom('dispositivos').select('clave_publica').where('id', '=', suyo.id).executeTakeFirstOrThrow()).clave_publica },
        })
      ).status,
    ).toBe(409);
    // The administrator's device goes on from the next number.
    expect(numeros((await reservar(app, admin, d.id)).reservas)).toEqual(serie(2027, 11, 10));
  });

  it('on the free plan holds no more numbers than the month has left, and needs a confirmed account in production', async ({ app, cuentaNueva: c }) => {
    reloj.set('2027-06-10T10:00:00+02:00');
    const cookie = await sesion(app, c);
    const d = await registrar(app, cookie);
    await app.database.db.insertInto('uso_mensual').values({ account_id: c.account.id, entorno: 'produccion', mes: '2027-06', decas: 96 }).execute();
    expect(numeros((await reservar(app, cookie, d.id, 'produccion')).reservas)).toEqual(serie(2027, 1, 4));
    // The test environment has no quota.
    expect((await reservar(app, cookie, d.id, 'pruebas')).reservas).toHaveLength(10);

    await app.database.db.updateTable('accounts').set({ confirmada_at: null }).where('id', '=', c.account.id).execute();
    const sin = await reservar(app, await sesion(app, c), d.id, 'produccion');
    expect(sin.status).toBe(409);
    expect(ErrorBody.parse(sin.body).error.codigo).toBe('cuenta_sin_confirmar');
  });

  it('takes a DeCA issued with no coverage only if dated between its number’s reservation and the server’s time plus 10 minutes; its QR verifies within the same bounds', async ({
    app,
    cuentaNueva: c,
  }) => {
    reloj.set('2027-06-10T10:00:00+02:00');
    const cookie = await sesion(app, c);
    const { publica, privada } = await parDeClaves();
    const d = await registrar(app, cookie, 'Android · Chrome', publica);
    const { reservas } = await reservar(app, cookie, d.id, 'produccion');
    expect(reservas.length).toBeGreaterThanOrEqual(8);
    // When the server reserved them (the reservations table), in whole seconds: the response says the same.
    const { created_at } = await app.database.db.selectFrom('reservas').select('created_at').where('account_id', '=', c.account.id).where('numero', '=', reservas[0]!.numero).executeTakeFirstOrThrow();
    const reservadaAt = new Date(Math.floor(created_at.getTime() / 1000) * 1000);
    expect(new Date(reservas[0]!.reservada_at).getTime()).toBe(reservadaAt.getTime());

    reloj.advance(3 * 3_600_000); // the phone comes back into coverage three hours later
    const ahora = reloj.now().getTime();
    const casos: [string, Date, 'antes' | 'adelantada' | null][] = [
      ['2 January 1970', new Date('1970-01-02T08:00:00Z'), 'antes'],
      ['2 January, the number reserved today (same year)', new Date('2027-01-02T08:00:00Z'), 'antes'],
      ['a second before the reservation', new Date(reservadaAt.getTime() - 1000), 'antes'],
      ['20 days ahead', new Date(ahora + 20 * 86_400_000), 'adelantada'],
      ['11 minutes ahead', new Date(ahora + 11 * 60_000), 'adelantada'],
      ['the second of the reservation', reservadaAt, null],
      ['in the valley an hour ago', new Date(Math.floor((ahora - 3_600_000) / 1000) * 1000), null],
      ['9 minutes ahead (a clock a little fast)', new Date(Math.floor((ahora + 9 * 60_000) / 1000) * 1000), null],
    ];
    for (const [i, [caso, emitidaAt, rechazo]] of casos.entries()) {
      const r = reservas[i]!;
      // The inspector scans its QR before the phone syncs.
      const pagina = await fetch(await qrFirmado(app.url, r.token, privada, resumenDe(r.numero, emitidaAt)), { headers: { 'user-agent': 'Mozilla/5.0 (Linux; Android 14) Chrome/126.0 Mobile' } });
      const texto = await pagina.text();
      if (rechazo) {
        expect(pagina.status, caso).toBe(404);
        expect(texto, caso).toContain('No se ha podido verificar este documento');
      } else {
        expect(pagina.status, caso).toBe(200);
        expect(texto, caso).toContain('EMITIDA SIN COBERTURA');
      }
      // The phone syncs it.
      const emision = { dispositivo_id: d.id, numero: r.numero, token: r.token, emitida_at: emitidaAt.toISOString() };
      const res = await app.request('POST', '/api/v1/decas', { cookie, headers: { ...CSRF, 'Idempotency-Key': `plazo-${i}` }, body: { ...decaCompleta(), emitir: true, emision_offline: emision } });
      if (rechazo) {
        expect(res.status, caso).toBe(422);
        const { error } = ErrorBody.parse(res.body);
        expect(error.campos, caso).toHaveProperty(['emision_offline.emitida_at']);
        expect(error.mensaje, caso).toMatch(rechazo === 'antes' ? /es anterior a la reserva del número \d{4}-\d{6} \(10\/06\/2027 10:00\)/ : /es posterior a la del servidor en más de 10 minutos/);
      } else {
        expect(res.status, `${caso}: ${res.text}`).toBe(201);
        expect(new Date(`${res.body.deca.emitido_at.replace(' ', 'T')}+02:00`).getTime(), caso).toBe(emitidaAt.getTime());
      }
    }
    // A refused one did not spend its number: dated right, it is issued.
    const r = reservas[0]!;
    const bien = { dispositivo_id: d.id, numero: r.numero, token: r.token, emitida_at: new Date(ahora - 60_000).toISOString() };
    const reintento = await app.request('POST', '/api/v1/decas', { cookie, headers: { ...CSRF, 'Idempotency-Key': 'plazo-bien' }, body: { ...decaCompleta(), emitir: true, emision_offline: bien } });
    expect(reintento.status, reintento.text).toBe(201);
    expect(reintento.body.deca.numero).toBe(r.numero);
  });

  it('refuses a key that is not a P-256 public key, with the field named', async ({ app, c }) => {
    const cookie = await sesion(app, c);
    const res = await app.request('POST', '/app/api/dispositivos', { cookie, headers: CSRF, body: { nombre: 'x', clave_publica: { kty: 'RSA', n: 'abc', e: 'AQAB' } } });
    expect(res.status).toBe(422);
    expect(Object.keys(ErrorBody.parse(res.body).error.campos ?? {}).some((k) => k.startsWith('clave_publica'))).toBe(true);
  });
});
