import { describe, expect } from 'vitest';
import { ManualClock } from '../../server/clock';
import { DecaCreada, DecaList } from '../../shared/schemas/deca';
import type { TestApp } from '../support/app';
import { decaCompleta } from '../support/decas';
import { iniciarSesion } from '../support/decas-helpers';
import { decaMinima, enLotes, errorDe, postDeca } from '../support/decas-http';
import { buildCuenta, type CuentaDePrueba } from '../support/factories';
import { test } from '../support/fixtures';
import { usuarioCon } from '../support/usuarios';

test.override('opcionesApp', { clock: new ManualClock('2026-11-20T09:00:00+01:00'), apiPoints: 100_000 });

async function listar(app: TestApp, key: string, query: Record<string, string> = {}): Promise<DecaList> {
  const res = await app.request('GET', `/api/v1/decas?${new URLSearchParams(query).toString()}`, { key });
  expect(res.status, res.text).toBe(200);
  return DecaList.parse(res.body);
}

async function idsDe(app: TestApp, key: string, query: Record<string, string> = {}): Promise<number[]> {
  const l = await listar(app, key, query);
  expect(l.siguiente).toBeNull();
  return l.decas.map((d) => d.id);
}

async function crear(app: TestApp, c: CuentaDePrueba, body: Parameters<typeof postDeca>[2]): Promise<number> {
  const res = await postDeca(app, c.live, body);
  expect(res.status, res.text).toBe(201);
  return DecaCreada.parse(res.body).deca.id;
}

/** One account with six DeCAs that differ in every filter, and look-alikes that must never show. */
const it = test.extend('lista', { scope: 'file' }, async ({ app }) => {
  const d: Record<string, number> = {};
  const a = await buildCuenta(app);
  d.d1 = await crear(app, a, decaCompleta({ fecha_transporte: '2026-11-01', matricula: '1234 BCD', ref_externa: 'L-1' }));
  d.d2 = await crear(app, a, decaCompleta({ emitir: false, fecha_transporte: '2026-11-05', matricula: '5678 FGH', matricula_remolque: 'R 5555 BBB' }));
  d.d3 = await crear(app, a, decaCompleta({ fecha_transporte: '2026-11-10', matricula: '9876 KLM', matricula_remolque: '1234-bcd', ref_externa: 'L-3' }));
  d.d4 = await crear(app, a, decaCompleta({ fecha_transporte: '2026-11-15', matricula: '2222 CCC' }));
  d.d6 = await crear(app, a, decaMinima(6));
  const arch = await app.request('POST', `/api/v1/decas/${d.d6}/archivar`, { key: a.live, body: { archivado: true } });
  expect(arch.status, arch.text).toBe(200);
  const sus = await app.request('POST', `/api/v1/decas/${d.d4}/sustituir`, { key: a.live, body: { motivo: 'Otro conductor', conductor_nombre: 'Ana Ruiz' } });
  expect(sus.status, sus.text).toBe(200);
  d.d5 = sus.body.deca.id as number;

  // Look-alikes that must never show: another account, and this account's test environment.
  const b = await buildCuenta(app);
  expect((await postDeca(app, b.live, decaCompleta({ fecha_transporte: '2026-11-01', matricula: '1234 BCD', ref_externa: 'L-1' }))).status).toBe(201);
  expect((await postDeca(app, b.live, decaMinima(1))).status).toBe(201);
  const demo = await postDeca(app, a.test, decaCompleta({ fecha_transporte: '2026-11-01', matricula: '1234 BCD', ref_externa: 'L-1' }), { entorno: 'pruebas' });
  expect(demo.status, demo.text).toBe(201);
  return { a, d };
});

