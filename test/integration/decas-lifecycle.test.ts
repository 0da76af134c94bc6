import { describe, expect } from 'vitest';
import { fechaMadrid } from '../../shared/rules/fechas';
import { type Cambio, CambiosList, Deca, DecaCreada, type DecaInput, DecaList } from '../../shared/schemas/deca';
import { decaCompleta } from '../support/decas';
import { API, CSRF, contarDecas, crearDecaOk, DEMO, decaOk, eventosDe, expectApiError, FECHA_HORA, getBytes, iniciarSesion, leerCambios, leerDeca } from '../support/decas-helpers';
import { buildCuenta } from '../support/factories';
import { type Fx, it } from '../support/fixtures';

/** Create an issued DeCA with the account's live key. */
async function emitida({ app, c }: Fx, over: Partial<DecaInput> = {}): Promise<Deca> {
  return (await crearDecaOk(app, c.live, decaCompleta(over))).deca;
}

/** Create a pending DeCA (emitir false) with the account's live key. */
async function pendiente({ app, c }: Fx, over: Partial<DecaInput> = {}): Promise<Deca> {
  return (await crearDecaOk(app, c.live, decaCompleta({ emitir: false, ...over }))).deca;
}

/** Replace `id` (method 2) and return the new DeCA. */
async function sustituir({ app, c }: Fx, id: number, body: Record<string, unknown>): Promise<Deca> {
  return decaOk(await app.request('POST', `${API}/decas/${id}/sustituir`, { key: c.live, body }));
}

const post = ({ app, c }: Fx, path: string, body: unknown = {}) => app.request('POST', `${API}${path}`, { key: c.live, body });

/** A DeCA's history as answered, the text and its parse (not through zod, which would reorder each entry's keys). */
async function cambiosCrudos({ app, c }: Fx, id: number): Promise<{ text: string; cambios: Cambio[] }> {
  const res = await app.request('GET', `${API}/decas/${id}/cambios`, { key: c.live });
  expect(res.status, res.text).toBe(200);
  return { text: res.text, cambios: (JSON.parse(res.text) as { cambios: Cambio[] }).cambios };
}

/** The `campos` of a DeCA's history rows as stored, oldest first. */
async function camposGuardados(app: Fx['app'], decaId: number): Promise<unknown[]> {
  return (await app.database.db.selectFrom('deca_cambios').select('campos').where('deca_id', '=', decaId).orderBy('id').execute()).map((r) => r.campos);
}

/** The text a history entry's fields were answered as when stored whole: jsonb's key order (antes, campo, despues). */
function textoDeCampos(campos: { antes: unknown; campo: string; despues: unknown }[]): string {
  return JSON.stringify(campos.map(({ antes, campo, despues }) => ({ antes, campo, despues })));
}

/** The fields the create of `decaCompleta()` lists in its history, in print order. */
const CREACION_COMPLETA = [
  { campo: 'cargador_nombre', antes: null, despues: 'Frutas Peñalara, S.A.' },
  { campo: 'cargador_nif', antes: null, despues: 'A58818501' },
  { campo: 'cargador_domicilio', antes: null, despues: 'Camí Vell 3, 25001 Lleida' },
  { campo: 'transp_nombre', antes: null, despues: 'Transportes Núñez, S.L.' },
  { campo: 'transp_nif', antes: null, despues: 'B12345674' },
  { campo: 'transp_domicilio', antes: null, despues: 'Avda. de la Ilustración 7, 50012 Zaragoza' },
  { campo: 'fecha_transporte', antes: null, despues: '2026-11-23' },
  { campo: 'tipo_vehiculo', antes: null, despues: 'rigido' },
  { campo: 'matricula', antes: null, despues: '1234BCD' },
  { campo: 'conductor_nombre', antes: null, despues: 'José Ángel Muñoz' },
  { campo: 'conductor_tel', antes: null, despues: '+34 600 000 000' },
];
const patch = ({ app, c }: Fx, id: number, body: unknown) => app.request('PATCH', `${API}/decas/${id}`, { key: c.live, body });

