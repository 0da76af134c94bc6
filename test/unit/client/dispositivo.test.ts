import 'fake-indexeddb/auto';
import Dexie from 'dexie';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type DecaDb, openDecaDb, type ReservaLocal } from '../../../client/data/db';
import { dispositivoListo, mantenerReservas, olvidarSiRevocado, reservasUsablesEnDispositivo } from '../../../client/data/dispositivo';

/**
 * The numbers a device holds to issue with no coverage: which it may use,
 * and what a refill from the server may and may not change.
 */

let n = 0;
let db: DecaDb;
const AHORA = Date.parse('2026-11-26T10:00:00Z');
const dia = 86_400_000;

const reserva = (numero: string, o: Partial<ReservaLocal> = {}): ReservaLocal => ({
  numero,
  token: `t${numero.replace('-', '')}${'x'.repeat(21)}`,
  ficha_url: `https://deca.example/d/t${numero}`,
  caduca_at: new Date(AHORA + 20 * dia).toISOString(),
  dispositivo_id: 7,
  capacidad_sello: 1300,
  ...o,
});

/** The server's answer to a refill (what it believes the device may use), and the requests it got. */
function servidor(respuesta: { status: number; body: unknown }): string[] {
  const pedidas: string[] = [];
  vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
    pedidas.push(`${init?.method ?? 'GET'} ${url}`);
    return new Response(JSON.stringify(respuesta.body), { status: respuesta.status, headers: { 'Content-Type': 'application/json' } });
  });
  return pedidas;
}

beforeEach(async () => {
  db = openDecaDb(`dispositivo-${++n}`);
  const claves = await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign', 'verify']);
  await db.meta.put({ clave: 'dispositivo', valor: { id: 7, nombre: 'Android · Chrome', claves } });
});
afterEach(async () => {
  vi.unstubAllGlobals();
  db.close();
  await Dexie.delete(db.name);
});