describe('GET /decas filters', () => {
  it('lists only this account and environment, newest first', async ({ app, lista }) => {
    const { a, d } = lista;
    expect(await idsDe(app, a.live)).toEqual([d.d5, d.d6, d.d4, d.d3, d.d2, d.d1]);
    const demo = await app.request('GET', '/demo/api/v1/decas', { key: a.test });
    expect(DecaList.parse(demo.body).decas).toHaveLength(1);
  });

  it('filters by estado', async ({ app, lista }) => {
    const { a, d } = lista;
    expect(await idsDe(app, a.live, { estado: 'emitido' })).toEqual([d.d5, d.d3, d.d1]);
    expect(await idsDe(app, a.live, { estado: 'pendiente' })).toEqual([d.d6, d.d2]);
    expect(await idsDe(app, a.live, { estado: 'sustituido' })).toEqual([d.d4]);
    const bad = await app.request('GET', '/api/v1/decas?estado=borrador', { key: a.live });
    expect(bad.status, bad.text).toBe(422);
    expect(Object.keys(errorDe(bad).campos)).toEqual(['estado']);
  });

  it('filters by transport date, both ends included', async ({ app, lista }) => {
    const { a, d } = lista;
    expect(await idsDe(app, a.live, { desde: '2026-11-05', hasta: '2026-11-10' })).toEqual([d.d3, d.d2]);
    expect(await idsDe(app, a.live, { desde: '2026-11-15' })).toEqual([d.d5, d.d4]);
    expect(await idsDe(app, a.live, { hasta: '2026-11-01' })).toEqual([d.d1]);
    expect(await idsDe(app, a.live, { desde: '2026-11-02', hasta: '2026-11-04' })).toEqual([]);
    const bad = await app.request('GET', '/api/v1/decas?desde=2026-02-30', { key: a.live });
    expect(bad.status, bad.text).toBe(422);
    expect(Object.keys(errorDe(bad).campos)).toEqual(['desde']);
  });

  it('filters by ref_externa', async ({ app, lista }) => {
    const { a, d } = lista;
    expect(await idsDe(app, a.live, { ref_externa: 'L-1' })).toEqual([d.d1]);
    expect(await idsDe(app, a.live, { ref_externa: 'L-3' })).toEqual([d.d3]);
    expect(await idsDe(app, a.live, { ref_externa: 'L-2' })).toEqual([]);
  });

  it('filters by plate of the tractor or the trailer, normalising the input', async ({ app, lista }) => {
    const { a, d } = lista;
    expect(await idsDe(app, a.live, { matricula: '1234 bcd' })).toEqual([d.d3, d.d1]);
    expect(await idsDe(app, a.live, { matricula: 'r-5555-bbb' })).toEqual([d.d2]);
    expect(await idsDe(app, a.live, { matricula: '5678FGH' })).toEqual([d.d2]);
    expect(await idsDe(app, a.live, { matricula: '0000 XXX' })).toEqual([]);
    expect(await idsDe(app, a.live, { matricula: '1234BCD', estado: 'emitido', desde: '2026-11-05' })).toEqual([d.d3]);
  });

  it('filters by any part of a plate (extension `matricula_contiene`), tractor or trailer, as people type it; `matricula` stays a whole plate', async ({ app, lista }) => {
    const { a, d } = lista;
    // d1's tractor and d3's trailer are 1234BCD; d2's trailer R5555BBB; d4 (replaced by d5) 2222CCC.
    expect(await idsDe(app, a.live, { matricula_contiene: '34 b' })).toEqual([d.d3, d.d1]);
    expect(await idsDe(app, a.live, { matricula_contiene: '4-bc' })).toEqual([d.d3, d.d1]);
    expect(await idsDe(app, a.live, { matricula_contiene: '555' })).toEqual([d.d2]);
    expect(await idsDe(app, a.live, { matricula_contiene: 'ccc' })).toEqual([d.d5, d.d4]);
    expect(await idsDe(app, a.live, { matricula_contiene: '34bc', estado: 'emitido', desde: '2026-11-05' })).toEqual([d.d3]);
    // A typed LIKE wildcard is a character, never «anything».
    expect(await idsDe(app, a.live, { matricula_contiene: '%' })).toEqual([]);
    expect(await idsDe(app, a.live, { matricula_contiene: '_' })).toEqual([]);
    // Only spaces or dashes: no part at all, so no filter.
    expect(await idsDe(app, a.live, { matricula_contiene: ' - ', archivado: 'false' })).toEqual([d.d5, d.d4, d.d3, d.d2, d.d1]);
    expect(await idsDe(app, a.live, { matricula: '34BC' })).toEqual([]);
    // The CSV export takes the list's filters: the same part, the same DeCAs.
    const csv = await app.request('GET', `/api/v1/decas.csv?${new URLSearchParams({ matricula_contiene: '34 b' })}`, { key: a.live });
    expect(csv.status, csv.text).toBe(200);
    const matriculas = csv.text
      .trim()
      .split(/\r\n/)
      .slice(1)
      .map((l) => l.split(';')[14]);
    expect(matriculas.sort()).toEqual(['1234BCD', '9876KLM']);
  });

  it('filters by archive flag', async ({ app, lista }) => {
    const { a, d } = lista;
    expect(await idsDe(app, a.live, { archivado: 'true' })).toEqual([d.d6]);
    expect(await idsDe(app, a.live, { archivado: 'false' })).toEqual([d.d5, d.d4, d.d3, d.d2, d.d1]);
  });
});

