/**
 * The platform side of the eFTI gate's messages (docs/efti.md, «La
 * plataforma»): a national gate, signing each request with its secret,
 * sends the reference's `uilQuery` and `identifierQuery` (its own example
 * documents, with our data's identifiers) and gets `uilResponse` /
 * `identifierResponse` messages that a real XML Schema validator (libxml2's
 * xmllint) accepts against the vendored `edelivery/gate.xsd`. The signature
 * is computed here with node:crypto from the documented recipe, not with
 * the server's helper, so a mistake in either shows.
 */
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { ManualClock } from '../../server/clock';
import { Deca, DecaCreada, DecaRespuesta } from '../../shared/schemas/deca';
import { AccesosEftiList } from '../../shared/schemas/efti';
import { startTestApp, type TestApp } from '../support/app';
import { decaCompleta } from '../support/decas';
import { test as it, test } from '../support/fixtures';
import { espacio, expectValidoSegun, lint, textos, xmllint } from '../support/xmllint';

const XSD = path.resolve('server/efti/xsd');
const GATE_XSD = path.join(XSD, 'edelivery/gate.xsd');

const GATE = 'ES';
const PLATAFORMA = 'deca-plataforma-pruebas';
const SECRETO = 'secreto-de-la-pasarela-real-0123456789abcdef';
const SECRETO_PRUEBAS = 'secreto-de-la-pasarela-de-pruebas-0123456789';
const HOY = '2026-11-23';

test.override('opcionesApp', {
  clock: new ManualClock(`${HOY}T09:00:00Z`),
  env: { EFTI_GATE_ID: GATE, EFTI_PLATFORM_ID: PLATAFORMA, EFTI_GATE_SECRET: SECRETO, EFTI_TEST_GATE_SECRET: SECRETO_PRUEBAS },
});

const expectValido = (xml: string) => expectValidoSegun(GATE_XSD, xml);

interface Firma {
  ruta?: string;
  secreto?: string;
  gate?: string | null;
  t?: number;
  /** Sign this body but send the other. */
  firmado?: string;
  firma?: string | null;
}

/** A gate's request: POST the message with Efti-Gate-Id and Efti-Firma (t=…,v1=HMAC-SHA256(secret, t.gate.POST path.body)). */
function consultar(app: TestApp, xml: string, f: Firma = {}) {
  const ruta = f.ruta ?? '/efti/consultas';
  const gate = f.gate === undefined ? GATE : f.gate;
  const t = f.t ?? Math.floor(app.clock.now().getTime() / 1000);
  const v1 = createHmac('sha256', f.secreto ?? SECRETO)
    .update(`${t}.${gate}.POST ${ruta}.`)
    .update(f.firmado ?? xml)
    .digest('hex');
  const headers: Record<string, string> = { 'content-type': 'application/xml' };
  if (gate !== null) headers['efti-gate-id'] = gate;
  const firma = f.firma === undefined ? `t=${t},v1=${v1}` : f.firma;
  if (firma !== null) headers['efti-firma'] = firma;
  return app.request('POST', ruta, { body: xml, headers });
}

const ejemplo = (n: string) => readFileSync(path.join(XSD, 'examples', n), 'utf8');
let secuencia = 0;
const nuevoRequestId = () => `req-${Date.now()}-${++secuencia}`;

/** The reference's examples/uil-query.xml with our UIL, a fresh request id and the subsets asked. */
function uilQuery(datasetId: string, subsets: string[] = ['ES01'], uil: { gate?: string; plataforma?: string } = {}): string {
  const x = ejemplo('uil-query.xml')
    .replace('requestId="XXX"', `requestId="${nuevoRequestId()}"`)
    .replace('<gateId>FI1</gateId>', `<gateId>${uil.gate ?? GATE}</gateId>`)
    .replace('<platformId>xxx</platformId>', `<platformId>${uil.plataforma ?? PLATAFORMA}</platformId>`)
    .replace('<datasetId>asdf</datasetId>', `<datasetId>${datasetId}</datasetId>`)
    .replace('<subsetId>FI</subsetId>', subsets.map((s) => `<subsetId>${s}</subsetId>`).join('\n  '));
  expect(x).toContain(datasetId);
  return x;
}

