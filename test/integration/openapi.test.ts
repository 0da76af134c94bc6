import { Validator } from '@seriousme/openapi-schema-validator';
import sharp from 'sharp';
import { describe, expect } from 'vitest';
import { routerApi } from '../../server/app';
import { OPERACIONES_API as OPERACIONES } from '../../server/commands/operaciones';
import { crearClave } from '../../server/domain/accounts/api-keys';
import { CODIGO_STATUS } from '../../shared/errors';
import { COLUMNAS_CSV } from '../../shared/rules/csv-deca';
import type { Entorno } from '../../shared/schemas/cuenta';
import { DecaInput } from '../../shared/schemas/deca';
import type { RequestOptions, TestResponse } from '../support/app';
import { type DocumentoOpenApi, type Vista, validadorDe } from '../support/contrato';
import { decaCompleta } from '../support/decas';
import { type CuentaDePrueba, it, type Receptor, type TestApp, test } from '../support/fixtures';
import { fotoGuardada } from '../support/fotos';
import { entregarTodo } from '../support/webhooks';

// The walk through every operation makes dozens of DeCAs and calls with one key, and tests a webhook on 127.0.0.1.
test.override('opcionesCuenta', { plan: 'pro' });
test.override('opcionesApp', { apiPoints: 10_000, env: { WEBHOOK_ALLOW_INSECURE: '1' } });

type Respuesta = { $ref?: string; content?: Record<string, { example?: unknown }> };
type Operacion = {
  parameters?: { in: string; name: string }[];
  responses: Record<string, Respuesta>;
  requestBody?: { content: Record<string, { example?: unknown }> };
  operationId: string;
  description?: string;
};
type Documento = {
  openapi: string;
  servers: { url: string }[];
  paths: Record<string, Record<string, Operacion>>;
  webhooks: Record<string, unknown>;
  components: { securitySchemes: Record<string, unknown>; responses: Record<string, Respuesta> };
};

/** An environment's keys for the walk: read-write, read-only (with its id, for the rate limit), and one of the other environment. */
interface Claves {
  rw: string;
  ro: string;
  roId: number;
  ajena: string;
  /** A delivery-note photo kept for the environment (fotoGuardada: reading one takes OCR, fotos.test.ts). */
  fotoId: number;
}

async function claveNueva(app: TestApp, c: CuentaDePrueba, entorno: Entorno, soloLectura: boolean): Promise<{ key: string; id: number }> {
  const k = await app.database.db.transaction().execute((trx) => crearClave(trx, { accountId: c.account.id, entorno, soloLectura }));
  app.secreto(k.key);
  return { key: k.key, id: k.row.id };
}

const CSV = `${COLUMNAS_CSV.join(';')}\nPED-CSV-1;;23/11/2026;Frutas Peñalara, S.A.;A58818501;Camí Vell 3, Lleida;Transportes Núñez, S.L.;B12345674;Lleida;Málaga;Piñones;18.250,5;kg;;1234 BCD;;;José Muñoz;;\n`;

/**
 * Every operation of one environment's API, as a client uses it: each success
 * (201 and its repetitions, 200, the files, the webhook's test and resend)
 * and the refusals a client meets (400, 401, 403, 404, 409, 413, 422, 429).
 * Every answer is kept for the check against the document.
 */
/** A request under `base` whose answer is kept in `vistas`. */
const pedidor =
  (app: TestApp, base: string, vistas: Vista[]) =>
  async (metodo: string, ruta: string, opts: RequestOptions = {}): Promise<TestResponse> => {
    const r = await app.request(metodo, `${base}${ruta}`, opts);
    vistas.push({ metodo, ruta: `${base}${ruta}`, status: r.status, headers: r.headers, body: r.body });
    return r;
  };
const ok = (r: TestResponse, ...status: number[]) => expect(status, `${r.status} ${r.text.slice(0, 300)}`).toContain(r.status);

