/**
 * GET /decas/{id}/efti: an issued DeCA as an eFTI dataset, checked the way
 * an authority's system would take it — by a real XML Schema validator
 * (libxml2's xmllint) against the reference's schemas vendored in
 * server/efti/xsd, and read back by a real XML parser, so escaping mistakes
 * show up as wrong text or an invalid document, not as a string compare.
 */
import path from 'node:path';
import { describe, expect } from 'vitest';
import { Deca, DecaCreada, DecaRespuesta } from '../../shared/schemas/deca';
import { decaCompleta } from '../support/decas';
import { test as it } from '../support/fixtures';
import { expectValidoSegun, lint, textos, xmllint } from '../support/xmllint';

const API = '/api/v1';
const XSD = path.resolve('server/efti/xsd');
const COMMON = path.join(XSD, 'consignment-common.xsd');

const expectValida = (xml: string) => expectValidoSegun(COMMON, xml);

const HOSTIL = {
  nombre: `Transportes <b>"Ñandú"</b> & 'Cía' ]]> S.L.`,
  domicilio: `Calle d'Àvila & <Ronda> "B", 08005 Barcelona`,
  observaciones: 'Línea uno: 5 < 6 & 7 > 3\r\nLínea dos con «comillas» y ]]> y &amp; literal',
  naturaleza: 'Piñones <crudos> & ñoras "extra"',
};