/** The reference's examples/identifier-query.xml with our plate, a fresh request id, and optionally the kind and country. */
function identifierQuery(matricula: string, o: { tipo?: string | null; pais?: string | null } = {}): string {
  let x = ejemplo('identifier-query.xml')
    .replace('requestId="X"', `requestId="${nuevoRequestId()}"`)
    .replace('<identifier type="means">ASB-123</identifier>', o.tipo === null ? `<identifier>${matricula}</identifier>` : `<identifier type="${o.tipo ?? 'means'}">${matricula}</identifier>`);
  x =
    o.pais === null
      ? x.replace(/\s*<registrationCountryCode>FI<\/registrationCountryCode>/, '')
      : x.replace('<registrationCountryCode>FI</registrationCountryCode>', `<registrationCountryCode>${o.pais ?? 'ES'}</registrationCountryCode>`);
  expect(x).toContain(matricula);
  return x;
}

/** A DeCA issued in the account, and its UIL's dataset id as GET /decas/{id}/efti tells it. */
async function emitida(app: TestApp, key: string, over: Parameters<typeof decaCompleta>[0] = {}, base = '/api/v1') {
  const r = await app.request('POST', `${base}/decas`, { key, body: decaCompleta({ fecha_transporte: HOY, ...over }) });
  expect(r.status, r.text).toBe(201);
  const deca = DecaCreada.parse(r.body).deca;
  const efti = await app.request('GET', `${base}/decas/${deca.id}/efti`, { key });
  return { deca, datasetId: efti.headers.get('efti-dataset-id') as string, xml: efti.text };
}

