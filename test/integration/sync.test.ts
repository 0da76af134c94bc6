/**
 * The app's sync engine (outbox in IndexedDB, replayed with the session
 * cookie) against the real server and database: what a phone with a poor
 * connection meets. Failures the server itself would not produce on demand
 * (a 5xx for one DeCA, a lost answer, a stalled connection) are injected in
 * the transport; everything else is the real thing.
 */
import 'fake-indexeddb/auto';
import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import Dexie from 'dexie';
import { describe, expect, onTestFinished, vi } from 'vitest';
import { type Api, createApi } from '../../client/data/api';
import { guardarParaElCamino } from '../../client/data/consultas';
import { type DecaDb, openDecaDb } from '../../client/data/db';
import { crearDeca, reintentar } from '../../client/data/outbox';
import { MAX_FALLOS_SERVIDOR, SyncEngine } from '../../client/data/sync';
import { BlobError, type BlobStore } from '../../server/blobs/almacen';
import { ManualClock } from '../../server/clock';
import { documentosParaElCamino, LECTURAS_A_LA_VEZ } from '../../server/domain/decas/camino';
import { runMaintenanceOnce } from '../../server/jobs/maintenance';
import { DecaCreada, type DecaInput, DecaList, DocumentosCamino } from '../../shared/schemas/deca';
import { decaCompleta } from '../support/decas';
import { iniciarSesion } from '../support/decas-helpers';
import { type Fx, it, test } from '../support/fixtures';

test.override('opcionesApp', { clock: new ManualClock('2026-11-21T10:00:00+01:00'), apiPoints: 100_000 });

/** What the transport does with one request: null lets it through to the server (`pasar` sends it, with `cambios` to its init). */
type Interceptor = (url: string, init: RequestInit, pasar: (cambios?: RequestInit) => Promise<Response>) => Promise<Response> | null;

interface Movil {
  db: DecaDb;
  motor: SyncEngine;
  /** The API the engine uses (the same transport). */
  motor_api: Api;
  /** The phone's clock (the engine's backoff), apart from the server's. */
  reloj: { ms: number };
  interceptar(fn: Interceptor | null): void;
  llamadas: string[];
}

let n = 0;

/** A phone signed in as the account's user: its own database, engine and transport. */
async function movil({ app, c }: Fx, opts: { timeoutMs?: number } = {}): Promise<Movil> {
  const cookie = await iniciarSesion(app, c.email, c.password);
  let interceptor: Interceptor | null = null;
  const llamadas: string[] = [];
  const fetchFn: typeof fetch = async (input, init = {}) => {
    const url = String(input);
    llamadas.push(`${init.method ?? 'GET'} ${url}`);
    const headers = new Headers(init.headers);
    headers.set('cookie', cookie);
    const pasar = (cambios: RequestInit = {}) => fetch(app.url + url, { ...init, headers, ...cambios });
    return (await interceptor?.(url, init, pasar)) ?? pasar();
  };
  const db = openDecaDb(`sync-real-${++n}`);
  onTestFinished(async () => {
    db.close();
    await Dexie.delete(db.name);
  });
  const reloj = { ms: Date.parse('2026-11-21T09:00:00Z') };
  const api = createApi('produccion', fetchFn, { timeoutMs: opts.timeoutMs });
  const motor = new SyncEngine({
    db,
    api,
    now: () => reloj.ms,
    random: () => 0.5,
    locks: null,
    isOnline: () => true,
  });
  return { db, motor, motor_api: api, reloj, llamadas, interceptar: (fn) => (interceptor = fn) };
}

function datos(referencia: string): Record<string, unknown> {
  const { emitir: _e, ...d } = decaCompleta({ referencia } as Partial<DecaInput>);
  return d;
}

