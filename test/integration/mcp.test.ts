/**
 * The MCP endpoint through the SDK's own Client over streamable HTTP, on the
 * real database: the tool sets of read-only and read-write keys, a create →
 * view → modify → history round trip, refusals as tool errors with the REST
 * error body, an idempotent crear_deca, resources (JSON and the PDF blob),
 * the 401s, the Host/Origin check, and the test environment's own endpoint.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect } from 'vitest';
import { DecaCreada, DecaRespuesta } from '../../shared/schemas/deca';
import { FotoLeida } from '../../shared/schemas/fotos';
import { fotografiar } from '../fixtures/albaranes';
import { decaCompleta } from '../support/decas';
import { it, type TestApp } from '../support/fixtures';
import { herramienta } from '../support/herramientas';

const LECTURA = ['buscar_agenda', 'descargas_deca', 'historial_deca', 'listar_decas', 'ver_cuenta', 'ver_deca', 'ver_entregas'];
const ESCRITURA = ['crear_deca', 'emitir_deca', 'enviar_deca', 'fin_servicio', 'leer_albaran', 'modificar_deca', 'pedir_datos', 'sustituir_deca', 'validar_deca'];

async function conectar(app: TestApp, key: string, ruta = '/mcp', cabecera: 'bearer' | 'x-api-key' = 'bearer'): Promise<Client> {
  const headers: Record<string, string> = cabecera === 'bearer' ? { Authorization: `Bearer ${key}` } : { 'X-API-Key': key };
  const client = new Client({ name: 'prueba', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${app.url}${ruta}`), { requestInit: { headers } }));
  return client;
}

/** The REST error body a refused tool call carries. */
function errorDe(r: CallToolResult): { codigo: string; mensaje: string; campos: Record<string, string> } {
  expect(r.isError).toBe(true);
  const c = r.content[0];
  if (c?.type !== 'text') throw new Error('sin texto');
  return (JSON.parse(c.text) as { error: { codigo: string; mensaje: string; campos: Record<string, string> } }).error;
}

/** A raw JSON-RPC POST, for what the SDK client would not send. */
async function rpc(app: TestApp, headers: Record<string, string>, ruta = '/mcp', method = 'POST') {
  const res = await fetch(`${app.url}${ruta}`, {
    method,
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: method === 'POST' ? JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }) : undefined,
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, any> };
}

