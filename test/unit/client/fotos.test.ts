import 'fake-indexeddb/auto';
import Dexie from 'dexie';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApi } from '../../../client/data/api';
import { carrilFoto, type DecaDb, type FotoLocal, openDecaDb } from '../../../client/data/db';
import { descartarFoto, guardarFoto } from '../../../client/data/fotos';
import { SyncEngine } from '../../../client/data/sync';

/**
 * POST /fotos as the sync engine meets it: each request recorded (key, photo
 * bytes); a key already read is answered again without a second read, as the
 * server's Idempotency-Key does. `fallos` makes the next requests fail: with
 * no answer ('red') or with an error status.
 */
class ServidorFotos {
  peticiones: { key: string | null; bytes: string }[] = [];
  lecturas = 0;
  fallos: ('red' | { status: number; codigo: string })[] = [];
  private leidas = new Map<string, unknown>();

  fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = String(input);
    if (url !== '/api/v1/fotos' || init?.method !== 'POST')
      return Response.json({ error: { codigo: 'no_encontrado', mensaje: 'No existe', campos: {}, avisos: [], request_id: 'req_test' } }, { status: 404 });
    const key = new Headers(init.headers).get('Idempotency-Key');
    const foto = (init.body as FormData).get('foto') as Blob;
    this.peticiones.push({ key, bytes: await foto.text() });
    const fallo = this.fallos.shift();
    if (fallo === 'red') throw new TypeError('Failed to fetch');
    if (fallo)
      return Response.json({ error: { codigo: fallo.codigo, mensaje: 'La imagen no es válida.', campos: { foto: 'No es una imagen' }, avisos: [], request_id: 'req_test' } }, { status: fallo.status });
    if (!this.leidas.has(key!)) {
      this.lecturas++;
      this.leidas.set(key!, { propuesta: { matricula: '1234BCD', texto_leido: await foto.text() }, confianza: { matricula: 0.9 }, texto: 'Matrícula: 1234 BCD', avisos: [] });
    }
    return Response.json(this.leidas.get(key!));
  };
}

let db: DecaDb;
let servidor: ServidorFotos;
let reloj = 1_000_000;
let enLinea = true;
let n = 0;
const motor = () => new SyncEngine({ db, api: createApi('produccion', servidor.fetch), now: () => reloj, random: () => 0.5, locks: null, isOnline: () => enLinea });
const foto = (texto: string) => new Blob([texto], { type: 'image/jpeg' });

beforeEach(() => {
  servidor = new ServidorFotos();
  enLinea = true;
  db = openDecaDb(`fotos-${++n}`);
});
afterEach(async () => {
  db.close();
  await Dexie.delete(db.name);
});