describe('numbers held to issue with no coverage', () => {
  it('uses the lowest number not used, not about to expire and of this year', async () => {
    await db.reservas.bulkPut([
      reserva('2026-000005'),
      reserva('2026-000002', { usada: 'l:a' }),
      reserva('2026-000003', { caduca_at: new Date(AHORA + 30 * 60_000).toISOString() }), // expires within the hour
      reserva('2025-000900'), // last year's
      reserva('2026-000004'),
    ]);
    expect((await reservasUsablesEnDispositivo(db, AHORA)).map((r) => r.numero)).toEqual(['2026-000004', '2026-000005']);
  });

  it('uses none reserved later than this device’s clock reads (the server would refuse a DeCA dated before its number); one kept without the time counts 30 days before its expiry', async () => {
    await db.reservas.bulkPut([
      reserva('2026-000001', { reservada_at: new Date(AHORA + 5 * 60_000).toISOString() }), // the clock is 5 minutes behind the server's
      reserva('2026-000002', { reservada_at: new Date(AHORA).toISOString() }),
      reserva('2026-000003', { caduca_at: new Date(AHORA + 31 * dia).toISOString() }), // kept from before: reserved a day from now
      reserva('2026-000004'), // kept from before: reserved 10 days ago
    ]);
    expect((await reservasUsablesEnDispositivo(db, AHORA)).map((r) => r.numero)).toEqual(['2026-000002', '2026-000004']);
    expect((await reservasUsablesEnDispositivo(db, AHORA + 5 * 60_000)).map((r) => r.numero)).toEqual(['2026-000001', '2026-000002', '2026-000004']);
  });

  it('asks for more only below 3, and a refill never frees a number used here that the server has not seen yet', async () => {
    await db.reservas.bulkPut([reserva('2026-000001', { usada: 'l:ya-emitida' }), reserva('2026-000002'), reserva('2026-000003'), reserva('2026-000004')]);
    const nada = servidor({ status: 500, body: {} });
    await mantenerReservas(db, 'produccion', AHORA);
    expect(nada).toEqual([]); // three usable: no request

    await db.reservas.update('2026-000004', { usada: 'l:otra' });
    // The server still counts 000001 and 000004 as the device's (their DeCAs have not arrived), and adds more.
    const nuevas = ['2026-000001', '2026-000002', '2026-000003', '2026-000004', '2026-000011', '2026-000012'];
    const pedidas = servidor({
      status: 200,
      body: { entorno: 'produccion', capacidad_sello: 1312, reservas: nuevas.map((x) => ({ ...reserva(x), dispositivo_id: undefined, capacidad_sello: undefined })) },
    });
    await mantenerReservas(db, 'produccion', AHORA);
    expect(pedidas).toEqual(['POST /app/api/dispositivos/7/reservas']);
    expect(await db.reservas.get('2026-000001')).toMatchObject({ usada: 'l:ya-emitida' });
    expect(await db.reservas.get('2026-000004')).toMatchObject({ usada: 'l:otra' });
    expect((await reservasUsablesEnDispositivo(db, AHORA)).map((r) => [r.numero, r.capacidad_sello])).toEqual([
      ['2026-000002', 1312],
      ['2026-000003', 1312],
      ['2026-000011', 1312],
      ['2026-000012', 1312],
    ]);
  });

  it('a device given up on the server drops the numbers it did not use and issues nothing offline until its user signs in again', async () => {
    await db.reservas.bulkPut([reserva('2026-000001', { usada: 'l:ya-emitida' }), reserva('2026-000002')]);
    servidor({ status: 409, body: { error: { codigo: 'conflicto', mensaje: 'Este dispositivo se dio de baja en la cuenta', campos: {}, avisos: [], request_id: 'req_1' } } });
    await mantenerReservas(db, 'produccion', AHORA);
    expect(await dispositivoListo(db)).toBeNull();
    expect((await db.reservas.toArray()).map((r) => r.numero)).toEqual(['2026-000001']);
    // Signing in again forgets the old key: the next refill registers a new one.
    await olvidarSiRevocado(db);
    expect(await db.meta.get('dispositivo')).toBeUndefined();
  });

  it('two tabs starting at once register this browser once: the refill runs one tab at a time under a Web Lock', async () => {
    await db.meta.delete('dispositivo'); // a browser the server does not know yet
    // Node has no Web Locks: a lock manager that, like the browser's, runs one holder of a name at a time.
    const colas = new Map<string, Promise<unknown>>();
    const locks = {
      request: (nombre: string, hacer: () => Promise<unknown>) => {
        const turno = (colas.get(nombre) ?? Promise.resolve()).then(hacer, hacer);
        colas.set(
          nombre,
          turno.catch(() => {}),
        );
        return turno;
      },
    };
    vi.stubGlobal('navigator', { locks, userAgent: 'Mozilla/5.0 (Linux; Android 14) Chrome/126.0 Mobile' });
    const pedidas: string[] = [];
    vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
      pedidas.push(`${init?.method ?? 'GET'} ${url}`);
      const body = url.endsWith('/reservas')
        ? {
            entorno: 'produccion',
            capacidad_sello: 1312,
            reservas: ['2026-000001', '2026-000002', '2026-000003'].map((x) => ({ ...reserva(x), dispositivo_id: undefined, capacidad_sello: undefined })),
          }
        : { dispositivo: { id: 9 } };
      return new Response(JSON.stringify(body), { status: url.endsWith('/reservas') ? 200 : 201, headers: { 'Content-Type': 'application/json' } });
    });
    await Promise.all([mantenerReservas(db, 'produccion', AHORA), mantenerReservas(db, 'produccion', AHORA)]);
    expect(pedidas).toEqual(['POST /app/api/dispositivos', 'POST /app/api/dispositivos/9/reservas']);
    expect((await dispositivoListo(db))?.id).toBe(9);
    expect(await reservasUsablesEnDispositivo(db, AHORA)).toHaveLength(3);
  });
});