describe('GET /decas modificado_desde', () => {
  it('returns only the DeCA changed since a Madrid wall-clock time', async ({ app, cuentaNueva: c }) => {
    app.clock.set('2026-11-21T09:00:00+01:00');
    const m1 = await crear(app, c, decaMinima(1));
    const m2 = await crear(app, c, decaMinima(2));
    const m3 = await crear(app, c, decaMinima(3));

    app.clock.advance(3_600_000); // 10:00 Madrid
    const patch = await app.request('PATCH', `/api/v1/decas/${m2}`, { key: c.live, body: { referencia: 'cambiada' } });
    expect(patch.status, patch.text).toBe(200);

    // 09:30 Madrid is 08:30 UTC: read as UTC it would be 10:30 Madrid and miss the change.
    expect(await idsDe(app, c.live, { modificado_desde: '2026-11-21 09:30:00' })).toEqual([m2]);
    expect(await idsDe(app, c.live, { modificado_desde: '2026-11-21T08:30:00Z' })).toEqual([m2]);
    // Ordered by the last change, then id: m2 changed at 10:00, the others at 09:00.
    expect(await idsDe(app, c.live, { modificado_desde: '2026-11-21 08:59:00' })).toEqual([m2, m3, m1]);
    expect(await idsDe(app, c.live, { modificado_desde: '2026-11-21' })).toEqual([m2, m3, m1]);
    expect(await idsDe(app, c.live, { modificado_desde: '2026-11-21 10:30:00' })).toEqual([]);

    app.clock.advance(3_600_000); // 11:00 Madrid: archiving is a change too
    const arch = await app.request('POST', `/api/v1/decas/${m1}/archivar`, { key: c.live, body: { archivado: true } });
    expect(arch.status, arch.text).toBe(200);
    expect(await idsDe(app, c.live, { modificado_desde: '2026-11-21 10:30:00' })).toEqual([m1]);
    expect(await idsDe(app, c.live, { modificado_desde: '2026-11-21 09:30:00' })).toEqual([m1, m2]);

    const bad = await app.request('GET', '/api/v1/decas?modificado_desde=ayer', { key: c.live });
    expect(bad.status, bad.text).toBe(422);
    expect(Object.keys(errorDe(bad).campos)).toEqual(['modificado_desde']);
  });

  it('is set at creation and moved by every change of the DeCA, so an ERP polling with it sees new and changed DeCAs', async ({ app, cuentaNueva: c }) => {
    const at = (hh: string) => `2026-12-02 ${hh}:00`;
    const madrid = (hh: string) => `2026-12-02T${hh}:00+01:00`;
    const ver = async (id: number) => (await app.request('GET', `/api/v1/decas/${id}`, { key: c.live })).body.deca as { modificado_at: string; created_at: string };
    const paso = async (hh: string, method: string, path: string, body: unknown, expected = 200) => {
      app.clock.set(madrid(hh));
      const res = await app.request(method, `/api/v1/decas${path}`, { key: c.live, body });
      expect(res.status, `${method} ${path}: ${res.text}`).toBe(expected);
      return res;
    };

    const pendiente = (await paso('08:00', 'POST', '', { ...decaCompleta(), emitir: false }, 201)).body.deca.id as number;
    expect(await ver(pendiente)).toMatchObject({ created_at: at('08:00'), modificado_at: at('08:00') });
    // A DeCA created after the instant is «changed since» it: the ERP sees it.
    expect(await idsDe(app, c.live, { modificado_desde: at('07:59') })).toEqual([pendiente]);
    expect(await idsDe(app, c.live, { modificado_desde: at('08:01') })).toEqual([]);

    await paso('08:10', 'PATCH', `/${pendiente}`, { referencia: 'pendiente cambiada' });
    expect((await ver(pendiente)).modificado_at).toBe(at('08:10'));
    await paso('08:20', 'POST', `/${pendiente}/emitir`, {});
    expect((await ver(pendiente)).modificado_at).toBe(at('08:20'));
    await paso('08:30', 'PATCH', `/${pendiente}`, { matricula: '5678 FGH', motivo: 'Cambio de camión' });
    expect((await ver(pendiente)).modificado_at).toBe(at('08:30'));
    const nueva = (await paso('08:40', 'POST', `/${pendiente}/sustituir`, { referencia: 'sustituta', motivo: 'Otra carga' })).body.deca.id as number;
    expect((await ver(pendiente)).modificado_at).toBe(at('08:40'));
    expect(await ver(nueva)).toMatchObject({ created_at: at('08:40'), modificado_at: at('08:40') });
    await paso('08:50', 'POST', `/${nueva}/fin`, {});
    expect((await ver(nueva)).modificado_at).toBe(at('08:50'));
    await paso('09:00', 'POST', `/${nueva}/archivar`, { archivado: true });
    expect((await ver(nueva)).modificado_at).toBe(at('09:00'));
    await paso('09:10', 'POST', `/${nueva}/archivar`, { archivado: false });
    expect((await ver(nueva)).modificado_at).toBe(at('09:10'));
    // Nothing changed, nothing moves: the same archive flag again, and a refused change.
    await paso('09:20', 'POST', `/${nueva}/archivar`, { archivado: false });
    await paso('09:25', 'PATCH', `/${nueva}`, { matricula: '9999 ZZZ' }, 422);
    expect((await ver(nueva)).modificado_at).toBe(at('09:10'));

    // Completion by the other party through the link.
    const otra = (await paso('09:30', 'POST', '', { ...decaCompleta(), cargador_nombre: undefined, cargador_nif: undefined, cargador_domicilio: undefined, emitir: false }, 201)).body.deca;
    app.clock.set(madrid('09:40'));
    const form = new URLSearchParams({ accion: 'enviar', cargador_nombre: 'Frutas Peñalara, S.A.', cargador_nif: 'A58818501', cargador_domicilio: 'Camí Vell 3, Lleida' });
    const done = await fetch(`${app.url}${new URL(otra.urls.completar).pathname}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form.toString() });
    expect(done.status, await done.clone().text()).toBe(200);
    expect(await ver(otra.id)).toMatchObject({ modificado_at: at('09:40') });

    expect(await idsDe(app, c.live, { modificado_desde: at('09:05') })).toEqual([otra.id, nueva]);
    expect(await idsDe(app, c.live, { modificado_desde: at('08:35') })).toEqual([otra.id, nueva, pendiente]);
  });

  it('reads the Madrid wall-clock time right on the days the clocks change', async ({ app }) => {
    // Spring forward (2027-03-28, CEST after 02:00) and fall back (2026-10-25, CET after 03:00).
    for (const [dia, zona] of [
      ['2027-03-28', '+02:00'],
      ['2026-10-25', '+01:00'],
    ] as const) {
      const c = await buildCuenta(app);
      app.clock.set(`${dia}T09:00:00${zona}`);
      const quieta = await crear(app, c, decaMinima(1));
      const cambiada = await crear(app, c, decaMinima(2));
      app.clock.set(`${dia}T10:00:00${zona}`);
      const patch = await app.request('PATCH', `/api/v1/decas/${cambiada}`, { key: c.live, body: { referencia: 'cambiada' } });
      expect(patch.status, patch.text).toBe(200);

      expect(await idsDe(app, c.live, { modificado_desde: `${dia} 09:30:00` }), dia).toEqual([cambiada]);
      expect(await idsDe(app, c.live, { modificado_desde: `${dia} 08:59:00` }), dia).toEqual([cambiada, quieta]);
      expect(await idsDe(app, c.live, { modificado_desde: `${dia} 10:00:30` }), dia).toEqual([]);
    }
  });
});

describe('GET /decas pages', () => {
  it('caps limite at 100 and refuses a bad cursor', async ({ app, cuentaNueva: c }) => {
    await crear(app, c, decaMinima(1));
    for (const limite of ['101', '0', 'diez']) {
      const res = await app.request('GET', `/api/v1/decas?limite=${limite}`, { key: c.live });
      expect(res.status, `${limite}: ${res.text}`).toBe(422);
      const err = errorDe(res);
      expect(err.codigo).toBe('validacion');
      expect(Object.keys(err.campos)).toEqual(['limite']);
    }
    expect((await listar(app, c.live, { limite: '100' })).decas).toHaveLength(1);

    const forged = Buffer.from(JSON.stringify({ v: 1, id: -3 })).toString('base64url');
    for (const cursor of ['no-es-un-cursor', forged, 'x'.repeat(300)]) {
      const res = await app.request('GET', `/api/v1/decas?despues_de=${cursor}`, { key: c.live });
      expect(res.status, `${cursor}: ${res.text}`).toBe(422);
      const err = errorDe(res);
      expect(err.codigo).toBe('validacion');
      expect(Object.keys(err.campos)).toEqual(['despues_de']);
    }
  });

  it('ends with siguiente null when the last page is exactly full', async ({ app, cuentaNueva: c }) => {
    const ids = [];
    for (let i = 0; i < 4; i++) ids.push(await crear(app, c, decaMinima(i)));
    const p1 = await listar(app, c.live, { limite: '2' });
    expect(p1.decas.map((x) => x.id)).toEqual([ids[3], ids[2]]);
    expect(p1.siguiente).not.toBeNull();
    const p2 = await listar(app, c.live, { limite: '2', despues_de: p1.siguiente! });
    expect(p2.decas.map((x) => x.id)).toEqual([ids[1], ids[0]]);
    expect(p2.siguiente).toBeNull();
    expect((await listar(app, c.live, { limite: '4' })).siguiente).toBeNull();
  });

  it('walks 250 DeCA with limite=37 exactly once each while new ones are being created', async ({ app, cuentaNueva: c }) => {
    const other = await buildCuenta(app);
    const created = await enLotes(250, 10, (i) => postDeca(app, c.live, decaMinima(i)));
    expect(created.filter((r) => r.status !== 201).map((r) => r.text)).toEqual([]);
    const originales = new Set(created.map((r) => r.body.deca.id as number));
    expect(originales.size).toBe(250);
    expect((await listar(app, c.live)).decas).toHaveLength(50); // default page size

    const pages: DecaList[] = [await listar(app, c.live, { limite: '37' })];
    const nuevas: number[] = [];
    let n = 0;
    while (pages[pages.length - 1]!.siguiente) {
      const cursor = pages[pages.length - 1]!.siguiente!;
      // New DeCA (and another account's) land while the next page is read.
      const inserts = Promise.all([postDeca(app, c.live, decaMinima(1000 + n++)), postDeca(app, c.live, decaMinima(1000 + n++)), postDeca(app, other.live, decaMinima(n))]);
      const [page, made] = await Promise.all([listar(app, c.live, { limite: '37', despues_de: cursor }), inserts]);
      for (const r of made) expect(r.status, r.text).toBe(201);
      nuevas.push(made[0].body.deca.id, made[1].body.deca.id);
      pages.push(page);
      expect(pages.length).toBeLessThan(20);
    }

    expect(pages.map((p) => p.decas.length)).toEqual([37, 37, 37, 37, 37, 37, 28]);
    expect(pages.map((p) => p.siguiente === null)).toEqual([false, false, false, false, false, false, true]);
    const walked = pages.flatMap((p) => p.decas.map((x) => x.id));
    expect(walked).toHaveLength(250);
    expect(new Set(walked)).toEqual(originales);
    for (let i = 1; i < walked.length; i++) expect(walked[i]!).toBeLessThan(walked[i - 1]!);

    // The ones created during the walk are there for a new walk, on top.
    expect(nuevas).toHaveLength(12);
    const fresh = await listar(app, c.live, { limite: '12' });
    expect(new Set(fresh.decas.map((x) => x.id))).toEqual(new Set(nuevas));
  });
});

/** Every page of a list, following `siguiente`: the ids in the order seen. */
async function recorrer(app: TestApp, auth: { key?: string; cookie?: string }, query: Record<string, string>): Promise<number[]> {
  const vistos: number[] = [];
  let despues: string | null = null;
  do {
    const q: Record<string, string> = { ...query, ...(despues ? { despues_de: despues } : {}) };
    const res = await app.request('GET', `/api/v1/decas?${new URLSearchParams(q).toString()}`, auth);
    expect(res.status, res.text).toBe(200);
    const pagina = DecaList.parse(res.body);
    expect(pagina.decas.length).toBeLessThanOrEqual(Number(query.limite ?? 50));
    vistos.push(...pagina.decas.map((d) => d.id));
    despues = pagina.siguiente;
  } while (despues);
  return vistos;
}

describe('GET /decas by plate: the tractor’s and the trailer’s DeCAs merged, newest first', () => {
  it('walks every DeCA with the plate as tractor or trailer once, pages of 4, with the other filters and a driver’s scope applied to both', async ({ app, cuentaNueva: c }) => {
    // Every third as the tractor, every third as the trailer (written differently), the rest another plate; a quarter pending.
    const cual = (i: number) => (i % 3 === 0 ? 'tractor' : i % 3 === 1 ? 'remolque' : 'otra');
    const ids = await enLotes(30, 6, (i) =>
      crear(
        app,
        c,
        decaCompleta({
          emitir: i % 4 !== 0,
          matricula: cual(i) === 'tractor' ? '7777 PPP' : `${1000 + i} BBB`,
          matricula_remolque: cual(i) === 'remolque' ? '7777-ppp' : `R ${2000 + i} CCC`,
        }),
      ),
    );
    const con = (f: (i: number) => boolean) =>
      ids
        .map((id, i) => ({ id, i }))
        .filter((x) => cual(x.i) !== 'otra' && f(x.i))
        .map((x) => x.id)
        .sort((a, b) => b - a);
    expect(await recorrer(app, { key: c.live }, { matricula: '7777 PPQ', limite: '4' })).toEqual([]);
    expect(await recorrer(app, { key: c.live }, { matricula: '7777-ppp', limite: '4' })).toEqual(con(() => true));
    expect(await recorrer(app, { key: c.live }, { matricula: '7777PPP', estado: 'emitido', limite: '4' })).toEqual(con((i) => i % 4 !== 0));

    // A driver of the plate sees the DeCAs where it is the tractor (their vehicle), not those where it only pulls another's trailer.
    const admin = await iniciarSesion(app, c.email, c.password);
    const conductor = await usuarioCon(app, admin, 'conductor');
    const CSRF = { 'X-DeCA-CSRF': '1' };
    const asignar = await app.request('PATCH', `/app/api/usuarios/${conductor.id}`, { cookie: admin, headers: CSRF, body: { matriculas: ['7777PPP'] } });
    expect(asignar.status, asignar.text).toBe(200);
    expect(await recorrer(app, { cookie: conductor.cookie }, { matricula: '7777 PPP', limite: '4' })).toEqual(con((i) => cual(i) === 'tractor'));
  });
});

describe('GET /decas filtered by a date: ordered by that date, walked by a cursor on it', () => {
  it('orders by transport date, then id, and walks every DeCA of the range once, pages of 7', async ({ app, cuentaNueva: c }) => {
    // Created in an order unlike their dates: ids and dates disagree, so the two orders differ.
    const fechas = Array.from({ length: 40 }, (_, i) => `2026-10-${String(1 + ((i * 17) % 31)).padStart(2, '0')}`);
    const ids = await enLotes(fechas.length, 8, (i) => crear(app, c, decaCompleta({ fecha_transporte: fechas[i]! })));
    const esperado = ids
      .map((id, i) => ({ id, fecha: fechas[i]! }))
      .filter((x) => x.fecha >= '2026-10-05' && x.fecha <= '2026-10-25')
      .sort((a, b) => (a.fecha === b.fecha ? b.id - a.id : a.fecha < b.fecha ? 1 : -1))
      .map((x) => x.id);
    const vistos: number[] = [];
    let despues: string | null = null;
    do {
      const pagina: DecaList = await listar(app, c.live, { desde: '2026-10-05', hasta: '2026-10-25', limite: '7', ...(despues ? { despues_de: despues } : {}) });
      expect(pagina.decas.length).toBeLessThanOrEqual(7);
      vistos.push(...pagina.decas.map((d) => d.id));
      despues = pagina.siguiente;
    } while (despues);
    expect(vistos).toEqual(esperado);
    expect(esperado.length).toBeGreaterThan(14);
  });

  it('orders by last change, then id, with modificado_desde, and walks it by a cursor on it', async ({ app, cuentaNueva: c }) => {
    app.clock.set('2026-11-25T08:00:00+01:00');
    const ids: number[] = [];
    for (let i = 0; i < 9; i++) ids.push(await crear(app, c, decaMinima(i)));
    // Changed later, in reverse: the oldest DeCA is now the most recently changed.
    for (const id of [...ids].reverse().slice(0, 5)) {
      app.clock.advance(60_000);
      expect((await app.request('PATCH', `/api/v1/decas/${id}`, { key: c.live, body: { referencia: `cambio ${id}` } })).status).toBe(200);
    }
    const vistos: number[] = [];
    let despues: string | null = null;
    do {
      const pagina: DecaList = await listar(app, c.live, { modificado_desde: '2026-11-25 07:00:00', limite: '2', ...(despues ? { despues_de: despues } : {}) });
      vistos.push(...pagina.decas.map((d) => d.id));
      despues = pagina.siguiente;
    } while (despues);
    const [a, b, c2, d, e, f, g, h, i] = ids as [number, number, number, number, number, number, number, number, number];
    // The five changed, latest change first; then the four untouched, created at the same minute, by id.
    expect(vistos).toEqual([e, f, g, h, i, d, c2, b, a]);
  });

  it('refuses a cursor of a list with other date filters, saying so, rather than skip or repeat', async ({ app, cuentaNueva: c }) => {
    for (let i = 0; i < 3; i++) await crear(app, c, decaCompleta({ fecha_transporte: `2026-10-0${i + 1}` }));
    const porId = await listar(app, c.live, { limite: '1' });
    const porFecha = await listar(app, c.live, { desde: '2026-10-01', limite: '1' });
    for (const [query, cursor] of [
      [{ desde: '2026-10-01' }, porId.siguiente],
      [{}, porFecha.siguiente],
      [{ modificado_desde: '2026-01-01' }, porFecha.siguiente],
    ] as const) {
      const res = await app.request('GET', `/api/v1/decas?${new URLSearchParams({ ...query, despues_de: cursor! }).toString()}`, { key: c.live });
      expect(res.status, res.text).toBe(422);
      expect(errorDe(res).campos).toEqual({ despues_de: 'Cursor no válido' });
      expect(errorDe(res).mensaje).toMatch(/otros filtros de fecha/);
    }
  });
});