describe('a delivery-note photo is one more lane of the outbox', () => {
  it('taken with no network it waits on the device; when the network returns it is sent once, with its key, and read', async () => {
    enLinea = false;
    const f = await guardarFoto(db, foto('albaran-1'));
    const s = motor();
    expect((await s.drain()).estado).toEqual({ fase: 'sin-conexion' });
    expect(servidor.peticiones).toEqual([]);
    expect(await db.outbox.toArray()).toMatchObject([{ clave: carrilFoto(f.clave), tipo: 'foto', idempotencyKey: f.idempotencyKey, estado: 'pendiente' }]);

    // The network is back, but the first try gets no answer: it waits out its backoff and goes again with the same key.
    enLinea = true;
    servidor.fallos.push('red');
    const r1 = await s.drain();
    expect(r1.estado.fase).toBe('esperando');
    expect((await db.fotos.get(f.clave))?.estado).toBe('pendiente');
    expect((await db.outbox.toArray())[0]).toMatchObject({ intentos: 1, ultimoError: 'Sin conexión' });
    reloj = r1.proximo!;
    expect(await s.drain()).toMatchObject({ enviadas: 1, pendientes: 0, estado: { fase: 'inactivo' } });

    expect(servidor.peticiones).toEqual([
      { key: f.idempotencyKey, bytes: 'albaran-1' },
      { key: f.idempotencyKey, bytes: 'albaran-1' },
    ]);
    expect(servidor.lecturas).toBe(1);
    const leida = await db.fotos.get(f.clave);
    expect(leida).toMatchObject({ estado: 'lista', lectura: { propuesta: { matricula: '1234BCD', texto_leido: 'albaran-1' } } });
    expect(await db.outbox.count()).toBe(0);
  });

  it('a refusal is kept on the photo with its message, and leaves the queue', async () => {
    const f = await guardarFoto(db, foto('no-es-imagen'));
    servidor.fallos.push({ status: 422, codigo: 'validacion' });
    expect(await motor().drain()).toMatchObject({ rechazadas: 1, pendientes: 0 });
    expect(await db.fotos.get(f.clave)).toMatchObject({ estado: 'error', error: 'La imagen no es válida. No es una imagen' });
  });

  it('a photo discarded before it is sent is never sent', async () => {
    enLinea = false;
    const f = await guardarFoto(db, foto('descartada'));
    await descartarFoto(db, f.clave);
    enLinea = true;
    await motor().drain();
    expect(servidor.peticiones).toEqual([]);
    expect(await db.fotos.count()).toBe(0);
    expect(await db.outbox.count()).toBe(0);
  });
});

describe('photos kept in the queue of their own before the outbox had them (database version 4)', () => {
  /** The device's database as version 4 of the app left it. */
  class DecaDbV4 extends Dexie {
    constructor(name: string) {
      super(name);
      this.version(1).stores({ decas: 'clave, &id, &numero, orden, estado, fecha_transporte, pendientes', outbox: '++seq, clave, estado', documentos: 'id, fecha_transporte', meta: 'clave' });
      this.version(2).stores({ agenda: '[tipo+clave], tipo' });
      this.version(3).stores({ fotos: 'clave, estado, creado' });
      this.version(4).stores({ reservas: 'numero, caduca_at', emitidas: 'clave' });
    }
  }

  it('each one still waiting gets its outbox entry with its own key when the app upgrades, and is sent', async () => {
    const nombre = `fotos-v4-${++n}`;
    const viejas: FotoLocal[] = [
      { clave: 'b', idempotencyKey: 'foto-b', foto: foto('segunda'), creado: 2, estado: 'pendiente' },
      { clave: 'a', idempotencyKey: 'foto-a', foto: foto('primera'), creado: 1, estado: 'pendiente' },
      { clave: 'c', idempotencyKey: 'foto-c', foto: foto('leida'), creado: 3, estado: 'lista', lectura: { propuesta: {}, confianza: {}, texto: '', avisos: [] } },
    ];
    const v4 = new DecaDbV4(nombre);
    await v4.table('fotos').bulkAdd(viejas);
    // A DeCA change queued then keeps its place.
    await v4.table('outbox').add({ clave: 'l:x', tipo: 'crear', body: {}, idempotencyKey: 'k', estado: 'rechazada', intentos: 1, proximo: 0, ultimoError: 'no', creado: 0 });
    v4.close();

    db.close();
    db = openDecaDb(nombre);
    expect((await db.outbox.orderBy('seq').toArray()).map((e) => [e.clave, e.tipo, e.idempotencyKey])).toEqual([
      ['l:x', 'crear', 'k'],
      ['foto:a', 'foto', 'foto-a'],
      ['foto:b', 'foto', 'foto-b'],
    ]);

    await motor().drain();
    expect(servidor.peticiones).toEqual([
      { key: 'foto-a', bytes: 'primera' },
      { key: 'foto-b', bytes: 'segunda' },
    ]);
    expect((await db.fotos.orderBy('creado').toArray()).map((f) => f.estado)).toEqual(['lista', 'lista', 'lista']);
    expect((await db.outbox.toArray()).map((e) => e.clave)).toEqual(['l:x']);
  });
});
