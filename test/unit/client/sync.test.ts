import 'fake-indexeddb/auto';
import Dexie from 'dexie';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApi } from '../../../client/data/api';
import { buscarLocal, refrescarDeca } from '../../../client/data/consultas';
import { type DecaDb, onDbAviso, openDecaDb } from '../../../client/data/db';
import { archivarDeca, crearDeca, descartar, eliminarDeca, modificarDecaLocal, reenviar, reintentar, sustituirDeca } from '../../../client/data/outbox';
import { guardarDelServidor, MAX_FALLOS_SERVIDOR, retraso, SyncEngine } from '../../../client/data/sync';
import { FakeServer } from './fake-server';

let n = 0;
let db: DecaDb;
let server: FakeServer;
let reloj: number;

function engine(extra: Partial<ConstructorParameters<typeof SyncEngine>[0]> = {}): SyncEngine {
  return new SyncEngine({ db, api: createApi('produccion', server.fetch), now: () => reloj, random: () => 0.5, locks: null, isOnline: () => true, ...extra });
}

const datos = (ref: string) => ({ matricula: '1234BCD', fecha_transporte: '2026-11-21', referencia: ref, envios: [{ origen: 'A', destino: 'B', naturaleza: 'Fruta', peso: 100 }] });

beforeEach(() => {
  db = openDecaDb(`test-${++n}`);
  server = new FakeServer();
  reloj = 1_000_000;
});
afterEach(async () => {
  db.close();
  await Dexie.delete(db.name);
});