async function recorrer(app: TestApp, rx: Receptor, base: string, claves: Claves, vistas: Vista[]): Promise<number> {
  const pedir = pedidor(app, base, vistas);
  const k = { key: claves.rw };

  // The webhook first, so that every DeCA event of the walk is queued for it.
  const destino = `${rx.url}/recorrido${base.replaceAll('/', '-')}`;
  const hook = await pedir('POST', '/webhooks', { ...k, body: { url: destino, eventos: ['*'], descripcion: 'Recorrido del contrato' } });
  ok(hook, 201);
  const hookId = hook.body.webhook.id as number;
  ok(await pedir('POST', '/webhooks', { ...k, body: { url: 'ftp://no-vale', eventos: ['deca.nada'] } }), 422);
  ok(await pedir('GET', '/webhooks', k), 200);
  ok(await pedir('GET', `/webhooks/${hookId}`, k), 200);
  ok(await pedir('PATCH', `/webhooks/${hookId}`, { ...k, body: { activo: true, descripcion: 'Recorrido' } }), 200);
  ok(await pedir('PATCH', `/webhooks/${hookId}`, { ...k, body: {} }), 422);

  ok(await pedir('GET', '/cuenta', k), 200);
  ok(await pedir('GET', '/cuenta'), 401);
  ok(await pedir('GET', '/cuenta', { key: claves.ajena }), 401);

  // Create and issue, then the same request again: by Idempotency-Key, and by ref_externa.
  const ref = `REF${base.replaceAll('/', '-')}`;
  const idem = { ...k, headers: { 'Idempotency-Key': `recorrido${base}` } };
  const creada = await pedir('POST', '/decas', { ...idem, body: decaCompleta({ emitir: true, ref_externa: ref }) });
  ok(creada, 201);
  const emitida = creada.body.deca as { id: number; numero: string };
  const otraVez = await pedir('POST', '/decas', { ...idem, body: decaCompleta({ emitir: true, ref_externa: ref }) });
  ok(otraVez, 200, 201);
  expect(otraVez.headers.get('idempotent-replayed')).toBe('true');
  const porRef = await pedir('POST', '/decas', { ...k, body: decaCompleta({ emitir: true, ref_externa: ref }) });
  ok(porRef, 200);
  expect(porRef.headers.get('location')).toMatch(new RegExp(`${base}/decas/${emitida.id}$`));
  ok(await pedir('POST', '/decas', { ...k, body: decaCompleta({ solo_validar: true }) }), 200);
  ok(await pedir('POST', '/decas', { ...k, body: { envios: 'no es una lista', fecha_transporte: '2026-02-30' } }), 422);
  ok(await pedir('POST', '/decas', { ...k, body: '{"matricula": ', headers: { 'content-type': 'application/json' } }), 400);
  ok(await pedir('POST', '/decas', { key: claves.ro, body: decaCompleta() }), 403);
  ok(await pedir('POST', '/decas', { ...k, headers: { 'Idempotency-Key': 'con espacios y ñ' }, body: decaCompleta() }), 422);

  // A pending one through its life: change, issue, issue again.
  const pendiente = await pedir('POST', '/decas', { ...k, body: decaCompleta({ emitir: false }) });
  ok(pendiente, 201);
  const pid = pendiente.body.deca.id as number;
  ok(await pedir('PATCH', `/decas/${pid}`, { ...k, body: { referencia: 'Pedido 12' } }), 200);
  ok(await pedir('PATCH', `/decas/${pid}`, { ...k, body: { referencia: 'Pedido 12' } }), 409);
  ok(await pedir('GET', `/decas/${pid}/pdf`, k), 409);
  ok(await pedir('GET', `/decas/${pid}/efti`, k), 409);
  ok(await pedir('POST', `/decas/${pid}/pedir-datos`, { ...k, body: {} }), 200);
  ok(await pedir('POST', `/decas/${pid}/pedir-datos`, { ...k, body: { email: 'no-es-un-correo' } }), 422);
  ok(await pedir('POST', `/decas/${pid}/emitir`, { ...k, body: {} }), 200);
  ok(await pedir('POST', `/decas/${pid}/emitir`, { ...k, body: {} }), 409);
  ok(await pedir('POST', `/decas/${pid}/fin`, { ...k, body: { relleno: 'x'.repeat(20 * 1024) } }), 413);

  // Reading.
  ok(await pedir('GET', '/decas?limite=5', k), 200);
  ok(await pedir('GET', '/decas?limite=500', k), 422);
  ok(await pedir('GET', `/decas/${emitida.id}`, k), 200);
  ok(await pedir('GET', `/decas/${emitida.numero}`, k), 200);
  ok(await pedir('GET', '/decas/999999999', k), 404);
  ok(await pedir('GET', `/decas/${emitida.id}/cambios`, k), 200);
  ok(await pedir('GET', `/decas/${emitida.id}/descargas`, k), 200);
  const pdf = await pedir('GET', `/decas/${emitida.id}/pdf`, k);
  ok(pdf, 200);
  ok(await pedir('GET', `/decas/${emitida.id}/pdf`, { ...k, headers: { 'If-None-Match': pdf.headers.get('etag')! } }), 304);
  ok(await pedir('GET', `/decas/${emitida.id}/qr.png`, k), 200);
  ok(await pedir('GET', `/decas/${emitida.id}/efti?version=1`, k), 200);
  ok(await pedir('GET', '/efti/accesos?limite=10', k), 200);
  ok(await pedir('GET', '/efti/accesos?despues_de=x', k), 422);
  ok(await pedir('GET', '/camino', k), 200);
  ok(await pedir('GET', '/camino?tengo=esto-no', k), 422);
  ok(await pedir('GET', '/decas.csv', k), 200);

  // A DeCA made from a delivery-note photo, and its photo; another DeCA cannot take the same one.
  const conFoto = await pedir('POST', '/decas', { ...k, body: decaCompleta({ emitir: true, foto_id: claves.fotoId }) });
  ok(conFoto, 201);
  const foto = await pedir('GET', `/decas/${conFoto.body.deca.id}/foto`, k);
  ok(foto, 200);
  ok(await pedir('GET', `/decas/${conFoto.body.deca.id}/foto`, { ...k, headers: { 'If-None-Match': foto.headers.get('etag')! } }), 304);
  ok(await pedir('GET', `/decas/${emitida.id}/foto`, k), 404);
  ok(await pedir('POST', '/decas', { ...k, body: decaCompleta({ emitir: true, foto_id: claves.fotoId }) }), 422);

  // Changing an issued one: method 1 (with and without its reason), the road, sending, method 2, the end, the archive.
  ok(await pedir('PATCH', `/decas/${emitida.id}`, { ...k, body: { conductor_tel: '+34 600 111 222' } }), 422);
  ok(await pedir('PATCH', `/decas/${emitida.id}`, { ...k, body: { conductor_tel: '+34 600 111 222', motivo: 'Otro teléfono' } }), 200);
  ok(await pedir('POST', `/decas/${emitida.id}/control`, { ...k, body: { codigo: '123456' } }), 200);
  const entrega = {
    resultado: 'entregada',
    receptor_nombre: 'Lucía Fernández',
    firma: {
      proporcion: 2,
      trazos: [
        [
          [0.1, 0.2],
          [0.8, 0.6],
        ],
      ],
    },
    sin_reservas: true,
    registrada_at: '2026-11-25T10:15:00+01:00',
  };
  ok(await pedir('POST', `/decas/${emitida.id}/entregas`, { ...k, body: entrega }), 200);
  ok(await pedir('POST', `/decas/${emitida.id}/entregas`, { ...k, body: entrega }), 409);
  ok(await pedir('POST', `/decas/${emitida.id}/entregas`, { ...k, body: { resultado: 'rechazada', registrada_at: '2026-11-25T10:15:00+01:00' } }), 422);
  ok(await pedir('GET', `/decas/${emitida.id}/entregas`, k), 200);
  ok(await pedir('GET', `/decas/${emitida.id}/entregas/1/pdf`, k), 200);
  ok(await pedir('GET', `/decas/${emitida.id}/entregas/1/firma.png`, k), 200);
  ok(await pedir('GET', `/decas/${emitida.id}/entregas/9/firma.png`, k), 404);
  ok(await pedir('POST', `/decas/${emitida.id}/entregas/firma-remota`, { ...k, body: {} }), 409);
  const enlace = await pedir('POST', `/decas/${pid}/entregas/firma-remota`, { ...k, body: { envio: 0 } });
  ok(enlace, 201);
  ok(await pedir('GET', `/decas/${pid}/entregas/firma-remota/${enlace.body.firma_remota.id}`, k), 200);
  ok(await pedir('GET', `/decas/${pid}/entregas/firma-remota/999999`, k), 404);
  ok(await pedir('POST', `/decas/${pid}/entregas/firma-remota/${enlace.body.firma_remota.id}/anular`, { ...k, body: {} }), 200);
  ok(await pedir('GET', `/decas/${emitida.id}/entregas/9/pdf`, k), 404);
  ok(await pedir('POST', `/decas/${emitida.id}/enviar`, { ...k, body: { email: 'oficina@example.com' } }), 200);
  ok(await pedir('DELETE', `/decas/${emitida.id}`, k), 409);
  ok(await pedir('POST', `/decas/${pid}/sustituir`, { ...k, body: { motivo: 'Otro cargador', cargador_nombre: 'Otra Carga SL' } }), 200);
  ok(await pedir('POST', `/decas/${pid}/sustituir`, { ...k, body: { motivo: 'Otra vez' } }), 409);
  ok(await pedir('POST', `/decas/${emitida.id}/fin`, { ...k, body: {} }), 200);
  ok(await pedir('POST', `/decas/${emitida.id}/fin`, { ...k, body: {} }), 409);
  ok(await pedir('POST', `/decas/${emitida.id}/archivar`, { ...k, body: { archivado: true } }), 200);
  ok(await pedir('POST', `/decas/${emitida.id}/archivar`, { ...k, body: { archivado: 'sí' } }), 422);
  const borrable = await pedir('POST', '/decas', { ...k, body: { matricula: '9999 ZZZ', emitir: false } });
  ok(borrable, 201);
  ok(await pedir('DELETE', `/decas/${borrable.body.deca.id}`, k), 200);
  ok(await pedir('DELETE', `/decas/${borrable.body.deca.id}`, k), 404);

  // The agenda, the import, a photo that is not one.
  for (const [tipo, entrada] of [
    ['empresas', { nombre: 'Cargas del Sur', nif: 'B65410011' }],
    ['vehiculos', { matricula: '5678 FGH' }],
    ['lugares', { texto: 'Mercamadrid' }],
  ] as const) {
    const guardada = await pedir('POST', `/agenda/${tipo}`, { ...k, body: entrada });
    ok(guardada, 200);
    ok(await pedir('POST', `/agenda/${tipo}`, { ...k, body: {} }), 422);
    ok(await pedir('GET', `/agenda/${tipo}?q=a`, k), 200);
    ok(await pedir('GET', `/agenda/${tipo}?con_avisos=1`, k), 200);
    // Extensions: change, merge and delete an entry.
    const id = guardada.body.entrada.id;
    ok(await pedir('PATCH', `/agenda/${tipo}/${id}`, { ...k, body: entrada }), 200);
    const otra = await pedir('POST', `/agenda/${tipo}`, {
      ...k,
      body: tipo === 'empresas' ? { nombre: 'Otra', nif: 'A58818501' } : tipo === 'vehiculos' ? { matricula: '1111 BBB' } : { texto: 'Otro muelle' },
    });
    ok(await pedir('POST', `/agenda/${tipo}/${id}/fusionar`, { ...k, body: { otra: otra.body.entrada.id } }), 200);
    ok(await pedir('POST', `/agenda/${tipo}/${id}/fusionar`, { ...k, body: { otra: otra.body.entrada.id } }), 404);
    ok(await pedir('PATCH', `/agenda/${tipo}/${id}`, { ...k, body: { [Object.keys(entrada)[0]!]: '' } }), 422);
    ok(await pedir('DELETE', `/agenda/${tipo}/${id}`, k), 200);
    ok(await pedir('DELETE', `/agenda/${tipo}/${id}`, k), 404);
  }
  ok(await pedir('POST', '/importar?validar=1', { ...k, body: CSV, headers: { 'content-type': 'text/csv' } }), 200);
  ok(await pedir('POST', '/importar?emitir=0', { ...k, body: CSV, headers: { 'content-type': 'text/csv' } }), 200);
  ok(await pedir('POST', '/fotos', { ...k, body: { imagen_base64: Buffer.from('esto no es una foto').toString('base64') } }), 422);

  // The webhook's test, its deliveries and a resend; then it goes.
  ok(await pedir('POST', `/webhooks/${hookId}/probar`, { ...k, body: {} }), 200);
  const entregas = await pedir('GET', `/webhooks/${hookId}/entregas`, k);
  ok(entregas, 200);
  ok(await pedir('POST', `/webhooks/${hookId}/entregas/${entregas.body.entregas[0].id}/reenviar`, { ...k, body: {} }), 200);
  ok(await pedir('POST', `/webhooks/${hookId}/entregas/ev_no_existe/reenviar`, { ...k, body: {} }), 404);

  // Every operation refuses a caller without a key, and one on nothing finds nothing.
  for (const op of OPERACIONES) {
    const ruta = op.ruta.replace('{id}', String(hookId)).replace('{entrega}', 'ev_no_existe');
    const cuerpo = op.metodo === 'post' || op.metodo === 'patch' ? { body: {} } : {};
    ok(await pedir(op.metodo.toUpperCase(), ruta, cuerpo), 401);
    if (op.ruta.includes('{id}') && (op.metodo === 'get' || op.metodo === 'delete')) ok(await pedir(op.metodo.toUpperCase(), op.ruta.replace('{id}', '999999999'), k), 404);
  }

  // Past the per-minute limit: 429 with Retry-After.
  await app.services.limits.api.consume(`key:${claves.roId}`, app.services.limits.api.points).catch(() => undefined);
  ok(await pedir('GET', '/cuenta', { key: claves.ro }), 429);
  return hookId;
}