describe('POST /decas: create', () => {
  it('issues at once by default: 201, emitido with PDF and URLs, events deca.creado + deca.emitido', async ({ app, c }) => {
    const res = await app.request('POST', `${API}/decas`, { key: c.live, body: decaCompleta() });
    expect(res.status, res.text).toBe(201);
    const { deca, avisos } = DecaCreada.parse(res.body);
    expect(avisos).toEqual([]);
    expect(deca).toMatchObject({
      estado: 'emitido',
      version: 1,
      canal: 'api',
      emisor_rol: 'transportista',
      fin_servicio_at: null,
      sustituye_a: null,
      sustituido_por: null,
      archivado: false,
      descargas: 0,
    });
    // Spec: a timestamp, never null; at creation it is the creation time.
    expect(deca.modificado_at).toBe(deca.created_at);
    expect(deca.numero).toMatch(/^\d{4}-\d{6}$/);
    expect(deca.pdf_sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(deca.pdf_bytes).toBeGreaterThan(1000);
    expect(deca.emitido_at).toMatch(FECHA_HORA);
    expect(deca.created_at).toMatch(FECHA_HORA);
    const ficha = deca.urls.ficha;
    expect(ficha.startsWith(`${app.config.siteUrl}/d/`)).toBe(true);
    expect(deca.urls).toEqual({ ficha, pdf: `${ficha}.pdf`, qr_png: `${ficha}/qr.png`, conductor: `${ficha}/conductor`, completar: null });
    // The public URL is a token, never the id or the number.
    expect(ficha).not.toContain(deca.numero);
    expect(res.headers.get('location')).toBe(`${app.config.siteUrl}${API}/decas/${deca.id}`);

    expect(await eventosDe(app, deca.id)).toEqual(['deca.creado', 'deca.emitido']);
    const ev = await app.database.db.selectFrom('eventos').selectAll().where('deca_id', '=', deca.id).orderBy('id').execute();
    for (const e of ev) {
      expect(e.account_id).toBe(c.account.id);
      expect(e.entorno).toBe('produccion');
      expect(Deca.parse((e.data as { deca: unknown }).deca)).toEqual(deca);
    }
  });

  it('emitir:false leaves it pendiente with a completion link, no PDF, and only deca.creado', async ({ app, c }) => {
    const { deca, avisos } = await crearDecaOk(app, c.live, decaCompleta({ emitir: false }));
    expect(avisos).toEqual([]);
    expect(deca.estado).toBe('pendiente');
    expect(deca.version).toBe(1);
    expect(deca.urls.completar).toMatch(new RegExp(`^${app.config.siteUrl}/completar/[\\w-]{20,}$`));
    expect(deca.pdf_sha256).toBeNull();
    expect(deca.pdf_bytes).toBeNull();
    expect(deca.emitido_at).toBeNull();
    expect(await eventosDe(app, deca.id)).toEqual(['deca.creado']);
    // The same link is served on read.
    expect((await leerDeca(app, c.live, deca.id)).urls.completar).toBe(deca.urls.completar);
  });
});

describe('POST /decas/{id}/emitir', () => {
  it('issues a complete pending DeCA: emitido, PDF made, completion link gone, event deca.emitido', async ({ app, c }) => {
    const p = await pendiente({ app, c });
    const d = decaOk(await post({ app, c }, `/decas/${p.id}/emitir`));
    expect(d).toMatchObject({ id: p.id, numero: p.numero, estado: 'emitido', version: 1 });
    expect(d.urls).toEqual({ ...p.urls, completar: null });
    expect(d.pdf_sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(d.emitido_at).toMatch(FECHA_HORA);
    expect((await leerDeca(app, c.live, p.id)).urls.completar).toBeNull();
    expect(await eventosDe(app, p.id)).toEqual(['deca.creado', 'deca.emitido']);
  });

  it('refuses an incomplete pending DeCA with 422 validacion naming each missing field, and leaves it pending', async ({ app, c }) => {
    const p = await pendiente(
      { app, c },
      {
        matricula: undefined,
        fecha_transporte: undefined,
        envios: [{ origen: 'Lleida', destino: 'Málaga', naturaleza: 'Fruta' }],
      },
    );
    const err = expectApiError(await post({ app, c }, `/decas/${p.id}/emitir`), 422, 'validacion');
    expect(Object.keys(err.campos).sort()).toEqual(['envios[0].peso', 'fecha_transporte', 'matricula']);
    const again = await leerDeca(app, c.live, p.id);
    expect(again.estado).toBe('pendiente');
    expect(again.urls.completar).toBe(p.urls.completar);
    expect(await eventosDe(app, p.id)).toEqual(['deca.creado']);
  });

  it('409 emitido on an issued DeCA', async ({ app, c }) => {
    const d = await emitida({ app, c });
    expectApiError(await post({ app, c }, `/decas/${d.id}/emitir`), 409, 'emitido');
    expect(await eventosDe(app, d.id)).toEqual(['deca.creado', 'deca.emitido']);
  });
});

describe('PATCH /decas/{id}', () => {
  it('pending without emitir: the data changes, it stays pendiente at version 1, no event', async ({ app, c }) => {
    const p = await pendiente({ app, c });
    const d = decaOk(await patch({ app, c }, p.id, { matricula: '5678 fgh', observaciones: 'Carga lateral' }));
    expect(d).toMatchObject({ id: p.id, estado: 'pendiente', version: 1, matricula: '5678FGH', observaciones: 'Carga lateral' });
    expect(d.urls).toEqual(p.urls);
    expect(d.pdf_sha256).toBeNull();
    // Fields not sent are left as they were.
    expect(d.cargador_nombre).toBe(p.cargador_nombre);
    expect(d.envios).toEqual(p.envios);
    expect((await leerDeca(app, c.live, p.id)).matricula).toBe('5678FGH');
    expect(await eventosDe(app, p.id)).toEqual(['deca.creado']);
  });

  it('pending with emitir:true: changed, then issued', async ({ app, c }) => {
    const p = await pendiente({ app, c }, { matricula: undefined });
    const d = decaOk(await patch({ app, c }, p.id, { matricula: '9012 HJK', emitir: true }));
    expect(d).toMatchObject({ id: p.id, estado: 'emitido', version: 1, matricula: '9012HJK' });
    expect(d.urls.completar).toBeNull();
    expect(d.pdf_sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(await eventosDe(app, p.id)).toEqual(['deca.creado', 'deca.emitido']);
  });

  it('pending with emitir:true but still incomplete: 422 naming the field, nothing changed', async ({ app, c }) => {
    const p = await pendiente({ app, c }, { matricula: undefined });
    const err = expectApiError(await patch({ app, c }, p.id, { observaciones: 'Urgente', emitir: true }), 422, 'validacion');
    expect(Object.keys(err.campos)).toEqual(['matricula']);
    const again = await leerDeca(app, c.live, p.id);
    expect(again.estado).toBe('pendiente');
    expect(again.observaciones).toBeNull();
  });

  it('issued with motivo (method 1): same URLs and QR, version 2, new PDF, modificado_at, event deca.modificado', async ({ app, c }) => {
    const d = await emitida({ app, c });
    const res = await patch({ app, c }, d.id, { matricula: '5678 FGH', motivo: 'Cambio de camión' });
    const m = decaOk(res);
    expect(m).toMatchObject({ id: d.id, numero: d.numero, estado: 'emitido', version: 2, matricula: '5678FGH', emitido_at: d.emitido_at });
    expect(m.urls).toEqual(d.urls);
    expect(m.pdf_sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(m.pdf_sha256).not.toBe(d.pdf_sha256);
    expect(m.modificado_at).toMatch(FECHA_HORA);
    expect(await eventosDe(app, d.id)).toEqual(['deca.creado', 'deca.emitido', 'deca.modificado']);
    const ev = await app.database.db.selectFrom('eventos').select('data').where('deca_id', '=', d.id).where('evento', '=', 'deca.modificado').executeTakeFirstOrThrow();
    expect(Deca.parse((ev.data as { deca: unknown }).deca).version).toBe(2);
    // The authenticated PDF is the new version's.
    const pdf = await getBytes(app, c.live, `${API}/decas/${d.id}/pdf`);
    expect(pdf.status).toBe(200);
    expect(pdf.bytes.length).toBe(m.pdf_bytes);
    // The QR still points at the same public page.
    const qrAntes = d.urls.qr_png;
    expect((await leerDeca(app, c.live, d.numero)).urls.qr_png).toBe(qrAntes);
  });

  it('issued without motivo: 422 falta_motivo naming motivo, nothing changed', async ({ app, c }) => {
    const d = await emitida({ app, c });
    const err = expectApiError(await patch({ app, c }, d.id, { matricula: '5678 FGH' }), 422, 'falta_motivo');
    expect(Object.keys(err.campos)).toEqual(['motivo']);
    const again = await leerDeca(app, c.live, d.id);
    expect(again).toMatchObject({ version: 1, matricula: '1234BCD', pdf_sha256: d.pdf_sha256, modificado_at: d.modificado_at });
    expect(await eventosDe(app, d.id)).toEqual(['deca.creado', 'deca.emitido']);
  });

  it('issued with the same data and a motivo: 409 sin_cambios, no new version', async ({ app, c }) => {
    const d = await emitida({ app, c });
    // Written differently, but the same plate once normalised.
    expectApiError(await patch({ app, c }, d.id, { matricula: '1234-bcd', motivo: 'Revisión' }), 409, 'sin_cambios');
    expectApiError(await patch({ app, c }, d.id, { ...decaCompleta(), motivo: 'Reenvío de todo' }), 409, 'sin_cambios');
    const again = await leerDeca(app, c.live, d.id);
    expect(again.version).toBe(1);
    expect(again.pdf_sha256).toBe(d.pdf_sha256);
    expect(await eventosDe(app, d.id)).toEqual(['deca.creado', 'deca.emitido']);
  });

  it('renaming ref_externa frees the old reference for a new DeCA', async ({ app, c }) => {
    const refA = `PED-A-${Date.now()}`;
    const refB = `PED-B-${Date.now()}`;
    const p = await pendiente({ app, c }, { ref_externa: refA });
    expect(decaOk(await patch({ app, c }, p.id, { ref_externa: refB })).ref_externa).toBe(refB);
    const nueva = await app.request('POST', `${API}/decas`, { key: c.live, body: decaCompleta({ ref_externa: refA }) });
    expect(nueva.status, nueva.text).toBe(201);
    const { deca } = DecaCreada.parse(nueva.body);
    expect(deca.id).not.toBe(p.id);
    expect(deca.ref_externa).toBe(refA);
    // The renamed one answers to its new reference.
    const repetida = await app.request('POST', `${API}/decas`, { key: c.live, body: decaCompleta({ ref_externa: refB, emitir: false }) });
    expect(repetida.status, repetida.text).toBe(200);
    expect(DecaCreada.parse(repetida.body).deca.id).toBe(p.id);
  });

  it('409 sustituido on a replaced DeCA', async ({ app, c }) => {
    const d = await emitida({ app, c });
    await sustituir({ app, c }, d.id, { motivo: 'Error de cargador', cargador_nombre: 'Otro Cargador, S.A.' });
    expectApiError(await patch({ app, c }, d.id, { matricula: '5678 FGH', motivo: 'Tarde' }), 409, 'sustituido');
    expect((await leerDeca(app, c.live, d.id)).matricula).toBe('1234BCD');
  });
});

describe('POST /decas/{id}/sustituir (method 2)', () => {
  it('creates a new DeCA with new number and URLs; the old one becomes sustituido; both linked; event deca.sustituido', async ({ app, c }) => {
    const a = await emitida({ app, c });
    const b = await sustituir({ app, c }, a.id, { motivo: 'Cambio de vehículo', matricula: '5678 FGH' });
    expect(b.id).not.toBe(a.id);
    expect(b.numero).not.toBe(a.numero);
    expect(b).toMatchObject({ estado: 'emitido', version: 1, matricula: '5678FGH', canal: 'api', emisor_rol: a.emisor_rol, sustituido_por: null });
    // Data not sent is carried over.
    expect(b.cargador_nombre).toBe(a.cargador_nombre);
    expect(b.envios).toEqual(a.envios);
    for (const k of ['ficha', 'pdf', 'qr_png', 'conductor'] as const) expect(b.urls[k]).not.toBe(a.urls[k]);
    expect(b.pdf_sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(b.sustituye_a).toEqual({ id: a.id, numero: a.numero, ficha: a.urls.ficha });

    const old = await leerDeca(app, c.live, a.id);
    expect(old).toMatchObject({ estado: 'sustituido', version: 1, matricula: '1234BCD', pdf_sha256: a.pdf_sha256 });
    expect(old.urls).toEqual(a.urls);
    expect(old.sustituido_por).toEqual({ id: b.id, numero: b.numero, ficha: b.urls.ficha });
    expect((await leerDeca(app, c.live, b.numero)).sustituye_a).toEqual({ id: a.id, numero: a.numero, ficha: a.urls.ficha });

    expect(await eventosDe(app, a.id)).toEqual(['deca.creado', 'deca.emitido', 'deca.sustituido']);
    expect(await eventosDe(app, b.id)).toEqual(['deca.creado', 'deca.emitido']);
  });

  it('without motivo: 422 falta_motivo, nothing created', async ({ app, c }) => {
    const a = await emitida({ app, c });
    const antes = await contarDecas(app, c.account.id);
    const err = expectApiError(await post({ app, c }, `/decas/${a.id}/sustituir`, { matricula: '5678 FGH' }), 422, 'falta_motivo');
    expect(Object.keys(err.campos)).toEqual(['motivo']);
    expect(await contarDecas(app, c.account.id)).toBe(antes);
    expect((await leerDeca(app, c.live, a.id)).estado).toBe('emitido');
  });

  it('409 pendiente on a pending DeCA', async ({ app, c }) => {
    const p = await pendiente({ app, c });
    const antes = await contarDecas(app, c.account.id);
    expectApiError(await post({ app, c }, `/decas/${p.id}/sustituir`, { motivo: 'Cambio' }), 409, 'pendiente');
    expect(await contarDecas(app, c.account.id)).toBe(antes);
  });

  it('409 sustituido when replacing an already replaced DeCA', async ({ app, c }) => {
    const a = await emitida({ app, c });
    await sustituir({ app, c }, a.id, { motivo: 'Primera', matricula: '5678 FGH' });
    const antes = await contarDecas(app, c.account.id);
    expectApiError(await post({ app, c }, `/decas/${a.id}/sustituir`, { motivo: 'Segunda', matricula: '9012 HJK' }), 409, 'sustituido');
    expect(await contarDecas(app, c.account.id)).toBe(antes);
  });
});

describe('POST /decas/{id}/fin', () => {
  it('marks the end of service of an issued DeCA (estado unchanged, event deca.fin_servicio); twice is 409', async ({ app, c }) => {
    const d = await emitida({ app, c });
    const f = decaOk(await post({ app, c }, `/decas/${d.id}/fin`));
    expect(f).toMatchObject({ id: d.id, estado: 'emitido', version: 1 });
    expect(f.fin_servicio_at).toMatch(FECHA_HORA);
    expect(await eventosDe(app, d.id)).toEqual(['deca.creado', 'deca.emitido', 'deca.fin_servicio']);

    app.clock.advance(60_000);
    expectApiError(await post({ app, c }, `/decas/${d.id}/fin`), 409, 'servicio_finalizado');
    expect((await leerDeca(app, c.live, d.id)).fin_servicio_at).toBe(f.fin_servicio_at);
    expect(await eventosDe(app, d.id)).toEqual(['deca.creado', 'deca.emitido', 'deca.fin_servicio']);
  });

  it('409 pendiente on a pending DeCA', async ({ app, c }) => {
    const p = await pendiente({ app, c });
    expectApiError(await post({ app, c }, `/decas/${p.id}/fin`), 409, 'pendiente');
    expect((await leerDeca(app, c.live, p.id)).fin_servicio_at).toBeNull();
  });
});

describe('POST /decas/{id}/archivar', () => {
  it('sets and clears the flag in every state, estado unchanged', async ({ app, c }) => {
    const e = await emitida({ app, c });
    const p = await pendiente({ app, c });
    const s = await emitida({ app, c });
    await sustituir({ app, c }, s.id, { motivo: 'Cambio', matricula: '5678 FGH' });
    for (const [d, estado] of [
      [e, 'emitido'],
      [p, 'pendiente'],
      [s, 'sustituido'],
    ] as const) {
      const on = decaOk(await post({ app, c }, `/decas/${d.id}/archivar`, { archivado: true }));
      expect(on).toMatchObject({ id: d.id, archivado: true, estado });
      expect((await leerDeca(app, c.live, d.id)).archivado).toBe(true);
      const off = decaOk(await post({ app, c }, `/decas/${d.id}/archivar`, { archivado: false }));
      expect(off).toMatchObject({ id: d.id, archivado: false, estado });
      expect((await leerDeca(app, c.live, d.id)).archivado).toBe(false);
    }
  });

  it('422 when archivado is missing or not a boolean', async ({ app, c }) => {
    const d = await emitida({ app, c });
    expect(expectApiError(await post({ app, c }, `/decas/${d.id}/archivar`, {}), 422, 'validacion').campos).toHaveProperty('archivado');
    expect(expectApiError(await post({ app, c }, `/decas/${d.id}/archivar`, { archivado: 'si' }), 422, 'validacion').campos).toHaveProperty('archivado');
    expect((await leerDeca(app, c.live, d.id)).archivado).toBe(false);
  });
});

describe('DELETE /decas/{id}', () => {
  it('removes a pending DeCA and keeps nothing of it', async ({ app, c }) => {
    const p = await pendiente({ app, c });
    await patch({ app, c }, p.id, { observaciones: 'Para tener historial' });
    const db = app.database.db;
    expect((await db.selectFrom('deca_cambios').select('id').where('deca_id', '=', p.id).execute()).length).toBeGreaterThan(0);

    const res = await app.request('DELETE', `${API}/decas/${p.id}`, { key: c.live });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ eliminada: true, id: p.id, numero: p.numero });
    expectApiError(await app.request('GET', `${API}/decas/${p.id}`, { key: c.live }), 404, 'no_encontrado');
    expectApiError(await app.request('GET', `${API}/decas/${p.numero}`, { key: c.live }), 404, 'no_encontrado');
    expect(await db.selectFrom('decas').select('id').where('id', '=', p.id).execute()).toEqual([]);
    expect(await db.selectFrom('deca_cambios').select('id').where('deca_id', '=', p.id).execute()).toEqual([]);
    expect(await db.selectFrom('deca_versiones').select('version').where('deca_id', '=', p.id).execute()).toEqual([]);
    // Deleting again: it is gone.
    expectApiError(await app.request('DELETE', `${API}/decas/${p.id}`, { key: c.live }), 404, 'no_encontrado');
  });

  it('frees the ref_externa of the deleted DeCA: creating again with it makes a new DeCA', async ({ app, c }) => {
    const ref = `PED-BORRADO-${Date.now()}`;
    const p = await pendiente({ app, c }, { ref_externa: ref });
    expect((await app.request('DELETE', `${API}/decas/${p.id}`, { key: c.live })).status).toBe(200);
    const again = await app.request('POST', `${API}/decas`, { key: c.live, body: decaCompleta({ ref_externa: ref }) });
    expect(again.status, again.text).toBe(201);
    const { deca } = DecaCreada.parse(again.body);
    expect(deca.id).not.toBe(p.id);
    expect(deca).toMatchObject({ ref_externa: ref, estado: 'emitido' });
    expect(again.headers.get('idempotent-replayed')).toBeNull();
  });

  it('409 emitido for an issued DeCA, which stays', async ({ app, c }) => {
    const d = await emitida({ app, c });
    expectApiError(await app.request('DELETE', `${API}/decas/${d.id}`, { key: c.live }), 409, 'emitido');
    expect((await leerDeca(app, c.live, d.id)).estado).toBe('emitido');
  });

  it('409 sustituido for a replaced DeCA, which stays', async ({ app, c }) => {
    const d = await emitida({ app, c });
    await sustituir({ app, c }, d.id, { motivo: 'Cambio', matricula: '5678 FGH' });
    expectApiError(await app.request('DELETE', `${API}/decas/${d.id}`, { key: c.live }), 409, 'sustituido');
    expect((await leerDeca(app, c.live, d.id)).estado).toBe('sustituido');
  });
});

describe('GET /decas/{id}', () => {
  it('finds a DeCA by numeric id and by number YYYY-NNNNNN', async ({ app, c }) => {
    const d = await emitida({ app, c }, { referencia: 'PED-77' });
    const byId = await leerDeca(app, c.live, d.id);
    const byNumero = await leerDeca(app, c.live, d.numero);
    expect(byId).toEqual(d);
    expect(byNumero).toEqual(d);
  });

  it('404 no_encontrado for an unknown id, a malformed id, or a DeCA of another account (reads and writes)', async ({ app, c }) => {
    const d = await emitida({ app, c });
    const other = await buildCuenta(app, { nombre: 'Ajena, S.L.' });
    expectApiError(await app.request('GET', `${API}/decas/999999999`, { key: c.live }), 404, 'no_encontrado');
    expectApiError(await app.request('GET', `${API}/decas/no-existe`, { key: c.live }), 404, 'no_encontrado');
    expectApiError(await app.request('GET', `${API}/decas/${d.id}`, { key: other.live }), 404, 'no_encontrado');
    expectApiError(await app.request('GET', `${API}/decas/${d.id}/cambios`, { key: other.live }), 404, 'no_encontrado');
    expectApiError(await app.request('PATCH', `${API}/decas/${d.id}`, { key: other.live, body: { motivo: 'x', matricula: '5678FGH' } }), 404, 'no_encontrado');
    expectApiError(await app.request('POST', `${API}/decas/${d.id}/archivar`, { key: other.live, body: { archivado: true } }), 404, 'no_encontrado');
    const mine = await leerDeca(app, c.live, d.id);
    expect(mine).toMatchObject({ version: 1, archivado: false, matricula: '1234BCD' });
  });

  it('never mixes environments, and numbers each environment from 000001', async ({ app, c }) => {
    const x = await buildCuenta(app, { nombre: 'Entornos, S.L.' });
    const anio = fechaMadrid(app.clock.now()).slice(0, 4);
    const prod1 = (await crearDecaOk(app, x.live, decaCompleta())).deca;
    const prod2 = (await crearDecaOk(app, x.live, decaCompleta())).deca;
    const demo1 = (await crearDecaOk(app, x.test, decaCompleta(), DEMO)).deca;
    expect([prod1.numero, prod2.numero, demo1.numero]).toEqual([`${anio}-000001`, `${anio}-000002`, `${anio}-000001`]);

    // A production DeCA is not visible from the test environment, and vice versa.
    expectApiError(await app.request('GET', `${DEMO}/decas/${prod1.id}`, { key: x.test }), 404, 'no_encontrado');
    expectApiError(await app.request('GET', `${DEMO}/decas/${prod2.numero}`, { key: x.test }), 404, 'no_encontrado');
    expectApiError(await app.request('GET', `${API}/decas/${demo1.id}`, { key: x.live }), 404, 'no_encontrado');
    expectApiError(await app.request('PATCH', `${DEMO}/decas/${prod1.id}`, { key: x.test, body: { motivo: 'x', matricula: '5678FGH' } }), 404, 'no_encontrado');
    // The same number in each environment names that environment's DeCA.
    expect((await leerDeca(app, x.test, `${anio}-000001`, DEMO)).id).toBe(demo1.id);
    expect((await leerDeca(app, x.live, `${anio}-000001`)).id).toBe(prod1.id);
    // Lists too.
    const list = await app.request('GET', `${DEMO}/decas`, { key: x.test });
    expect(list.status).toBe(200);
    expect(DecaList.parse(list.body).decas.map((d) => d.id)).toEqual([demo1.id]);
  });
});

describe('time', () => {
  it('writes timestamps in Madrid time and numbers by the Madrid year', async ({ app, c }) => {
    const x = await buildCuenta(app, { nombre: 'Nochevieja, S.L.' });
    try {
      // 22:59:30 UTC on 31 December is 23:59:30 in Madrid: still 2026.
      app.clock.set('2026-12-31T22:59:30Z');
      const vieja = (await crearDecaOk(app, x.live, decaCompleta())).deca;
      expect(vieja.numero).toBe('2026-000001');
      expect(vieja.created_at).toMatch(/^2026-12-31 23:59:3\d$/);
      expect(vieja.emitido_at).toBe(vieja.created_at);
      // One minute later it is 2027 in Madrid: the count starts again.
      app.clock.set('2026-12-31T23:00:30Z');
      const nueva = (await crearDecaOk(app, x.live, decaCompleta())).deca;
      expect(nueva.numero).toBe('2027-000001');
      expect(nueva.created_at).toMatch(/^2027-01-01 00:00:3\d$/);
      app.clock.set('2027-07-15T10:00:00Z');
      const f = decaOk(await app.request('POST', `${API}/decas/${nueva.id}/fin`, { key: x.live, body: {} }));
      expect(f.fin_servicio_at).toMatch(/^2027-07-15 12:00:0\d$/);
    } finally {
      app.clock.set(new Date());
    }
  });
});

describe('GET /decas/{id}/cambios', () => {
  it('lists version, tipo, motivo, the key as autor, time and field-level changes', async ({ app, c }) => {
    const d = await emitida({ app, c });
    const m = decaOk(
      await patch({ app, c }, d.id, {
        matricula: '5678 FGH',
        envios: [{ origen: 'Lleida', destino: 'Málaga', naturaleza: 'Piñones y ñoras', peso: '30.000' }],
        motivo: 'Cambio de camión y peso real',
      }),
    );
    expect(m.version).toBe(2);
    const cambios = await leerCambios(app, { key: c.live }, d.id);
    expect(cambios.map((x) => [x.version, x.tipo, x.motivo])).toEqual([
      [1, 'creacion', null],
      [1, 'emision', null],
      [2, 'modificacion', 'Cambio de camión y peso real'],
    ]);
    const key = await app.database.db.selectFrom('api_keys').select('prefijo').where('id', '=', c.keyIds.live).executeTakeFirstOrThrow();
    expect(c.live.startsWith(key.prefijo)).toBe(true);
    for (const x of cambios) {
      expect(x.autor).toEqual({ tipo: 'clave', id: c.keyIds.live, nombre: `${key.prefijo}…` });
      expect(x.canal).toBe('api');
      expect(x.created_at).toMatch(FECHA_HORA);
    }
    // The secret part of the key is never shown.
    expect(JSON.stringify(cambios)).not.toContain(c.live.slice(key.prefijo.length, key.prefijo.length + 12));
    expect(cambios[2]?.campos).toEqual([
      { campo: 'matricula', antes: '1234BCD', despues: '5678FGH' },
      { campo: 'envios[0].peso', antes: 24500.5, despues: 30000 },
    ]);
    expect(cambios[0]?.campos).toEqual(CREACION_COMPLETA);
  });

  it('records fin, archive and replacement with their motivo', async ({ app, c }) => {
    const d = await emitida({ app, c });
    await post({ app, c }, `/decas/${d.id}/fin`);
    await post({ app, c }, `/decas/${d.id}/archivar`, { archivado: true });
    await post({ app, c }, `/decas/${d.id}/archivar`, { archivado: false });
    const b = await sustituir({ app, c }, d.id, { motivo: 'NIF del cargador', cargador_nif: 'B12345674' });
    const cambios = await leerCambios(app, { key: c.live }, d.id);
    expect(cambios.map((x) => x.tipo)).toEqual(['creacion', 'emision', 'fin_servicio', 'archivado', 'desarchivado', 'sustitucion']);
    expect(cambios[5]).toMatchObject({ motivo: 'NIF del cargador', campos: [{ campo: 'cargador_nif', antes: 'A58818501', despues: 'B12345674' }] });
    const nuevos = await leerCambios(app, { key: c.live }, b.id);
    expect(nuevos.map((x) => x.tipo)).toEqual(['creacion', 'emision']);
    expect(nuevos[0]?.motivo).toContain(d.numero);
    expect(nuevos[0]?.campos).toEqual([{ campo: 'cargador_nif', antes: 'A58818501', despues: 'B12345674' }]);
    expect(cambios[0]?.campos).toEqual(CREACION_COMPLETA);
  });

  it('a create issued at once stores no fields: the history lists version 1’s data, byte for byte as it was stored, whatever changed since', async ({ app, cuentaNueva: c }) => {
    const d = await emitida({ app, c }, { observaciones: 'Frágil', referencia: 'R-1', matricula_remolque: 'R 1234 BBB' });
    decaOk(await patch({ app, c }, d.id, { matricula: '5678 FGH', envios: [{ origen: 'Lleida', destino: 'Málaga', naturaleza: 'Piñones', peso: '30.000' }], motivo: 'm1' }));
    decaOk(await patch({ app, c }, d.id, { observaciones: null, conductor_tel: '+34 611 111 111', matricula: '9999 ZZZ', referencia: 'R-2', motivo: 'm2' }));

    const { text, cambios } = await cambiosCrudos({ app, c }, d.id);
    expect(cambios.map((x) => x.tipo)).toEqual(['creacion', 'emision', 'modificacion', 'modificacion']);
    // What the create stored before, key order included (jsonb's: antes, campo, despues).
    const creacion = textoDeCampos([
      ...CREACION_COMPLETA.slice(0, 7),
      { campo: 'tipo_vehiculo', antes: null, despues: 'articulado' },
      { campo: 'matricula', antes: null, despues: '1234BCD' },
      { campo: 'matricula_remolque', antes: null, despues: 'R1234BBB' },
      ...CREACION_COMPLETA.slice(9),
      { campo: 'observaciones', antes: null, despues: 'Frágil' },
      { campo: 'referencia', antes: null, despues: 'R-1' },
    ]);
    expect(creacion).toContain('{"antes":null,"campo":"tipo_vehiculo","despues":"articulado"}');
    expect(text).toContain(`"tipo":"creacion","motivo":null,`);
    expect(JSON.stringify(cambios[0]!.campos)).toBe(creacion);
    expect(text).toContain(`"campos":${creacion}}`);
    expect(cambios[3]!.campos).toEqual([
      { antes: '5678FGH', campo: 'matricula', despues: '9999ZZZ' },
      { antes: '+34 600 000 000', campo: 'conductor_tel', despues: '+34 611 111 111' },
      { antes: 'Frágil', campo: 'observaciones', despues: null },
      { antes: 'R-1', campo: 'referencia', despues: 'R-2' },
    ]);

    // Stored once: the create's row holds no fields, the emission none either; the DeCA holds the data.
    expect(await camposGuardados(app, d.id)).toEqual([null, [], cambios[2]!.campos, cambios[3]!.campos]);
    // The MCP tool and the app read the same command: the same answer.
    expect(await leerCambios(app, { key: c.live }, d.numero)).toEqual(CambiosList.parse({ cambios }).cambios);
  });

  it('a replacement’s create lists what its replaced DeCA’s «sustitucion» entry holds, and keeps its own copy (the replaced DeCA may be let go first)', async ({ app, cuentaNueva: c }) => {
    const a = await emitida({ app, c });
    const dos = [
      { origen: 'Huesca', destino: 'Teruel', naturaleza: 'Melocotón', peso: '8.000' },
      { origen: 'Huesca', destino: 'Soria', naturaleza: 'Pera', peso: '1.500', nota: 'Refrigerado' },
    ];
    const b = await sustituir({ app, c }, a.id, { motivo: 'NIF y envíos', cargador_nif: 'B12345674', envios: dos });
    decaOk(await patch({ app, c }, b.id, { referencia: 'R-9', motivo: 'Referencia' }));
    const b2 = await sustituir({ app, c }, b.id, { motivo: 'Un envío menos', envios: dos.slice(0, 1) });

    const deA = await cambiosCrudos({ app, c }, a.id);
    const deB = await cambiosCrudos({ app, c }, b.id);
    const deB2 = await cambiosCrudos({ app, c }, b2.id);
    expect(deA.cambios.map((x) => x.tipo)).toEqual(['creacion', 'emision', 'sustitucion']);
    expect(deB.cambios.map((x) => x.tipo)).toEqual(['creacion', 'emision', 'modificacion', 'sustitucion']);
    expect(deB2.cambios.map((x) => x.tipo)).toEqual(['creacion', 'emision']);
    expect(deA.cambios[0]!.campos).toEqual(CREACION_COMPLETA);
    // As it was stored: item by item, a new shipment whole (jsonb's key order), numbers as numbers.
    const sustitucion = textoDeCampos([
      { antes: 'A58818501', campo: 'cargador_nif', despues: 'B12345674' },
      { antes: 'Lleida', campo: 'envios[0].origen', despues: 'Huesca' },
      { antes: 'Málaga', campo: 'envios[0].destino', despues: 'Teruel' },
      { antes: 'Piñones y ñoras', campo: 'envios[0].naturaleza', despues: 'Melocotón' },
      { antes: 24500.5, campo: 'envios[0].peso', despues: 8000 },
      {
        antes: null,
        campo: 'envios[1]',
        despues: { nota: 'Refrigerado', peso: 1500, origen: 'Huesca', unidad: 'kg', destino: 'Soria', naturaleza: 'Pera', destinatario_nif: null, destinatario_nombre: null },
      },
    ]);
    expect(JSON.stringify(deA.cambios[2]!.campos)).toBe(sustitucion);
    expect(JSON.stringify(deB.cambios[0]!.campos)).toBe(sustitucion);
    expect(deB.text).toContain(`"campos":${sustitucion}}`);
    expect(deB.cambios[0]!.motivo).toBe(`Sustituye a la DeCA ${a.numero}: NIF y envíos`);
    expect(JSON.stringify(deB2.cambios[0]!.campos)).toBe(JSON.stringify(deB.cambios[3]!.campos));
    expect(deB2.cambios[0]!.campos).toEqual([
      {
        antes: { nota: 'Refrigerado', peso: 1500, origen: 'Huesca', unidad: 'kg', destino: 'Soria', naturaleza: 'Pera', destinatario_nif: null, destinatario_nombre: null },
        campo: 'envios[1]',
        despues: null,
      },
    ]);

    expect(await camposGuardados(app, b.id)).toEqual([deB.cambios[0]!.campos, [], deB.cambios[2]!.campos, deB.cambios[3]!.campos]);
    expect(await camposGuardados(app, b2.id)).toEqual([deB2.cambios[0]!.campos, []]);
  });

  it('a pending create keeps its fields: issuing it later may fill its data from the account with no entry of its own', async ({ app }) => {
    const k = await buildCuenta(app, { rol: 'cargador', nombre: 'Pendiente Sin Domicilio, S.L.', domicilio: '' });
    const { cargador_nombre: _n, cargador_nif: _f, cargador_domicilio: _d, ...body } = decaCompleta({ emitir: false });
    const { deca } = await crearDecaOk(app, k.live, body);
    expect(deca).toMatchObject({ estado: 'pendiente', cargador_domicilio: null });
    await app.database.db.updateTable('accounts').set({ domicilio: 'Calle Real 8, Soria' }).where('id', '=', k.account.id).execute();
    app.services.caches.claves.invalidateWhere((x) => x.account.id === k.account.id);
    expect(decaOk(await app.request('POST', `${API}/decas/${deca.id}/emitir`, { key: k.live, body: {} }))).toMatchObject({ estado: 'emitido', cargador_domicilio: 'Calle Real 8, Soria' });

    const { cambios } = await cambiosCrudos({ app, c: k }, deca.id);
    expect(cambios.map((x) => x.tipo)).toEqual(['creacion', 'emision']);
    expect(cambios[0]!.campos.map((x) => x.campo)).toEqual([
      'cargador_nombre',
      'cargador_nif',
      'transp_nombre',
      'transp_nif',
      'transp_domicilio',
      'fecha_transporte',
      'tipo_vehiculo',
      'matricula',
      'conductor_nombre',
      'conductor_tel',
    ]);
    expect(await camposGuardados(app, deca.id)).toEqual([cambios[0]!.campos, []]);
  });

  it('names the user by e-mail when the change is made through a web session', async ({ app, c }) => {
    const u = await buildCuenta(app, { nombre: 'Sesión Web, S.L.' });
    const cookie = await iniciarSesion(app, u.email, u.password);
    const created = await app.request('POST', `${API}/decas`, { cookie, headers: CSRF, body: decaCompleta() });
    expect(created.status, created.text).toBe(201);
    const d = DecaCreada.parse(created.body).deca;
    expect(d.canal).toBe('web');
    const m = decaOk(await app.request('PATCH', `${API}/decas/${d.id}`, { cookie, headers: CSRF, body: { matricula: '5678 FGH', motivo: 'Otro camión' } }));
    expect(m.version).toBe(2);
    // Without the CSRF header a session write is refused.
    expectApiError(await app.request('PATCH', `${API}/decas/${d.id}`, { cookie, body: { matricula: '9012 HJK', motivo: 'x' } }), 403, 'csrf');

    const user = await app.database.db.selectFrom('users').select('id').where('email', '=', u.email).executeTakeFirstOrThrow();
    const cambios = await leerCambios(app, { cookie }, d.id);
    expect(cambios.map((x) => x.tipo)).toEqual(['creacion', 'emision', 'modificacion']);
    for (const x of cambios) {
      expect(x.autor).toEqual({ tipo: 'usuario', id: user.id, nombre: u.email });
      expect(x.canal).toBe('web');
    }
    expect(cambios[2]?.campos).toEqual([{ campo: 'matricula', antes: '1234BCD', despues: '5678FGH' }]);
  });
});

describe('documents', () => {
  it('GET /decas/{id}/qr.png answers a PNG', async ({ app, c }) => {
    const d = await emitida({ app, c });
    const qr = await getBytes(app, c.live, `${API}/decas/${d.numero}/qr.png`);
    expect(qr.status).toBe(200);
    expect(qr.type).toBe('image/png');
    expect([...qr.bytes.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    expect(qr.bytes.length).toBeGreaterThan(100);
  });

  it('GET /decas/{id}/pdf of a pending DeCA is 409 pendiente; once issued it is the PDF', async ({ app, c }) => {
    const p = await pendiente({ app, c });
    expectApiError(await app.request('GET', `${API}/decas/${p.id}/pdf`, { key: c.live }), 409, 'pendiente');
    const d = decaOk(await post({ app, c }, `/decas/${p.id}/emitir`));
    const pdf = await getBytes(app, c.live, `${API}/decas/${p.id}/pdf`);
    expect(pdf.status).toBe(200);
    expect(pdf.type).toBe('application/pdf');
    expect(pdf.bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(pdf.bytes.length).toBe(d.pdf_bytes);
  });
});

describe('read-only key', () => {
  it('403 solo_lectura on every write endpoint, nothing changes; reads work', async ({ app, c }) => {
    const e = await emitida({ app, c });
    const p = await pendiente({ app, c });
    const ro = c.liveReadOnly;
    const antes = await contarDecas(app, c.account.id);
    const writes: [string, string, unknown][] = [
      ['POST', '/decas', decaCompleta()],
      ['PATCH', `/decas/${e.id}`, { matricula: '5678 FGH', motivo: 'x' }],
      ['PATCH', `/decas/${p.id}`, { observaciones: 'x' }],
      ['DELETE', `/decas/${p.id}`, undefined],
      ['POST', `/decas/${p.id}/emitir`, {}],
      ['POST', `/decas/${e.id}/sustituir`, { motivo: 'x', matricula: '5678 FGH' }],
      ['POST', `/decas/${e.id}/fin`, {}],
      ['POST', `/decas/${e.id}/archivar`, { archivado: true }],
    ];
    for (const [method, path, body] of writes) {
      expectApiError(await app.request(method, `${API}${path}`, { key: ro, body }), 403, 'solo_lectura');
    }
    expect(await contarDecas(app, c.account.id)).toBe(antes);
    expect(await leerDeca(app, ro, e.id)).toEqual(await leerDeca(app, c.live, e.id));
    expect(await leerDeca(app, ro, e.id)).toMatchObject({ version: 1, archivado: false, fin_servicio_at: null, estado: 'emitido' });
    expect(await leerDeca(app, ro, p.numero)).toMatchObject({ estado: 'pendiente', observaciones: null });
    expect(await leerCambios(app, { key: ro }, e.id)).toHaveLength(2);
    expect((await app.request('GET', `${API}/decas`, { key: ro })).status).toBe(200);
    expect((await getBytes(app, ro, `${API}/decas/${e.id}/pdf`)).status).toBe(200);
    expect((await getBytes(app, ro, `${API}/decas/${e.id}/qr.png`)).status).toBe(200);
  });
});