describe('outbox', () => {
  it('writes the item and its entry together, shown at once as pending with a temporary reference', async () => {
    const r = await crearDeca(db, datos('x'), { emitir: true });
    expect(r.ref_temporal).toMatch(/^LOCAL-[0-9A-F]{6}$/);
    expect(r.pendientes).toBe(1);
    expect(r.estado).toBe('borrador');
    const cola = await db.outbox.toArray();
    expect(cola).toHaveLength(1);
    expect(cola[0]).toMatchObject({ clave: r.clave, tipo: 'crear', estado: 'pendiente', intentos: 0 });
    expect(cola[0]!.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('rolls back both writes when the transaction fails (no entry without its item)', async () => {
    await expect(modificarDecaLocal(db, 'l:no-existe', { referencia: 'y' })).rejects.toThrow(/No existe/);
    expect(await db.outbox.count()).toBe(0);
  });
});

describe('sync engine', () => {
  it('replays in queue order and resolves ids of items created offline', async () => {
    const a = await crearDeca(db, datos('a'), { emitir: false });
    const b = await crearDeca(db, datos('b'), { emitir: true });
    await modificarDecaLocal(db, a.clave, { referencia: 'a2' });
    await archivarDeca(db, b.clave, true);
    const r = await engine().drain();
    expect(r).toMatchObject({ enviadas: 4, rechazadas: 0, pendientes: 0 });
    expect(server.llamadas.map((l) => `${l.method} ${l.path}`)).toEqual(['POST /api/v1/decas', 'POST /api/v1/decas', 'PATCH /api/v1/decas/1', 'POST /api/v1/decas/2/archivar']);
    const ra = await db.decas.get(a.clave);
    expect(ra).toMatchObject({ id: 1, numero: '2026-000001', pendientes: 0, estado: 'pendiente' });
    expect(ra!.datos.referencia).toBe('a2');
    expect((await db.decas.get(b.clave))!.archivado).toBe(1);
  });

  it('backs off each DeCA on its own: order is kept within a DeCA, never across DeCAs', async () => {
    const a = await crearDeca(db, datos('a'), { emitir: false });
    await modificarDecaLocal(db, a.clave, { referencia: 'a2' });
    await crearDeca(db, datos('b'), { emitir: true });
    server.fallos.push('red'); // A's create gets no answer
    const s = engine();
    let r = await s.drain();
    // B went ahead; A's change waits behind A's create.
    expect(server.llamadas.map((l) => `${l.method} ${l.path}`)).toEqual(['POST /api/v1/decas', 'POST /api/v1/decas']);
    expect(r).toMatchObject({ enviadas: 1, pendientes: 2, proximo: reloj + 2000 });
    expect(r.estado.fase).toBe('esperando');
    expect([...server.decas.values()].map((d) => d.referencia)).toEqual(['b']);
    // Not due yet: nothing is sent.
    reloj += 1000;
    r = await s.drain();
    expect(server.llamadas).toHaveLength(2);
    reloj += 1000;
    r = await s.drain();
    expect(r).toMatchObject({ enviadas: 2, pendientes: 0 });
    expect(server.llamadas.slice(2).map((l) => `${l.method} ${l.path}`)).toEqual(['POST /api/v1/decas', 'PATCH /api/v1/decas/2']);
    expect([...server.decas.values()].map((d) => d.referencia)).toEqual(['b', 'a2']);
  });

  it('shows an entry as stuck after repeated server failures, moves the rest, and sends it after «Reintentar»', async () => {
    const a = await crearDeca(db, datos('a'), { emitir: true });
    const s = engine();
    for (let i = 0; i < MAX_FALLOS_SERVIDOR; i++) server.fallos.push({ status: 500, codigo: 'error_interno' });
    for (let i = 0; i < MAX_FALLOS_SERVIDOR; i++) {
      await s.drain();
      reloj += 10 * 60_000;
    }
    const [e] = await db.outbox.toArray();
    expect(e).toMatchObject({ estado: 'atascada', fallosServidor: MAX_FALLOS_SERVIDOR });
    expect((await db.decas.get(a.clave))!.atascada).toBe(1);
    // Stuck: no more attempts, and a new DeCA goes through.
    const b = await crearDeca(db, datos('b'), { emitir: true });
    const r = await s.drain();
    expect(r).toMatchObject({ enviadas: 1, pendientes: 1, proximo: null });
    expect((await db.decas.get(b.clave))!.numero).toBeTruthy();
    await reintentar(db, e!.seq!);
    expect(await s.drain()).toMatchObject({ enviadas: 1, pendientes: 0 });
    expect(await db.decas.get(a.clave)).toMatchObject({ pendientes: 0, estado: 'emitido' });
    expect((await db.decas.get(a.clave))!.atascada).toBeUndefined();
  });

  it('treats 409 conflicto with Retry-After as temporary, not as a refusal', async () => {
    await crearDeca(db, datos('a'), { emitir: true });
    server.fallos.push({ status: 409, codigo: 'conflicto', retryAfter: 3 });
    const s = engine();
    const r = await s.drain();
    expect(r).toMatchObject({ enviadas: 0, rechazadas: 0, proximo: reloj + 3000 });
    reloj += 3000;
    expect(await s.drain()).toMatchObject({ enviadas: 1, rechazadas: 0, pendientes: 0 });
  });

  it('a tab that finds the queue busy looks again later', async () => {
    await crearDeca(db, datos('a'), { emitir: true });
    await db.meta.put({ clave: 'sync-lease', valor: { owner: 'otra-pestaña', hasta: reloj + 30_000 } });
    const r = await engine().drain();
    expect(r).toMatchObject({ ocupado: true, enviadas: 0 });
    expect(r.proximo).toBeGreaterThan(reloj);
    // A lease that is someone else's is never released by this engine.
    expect((await db.meta.get('sync-lease'))!.valor).toMatchObject({ owner: 'otra-pestaña' });
  });

  it('grows the delay 2 s, 4 s, 8 s… up to 5 min and honours Retry-After', () => {
    const r = () => 0.5;
    expect([1, 2, 3, 4].map((i) => retraso(i, r))).toEqual([2000, 4000, 8000, 16000]);
    expect(retraso(20, r)).toBe(300_000);
    expect(retraso(1, r, 30)).toBe(30_000);
    expect(retraso(1, () => 0)).toBe(1600);
    expect(retraso(1, () => 1)).toBe(2400);
  });

  it('reuses the Idempotency-Key when the answer was lost: one DeCA on the server', async () => {
    const a = await crearDeca(db, datos('a'), { emitir: true });
    server.fallos.push('perdida');
    const s = engine();
    await s.drain();
    expect(server.decas.size).toBe(1); // the server did it…
    expect((await db.decas.get(a.clave))!.numero).toBeUndefined(); // …but the device never heard
    reloj += 3000;
    await s.drain();
    expect(server.decas.size).toBe(1);
    const [k1, k2] = server.llamadas.map((l) => l.key);
    expect(k1).toBeTruthy();
    expect(k2).toBe(k1);
    expect((await db.decas.get(a.clave))!.numero).toBe('2026-000001');
  });

  it('treats 5xx, 429 and en_curso as transient and a 4xx as a refusal kept on the item', async () => {
    const a = await crearDeca(db, datos('a'), { emitir: true });
    server.fallos.push({ status: 503, codigo: 'no_disponible' }, { status: 429, codigo: 'demasiadas_peticiones', retryAfter: 60 });
    const s = engine();
    expect((await s.drain()).proximo).toBe(reloj + 2000);
    reloj += 2000;
    expect((await s.drain()).proximo).toBe(reloj + 60_000);
    reloj += 60_000;
    await s.drain();
    const rec = (await db.decas.get(a.clave))!;
    expect(rec.numero).toBe('2026-000001');
    expect(new Set(server.llamadas.map((l) => l.key)).size).toBe(1);
  });

  it('keeps a server refusal with its campos, blocks later changes of that item only, and resends with a new key', async () => {
    server.decas.set(9, { id: 9, numero: '2026-000009', estado: 'pendiente', ref_externa: 'R-1', envios: [], archivado: false });
    const a = await crearDeca(db, datos('a'), { emitir: false });
    const b = await crearDeca(db, datos('b'), { emitir: false });
    const s = engine();
    await s.drain();
    await modificarDecaLocal(db, a.clave, { ref_externa: 'R-1' });
    await archivarDeca(db, a.clave, true);
    await modificarDecaLocal(db, b.clave, { referencia: 'b2' });
    const r = await s.drain();
    expect(r).toMatchObject({ enviadas: 1, rechazadas: 1, pendientes: 2 });
    const ra = (await db.decas.get(a.clave))!;
    expect(ra.rechazo).toMatchObject({ codigo: 'ref_externa_usada', status: 409, campos: { ref_externa: 'Ya usada' } });
    expect(ra.pendientes).toBe(2);
    // The local view still shows what the user typed: nothing is lost.
    expect(ra.datos.ref_externa).toBe('R-1');
    expect(server.deca(1).archivado).toBe(false);
    expect(server.deca(2).referencia).toBe('b2');
    // A later pass does not retry the refused entry by itself.
    const antes = server.llamadas.length;
    await s.drain();
    expect(server.llamadas.length).toBe(antes);

    const rechazada = (await db.outbox.where('estado').equals('rechazada').first())!;
    await reenviar(db, rechazada.seq!, { ref_externa: 'R-2' });
    const nueva = (await db.outbox.get(rechazada.seq!))!;
    expect(nueva.idempotencyKey).not.toBe(rechazada.idempotencyKey);
    await s.drain();
    expect(server.deca(1)).toMatchObject({ ref_externa: 'R-2', archivado: true });
    expect((await db.decas.get(a.clave))!).toMatchObject({ rechazo: null, pendientes: 0 });
  });

  it('turns a create answered with another DeCA (ref_externa taken) into a refusal on that field', async () => {
    server.decas.set(5, { id: 5, numero: '2026-000005', estado: 'emitido', ref_externa: 'R-9', envios: [], archivado: false });
    const a = await crearDeca(db, { ...datos('a'), ref_externa: 'R-9' }, { emitir: true });
    await engine().drain();
    const rec = (await db.decas.get(a.clave))!;
    expect(rec.id).toBeUndefined();
    expect(rec.rechazo?.campos.ref_externa).toMatch(/2026-000005/);
    const e = (await db.outbox.toArray())[0]!;
    await descartar(db, e.seq!);
    expect(await db.decas.get(a.clave)).toBeUndefined();
  });

  it('survives a restart in the middle: a new engine on a reopened database sends each item once', async () => {
    const name = db.name;
    await crearDeca(db, datos('a'), { emitir: true });
    await crearDeca(db, datos('b'), { emitir: true });
    server.fallos.push('perdida');
    await engine().drain();
    db.close();
    // The app is started again.
    db = openDecaDb(name);
    reloj += 10_000;
    const r = await engine().drain();
    expect(r.pendientes).toBe(0);
    expect(server.decas.size).toBe(2);
    const numeros = (await db.decas.toArray()).map((d) => d.numero).sort();
    expect(numeros).toEqual(['2026-000001', '2026-000002']);
  });

  it('pauses on 401 keeping every entry, and replays after sign-in', async () => {
    await crearDeca(db, datos('a'), { emitir: true });
    server.fallos.push({ status: 401, codigo: 'no_autenticado' });
    const s = engine();
    let r = await s.drain();
    expect(r.estado.fase).toBe('sesion');
    expect(r.pendientes).toBe(1);
    r = await s.drain();
    expect(server.llamadas).toHaveLength(1); // paused: nothing sent until sign-in
    r = await s.reanudar();
    expect(r).toMatchObject({ enviadas: 1, pendientes: 0 });
  });

  it('does nothing while offline', async () => {
    await crearDeca(db, datos('a'), { emitir: true });
    const r = await engine({ isOnline: () => false }).drain();
    expect(r.estado.fase).toBe('sin-conexion');
    expect(server.llamadas).toHaveLength(0);
  });

  it('sends at once when the network returns during a pass that found none (the wake is not lost)', async () => {
    await crearDeca(db, datos('a'), { emitir: true });
    let enLinea = false;
    const s = engine({
      isOnline: () => {
        if (enLinea) return true;
        // The browser's «online» event, arriving just after this pass looked.
        enLinea = true;
        void s.drain();
        return false;
      },
    });
    const r = await s.drain();
    expect(r).toMatchObject({ enviadas: 1, pendientes: 0 });
    expect(s.estado.fase).toBe('inactivo');
    expect(server.llamadas.map((l) => `${l.method} ${l.path}`)).toEqual(['POST /api/v1/decas']);
  });

  it('lets only one engine drain at a time (lease fallback without Web Locks)', async () => {
    await crearDeca(db, datos('a'), { emitir: true });
    let soltar!: () => void;
    const bloqueo = new Promise<void>((r) => (soltar = r));
    let enCamino!: () => void;
    const s1Envia = new Promise<void>((r) => (enCamino = r));
    const lento: typeof fetch = async (...a) => {
      enCamino();
      await bloqueo;
      return server.fetch(...a);
    };
    const s1 = new SyncEngine({ db, api: createApi('produccion', lento), now: () => reloj, locks: null, isOnline: () => true });
    const s2 = engine();
    const p1 = s1.drain();
    // s1 is sending, so it holds the lease (taken before any request goes out), and keeps it while its request hangs.
    await s1Envia;
    const lease = (await db.meta.get('sync-lease'))?.valor as { owner: string; hasta: number } | undefined;
    expect(lease?.owner).toEqual(expect.any(String));
    expect(lease!.hasta).toBeGreaterThan(reloj);
    const r2 = await s2.drain();
    expect(r2.ocupado).toBe(true);
    soltar();
    expect((await p1).enviadas).toBe(1);
    expect(server.decas.size).toBe(1);
    // Lease released: the other engine can drain now.
    expect((await s2.drain()).ocupado).toBeUndefined();
  });

  it('replaces (method 2) and deletes, updating both items', async () => {
    const a = await crearDeca(db, datos('a'), { emitir: true });
    const p = await crearDeca(db, datos('p'), { emitir: false });
    const s = engine();
    await s.drain();
    const nueva = await sustituirDeca(db, a.clave, { matricula: '5678CDF' }, 'Cambio de camión');
    expect(nueva.ref_temporal).toMatch(/^LOCAL-/);
    await eliminarDeca(db, p.clave);
    expect((await db.decas.get(p.clave))!.eliminada).toBe(1);
    await s.drain();
    expect(server.llamadas.at(-3)).toMatchObject({ method: 'POST', path: '/api/v1/decas/1/sustituir', body: { matricula: '5678CDF', motivo: 'Cambio de camión' } });
    expect((await db.decas.get(nueva.clave))!).toMatchObject({ numero: '2026-000003', estado: 'emitido' });
    expect((await db.decas.get(a.clave))!.estado).toBe('sustituido');
    expect(await db.decas.get(p.clave)).toBeUndefined();
    expect(server.decas.has(2)).toBe(false);
  });

  it('never clobbers unsent local changes with a server copy', async () => {
    server.decas.set(3, { id: 3, numero: '2026-000003', estado: 'pendiente', referencia: 'srv', envios: [], archivado: false });
    await guardarDelServidor(db, [server.deca(3) as never]);
    const rec = (await db.decas.where('id').equals(3).first())!;
    await modificarDecaLocal(db, rec.clave, { referencia: 'local' });
    await guardarDelServidor(db, [{ ...server.deca(3), referencia: 'srv2' } as never]);
    const v = (await db.decas.get(rec.clave))!;
    expect(v.datos.referencia).toBe('local');
    expect(v.deca!.referencia).toBe('srv2');
    expect(v.pendientes).toBe(1);
  });
});

describe('database recovery', () => {
  it('reopens when the browser closed the connection behind its back', async () => {
    await crearDeca(db, datos('a'), { emitir: true });
    db.backendDB().close(); // what iOS does to a backgrounded PWA
    expect(await db.outbox.count()).toBe(1);
    await crearDeca(db, datos('b'), { emitir: true });
    expect(await db.outbox.count()).toBe(2);
  });

  it('closes and asks for a reload when another tab upgrades the schema', async () => {
    await db.open();
    const avisos: string[] = [];
    const quitar = onDbAviso((a) => avisos.push(a));
    const nueva = new Dexie(db.name);
    nueva.version(2).stores({ decas: 'clave', outbox: '++seq', documentos: 'id', meta: 'clave', extra: 'k' });
    await nueva.open();
    expect(avisos).toEqual(['otra-version']);
    expect(db.isOpen()).toBe(false);
    nueva.close();
    quitar();
  });
});

describe('a DeCA the server no longer has for this user', () => {
  it('goes from the device when its detail is refreshed (deleted, or a driver’s no longer theirs), unless it holds unsent changes', async () => {
    const api = createApi('produccion', server.fetch);
    const crear = async (ref: string) => (await api.llamar('crear_deca', { ...datos(ref), emitir: false })).data.deca.id;
    const [una, otra] = [await crear('a'), await crear('b')];
    await refrescarDeca(api, db, String(una));
    await refrescarDeca(api, db, String(otra));
    expect(await db.decas.count()).toBe(2);
    // The second has a change waiting to be sent.
    await modificarDecaLocal(db, (await buscarLocal(db, String(otra)))!.clave, { referencia: 'cambiada' });

    server.decas.clear();
    await expect(refrescarDeca(api, db, String(una))).rejects.toMatchObject({ status: 404 });
    await expect(refrescarDeca(api, db, String(otra))).rejects.toMatchObject({ status: 404 });
    expect(await buscarLocal(db, String(una))).toBeUndefined();
    expect((await buscarLocal(db, String(otra)))?.pendientes).toBe(1);
  });
});
