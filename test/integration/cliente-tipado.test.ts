import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import createClient from 'openapi-fetch';
import { describe, expect } from 'vitest';
import type { paths } from '../support/api-v1';
import { basePath, type DocumentoOpenApi, type Vista, validadorDe } from '../support/contrato';
import { decaCompleta } from '../support/decas';
import { FECHA_HORA } from '../support/decas-helpers';
import { it, type TestApp } from '../support/fixtures';
import { ROOT } from '../support/processes';
import { ARCHIVO_TIPOS, REGENERAR, tiposDe } from '../support/tipos-openapi';

/**
 * What a third party does with the API's document: generate its types with
 * openapi-typescript and call the API through openapi-fetch's client typed
 * by them. The types are committed (test/support/api-v1.d.ts), so that
 * `tsc -b` checks this file against them; the first test keeps them equal
 * to what the served document generates.
 */

const documento = async (app: TestApp) => (await app.request<DocumentoOpenApi>('GET', '/api/v1/openapi.json')).body;

describe('a client generated from the OpenAPI document with openapi-typescript and openapi-fetch', () => {
  it('is typed by the committed types, which are what the served document generates today', async ({ app }) => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'deca-tipos-'));
    const generado = path.join(dir, 'api-v1.d.ts');
    await writeFile(generado, await tiposDe(await documento(app)));
    const hoy = await readFile(generado, 'utf8');
    expect(hoy, `${ARCHIVO_TIPOS} no es lo que genera el documento de hoy (${generado}): regenérelo con \`${REGENERAR}\``).toBe(await readFile(path.join(ROOT, ARCHIVO_TIPOS), 'utf8'));
    expect(hoy).toContain('"/decas/{id}/emitir": {');
    await rm(dir, { recursive: true });
  });

  it('creates, modifies, issues, lists and ends a DeCA, and every answer — status, body and each header — is as the document says', async ({ app, c }) => {
    const doc = await documento(app);
    const vistas: Vista[] = [];
    const api = createClient<paths>({ baseUrl: `${app.url}${basePath(doc)}`, headers: { authorization: `Bearer ${c.live}` } });
    // Every answer the client receives, as it arrived, for the check against the document.
    api.use({
      async onResponse({ request, response }) {
        const url = new URL(request.url);
        const texto = await response.clone().text();
        const json = (response.headers.get('content-type') ?? '').includes('json');
        vistas.push({ metodo: request.method, ruta: `${url.pathname}${url.search}`, status: response.status, headers: response.headers, body: json ? JSON.parse(texto) : texto });
      },
    });

    // Create, pending; the same request again is answered from the first, with the same Location.
    // (openapi-typescript makes a field with a `default` required, in a request body too: `solo_validar` has to be sent.)
    const idempotente = { params: { header: { 'Idempotency-Key': `cliente-tipado-${c.account.id}` } }, body: { ...decaCompleta(), emitir: false, solo_validar: false } };
    const creada = await api.POST('/decas', idempotente);
    expect(creada.response.status, JSON.stringify(creada.error)).toBe(201);
    // `data` is any 2XX body: the 200 of `solo_validar` (no `deca`) included, whatever the status.
    if (!creada.data || !('deca' in creada.data)) throw new Error('POST /decas 201 sin deca');
    const { id, numero } = creada.data.deca;
    expect(creada.data.deca).toMatchObject({ estado: 'pendiente', version: 1, matricula: '1234BCD', emitido_at: null, fin_servicio_at: null });
    expect(creada.response.headers.get('location')).toBe(`${doc.servers[0]!.url}/decas/${id}`);
    const otraVez = await api.POST('/decas', idempotente);
    expect(otraVez.response.status).toBe(200);
    expect(otraVez.response.headers.get('idempotent-replayed')).toBe('true');
    expect(otraVez.response.headers.get('location')).toBe(creada.response.headers.get('location'));
    expect(otraVez.data && 'deca' in otraVez.data && otraVez.data.deca.id).toBe(id);

    // Modify while pending: the data changes, it stays at version 1.
    const enRuta = { params: { path: { id: String(id) } } };
    const modificada = await api.PATCH('/decas/{id}', { ...enRuta, body: { matricula: '5678 FGH', observaciones: 'Carga lateral' } });
    expect(modificada.response.status, JSON.stringify(modificada.error)).toBe(200);
    expect(modificada.data?.deca).toMatchObject({ id, estado: 'pendiente', version: 1, matricula: '5678FGH', observaciones: 'Carga lateral' });

    // Issue: its number stays, it is issued now, version 1 with its PDF.
    const emitida = await api.POST('/decas/{id}/emitir', { ...enRuta, body: {} });
    expect(emitida.response.status, JSON.stringify(emitida.error)).toBe(200);
    expect(emitida.data?.deca).toMatchObject({ id, numero, estado: 'emitido', version: 1, matricula: '5678FGH' });
    expect(emitida.data?.deca.emitido_at).toMatch(FECHA_HORA);
    expect(emitida.data?.deca.pdf_sha256).toMatch(/^[0-9a-f]{64}$/);

    // Modify the issued one (method 1, with its reason): version 2, same number.
    const cambiada = await api.PATCH('/decas/{id}', { ...enRuta, body: { conductor_tel: '+34 600 111 222', motivo: 'Otro teléfono del conductor' } });
    expect(cambiada.response.status, JSON.stringify(cambiada.error)).toBe(200);
    expect(cambiada.data?.deca).toMatchObject({ id, numero, estado: 'emitido', version: 2, conductor_tel: '+34 600 111 222' });

    // List: the issued ones of the account carry it, at its last version.
    const lista = await api.GET('/decas', { params: { query: { estado: 'emitido', matricula: '5678FGH', limite: 10 } } });
    expect(lista.response.status, JSON.stringify(lista.error)).toBe(200);
    expect(lista.data?.decas.map((d) => [d.numero, d.version])).toEqual([[numero, 2]]);
    expect(lista.data?.siguiente).toBeNull();

    // End of the service: marked once; a second time is refused with the code the document names.
    const fin = await api.POST('/decas/{id}/fin', { ...enRuta, body: {} });
    expect(fin.response.status, JSON.stringify(fin.error)).toBe(200);
    expect(fin.data?.deca).toMatchObject({ id, numero, estado: 'emitido', version: 2 });
    expect(fin.data?.deca.fin_servicio_at).toMatch(FECHA_HORA);
    const otraFin = await api.POST('/decas/{id}/fin', { ...enRuta, body: {} });
    expect(otraFin.response.status).toBe(409);
    expect(otraFin.error?.error.codigo).toBe('servicio_finalizado');

    expect(vistas.map((v) => `${v.metodo} ${v.ruta} ${v.status}`)).toEqual([
      'POST /api/v1/decas 201',
      'POST /api/v1/decas 200',
      `PATCH /api/v1/decas/${id} 200`,
      `POST /api/v1/decas/${id}/emitir 200`,
      `PATCH /api/v1/decas/${id} 200`,
      'GET /api/v1/decas?estado=emitido&matricula=5678FGH&limite=10 200',
      `POST /api/v1/decas/${id}/fin 200`,
      `POST /api/v1/decas/${id}/fin 409`,
    ]);
    expect(vistas.flatMap((v) => validadorDe(doc).comprobar(v))).toEqual([]);
  });
});