describe('MCP', () => {
  it('lists exactly the read-only tools to a read-only key and every tool to a read-write key, each with title, schemas and annotations', async ({ app, c }) => {
    const rw = await conectar(app, c.live);
    expect(rw.getServerVersion()?.name).toBe('deca');
    const todas = (await rw.listTools()).tools;
    expect(todas.map((t) => t.name).sort()).toEqual([...LECTURA, ...ESCRITURA].sort());
    for (const t of todas) {
      expect(t.title, t.name).toMatch(/\S/);
      expect(t.description!.length, t.name).toBeGreaterThan(60);
      expect(t.inputSchema.type).toBe('object');
      expect(t.outputSchema?.type, t.name).toBe('object');
      expect(t.annotations?.readOnlyHint, t.name).toBe(LECTURA.includes(t.name) || t.name === 'validar_deca');
    }
    const crear = todas.find((t) => t.name === 'crear_deca')!;
    expect(Object.keys(crear.inputSchema.properties ?? {})).toEqual(expect.arrayContaining(['cargador_nif', 'envios', 'ref_externa', 'clave_idempotencia']));
    expect(crear.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false });
    expect(todas.find((t) => t.name === 'sustituir_deca')!.annotations?.destructiveHint).toBe(true);
    await rw.close();

    const ro = await conectar(app, c.liveReadOnly, '/mcp', 'x-api-key');
    expect((await ro.listTools()).tools.map((t) => t.name).sort()).toEqual(LECTURA);
    const negada = await ro.callTool({ name: 'crear_deca', arguments: decaCompleta() });
    expect(errorDe(negada as CallToolResult)).toMatchObject({ codigo: 'solo_lectura', mensaje: expect.stringMatching(/solo lectura/) });
    await ro.close();
  });

  it('creates, views, modifies and reads the history of a DeCA, as the REST API does, with canal mcp', async ({ app, cuentaNueva: c }) => {
    const client = await conectar(app, c.live);
    const creada = DecaCreada.parse((await client.callTool({ name: 'crear_deca', arguments: { ...decaCompleta(), clave_idempotencia: 'mcp-1' } })).structuredContent);
    expect(creada.deca).toMatchObject({ estado: 'emitido', canal: 'mcp', version: 1 });

    const vista = await client.callTool({ name: 'ver_deca', arguments: { id: creada.deca.numero } });
    const rest = await app.request('GET', `/api/v1/decas/${creada.deca.id}`, { key: c.live });
    expect(vista.structuredContent).toEqual(rest.body);

    const modificada = DecaRespuesta.parse(
      (await client.callTool({ name: 'modificar_deca', arguments: { id: String(creada.deca.id), matricula: '5678 FGH', motivo: 'Cambio de camión' } })).structuredContent,
    );
    expect(modificada.deca).toMatchObject({ matricula: '5678FGH', version: 2 });

    const historial = (await client.callTool({ name: 'historial_deca', arguments: { id: creada.deca.numero } })).structuredContent as {
      cambios: { tipo: string; motivo: string | null; canal: string }[];
    };
    expect(historial.cambios.map((x) => x.tipo)).toEqual(['creacion', 'emision', 'modificacion'].filter((t) => historial.cambios.some((x) => x.tipo === t)));
    expect(historial.cambios.at(-1)).toMatchObject({ tipo: 'modificacion', motivo: 'Cambio de camión', canal: 'mcp' });
    // The create's fields (version 1's data, rebuilt when read) as REST lists them.
    expect(historial).toEqual((await app.request('GET', `/api/v1/decas/${creada.deca.id}/cambios`, { key: c.live })).body);
    expect(historial.cambios[0]).toMatchObject({ tipo: 'creacion', campos: expect.arrayContaining([{ campo: 'matricula', antes: null, despues: '1234BCD' }]) });

    const cuenta = (await client.callTool({ name: 'ver_cuenta', arguments: {} })).structuredContent as { cuenta: { cuota: { usadas: number } } };
    expect(cuenta.cuenta.cuota.usadas).toBe(1);
    await client.close();
  });

  it('answers invalid input with a tool error carrying codigo, mensaje and campos, so a model can correct it', async ({ app, cuentaNueva: c }) => {
    const client = await conectar(app, c.live);
    const r = await client.callTool({ name: 'crear_deca', arguments: decaCompleta({ fecha_transporte: '31/02/2026', envios: [] }) });
    const e = errorDe(r as CallToolResult);
    expect(e.codigo).toBe('validacion');
    expect(Object.keys(e.campos)).toEqual(expect.arrayContaining(['fecha_transporte', 'envios']));
    const noExiste = errorDe((await client.callTool({ name: 'ver_deca', arguments: { id: '2020-999999' } })) as CallToolResult);
    expect(noExiste.codigo).toBe('no_encontrado');
    expect(await app.database.db.selectFrom('decas').select('id').where('account_id', '=', c.account.id).execute()).toEqual([]);
    await client.close();
  });

  it('never duplicates a crear_deca retried with the same idempotency key', async ({ app, cuentaNueva: c }) => {
    const client = await conectar(app, c.live);
    const args = { ...decaCompleta(), ref_externa: 'PED-77', clave_idempotencia: 'reintento-1' };
    const [a, b] = await Promise.all([client.callTool({ name: 'crear_deca', arguments: args }), client.callTool({ name: 'crear_deca', arguments: args })]);
    const b2 = await client.callTool({ name: 'crear_deca', arguments: args });
    const ids = [a, b, b2].map((r) => DecaCreada.parse(r.structuredContent).deca.id);
    expect(new Set(ids).size).toBe(1);
    expect(await app.database.db.selectFrom('decas').select('id').where('account_id', '=', c.account.id).execute()).toHaveLength(1);
    const otra = errorDe((await client.callTool({ name: 'crear_deca', arguments: { ...args, matricula: '9999 ZZZ' } })) as CallToolResult);
    // Named as the tool's argument, not as REST's header.
    expect(Object.keys(otra.campos)).toEqual(['clave_idempotencia']);
    await client.close();
  });

  it('refuses a clave_idempotencia the Idempotency-Key header would refuse, with the same words, naming it, and creates nothing', async ({ app, cuentaNueva: c }) => {
    const client = await conectar(app, c.live);
    // A NUL was a tool result error_interno (PostgreSQL: invalid byte sequence); the others were stored as keys.
    for (const clave of ['a\u0000b', 'a\u0007b', 'a\u0085b', 'a\u202eb', '\u2066clave', 'x\ud800', 'con espacio', 'clavé', 'k'.repeat(256), '', 5]) {
      const e = errorDe((await client.callTool({ name: 'crear_deca', arguments: { ...decaCompleta(), clave_idempotencia: clave } })) as CallToolResult);
      expect(e.codigo, JSON.stringify(clave)).toBe('validacion');
      expect(Object.keys(e.campos), JSON.stringify(clave)).toEqual(['clave_idempotencia']);
    }
    expect(await app.database.db.selectFrom('decas').select('id').where('account_id', '=', c.account.id).execute()).toEqual([]);
    expect(await app.database.db.selectFrom('idempotencia').select('clave').where('account_id', '=', c.account.id).execute()).toEqual([]);
    // What HTTP can carry in a header gets the same answer from both doors.
    for (const clave of ['con espacio', 'clavé', 'k'.repeat(256)]) {
      const rest = await app.request('POST', '/api/v1/decas', { key: c.live, body: decaCompleta(), headers: { 'Idempotency-Key': clave } });
      expect(rest.status).toBe(422);
      const mcp = errorDe((await client.callTool({ name: 'crear_deca', arguments: { ...decaCompleta(), clave_idempotencia: clave } })) as CallToolResult);
      expect(mcp.campos.clave_idempotencia).toBe(rest.body.error.campos['Idempotency-Key']);
    }
    const esquema = (await client.listTools()).tools.find((t) => t.name === 'crear_deca')!.inputSchema.properties!.clave_idempotencia;
    expect(esquema).toMatchObject({ type: 'string', minLength: 1, maxLength: 255 });
    // A good key, with the spaces HTTP would drop, works as before.
    const creada = DecaCreada.parse((await client.callTool({ name: 'crear_deca', arguments: { ...decaCompleta(), clave_idempotencia: ' 6f1c0e52-buena ' } })).structuredContent);
    const otra = DecaCreada.parse((await client.callTool({ name: 'crear_deca', arguments: { ...decaCompleta(), clave_idempotencia: '6f1c0e52-buena' } })).structuredContent);
    expect(otra.deca.id).toBe(creada.deca.id);
    await client.close();
  });

  it('offers each DeCA as deca://{numero} (JSON) and deca://{numero}/pdf (the PDF), of its own account and environment only', async ({ app, cuentaNueva: c, c: otra }) => {
    const client = await conectar(app, c.live);
    const { deca } = DecaCreada.parse((await client.callTool({ name: 'crear_deca', arguments: decaCompleta() })).structuredContent);
    const plantillas = (await client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate);
    expect(plantillas).toEqual(['deca://{numero}', 'deca://{numero}/pdf']);
    const lista = await client.listResources();
    expect(lista.resources.map((r) => r.uri)).toEqual([`deca://${deca.numero}`, `deca://${deca.numero}/pdf`]);

    const json = await client.readResource({ uri: `deca://${deca.numero}` });
    expect(JSON.parse((json.contents[0] as { text: string }).text)).toEqual((await app.request('GET', `/api/v1/decas/${deca.id}`, { key: c.live })).body);
    const pdf = await client.readResource({ uri: `deca://${deca.numero}/pdf` });
    expect(pdf.contents[0]).toMatchObject({ mimeType: 'application/pdf' });
    const bytes = Buffer.from((pdf.contents[0] as { blob: string }).blob, 'base64');
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const rest = await fetch(`${app.url}/api/v1/decas/${deca.id}/pdf`, { headers: { authorization: `Bearer ${c.live}` } });
    expect(bytes.equals(Buffer.from(await rest.arrayBuffer()))).toBe(true);

    // Another account's client sees nothing of it.
    const ajena = await conectar(app, otra.live);
    await expect(ajena.readResource({ uri: `deca://${deca.numero}` })).rejects.toThrow(/No existe el recurso/);
    expect((await ajena.listResources()).resources.map((r) => r.uri)).not.toContain(`deca://${deca.numero}`);
    await ajena.close();
    await client.close();
  });

  it('lists the resources 50 DeCAs a page, with a cursor to the next', { timeout: 60_000 }, async ({ app, cuentaNueva: c }) => {
    for (let i = 0; i < 51; i++) {
      const r = await app.request('POST', '/demo/api/v1/decas', { key: c.test, body: { emitir: false, referencia: `pagina-${i}` } });
      expect(r.status).toBe(201);
    }
    const client = await conectar(app, c.test, '/demo/mcp');
    const primera = await client.listResources();
    expect(primera.resources).toHaveLength(50);
    expect(primera.nextCursor).toEqual(expect.any(String));
    const segunda = await client.listResources({ cursor: primera.nextCursor! });
    expect(segunda.resources).toHaveLength(1);
    expect(segunda.nextCursor).toBeUndefined();
    const uris = [...primera.resources, ...segunda.resources].map((r) => r.uri);
    expect(new Set(uris).size).toBe(51);
    await client.close();
  });

  it('refuses with 401 and WWW-Authenticate without a key, with a bad or revoked key, or a key of the other environment', async ({ app, cuentaNueva: c }) => {
    for (const headers of [{}, { authorization: 'Bearer dg_live_no_existe' }, { authorization: `Bearer ${c.test}` }] as Record<string, string>[]) {
      const r = await rpc(app, headers);
      expect(r.status).toBe(401);
      expect(r.headers.get('www-authenticate')).toMatch(/^Bearer realm=/);
      expect(r.body.error.codigo).toBe('no_autenticado');
    }
    await app.database.db.updateTable('api_keys').set({ revocada_at: new Date() }).where('id', '=', c.keyIds.liveReadOnly).execute();
    app.services.caches.claves.invalidate(c.keyIds.liveReadOnly);
    const revocada = await rpc(app, { authorization: `Bearer ${c.liveReadOnly}` });
    expect(revocada.status).toBe(401);
    expect(revocada.body.error.mensaje).toMatch(/revocada/);
    expect((await rpc(app, { authorization: `Bearer ${c.live}` }, '/demo/mcp')).status).toBe(401);
    const get = await rpc(app, { authorization: `Bearer ${c.live}` }, '/mcp', 'GET');
    expect(get.status).toBe(405);
  });

  it('answers only to its own host and origin (DNS-rebinding protection)', async ({ app, c }) => {
    const ok = await rpc(app, { authorization: `Bearer ${c.live}` });
    expect(ok.status).toBe(200);
    // The REST API's per-key rate limit, with its headers.
    expect(ok.headers.get('ratelimit-limit')).toBe(String(app.services.limits.api.points));
    expect(Number(ok.headers.get('ratelimit-remaining'))).toBeLessThan(app.services.limits.api.points);
    expect(ok.headers.get('x-request-id')).toMatch(/\S/);
    const origen = await rpc(app, { authorization: `Bearer ${c.live}`, origin: 'http://atacante.example' });
    expect(origen.status).toBe(403);
    expect(origen.body.error.codigo).toBe('prohibido');
    // fetch does not let a caller forge Host; node:http does.
    const { request } = await import('node:http');
    const u = new URL(app.url);
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(
        { host: u.hostname, port: u.port, path: '/mcp', method: 'POST', headers: { host: 'atacante.example', 'content-type': 'application/json', authorization: `Bearer ${c.live}` } },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.end('{}');
    });
    expect(status).toBe(403);
  });

  it.skipIf(!herramienta('pdftoppm'))('reads a delivery note’s photo sent as base64 with leer_albaran, creating nothing', { timeout: 60_000 }, async ({ app, cuentaNueva: c }) => {
    const foto = await fotografiar(herramienta('pdftoppm')!, ['ALBARÁN 12', 'Fecha: 24/11/2026', 'Remitente: Frutas Peñalara, S.A.', 'NIF: A58818501', 'Matrícula: 1234 BCD'], {
      grados: 1,
      cizalla: 0,
      desenfoque: 0.5,
      ruido: 8,
      luz: 0.2,
      calidad: 70,
    });
    const client = await conectar(app, c.live);
    const r = await client.callTool({ name: 'leer_albaran', arguments: { imagen_base64: `data:image/jpeg;base64,${foto.toString('base64')}` } });
    const leida = FotoLeida.parse(r.structuredContent);
    expect(leida.propuesta).toMatchObject({ cargador_nif: 'A58818501', fecha_transporte: '2026-11-24', matricula: '1234BCD' });
    const mala = errorDe((await client.callTool({ name: 'leer_albaran', arguments: { imagen_base64: '¡no!' } })) as CallToolResult);
    expect(mala.campos).toHaveProperty('imagen_base64');
    expect(await app.database.db.selectFrom('decas').select('id').where('account_id', '=', c.account.id).execute()).toEqual([]);
    await client.close();
  });

  it('serves the test environment at /demo/mcp with dg_test_ keys, seeing only test data', async ({ app, cuentaNueva: c }) => {
    const prod = await conectar(app, c.live);
    await prod.callTool({ name: 'crear_deca', arguments: decaCompleta() });
    const demo = await conectar(app, c.test, '/demo/mcp');
    expect(((await demo.callTool({ name: 'listar_decas', arguments: {} })).structuredContent as { decas: unknown[] }).decas).toEqual([]);
    const { deca } = DecaCreada.parse((await demo.callTool({ name: 'crear_deca', arguments: decaCompleta() })).structuredContent);
    expect(deca.canal).toBe('mcp');
    expect(((await demo.callTool({ name: 'listar_decas', arguments: {} })).structuredContent as { decas: { id: number }[] }).decas.map((d) => d.id)).toEqual([deca.id]);
    expect(((await prod.callTool({ name: 'listar_decas', arguments: {} })).structuredContent as { decas: { id: number }[] }).decas.map((d) => d.id)).not.toContain(deca.id);
    await demo.close();
    await prod.close();
  });
});