async function enServidor({ app, c }: Fx): Promise<{ id: number; referencia: string | null; observaciones: string | null }[]> {
  const res = await app.request('GET', '/api/v1/decas?limite=100', { key: c.live });
  expect(res.status, res.text).toBe(200);
  return DecaList.parse(res.body).decas.map((d) => ({ id: d.id, referencia: d.referencia, observaciones: d.observaciones }));
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

const errorBody = (codigo: string, mensaje: string) => ({ error: { codigo, mensaje, campos: {}, avisos: [], request_id: 'req_inyectado' } });

describe('the outbox against the real server', () => {
  it('a DeCA the server fails every time never holds the others back; it is shown as stuck and goes after «Reintentar»', async ({ app, cuentaNueva: c }) => {
    const m = await movil({ app, c });
    m.interceptar((_url, init) => (typeof init.body === 'string' && init.body.includes('"veneno"') ? Promise.resolve(json(500, errorBody('error_interno', 'Fallo del servidor'))) : null));
    const veneno = await crearDeca(m.db, datos('veneno'), { emitir: true });
    const buena = await crearDeca(m.db, datos('buena'), { emitir: true });

    await m.motor.drain();
    expect((await enServidor({ app, c })).map((d) => d.referencia)).toEqual(['buena']);
    expect(await m.db.decas.get(buena.clave)).toMatchObject({ pendientes: 0, estado: 'emitido' });

    // It keeps failing: retried with backoff, then stuck (never retried blindly forever).
    for (let i = 1; i < MAX_FALLOS_SERVIDOR; i++) {
      m.reloj.ms += 10 * 60_000;
      await m.motor.drain();
    }
    expect((await m.db.outbox.toArray()).map((e) => e.estado)).toEqual(['atascada']);
    expect((await m.db.decas.get(veneno.clave))!.atascada).toBe(1);
    const intentos = m.llamadas.length;
    m.reloj.ms += 60 * 60_000;
    await m.motor.drain();
    expect(m.llamadas).toHaveLength(intentos);

    // Fixed on the server: «Reintentar» sends it, once.
    m.interceptar(null);
    await reintentar(m.db, (await m.db.outbox.toArray())[0]!.seq!);
    expect(await m.motor.drain()).toMatchObject({ enviadas: 1, pendientes: 0 });
    expect((await enServidor({ app, c })).map((d) => d.referencia).sort()).toEqual(['buena', 'veneno']);
  });

  it('a create whose answer was lost, replayed 9 days later after the office changed it, is that DeCA and no refusal', async ({ app, cuentaNueva: c }) => {
    const antes = app.clock.now();
    onTestFinished(() => app.clock.set(antes));
    const m = await movil({ app, c });
    let perdidas = 0;
    m.interceptar((url, init, pasar) => {
      if (url !== '/api/v1/decas' || init.method !== 'POST' || perdidas > 0) return null;
      perdidas++;
      // It reaches the server and is done there; the answer never comes back.
      return pasar().then(() => Promise.reject(new TypeError('fetch failed')));
    });
    const local = await crearDeca(m.db, { ...datos('sin-respuesta'), ref_externa: 'ALB-77' }, { emitir: true });
    await m.motor.drain();
    const [creada] = await enServidor({ app, c });
    expect(creada).toMatchObject({ referencia: 'sin-respuesta' });
    expect(await m.db.outbox.count()).toBe(1);

    // The office corrects it; the phone stays offline for 9 days; the server purges its keys.
    const patch = await app.request('PATCH', `/api/v1/decas/${creada!.id}`, { key: c.live, body: { observaciones: 'Corregida en la oficina', motivo: 'Dato corregido' } });
    expect(patch.status, patch.text).toBe(200);
    app.clock.advance(9 * 86_400_000);
    await runMaintenanceOnce({ db: app.database.db, clock: app.clock });
    m.reloj.ms += 9 * 86_400_000;

    expect(await m.motor.drain()).toMatchObject({ enviadas: 1, rechazadas: 0, pendientes: 0 });
    expect(await enServidor({ app, c })).toEqual([{ id: creada!.id, referencia: 'sin-respuesta', observaciones: 'Corregida en la oficina' }]);
    const rec = await m.db.decas.get(local.clave);
    expect(rec).toMatchObject({ id: creada!.id, rechazo: null, pendientes: 0 });
    expect(rec!.datos.observaciones).toBe('Corregida en la oficina');
  });

  it('retries a 409 conflicto sent with Retry-After instead of keeping it as a refusal', async ({ app, cuentaNueva: c }) => {
    const m = await movil({ app, c });
    let una = true;
    m.interceptar(() => {
      if (!una) return null;
      una = false;
      return Promise.resolve(json(409, errorBody('conflicto', 'Otra petición ha cambiado lo mismo a la vez.'), { 'Retry-After': '2' }));
    });
    await crearDeca(m.db, datos('conflicto'), { emitir: true });
    expect(await m.motor.drain()).toMatchObject({ enviadas: 0, rechazadas: 0, proximo: m.reloj.ms + 2000 });
    m.reloj.ms += 2000;
    expect(await m.motor.drain()).toMatchObject({ enviadas: 1, rechazadas: 0, pendientes: 0 });
    expect((await enServidor({ app, c })).map((d) => d.referencia)).toEqual(['conflicto']);
  });

  it('gives up on a stalled request at its deadline and sends it again with the same key: one DeCA', async ({ app, cuentaNueva: c }) => {
    // The deadline each request is given (AbortSignal.timeout), by its signal.
    const plazos = new WeakMap<AbortSignal, number>();
    const timeout = AbortSignal.timeout.bind(AbortSignal);
    const espia = vi.spyOn(AbortSignal, 'timeout').mockImplementation((ms) => {
      const s = timeout(ms);
      plazos.set(s, ms);
      return s;
    });
    onTestFinished(() => espia.mockRestore());
    const m = await movil({ app, c }, { timeoutMs: 300 });
    const colgada: { senal?: AbortSignal | null } = {};
    m.interceptar((_url, init, pasar) => {
      // Past the phone's 300 ms deadline, the server (slower than that on a loaded machine) still gets
      // and answers every request: the deadline under test is the engine's, on the stalled one.
      if (colgada.senal !== undefined) return pasar({ signal: null });
      const senal = (colgada.senal = init.signal ?? null);
      // Without the engine's deadline it would hang for good: failed at once instead (the checks below say why).
      if (!senal || plazos.get(senal) !== 300) return Promise.reject(new TypeError('not the engine’s deadline'));
      // The request reaches the server, and the connection then hangs with no answer: only its signal ends it.
      return pasar({ signal: null }).then(
        () =>
          new Promise<Response>((_, reject) => {
            if (senal.aborted) reject(senal.reason);
            senal.addEventListener('abort', () => reject(senal.reason), { once: true });
          }),
      );
    });
    await crearDeca(m.db, datos('colgada'), { emitir: true });
    const r = await m.motor.drain();
    // It was given up by the engine's own deadline: its signal, set to the engine's 300 ms, timed out.
    const senal = colgada.senal;
    expect(senal).toBeInstanceOf(AbortSignal);
    expect(plazos.get(senal!)).toBe(300);
    expect(senal!.aborted).toBe(true);
    expect((senal!.reason as DOMException).name).toBe('TimeoutError');
    expect(r).toMatchObject({ enviadas: 0, pendientes: 1 });
    expect((await m.db.outbox.toArray())[0]!.ultimoError).toBe('Sin conexión');
    m.reloj.ms += 10_000;
    expect(await m.motor.drain()).toMatchObject({ enviadas: 1, pendientes: 0 });
    expect((await enServidor({ app, c })).map((d) => d.referencia)).toEqual(['colgada']);
  });
});

describe('documents for the road', () => {
  it('lets the copy of a DeCA issued here with no coverage go with the road copies, only once the server’s was stored and checked', async ({ app, cuentaNueva: c }) => {
    const m = await movil({ app, c });
    const vacio = new ArrayBuffer(1);
    const item = (clave: string, fecha: string) => ({
      clave,
      numero: `2026-99${clave.slice(2, 6)}`,
      ref_temporal: null,
      deca: null,
      datos: {},
      estado: 'emitido' as const,
      archivado: 0 as const,
      fecha_transporte: fecha,
      orden: 1,
      pendientes: 0,
      rechazo: null,
      actualizado: 0,
      offline: 1 as const,
    });
    const emitida = (clave: string, coincide?: boolean) => ({
      clave,
      numero: `2026-99${clave.slice(2, 6)}`,
      qrUrl: 'x',
      qrSvg: '<svg/>',
      pdf: vacio,
      sha256: '0',
      emitida_at: '2026-10-01T08:00:00Z',
      coincide,
    });
    // Old and checked: goes. Old but the server's copy never stored and checked: stays. Checked but within the window: stays.
    await m.db.decas.bulkPut([item('l:0001', '2026-10-01'), item('l:0002', '2026-10-01'), item('l:0003', '2026-11-20')]);
    await m.db.emitidas.bulkPut([emitida('l:0001', true), emitida('l:0002'), emitida('l:0003', true)]);
    await guardarParaElCamino(m.motor_api, m.db);
    expect((await m.db.emitidas.toArray()).map((e) => e.clave).sort()).toEqual(['l:0002', 'l:0003']);
    expect((await m.db.decas.toArray()).map((r) => [r.clave, r.offline ?? null])).toEqual([
      ['l:0001', null],
      ['l:0002', 1],
      ['l:0003', 1],
    ]);
  });

  it('keeps what is within 7 days of the server’s date, in one request, and is sent only what it is missing', async ({ app, cuentaNueva: c }) => {
    // The server's date is 21 Nov 2026 (its clock); the phone's own date is never read.
    const m = await movil({ app, c });
    const crear = async (fecha: string, referencia: string) => {
      const res = await app.request('POST', '/api/v1/decas', { key: c.live, body: decaCompleta({ fecha_transporte: fecha, referencia }) });
      expect(res.status, res.text).toBe(201);
      return DecaCreada.parse(res.body).deca;
    };
    const hoy = await crear('2026-11-21', 'hoy');
    const haceSeis = await crear('2026-11-15', 'hace seis días');
    await crear('2026-11-10', 'hace once días');
    await crear('2026-12-01', 'dentro de diez días');
    // A copy kept from before whose DeCA the server no longer lists (archived elsewhere) but dated inside the window, and an old one.
    const vacio = new ArrayBuffer(1);
    await m.db.documentos.bulkPut([
      { id: 999_001, version: 1, pdf_sha256: null, pdf: vacio, qr: vacio, fecha_transporte: '2026-11-20', guardado: 0 },
      { id: 999_002, version: 1, pdf_sha256: null, pdf: vacio, qr: vacio, fecha_transporte: '2026-10-01', guardado: 0 },
    ]);

    expect(await guardarParaElCamino(m.motor_api, m.db)).toBe(2);
    expect(m.llamadas).toEqual([expect.stringMatching(/^GET \/api\/v1\/camino\?tengo=/)]);
    const docs = await m.db.documentos.orderBy('id').toArray();
    expect(docs.map((d) => d.id)).toEqual([hoy.id, haceSeis.id, 999_001].sort((a, b) => a - b));
    const pdf = docs.find((d) => d.id === hoy.id)!;
    expect(Buffer.from(pdf.pdf).subarray(0, 5).toString()).toBe('%PDF-');
    expect(createHash('sha256').update(Buffer.from(pdf.pdf)).digest('hex')).toBe(hoy.pdf_sha256);
    expect(Buffer.from(pdf.qr).subarray(1, 4).toString()).toBe('PNG');
    expect((await m.db.meta.get('fecha-servidor'))?.valor).toBe('2026-11-21');

    // Again: the server sends no bytes for what the phone already holds at that version.
    const respuestas: DocumentosCamino[] = [];
    m.interceptar((_url, _init, pasar) =>
      pasar().then(async (res) => {
        respuestas.push(DocumentosCamino.parse(await res.clone().json()));
        return res;
      }),
    );
    expect(await guardarParaElCamino(m.motor_api, m.db)).toBe(2);
    expect(respuestas[0]!.documentos.map((d) => [d.pdf, d.qr])).toEqual([
      [null, null],
      [null, null],
    ]);
    expect((await m.db.documentos.toArray()).map((d) => d.id).sort((a, b) => a - b)).toEqual([hoy.id, haceSeis.id, 999_001].sort((a, b) => a - b));
  });

  it('reads the PDFs several at once, never more than LECTURAS_A_LA_VEZ, and answers them in the rows’ order; a failed read fails as one at a time would', async ({ app, cuentaNueva: c }) => {
    const creadas: { id: number; numero: string | null; pdf_sha256: string | null }[] = [];
    for (let i = 0; i < 20; i++) {
      const res = await app.request('POST', '/api/v1/decas', { key: c.live, body: decaCompleta({ fecha_transporte: '2026-11-21', referencia: `camino ${i}` }) });
      expect(res.status, res.text).toBe(201);
      creadas.push(DecaCreada.parse(res.body).deca);
    }
    const nuevasPrimero = [...creadas].sort((a, b) => b.id - a.id);
    // The app's own store, ~30 ms away (as S3 is), counting the reads in flight; `falla` makes a blob's read fail after `ms`.
    const real = app.services.blobs;
    let enVuelo = 0;
    let maximo = 0;
    let leidas = 0;
    const falla = new Map<string, number>();
    const lejano: BlobStore = {
      descripcion: 'a 30 ms',
      guardar: (s, b) => real.guardar(s, b),
      existe: (s) => real.existe(s),
      listar: (o) => real.listar(o),
      borrar: (s) => real.borrar(s),
      leer: async (s) => {
        leidas++;
        maximo = Math.max(maximo, ++enVuelo);
        try {
          const ms = falla.get(s);
          if (ms !== undefined) {
            await sleep(ms);
            throw new BlobError('no_disponible', s, 'sin respuesta (simulado)');
          }
          await sleep(30);
          return await real.leer(s);
        } finally {
          enVuelo--;
        }
      },
    };
    const ctx = { ...app.services, blobs: lejano };
    const actor = { accountId: c.account.id, entorno: 'produccion', rol: null, userId: null } as const;

    const r = await documentosParaElCamino(ctx, actor, new Map());
    expect(leidas).toBe(20);
    expect(maximo).toBeGreaterThan(1);
    expect(maximo).toBeLessThanOrEqual(LECTURAS_A_LA_VEZ);
    // Newest first, as the query lists them, each with its own PDF; and the endpoint answers the same.
    expect(r.documentos.map((d) => d.deca.id)).toEqual(nuevasPrimero.map((d) => d.id));
    expect(r.documentos.map((d) => createHash('sha256').update(Buffer.from(d.pdf!, 'base64')).digest('hex'))).toEqual(nuevasPrimero.map((d) => d.pdf_sha256));
    const res = await app.request('GET', '/api/v1/camino', { key: c.live });
    expect(res.status, res.text).toBe(200);
    expect(DocumentosCamino.parse(res.body).documentos.map((d) => [d.deca.id, d.pdf, d.qr])).toEqual(r.documentos.map((d) => [d.deca.id, d.pdf, d.qr]));

    // The third DeCA's read fails late and the sixth's at once: the answer fails with the third's error, as reading in order did.
    falla.set(nuevasPrimero[2]!.pdf_sha256!, 60);
    falla.set(nuevasPrimero[5]!.pdf_sha256!, 0);
    await expect(documentosParaElCamino(ctx, actor, new Map())).rejects.toMatchObject({
      codigo: 'no_disponible',
      message: expect.stringContaining(`El PDF de la DeCA ${nuevasPrimero[2]!.numero} (versión 1)`),
    });
  });
});