describe('the OpenAPI document', () => {
  it('is served with no key for each environment, and is valid OpenAPI 3.1', async ({ app }) => {
    for (const [ruta, base] of [
      ['/api/v1/openapi.json', '/api/v1'],
      ['/demo/api/v1/openapi.json', '/demo/api/v1'],
    ] as const) {
      const res = await app.request<Documento>('GET', ruta);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/application\/json/);
      const doc = res.body;
      expect(doc.openapi).toBe('3.1.0');
      expect(doc.servers.map((s) => s.url)).toEqual([`${app.config.siteUrl}${base}`]);
      const r = await new Validator().validate(structuredClone(doc) as unknown as Parameters<Validator['validate']>[0]);
      expect(r.errors ?? []).toEqual([]);
      expect(r.valid).toBe(true);
    }
  });

  it('documents every route the server registers under the API, and nothing it does not serve', async ({ app }) => {
    const router = routerApi({ config: app.config, services: app.services });
    const servidas = new Set(router.stack.flatMap((l) => l.methods.filter((m) => m !== 'HEAD').map((m) => `${m.toLowerCase()} ${String(l.path).replace(/:(\w+)/g, '{$1}')}`)));
    const doc = (await app.request<Documento>('GET', '/api/v1/openapi.json')).body;
    const documentadas = new Set(Object.entries(doc.paths).flatMap(([ruta, ops]) => Object.keys(ops).map((m) => `${m} ${ruta}`)));
    expect([...servidas].filter((s) => !documentadas.has(s))).toEqual([]);
    expect([...documentadas].filter((d) => !servidas.has(d))).toEqual([]);
    expect(servidas.size).toBeGreaterThan(30);
  });

  it('gives every operation its answers: success, 401, 422, 429, and the rest where they apply, each with the error body', async ({ app, c }) => {
    const doc = (await app.request<Documento>('GET', '/api/v1/openapi.json')).body;
    const ids = new Set<string>();
    for (const [ruta, ops] of Object.entries(doc.paths)) {
      for (const [metodo, op] of Object.entries(ops)) {
        const donde = `${metodo} ${ruta}`;
        expect(ids.has(op.operationId), donde).toBe(false);
        ids.add(op.operationId);
        const estados = Object.keys(op.responses);
        expect(
          estados.some((e) => e === '200' || e === '201'),
          donde,
        ).toBe(true);
        for (const e of ['401', '422', '429']) expect(estados, donde).toContain(e);
        if (ruta.includes('{id}')) {
          expect(estados, donde).toContain('404');
          expect(
            op.parameters?.some((p) => p.in === 'path' && p.name === 'id'),
            donde,
          ).toBe(true);
        }
        if (metodo !== 'get') expect(estados, donde).toContain('403');
        for (const e of estados.filter((x) => Number(x) >= 400)) {
          // Each error answer is declared once, under components.responses, and referenced.
          const ref = op.responses[e]?.$ref ?? '';
          expect(ref, `${donde} ${e}`).toMatch(/^#\/components\/responses\/\w+$/);
          const ejemplo = doc.components.responses[ref.split('/').pop()!]?.content?.['application/json']?.example as { error: { codigo: keyof typeof CODIGO_STATUS } };
          expect(CODIGO_STATUS[ejemplo.error.codigo], `${donde} ${e}`).toBe(Number(e));
        }
        // The 409 codes an operation can return are in its own description.
        if (estados.includes('409')) expect(op.description, donde).toMatch(/Conflictos \(409\): `\w+`/);
      }
    }
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual(['apiKey', 'bearer']);
    expect(Object.keys(doc.webhooks)).toEqual(expect.arrayContaining(['deca.emitido', 'deca.modificado', 'ping']));
    // The example of a DeCA is one the API takes: issued as it is.
    const ejemplo = doc.paths['/decas']?.post?.requestBody?.content['application/json']?.example;
    expect(DecaInput.safeParse(ejemplo).success).toBe(true);
    const creada = await app.request('POST', '/demo/api/v1/decas', { key: c.test, body: ejemplo });
    expect(creada.status, creada.text).toBe(201);
    expect(creada.body.deca.estado).toBe('emitido');
  });

  it('declares what a generated client needs: every header each answer carries, a body for every POST, bounded input, standard formats, and webhooks with their headers and operationIds', async ({
    app,
  }) => {
    const doc = (await app.request<DocumentoOpenApi>('GET', '/api/v1/openapi.json')).body;
    const resolver = (x: unknown): Record<string, any> => {
      let o = x as Record<string, any>;
      while (o?.$ref)
        o = (o.$ref as string)
          .slice(2)
          .split('/')
          .reduce((acc: any, k: string) => acc[k.replaceAll('~1', '/')], doc);
      return o;
    };
    const faltas: string[] = [];
    for (const [ruta, ops] of Object.entries(doc.paths)) {
      for (const [metodo, op] of Object.entries(ops)) {
        const donde = `${metodo} ${ruta}`;
        if (metodo === 'post' && !op.requestBody) faltas.push(`${donde}: sin requestBody`);
        for (const [estado, r] of Object.entries(op.responses)) {
          const cabeceras = Object.fromEntries(Object.entries(resolver(r).headers ?? {}).map(([n, h]) => [n, resolver(h)]));
          const siempre = (n: string) => cabeceras[n]?.required === true;
          if (!siempre('X-Request-Id')) faltas.push(`${donde} ${estado}: X-Request-Id`);
          // The rate limit's fields are set by authentication: a 403 of the firewall and a 503 may come before it.
          for (const n of ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset']) {
            if (!cabeceras[n] || cabeceras[n].required !== !['403', '503'].includes(estado)) faltas.push(`${donde} ${estado}: ${n}`);
          }
          if (['429', '503'].includes(estado) && !cabeceras['Retry-After']) faltas.push(`${donde} ${estado}: Retry-After`);
          if (estado === '201' && !siempre('Location')) faltas.push(`${donde} ${estado}: Location`);
        }
        // Every string and array a client sends has a bound (a length, a list of values, a pattern of fixed length is not enough for a linter).
        const sinLimite = (s: unknown, donde: string, vistos: Set<unknown> = new Set()): void => {
          const e = resolver(s);
          if (!e || typeof e !== 'object' || vistos.has(e)) return;
          vistos.add(e);
          const tipos = [e.type].flat();
          if (tipos.includes('string') && e.maxLength === undefined && !e.enum && e.const === undefined && e.format !== 'binary') faltas.push(`${donde}: texto sin maxLength`);
          if (tipos.includes('array') && e.maxItems === undefined) faltas.push(`${donde}: lista sin maxItems`);
          for (const k of ['anyOf', 'oneOf', 'allOf'] as const) for (const x of e[k] ?? []) sinLimite(x, donde, vistos);
          for (const [n, x] of Object.entries(e.properties ?? {})) sinLimite(x, `${donde}.${n}`, vistos);
          if (e.items) sinLimite(e.items, `${donde}[]`, vistos);
        };
        for (const p of (op.parameters ?? []).map(resolver)) sinLimite(p.schema, `${donde} ${p.in} ${p.name}`);
        for (const [tipo, c] of Object.entries(op.requestBody?.content ?? {})) sinLimite(c.schema, `${donde} ${tipo}`);
      }
    }
    for (const [evento, { post }] of Object.entries(doc.webhooks ?? {})) {
      if (!post?.operationId) faltas.push(`webhook ${evento}: operationId`);
      for (const n of ['X-Deca-Evento', 'X-Deca-Entrega', 'X-Deca-Firma']) {
        if (!post?.parameters?.map(resolver).some((p) => p.in === 'header' && p.name === n && p.required)) faltas.push(`webhook ${evento}: ${n}`);
      }
    }
    // Formats a strict validator knows (JSON Schema 2020-12, the OpenAPI registry): no zod leftovers such as `starts_with`.
    const formatos = new Set<string>();
    const recorrerFormatos = (o: unknown): void => {
      if (Array.isArray(o)) o.forEach(recorrerFormatos);
      else if (o && typeof o === 'object') for (const [k, v] of Object.entries(o)) k === 'format' && typeof v === 'string' ? formatos.add(v) : recorrerFormatos(v);
    };
    recorrerFormatos(doc);
    expect([...formatos].filter((f) => !['date-time', 'date', 'email', 'uri', 'binary', 'int32', 'int64', 'uuid'].includes(f))).toEqual([]);
    expect(faltas).toEqual([]);
  });

  it('answers every operation of both environments as its document says — status, body and every header — and delivers webhooks as it says', async ({ app, c, rx }) => {
    const vistas: Vista[] = [];
    const entornos = [
      ['/api/v1', 'produccion', c.live, c.test],
      ['/demo/api/v1', 'pruebas', c.test, c.live],
    ] as const;
    const hooks: number[] = [];
    for (const [base, entorno, rw, ajena] of entornos) {
      const ro = await claveNueva(app, c, entorno, true);
      const fotoId = await fotoGuardada(
        app,
        c.account.id,
        entorno,
        await sharp({ create: { width: 60, height: 40, channels: 3, background: '#ffffff' } })
          .png()
          .toBuffer(),
      );
      hooks.push(await recorrer(app, rx, base, { rw, ro: ro.key, roId: ro.id, ajena, fotoId }, vistas));
    }
    // The events of both walks, delivered to the receiver on 127.0.0.1; then the webhooks go.
    await entregarTodo(app);
    for (const [i, [base, , rw]] of entornos.entries()) {
      const pedir = pedidor(app, base, vistas);
      ok(await pedir('DELETE', `/webhooks/${hooks[i]}`, { key: rw }), 200);
      ok(await pedir('GET', `/webhooks/${hooks[i]}`, { key: rw }), 404);
    }

    const validadores = {
      produccion: validadorDe((await app.request<DocumentoOpenApi>('GET', '/api/v1/openapi.json')).body),
      pruebas: validadorDe((await app.request<DocumentoOpenApi>('GET', '/demo/api/v1/openapi.json')).body),
    };
    const de = (ruta: string) => (ruta.startsWith('/demo/') ? validadores.pruebas : validadores.produccion);
    expect(vistas.flatMap((v) => de(v.ruta).comprobar(v))).toEqual([]);

    const entregas = rx.recibidos.filter((r) => r.path.startsWith('/recorrido'));
    expect(entregas.flatMap((r) => (r.path.includes('demo') ? validadores.pruebas : validadores.produccion).comprobarEntrega(r.evento, r.headers, r.body))).toEqual([]);
    expect(new Set(entregas.map((r) => r.evento))).toEqual(
      new Set(['ping', 'deca.creado', 'deca.emitido', 'deca.modificado', 'deca.sustituido', 'deca.fin_servicio', 'deca.control', 'deca.entregado']),
    );

    // Every success the document declares was met at least once in each environment (but a photo's: reading one takes OCR, fotos.test.ts).
    for (const [base, entorno] of entornos) {
      const vistos = new Set(vistas.filter((v) => v.ruta.startsWith(`${base}/`)).map((v) => validadores[entorno].clave(v)));
      const doc = (await app.request<DocumentoOpenApi>('GET', `${base}/openapi.json`)).body;
      const exitos = Object.entries(doc.paths).flatMap(([ruta, ops]) =>
        Object.entries(ops).flatMap(([metodo, op]) =>
          Object.keys(op.responses)
            .filter((e) => e.startsWith('2'))
            .map((e) => `${metodo} ${ruta} ${e}`),
        ),
      );
      expect(
        exitos.filter((e) => !vistos.has(e) && e !== 'post /fotos 200'),
        base,
      ).toEqual([]);
    }
    expect(vistas.length).toBeGreaterThan(200);

    // The check finds what it is there for: a header sent but not declared, a declared one missing, a body off its schema.
    const creada = vistas.find((v) => v.metodo === 'POST' && v.ruta === '/api/v1/decas' && v.status === 201)!;
    const sinLocation = (await app.request<DocumentoOpenApi>('GET', '/api/v1/openapi.json')).body;
    delete (sinLocation.paths['/decas']!.post!.responses['201'] as { headers: Record<string, unknown> }).headers.Location;
    expect(validadorDe(sinLocation).comprobar(creada)).toEqual([`POST /api/v1/decas → 201: cabecera location no declarada en crear_deca 201`]);
    const sinId = new Headers(creada.headers);
    sinId.delete('x-request-id');
    expect(validadores.produccion.comprobar({ ...creada, headers: sinId })).toEqual([`POST /api/v1/decas → 201: falta la cabecera X-Request-Id, declarada obligatoria`]);
    const body = creada.body as { deca: Record<string, unknown> };
    expect(validadores.produccion.comprobar({ ...creada, body: { ...body, deca: { ...body.deca, estado: 'otro' } } })).toHaveLength(1);
  }, 180_000);

  it('serves the reference page and its renderer from this server, under a CSP of its own', async ({ app }) => {
    const pagina = await app.request('GET', '/docs');
    expect(pagina.status).toBe(200);
    expect(pagina.headers.get('content-security-policy')).toContain("script-src 'self'");
    for (const src of pagina.text.match(/(?:src|href)="(\/docs\/[^"]+)"/g)!.map((m) => m.split('"')[1]!)) {
      const r = await app.request('GET', src);
      expect(r.status, src).toBe(200);
      expect(r.text.length, src).toBeGreaterThan(100);
    }
    expect(pagina.text).not.toMatch(/https?:\/\//);
  });
});