describe('MCP batches and the per-minute limit', () => {
  /** One JSON-RPC batch (an array of messages) in one POST. */
  async function lote(app: TestApp, key: string, mensajes: unknown[]) {
    const res = await fetch(`${app.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${key}` },
      body: JSON.stringify(mensajes),
    });
    return { status: res.status, headers: res.headers, body: (await res.json()) as any };
  }
  const crearDecas = (n: number, desde = 0) =>
    Array.from({ length: n }, (_, i) => ({ jsonrpc: '2.0', id: desde + i, method: 'tools/call', params: { name: 'crear_deca', arguments: { emitir: false, referencia: `LOTE-${desde + i}` } } }));
  const listas = (n: number) => Array.from({ length: n }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'tools/list' }));
  const decasDe = async (app: TestApp, accountId: number) => (await app.database.db.selectFrom('decas').select('id').where('account_id', '=', accountId).execute()).length;
  const restantes = (r: { headers: Headers }) => Number(r.headers.get('ratelimit-remaining'));

  it('runs a batch within the budget whole, spending one point per call', async ({ app, cuentaNueva: c }) => {
    const limite = app.services.limits.api.points;
    const r = await lote(app, c.live, crearDecas(30));
    expect(r.status).toBe(200);
    expect(r.body).toHaveLength(30);
    for (const m of r.body) expect(m.result?.isError, JSON.stringify(m)).toBeFalsy();
    expect(await decasDe(app, c.account.id)).toBe(30);
    expect(restantes(r)).toBe(limite - 30);
    // The next request meets what the batch left.
    expect(restantes(await rpc(app, { authorization: `Bearer ${c.live}` }))).toBe(limite - 31);
  });

  it('refuses whole, before any call runs, a batch of 30 crear_deca larger than the budget left (429 with Retry-After)', async ({ app, cuentaNueva: c }) => {
    const limite = app.services.limits.api.points;
    // Leave 12 points: batches of tools/list, then single requests.
    let gastar = limite - 12;
    while (gastar > 0) {
      const n = Math.min(gastar, 100);
      const r = n > 1 ? await lote(app, c.live, listas(n)) : await rpc(app, { authorization: `Bearer ${c.live}` });
      expect(r.status).toBe(200);
      gastar -= n;
    }
    const r = await lote(app, c.live, crearDecas(30));
    expect(r.status).toBe(429);
    expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(restantes(r)).toBe(0);
    expect(r.body.error.codigo).toBe('demasiadas_peticiones');
    expect(r.body.error.mensaje).toMatch(/30 llamadas.*quedaban 12: no se ha ejecutado ninguna/);
    expect(await decasDe(app, c.account.id)).toBe(0);
    // Its points stay spent, as any refused request's: nothing more runs until the window turns.
    const despues = await lote(app, c.live, crearDecas(1, 100));
    expect(despues.status).toBe(429);
    expect(await decasDe(app, c.account.id)).toBe(0);
  });

  it('answers 413 to a batch no budget could ever hold, running none of it and spending one point', async ({ app, cuentaNueva: c }) => {
    const limite = app.services.limits.api.points;
    const maximo = Math.min(100, limite);
    const r = await lote(app, c.live, crearDecas(maximo + 1));
    expect(r.status).toBe(413);
    expect(r.body.error.codigo).toBe('demasiado_grande');
    expect(r.body.error.mensaje).toContain(`como mucho ${maximo} llamadas`);
    expect(await decasDe(app, c.account.id)).toBe(0);
    expect(restantes(await rpc(app, { authorization: `Bearer ${c.live}` }))).toBe(limite - 2);
  });
});