describe.skipIf(!xmllint)('eFTI: the platform answers a national gate', () => {
  it("the reference's example queries and responses are valid against the vendored schema, and the validator is real", async () => {
    for (const n of ['uil-query.xml', 'identifier-query.xml', 'uil-response.xml', 'uil-response-404.xml', 'identifier-response.xml']) await expectValido(ejemplo(n));
    const mala = await lint(['--noout', '--schema', GATE_XSD], '<uilResponse xmlns="http://efti.eu/v1/edelivery" status="418"/>');
    expect(mala.status).not.toBe(0);
  });

  it('a UIL query (the reference example) gets the whole dataset in ES01, valid, with the request id; the identifier subset only its identifiers', async ({ app, c }) => {
    const { deca, datasetId, xml: propio } = await emitida(app, c.live, { matricula: '2345 CDF', matricula_remolque: 'R-1111-BBB' });
    const q = uilQuery(datasetId);
    await expectValido(q);
    const r = await consultar(app, q);
    expect(r.status, r.text).toBe(200);
    expect(r.headers.get('content-type')).toBe('application/xml; charset=utf-8');
    await expectValido(r.text);
    expect(await textos(r.text, ['uilResponse'], 'status')).toEqual(['200']);
    expect(await textos(r.text, ['uilResponse'], 'requestId')).toEqual([/requestId="([^"]+)"/.exec(q)?.[1]]);
    expect(await espacio(r.text, ['uilResponse', 'consignment'])).toBe('http://efti.eu/v1/consignment/common');
    expect(await textos(r.text, ['uilResponse', 'consignment', 'mainCarriageTransportMovement', 'usedTransportMeans', 'id'])).toEqual(['2345CDF']);
    expect(await textos(r.text, ['uilResponse', 'consignment', 'associatedDocument', 'id'])).toEqual([deca.numero]);
    // The same dataset the account reads at GET /decas/{id}/efti.
    expect(await textos(r.text, ['uilResponse', 'consignment', 'information'])).toEqual(await textos(propio, ['consignment', 'information']));

    const full = await consultar(app, uilQuery(datasetId, ['full']));
    expect(full.status).toBe(200);
    expect(await textos(full.text, ['uilResponse', 'consignment', 'consignor', 'taxRegistration', 'id'])).toEqual(['A58818501']);

    const ids = await consultar(app, uilQuery(datasetId, ['identifier']));
    expect(ids.status, ids.text).toBe(200);
    await expectValido(ids.text);
    expect(await textos(ids.text, ['uilResponse', 'consignment', 'usedTransportEquipment', 'id'])).toEqual(['R1111BBB']);
    expect(await textos(ids.text, ['uilResponse', 'consignment', 'carrierAcceptanceDateTime'])).toEqual(['20261123']);
    // Names, NIFs, goods: not in the identifier subset.
    expect(await textos(ids.text, ['uilResponse', 'consignment', 'consignor', 'taxRegistration', 'id'])).toEqual([]);
    expect(await textos(ids.text, ['uilResponse', 'consignment', 'information'])).toEqual([]);
  });

  it('a UIL query is 404 (a valid response) for a subset the DeCA does not carry, another platform, an unknown dataset, a pending DeCA', async ({ app, c }) => {
    const { datasetId } = await emitida(app, c.live, { matricula: '3456 DFG' });
    const casos = [
      uilQuery(datasetId, ['FI01']),
      uilQuery(datasetId, ['ES01'], { plataforma: 'otra-plataforma' }),
      uilQuery(datasetId, ['ES01'], { gate: 'FI' }),
      uilQuery('0123456789abcdef0123456789abcdef'),
    ];
    const pendiente = DecaCreada.parse((await app.request('POST', '/api/v1/decas', { key: c.live, body: decaCompleta({ fecha_transporte: HOY, emitir: false }) })).body).deca;
    const fila = await app.database.db.selectFrom('decas').select('efti_dataset_id').where('id', '=', pendiente.id).executeTakeFirstOrThrow();
    casos.push(uilQuery(fila.efti_dataset_id));
    for (const q of casos) {
      const r = await consultar(app, q);
      expect(r.status, q).toBe(404);
      await expectValido(r.text);
      expect(await textos(r.text, ['uilResponse'], 'status')).toEqual(['404']);
      expect((await textos(r.text, ['uilResponse', 'description']))[0]).toMatch(/\S/);
      expect(await textos(r.text, ['uilResponse', 'consignment', 'associatedDocument', 'id'])).toEqual([]);
    }
  });

  it('a UIL stays the same across a replacement: the query gets the DeCA in force', async ({ app, c }) => {
    const { deca, datasetId } = await emitida(app, c.live, { matricula: '4567 FGH' });
    const s = await app.request('POST', `/api/v1/decas/${deca.id}/sustituir`, { key: c.live, body: { matricula: '5678 GHJ', motivo: 'Avería' } });
    expect(s.status, s.text).toBe(200);
    const nueva = Deca.parse(DecaRespuesta.parse(s.body).deca);
    expect((await app.request('GET', `/api/v1/decas/${nueva.id}/efti`, { key: c.live })).headers.get('efti-dataset-id')).toBe(datasetId);
    const r = await consultar(app, uilQuery(datasetId));
    expect(r.status, r.text).toBe(200);
    await expectValido(r.text);
    expect(await textos(r.text, ['uilResponse', 'consignment', 'associatedDocument', 'id'])).toEqual([nueva.numero]);
    expect(await textos(r.text, ['uilResponse', 'consignment', 'mainCarriageTransportMovement', 'usedTransportMeans', 'id'])).toEqual(['5678GHJ']);
  });

  it('an identifier query (the reference example) finds the issued DeCAs with that plate in every account, never a draft nor another environment', async ({ app, c, cuentaNueva }) => {
    const plate = '6789 HJK';
    const a = await emitida(app, c.live, { matricula: plate });
    const b = await emitida(app, cuentaNueva.live, { matricula: plate, matricula_remolque: 'R-2222-CCC', tipo_vehiculo: 'articulado' });
    // Not these: a draft, a test-environment DeCA, another plate, a transport long ago.
    await app.request('POST', '/api/v1/decas', { key: c.live, body: decaCompleta({ fecha_transporte: HOY, matricula: plate, emitir: false }) });
    await emitida(app, c.test, { matricula: plate }, '/demo/api/v1');
    await emitida(app, c.live, { matricula: '7890 JKL' });
    await emitida(app, c.live, { matricula: plate, fecha_transporte: '2026-09-01' });

    const q = identifierQuery('6789-hjk');
    await expectValido(q);
    const r = await consultar(app, q);
    expect(r.status, r.text).toBe(200);
    await expectValido(r.text);
    expect(await textos(r.text, ['identifierResponse'], 'status')).toEqual(['200']);
    const datasets = await textos(r.text, ['identifierResponse', 'consignment', 'uil', 'datasetId']);
    expect(datasets.sort()).toEqual([a.datasetId, b.datasetId].sort());
    expect(await textos(r.text, ['identifierResponse', 'consignment', 'uil', 'platformId'])).toEqual([PLATAFORMA, PLATAFORMA]);
    expect(await espacio(r.text, ['identifierResponse', 'consignment', 'mainCarriageTransportMovement'])).toBe('http://efti.eu/v1/consignment/identifier');
    expect(await textos(r.text, ['identifierResponse', 'consignment', 'mainCarriageTransportMovement', 'usedTransportMeans', 'id'])).toEqual(['6789HJK', '6789HJK']);
    expect(await textos(r.text, ['identifierResponse', 'consignment', 'mainCarriageTransportMovement', 'usedTransportMeans', 'registrationCountry', 'code'])).toEqual(['ES', 'ES']);
    // The identifier subset only: no names, no goods.
    expect(r.text).not.toContain('Peñalara');

    // By trailer (equipment): only the DeCA that has it; by means, the trailer's plate finds nothing.
    const remolque = await consultar(app, identifierQuery('R2222CCC', { tipo: 'equipment' }));
    await expectValido(remolque.text);
    expect(await textos(remolque.text, ['identifierResponse', 'consignment', 'uil', 'datasetId'])).toEqual([b.datasetId]);
    expect(await textos(remolque.text, ['identifierResponse', 'consignment', 'usedTransportEquipment', 'categoryCode'])).toEqual(['SM']);
    const sinTipo = await consultar(app, identifierQuery('R2222CCC', { tipo: null, pais: null }));
    expect(await textos(sinTipo.text, ['identifierResponse', 'consignment', 'uil', 'datasetId'])).toEqual([b.datasetId]);
    const medio = await consultar(app, identifierQuery('R2222CCC', { tipo: 'means' }));
    expect(await textos(medio.text, ['identifierResponse', 'consignment'])).toHaveLength(0);
    // A Spanish plate is not registered in Finland (the example's country).
    const fi = await consultar(app, identifierQuery(plate, { pais: 'FI' }));
    await expectValido(fi.text);
    expect(await textos(fi.text, ['identifierResponse', 'consignment'])).toHaveLength(0);
  });

  it("the plate's stored country: answered with it and matched by it; a foreign plate without one matches any country but Spain", async ({ app, c }) => {
    const francesa = await emitida(app, c.live, { matricula: 'AB-123-CD', matricula_pais: 'FR', matricula_remolque: 'CD-456-EF' });
    const q = (pais: string | null) => consultar(app, identifierQuery('AB123CD', { tipo: 'means', pais }));
    const fr = await q('FR');
    await expectValido(fr.text);
    expect(await textos(fr.text, ['identifierResponse', 'consignment', 'uil', 'datasetId'])).toEqual([francesa.datasetId]);
    expect(await textos(fr.text, ['identifierResponse', 'consignment', 'mainCarriageTransportMovement', 'usedTransportMeans', 'registrationCountry', 'code'])).toEqual(['FR']);
    // Its trailer has no country and no Spanish series: left out of the identifiers (the schema wants a country with each plate).
    expect(await textos(fr.text, ['identifierResponse', 'consignment', 'usedTransportEquipment', 'id'])).toEqual([]);
    for (const otro of ['DE', 'ES']) expect(await textos((await q(otro)).text, ['identifierResponse', 'consignment']), otro).toHaveLength(0);
    const remolque = (pais: string) => consultar(app, identifierQuery('CD456EF', { tipo: 'equipment', pais }));
    expect(await textos((await remolque('DE')).text, ['identifierResponse', 'consignment', 'uil', 'datasetId'])).toEqual([francesa.datasetId]);
    expect(await textos((await remolque('ES')).text, ['identifierResponse', 'consignment'])).toHaveLength(0);
  });

  it('the test environment: its own path and secret, only test data; a real gate never gets it, a test gate never gets real data', async ({ app, c }) => {
    const plate = '8901 KLM';
    const real = await emitida(app, c.live, { matricula: plate });
    const prueba = await emitida(app, c.test, { matricula: plate }, '/demo/api/v1');
    const ruta = '/demo/efti/consultas';
    const r = await consultar(app, identifierQuery(plate), { ruta, secreto: SECRETO_PRUEBAS });
    expect(r.status, r.text).toBe(200);
    await expectValido(r.text);
    expect(await textos(r.text, ['identifierResponse', 'consignment', 'uil', 'datasetId'])).toEqual([prueba.datasetId]);
    const u = await consultar(app, uilQuery(prueba.datasetId), { ruta, secreto: SECRETO_PRUEBAS });
    expect((await textos(u.text, ['uilResponse', 'consignment', 'information']))[0]).toBe('DOCUMENTO DE PRUEBA — SIN VALIDEZ');
    // The real dataset is not there for the test gate.
    expect((await consultar(app, uilQuery(real.datasetId), { ruta, secreto: SECRETO_PRUEBAS })).status).toBe(404);

    // The real gate's secret on the test path, the test secret on the real path: refused.
    expect((await consultar(app, identifierQuery(plate), { ruta, secreto: SECRETO })).status).toBe(401);
    expect((await consultar(app, identifierQuery(plate), { secreto: SECRETO_PRUEBAS })).status).toBe(401);
    // And the real gate on its path gets only the real one.
    const enReal = await consultar(app, identifierQuery(plate));
    expect(await textos(enReal.text, ['identifierResponse', 'consignment', 'uil', 'datasetId'])).toEqual([real.datasetId]);
  });

  it('refuses with 401 a request unsigned, signed by another secret or gate, for another body, out of its time window, or replayed', async ({ app, c }) => {
    const { datasetId } = await emitida(app, c.live, { matricula: '9012 LMN' });
    const q = uilQuery(datasetId);
    const ahora = Math.floor(app.clock.now().getTime() / 1000);
    const casos: [string, Firma][] = [
      ['sin firma', { firma: null }],
      ['sin pasarela', { gate: null }],
      ['otra pasarela', { gate: 'FI' }],
      ['otro secreto', { secreto: 'otro-secreto-cualquiera-0123456789abcdefgh' }],
      ['otro cuerpo', { firmado: q.replace('ES01', 'ES02') }],
      ['de hace 10 minutos', { t: ahora - 600 }],
      ['de dentro de 10 minutos', { t: ahora + 600 }],
      ['firma mal formada', { firma: 'v1=abc' }],
    ];
    for (const [que, f] of casos) {
      const r = await consultar(app, q, f);
      expect(r.status, que).toBe(401);
      expect(r.body.error.codigo, que).toBe('no_autenticado');
      expect(r.body.error.mensaje, que).toMatch(/firma|pasarela|Efti-/i);
    }
    // A key of the account is no gate.
    const conClave = await app.request('POST', '/efti/consultas', { key: c.live, body: q, headers: { 'content-type': 'application/xml' } });
    expect(conClave.status).toBe(401);

    // Replayed: the same signed request twice, even within its window, is answered once.
    const t = ahora - 30;
    const primera = await consultar(app, q, { t });
    expect(primera.status, primera.text).toBe(200);
    const otra = await consultar(app, q, { t });
    expect(otra.status).toBe(401);
    expect(otra.body.error.mensaje).toMatch(/ya se recibió/);
    // Signed again (a new time), the same query is answered.
    expect((await consultar(app, q, { t: t + 1 })).status).toBe(200);
  });

  it('a message that is not a query: 400; a query without what it needs: its response with status 400, valid', async ({ app }) => {
    const noXml = await consultar(app, 'esto no es XML <');
    expect(noXml.status).toBe(400);
    expect(noXml.body.error.codigo).toBe('peticion_invalida');
    const otro = await consultar(app, ejemplo('follow-up-request.xml'));
    expect(otro.status).toBe(400);
    const doctype = await consultar(app, `<!DOCTYPE uilQuery [<!ENTITY a "b">]>\n${uilQuery('abc')}`);
    expect(doctype.status).toBe(400);

    const sinUil = ejemplo('uil-query.xml').replace(/<uil>[\s\S]*<\/uil>/, '');
    const r = await consultar(app, sinUil);
    expect(r.status).toBe(400);
    await expectValido(r.text);
    expect(await textos(r.text, ['uilResponse'], 'status')).toEqual(['400']);
    expect((await textos(r.text, ['uilResponse', 'description']))[0]).toContain('uil');
    const tipoMalo = await consultar(app, identifierQuery('1234BCD').replace('type="means"', 'type="barco"'));
    expect(tipoMalo.status).toBe(400);
    await expectValido(tipoMalo.text);
  });

  it('with no gate configured for an environment: 404 with a clear message, the body unread', async ({ app }) => {
    const sin = await startTestApp({ database: app.database, clock: app.clock, env: { EFTI_GATE_ID: GATE, EFTI_PLATFORM_ID: PLATAFORMA, EFTI_TEST_GATE_SECRET: SECRETO_PRUEBAS } });
    try {
      const r = await consultar(sin, uilQuery('0123456789abcdef0123456789abcdef'));
      expect(r.status).toBe(404);
      expect(r.body.error.mensaje).toMatch(/no hay ninguna pasarela configurada \(EFTI_GATE_SECRET\)/);
      // Its test environment has one: the gate is heard there (an unknown dataset is the response's 404).
      const prueba = await consultar(sin, uilQuery('0123456789abcdef0123456789abcdef'), { ruta: '/demo/efti/consultas', secreto: SECRETO_PRUEBAS });
      expect(prueba.status).toBe(404);
      expect(prueba.headers.get('content-type')).toMatch(/xml/);
    } finally {
      await sin.close();
    }
  });

  it('every access is logged per account: who, when, what was asked, which DeCAs; each account sees only its own', async ({ app, c, cuentaNueva }) => {
    const plate = '0123 MNP';
    const a = await emitida(app, c.live, { matricula: plate });
    const b = await emitida(app, cuentaNueva.live, { matricula: plate });
    const q = identifierQuery(plate);
    expect((await consultar(app, q)).status).toBe(200);
    const u = uilQuery(b.datasetId, ['ES01', 'identifier']);
    expect((await consultar(app, u)).status).toBe(200);
    // Found nothing of anyone: in no account's log.
    expect((await consultar(app, identifierQuery('9999 ZZZ'))).status).toBe(200);

    const deA = await app.request('GET', '/api/v1/efti/accesos', { key: c.liveReadOnly });
    expect(deA.status, deA.text).toBe(200);
    const la = AccesosEftiList.parse(deA.body);
    const primero = la.accesos[0];
    expect(primero).toMatchObject({
      pasarela: GATE,
      request_id: /requestId="([^"]+)"/.exec(q)?.[1],
      consulta: 'identificador',
      identificador: plate,
      tipos_identificador: ['means'],
      pais: 'ES',
      decas: [{ numero: a.deca.numero, version: 1 }],
    });
    expect(primero?.fecha).toMatch(/^2026-11-23 \d\d:\d\d:\d\d$/);
    // Not the other account's UIL query (numbers are per account: they may coincide, datasets never do).
    expect(la.accesos.some((x) => x.dataset_id === b.datasetId)).toBe(false);
    expect(la.accesos.length).toBeGreaterThan(2);

    const lb = AccesosEftiList.parse((await app.request('GET', '/api/v1/efti/accesos', { key: cuentaNueva.live })).body);
    expect(lb.accesos.map((x) => x.consulta)).toEqual(['uil', 'identificador']);
    expect(lb.accesos[0]).toMatchObject({ dataset_id: b.datasetId, subsets: ['ES01', 'identifier'], decas: [{ numero: b.deca.numero, version: 1 }] });
    // The test environment's log is apart (nothing there for this account).
    expect(AccesosEftiList.parse((await app.request('GET', '/demo/api/v1/efti/accesos', { key: cuentaNueva.test })).body).accesos).toEqual([]);

    // A page at a time.
    const p1 = AccesosEftiList.parse((await app.request('GET', '/api/v1/efti/accesos?limite=1', { key: cuentaNueva.live })).body);
    expect(p1.accesos).toHaveLength(1);
    expect(p1.siguiente).not.toBeNull();
    const p2 = AccesosEftiList.parse((await app.request('GET', `/api/v1/efti/accesos?limite=1&despues_de=${p1.siguiente}`, { key: cuentaNueva.live })).body);
    expect(p2.accesos.map((x) => x.consulta)).toEqual(['identificador']);
    expect(p2.siguiente).toBeNull();
    expect((await app.request('GET', '/api/v1/efti/accesos')).status).toBe(401);

    // Recorded once per request, with what it found, for the platform's own audit.
    const consultas = await app.database.db
      .selectFrom('efti_consultas')
      .select(['request_id', 'datasets', 'estado'])
      .where('request_id', '=', /requestId="([^"]+)"/.exec(q)?.[1] ?? '')
      .execute();
    expect(consultas).toEqual([{ request_id: /requestId="([^"]+)"/.exec(q)?.[1], datasets: 2, estado: 200 }]);
  });
});
