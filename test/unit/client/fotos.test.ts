import 'fake-indexeddb/auto';
import Dexie from 'dexie';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApi } from '../../../client/data/api';
import { carrilFoto, type DecaDb, type FotoLocal, openDecaDb } from '../../../client/data/db';
import { descartarFoto, guardarFoto, soltarFotosUsadas } from '../../../client/data/fotos';
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
      this.leidas.set(key!, {
        propuesta: { matricula: '1234BCD', texto_leido: await foto.text() },
        confianza: { matricula: 0.9 },
        texto: 'Matrícula: 1234 BCD',
        avisos: [],
        zonas: { matricula: ZONA },
        foto_id: 40 + this.lecturas,
      });
    }
    return Response.json(this.leidas.get(key!));
  };
}

/** Where the fake server says the plate was read. */
const ZONA: [number, number][] = [
  [0.1, 0.5],
  [0.6, 0.5],
  [0.6, 0.54],
  [0.1, 0.54],
];

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
    // Where each field was read, and the id of the photo the server kept, which the DeCA made from it will send.
    expect(leida).toMatchObject({ estado: 'lista', lectura: { propuesta: { matricula: '1234BCD', texto_leido: 'albaran-1' }, zonas: { matricula: ZONA }, foto_id: 41 } });
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

describe('readings kept before the server said where each field was read and which photo it kept (database version 5)', () => {
  /** The device's database as version 5 of the app left it. */
  class DecaDbV5 extends Dexie {
    constructor(name: string) {
      super(name);
      this.version(1).stores({ decas: 'clave, &id, &numero, orden, estado, fecha_transporte, pendientes', outbox: '++seq, clave, estado', documentos: 'id, fecha_transporte', meta: 'clave' });
      this.version(2).stores({ agenda: '[tipo+clave], tipo' });
      this.version(3).stores({ fotos: 'clave, estado, creado' });
      this.version(4).stores({ reservas: 'numero, caduca_at', emitidas: 'clave' });
      this.version(5).stores({});
    }
  }

  it('are still there after the upgrade, as proposals with no zones and no photo id, and the photos are found by the DeCA they became', async () => {
    const nombre = `fotos-v5-${++n}`;
    const vieja: FotoLocal = {
      clave: 'v',
      idempotencyKey: 'foto-v',
      foto: foto('vieja'),
      creado: 5,
      estado: 'lista',
      lectura: { propuesta: { matricula: '1234BCD' }, confianza: { matricula: 0.4 }, texto: '', avisos: [] },
    };
    const v5 = new DecaDbV5(nombre);
    await v5.table('fotos').add(vieja);
    v5.close();

    db.close();
    db = openDecaDb(nombre);
    const leida = await db.fotos.get('v');
    expect(leida?.estado).toBe('lista');
    expect(leida?.lectura?.zonas?.matricula).toBeUndefined();
    expect(leida?.lectura?.foto_id).toBeUndefined();
    await db.fotos.update('v', { estado: 'usada', deca: 'l:1' });
    expect((await db.fotos.where('deca').equals('l:1').first())?.clave).toBe('v');
  });
});

describe('a photo a DeCA was made from, kept beside it on the device', () => {
  it('stays while its DeCA has not reached the server, and a week after it was taken; then it goes, as does one whose DeCA is gone', async () => {
    const DIA = 86_400_000;
    const decaLocal = (clave: string, id?: number) => ({
      clave,
      ...(id ? { id } : {}),
      ref_temporal: null,
      deca: null,
      datos: {},
      estado: 'pendiente' as const,
      archivado: 0 as const,
      fecha_transporte: '',
      orden: 1,
      pendientes: 0,
      rechazo: null,
      actualizado: 0,
    });
    await db.decas.bulkAdd([decaLocal('l:vieja', 7), decaLocal('l:nueva', 8), decaLocal('l:sin-servidor')]);
    const usada = (clave: string, deca: string, dias: number): FotoLocal => ({ clave, idempotencyKey: `foto-${clave}`, foto: foto(clave), creado: Date.now() - dias * DIA, estado: 'usada', deca });
    await db.fotos.bulkAdd([
      usada('vieja', 'l:vieja', 8),
      usada('nueva', 'l:nueva', 1),
      usada('sin-servidor', 'l:sin-servidor', 8),
      usada('huerfana', 'l:borrada', 1),
      { ...usada('lista', '', 30), estado: 'lista', deca: undefined },
    ]);
    await soltarFotosUsadas(db);
    expect((await db.fotos.toArray()).map((f) => f.clave).sort()).toEqual(['lista', 'nueva', 'sin-servidor']);
  });
});