describe.skipIf(!xmllint)('GET /decas/{id}/efti', () => {
  it('the validator is real: the reference example validates, and a document out of the schema does not', async () => {
    const { readFile } = await import('node:fs/promises');
    await expectValida(await readFile(path.join(XSD, 'examples/consignment-common.xml'), 'utf8'));
    const mala = await lint(['--noout', '--schema', COMMON], '<consignment xmlns="http://efti.eu/v1/consignment/common"><grossWeight unitId="LBR">1</grossWeight></consignment>');
    expect(mala.status).not.toBe(0);
  });

  it('a single-shipment DeCA with hostile text: valid, every character back as sent, headers with its UIL', async ({ app, c }) => {
    const creada = await app.request('POST', `${API}/decas`, {
      key: c.live,
      body: decaCompleta({
        transp_nombre: HOSTIL.nombre,
        transp_domicilio: HOSTIL.domicilio,
        observaciones: HOSTIL.observaciones,
        envios: [{ origen: 'Lleida', destino: 'Málaga', naturaleza: HOSTIL.naturaleza, peso: '24.500,5' }],
        matricula_remolque: 'R-5678-BBC',
      }),
    });
    expect(creada.status, creada.text).toBe(201);
    const deca = DecaCreada.parse(creada.body).deca;

    const res = await app.request('GET', `${API}/decas/${deca.id}/efti`, { key: c.live });
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/xml; charset=utf-8');
    expect(res.headers.get('efti-gate-id')).toBe('ES');
    // By default the host of SITE_URL.
    expect(res.headers.get('efti-platform-id')).toMatch(/^[A-Za-z0-9][A-Za-z0-9._-]*$/);
    expect(res.headers.get('efti-dataset-id')).toMatch(/^[0-9a-f]{32}$/);
    expect(res.headers.get('efti-subsets')).toBe('ES01');
    await expectValida(res.text);

    expect(await textos(res.text, ['consignment', 'carrier', 'name'])).toEqual([HOSTIL.nombre]);
    expect((await textos(res.text, ['consignment', 'carrier', 'postalAddress', 'streetName'])).join(' ')).toBe(HOSTIL.domicilio);
    expect(await textos(res.text, ['consignment', 'carrier', 'taxRegistration', 'id'])).toEqual(['B12345674']);
    expect(await textos(res.text, ['consignment', 'consignor', 'taxRegistration', 'id'])).toEqual(['A58818501']);
    expect(await textos(res.text, ['consignment', 'natureIdentificationCargo', 'identificationText'])).toEqual([HOSTIL.naturaleza]);
    expect(await textos(res.text, ['consignment', 'carrierAcceptanceDateTime'])).toEqual(['20261123']);
    expect(await textos(res.text, ['consignment', 'carrierAcceptanceLocation', 'name'])).toEqual(['Lleida']);
    expect(await textos(res.text, ['consignment', 'consigneeReceiptLocation', 'name'])).toEqual(['Málaga']);
    expect(await textos(res.text, ['consignment', 'grossWeight'])).toEqual(['24500.5']);
    expect(await textos(res.text, ['consignment', 'mainCarriageTransportMovement', 'usedTransportMeans', 'id'])).toEqual(['1234BCD']);
    expect(await textos(res.text, ['consignment', 'usedTransportEquipment', 'id'])).toEqual(['R5678BBC']);
    // The remarks come back with their carriage return: the parser did not fold it.
    const info = await textos(res.text, ['consignment', 'information']);
    expect(info).toContain(`Observaciones: ${HOSTIL.observaciones}`);
    // The driver's name and phone are no part of the subset: not in the dataset.
    expect(res.text).not.toContain('Muñoz');
    expect(res.text).not.toContain('600 000 000');
  });

  it('a multi-shipment DeCA: valid, each shipment whole in its own line, weights totalled in kg', async ({ app, c }) => {
    const creada = await app.request('POST', `${API}/decas`, {
      key: c.live,
      body: decaCompleta({
        envios: [
          { origen: 'Lleida', destino: 'Mercamálaga, Málaga', naturaleza: 'Fruta de hueso', peso: 18000, unidad: 'kg' },
          { origen: 'Alcarràs', destino: 'Mercamálaga, Málaga', naturaleza: `Peras "conferencia" & <manzanas>`, peso: '1,5 t' },
          { origen: 'Lleida', destino: 'Granada', naturaleza: 'Cajas vacías', peso: 12, unidad: 'palets' },
        ],
      }),
    });
    expect(creada.status, creada.text).toBe(201);
    const deca = DecaCreada.parse(creada.body).deca;
    const res = await app.request('GET', `${API}/decas/${deca.numero}/efti`, { key: c.live });
    expect(res.status, res.text).toBe(200);
    await expectValida(res.text);
    expect(await textos(res.text, ['consignment', 'grossWeight'])).toEqual(['19500']);
    expect(await textos(res.text, ['consignment', 'transportPackage', 'itemQuantity'])).toEqual(['12']);
    expect(await textos(res.text, ['consignment', 'natureIdentificationCargo', 'identificationText'])).toEqual(['Fruta de hueso', 'Peras "conferencia" & <manzanas>', 'Cajas vacías']);
    // Origins and destinations differ: none at the consignment's level, each shipment says its own.
    expect(await textos(res.text, ['consignment', 'carrierAcceptanceLocation', 'name'])).toEqual([]);
    const info = await textos(res.text, ['consignment', 'information']);
    expect(info.filter((l) => l.startsWith('Envío '))).toEqual([
      'Envío 1 de 3: Lleida → Mercamálaga, Málaga; Fruta de hueso; 18000 kg',
      'Envío 2 de 3: Alcarràs → Mercamálaga, Málaga; Peras "conferencia" & <manzanas>; 1.5 t',
      'Envío 3 de 3: Lleida → Granada; Cajas vacías; 12 palets',
    ]);
  });

  it('names longer than the schema allows are carried whole in repeated elements, and still validate', async ({ app, c }) => {
    const largo = `${'Distribuciones y Transportes Frigoríficos del Mediterráneo '.repeat(3).trim()}, S.L.`;
    const domicilio = 'Polígono Industrial El Pla, calle de los Almendros número 27, nave 4, 46470 Albal, Valencia, España';
    const creada = await app.request('POST', `${API}/decas`, { key: c.live, body: decaCompleta({ cargador_nombre: largo, cargador_domicilio: domicilio }) });
    expect(creada.status, creada.text).toBe(201);
    const res = await app.request('GET', `${API}/decas/${DecaCreada.parse(creada.body).deca.id}/efti`, { key: c.live });
    await expectValida(res.text);
    const nombres = await textos(res.text, ['consignment', 'consignor', 'name']);
    expect(nombres.length).toBeGreaterThan(1);
    expect(nombres.join(' ')).toBe(largo);
    expect((await textos(res.text, ['consignment', 'consignor', 'postalAddress', 'streetName'])).join(' ')).toBe(domicilio);
  });

  it('the UIL stays across a method-1 change and a replacement; each version keeps its own data', async ({ app, c }) => {
    const creada = await app.request('POST', `${API}/decas`, { key: c.live, body: decaCompleta() });
    const d = DecaCreada.parse(creada.body).deca;
    const v1 = await app.request('GET', `${API}/decas/${d.id}/efti`, { key: c.live });
    const uil = v1.headers.get('efti-dataset-id');

    const cambiada = await app.request('PATCH', `${API}/decas/${d.id}`, { key: c.live, body: { matricula: '5678 FGH', motivo: 'Cambio de camión' } });
    expect(Deca.parse(DecaRespuesta.parse(cambiada.body).deca).version).toBe(2);
    const v2 = await app.request('GET', `${API}/decas/${d.id}/efti`, { key: c.live });
    expect(v2.headers.get('efti-dataset-id')).toBe(uil);
    await expectValida(v2.text);
    expect(await textos(v2.text, ['consignment', 'mainCarriageTransportMovement', 'usedTransportMeans', 'id'])).toEqual(['5678FGH']);
    expect(await textos(v2.text, ['consignment', 'information'])).toContain('Motivo de la modificación: Cambio de camión');

    // The first version, as it was issued: same UIL, its own plate.
    const antes = await app.request('GET', `${API}/decas/${d.id}/efti?version=1`, { key: c.live });
    expect(antes.status, antes.text).toBe(200);
    expect(antes.headers.get('efti-dataset-id')).toBe(uil);
    expect(await textos(antes.text, ['consignment', 'mainCarriageTransportMovement', 'usedTransportMeans', 'id'])).toEqual(['1234BCD']);
    expect(antes.text).toBe(v1.text);
    expect((await app.request('GET', `${API}/decas/${d.id}/efti?version=3`, { key: c.live })).status).toBe(404);
    expect((await app.request('GET', `${API}/decas/${d.id}/efti?version=cero`, { key: c.live })).status).toBe(422);

    // Method 2: a new DeCA (spec), the same transport, the same dataset.
    const sustituta = await app.request('POST', `${API}/decas/${d.id}/sustituir`, { key: c.live, body: { matricula: '9999 KLM', motivo: 'Avería' } });
    expect(sustituta.status, sustituta.text).toBe(200);
    const nueva = DecaRespuesta.parse(sustituta.body).deca;
    expect(nueva.id).not.toBe(d.id);
    const deLaNueva = await app.request('GET', `${API}/decas/${nueva.id}/efti`, { key: c.live });
    expect(deLaNueva.headers.get('efti-dataset-id')).toBe(uil);
    await expectValida(deLaNueva.text);
    expect(await textos(deLaNueva.text, ['consignment', 'information'])).toContain(`Sustituye a la DeCA ${d.numero}`);
    // The replaced one still answers, saying it was replaced.
    const vieja = await app.request('GET', `${API}/decas/${d.id}/efti`, { key: c.live });
    expect(await textos(vieja.text, ['consignment', 'information'])).toContain(`DeCA ${d.numero}, versión 2 (sustituida)`);

    // Another DeCA is another dataset.
    const otra = DecaCreada.parse((await app.request('POST', `${API}/decas`, { key: c.live, body: decaCompleta() })).body).deca;
    expect((await app.request('GET', `${API}/decas/${otra.id}/efti`, { key: c.live })).headers.get('efti-dataset-id')).not.toBe(uil);
  });

  it('a read-only key reads it; another account gets 404; a pending DeCA is 409 pendiente; no key is 401', async ({ app, c, cuentaNueva }) => {
    const d = DecaCreada.parse((await app.request('POST', `${API}/decas`, { key: c.live, body: decaCompleta() })).body).deca;
    const ro = await app.request('GET', `${API}/decas/${d.id}/efti`, { key: c.liveReadOnly });
    expect(ro.status, ro.text).toBe(200);
    await expectValida(ro.text);

    const ajena = await app.request('GET', `${API}/decas/${d.id}/efti`, { key: cuentaNueva.live });
    expect(ajena.status).toBe(404);
    expect(ajena.body.error.codigo).toBe('no_encontrado');

    const pendiente = DecaCreada.parse((await app.request('POST', `${API}/decas`, { key: c.live, body: decaCompleta({ emitir: false }) })).body).deca;
    const r = await app.request('GET', `${API}/decas/${pendiente.id}/efti`, { key: c.live });
    expect(r.status).toBe(409);
    expect(r.body.error.codigo).toBe('pendiente');

    expect((await app.request('GET', `${API}/decas/${d.id}/efti`)).status).toBe(401);
  });

  it('the eFTI fields: addresses in parts, plate countries and the shared consignee go in their elements, and validate', async ({ app, c }) => {
    const creada = await app.request('POST', `${API}/decas`, {
      key: c.live,
      body: decaCompleta({
        cargador_cp: '25001',
        cargador_municipio: 'Lleida',
        cargador_provincia: 'Lleida',
        transp_cp: '1000-001',
        transp_municipio: 'Lisboa',
        transp_pais: 'PT',
        matricula: 'AB-123-CD',
        matricula_pais: 'fr',
        matricula_remolque: 'R 1234 BCD',
        envios: [
          { origen: 'Lleida', destino: 'Málaga', naturaleza: 'Fruta', peso: 1000, destinatario_nombre: 'Mercamálaga & <Cía>', destinatario_nif: 'A29000007' },
          { origen: 'Lleida', destino: 'Málaga', naturaleza: 'Peras', peso: 500, destinatario_nombre: 'Mercamálaga & <Cía>', destinatario_nif: 'A29000007' },
        ],
      }),
    });
    expect(creada.status, creada.text).toBe(201);
    const deca = DecaCreada.parse(creada.body).deca;
    const res = await app.request('GET', `${API}/decas/${deca.id}/efti`, { key: c.live });
    expect(res.status, res.text).toBe(200);
    await expectValida(res.text);
    const dir = (parte: string, campo: string) => textos(res.text, ['consignment', parte, 'postalAddress', campo]);
    expect(await dir('consignor', 'postcode')).toEqual(['25001']);
    expect(await dir('consignor', 'cityName')).toEqual(['Lleida']);
    expect(await dir('consignor', 'countrySubDivisionName')).toEqual(['Lleida']);
    // No country given with the parts: Spain, as the field says.
    expect(await dir('consignor', 'countryCode')).toEqual(['ES']);
    expect(await dir('consignor', 'streetName')).toEqual(['Camí Vell 3, 25001 Lleida']);
    expect(await dir('carrier', 'postcode')).toEqual(['1000-001']);
    expect(await dir('carrier', 'cityName')).toEqual(['Lisboa']);
    expect(await dir('carrier', 'countryCode')).toEqual(['PT']);
    expect(await textos(res.text, ['consignment', 'consignee', 'name'])).toEqual(['Mercamálaga & <Cía>']);
    expect(await textos(res.text, ['consignment', 'consignee', 'taxRegistration', 'id'])).toEqual(['A29000007']);
    // The stored country for a foreign plate; Spain inferred for the trailer's Spanish series.
    expect(await textos(res.text, ['consignment', 'mainCarriageTransportMovement', 'usedTransportMeans', 'id'])).toEqual(['AB123CD']);
    expect(await textos(res.text, ['consignment', 'mainCarriageTransportMovement', 'usedTransportMeans', 'registrationCountry', 'code'])).toEqual(['FR']);
    expect(await textos(res.text, ['consignment', 'usedTransportEquipment', 'registrationCountry', 'code'])).toEqual(['ES']);
    // The consignee is the consignment's: the shipments' lines do not repeat it.
    const info = await textos(res.text, ['consignment', 'information']);
    expect(info.filter((l) => l.startsWith('Envío '))).toEqual(['Envío 1 de 2: Lleida → Málaga; Fruta; 1000 kg', 'Envío 2 de 2: Lleida → Málaga; Peras; 500 kg']);
  });

  it('shipments to different consignees: no consignee element, each line says its own; an older DeCA without the fields still validates as before', async ({ app, c }) => {
    const creada = await app.request('POST', `${API}/decas`, {
      key: c.live,
      body: decaCompleta({
        envios: [
          { origen: 'Lleida', destino: 'Málaga', naturaleza: 'Fruta', peso: 1000, destinatario_nombre: 'Mercamálaga', destinatario_nif: 'A29000007' },
          { origen: 'Lleida', destino: 'Granada', naturaleza: 'Peras', peso: 500, destinatario_nombre: 'Frutas Alhambra' },
          { origen: 'Lleida', destino: 'Jaén', naturaleza: 'Cajas', peso: 3, unidad: 'palets' },
        ],
      }),
    });
    expect(creada.status, creada.text).toBe(201);
    const res = await app.request('GET', `${API}/decas/${DecaCreada.parse(creada.body).deca.id}/efti`, { key: c.live });
    await expectValida(res.text);
    expect(await textos(res.text, ['consignment', 'consignee', 'name'])).toEqual([]);
    const info = await textos(res.text, ['consignment', 'information']);
    expect(info.filter((l) => l.startsWith('Envío '))).toEqual([
      'Envío 1 de 3: Lleida → Málaga; Fruta; 1000 kg; destinatario Mercamálaga, NIF A29000007',
      'Envío 2 de 3: Lleida → Granada; Peras; 500 kg; destinatario Frutas Alhambra',
      'Envío 3 de 3: Lleida → Jaén; Cajas; 3 palets',
    ]);
    // Without the eFTI fields: the address is the free line only (no country claimed), the Spanish plate's country is inferred.
    const sin = await app.request('POST', `${API}/decas`, { key: c.live, body: decaCompleta({ ref_externa: 'SIN-EFTI' }) });
    const xml = (await app.request('GET', `${API}/decas/${DecaCreada.parse(sin.body).deca.id}/efti`, { key: c.live })).text;
    await expectValida(xml);
    expect(await textos(xml, ['consignment', 'consignor', 'postalAddress', 'countryCode'])).toEqual([]);
    expect(await textos(xml, ['consignment', 'consignor', 'postalAddress', 'postcode'])).toEqual([]);
    expect(await textos(xml, ['consignment', 'mainCarriageTransportMovement', 'usedTransportMeans', 'registrationCountry', 'code'])).toEqual(['ES']);
  });

  it('a test-environment DeCA says on the dataset that it has no validity', async ({ app, c }) => {
    const d = DecaCreada.parse((await app.request('POST', '/demo/api/v1/decas', { key: c.test, body: decaCompleta() })).body).deca;
    const res = await app.request('GET', `/demo/api/v1/decas/${d.id}/efti`, { key: c.test });
    expect(res.status, res.text).toBe(200);
    await expectValida(res.text);
    expect((await textos(res.text, ['consignment', 'information']))[0]).toBe('DOCUMENTO DE PRUEBA — SIN VALIDEZ');
  });
});
