import { parse as parseHtml } from 'node-html-parser';
import { describe, expect } from 'vitest';
import { type Cambio, type Deca, DecaCreada } from '../../shared/schemas/deca';
import { type Fx, it, test } from '../support/fixtures';

test.override('opcionesCuenta', { rol: 'transportista', nombre: 'Transportes Núñez, S.L.', nif: 'B12345674', domicilio: 'Avda. Ilustración 7, Zaragoza' });

/** A pending DeCA made by the carrier: its own side and vehicle filled, the shipper's side and shipments left to the link. */
async function pendiente({ app, c }: Fx): Promise<Deca> {
  const res = await app.request('POST', '/api/v1/decas', {
    key: c.live,
    body: { emitir: false, fecha_transporte: '2026-11-25', matricula: '1234BCD', conductor_nombre: 'Luis Pérez' },
  });
  expect(res.status, res.text).toBe(201);
  const deca = DecaCreada.parse(res.body).deca;
  expect(deca.estado).toBe('pendiente');
  expect(deca.urls.completar).toMatch(/\/completar\/[\w-]{20,}$/);
  return deca;
}

function path(url: string): string {
  return new URL(url).pathname;
}

async function post({ app, c }: Fx, url: string, campos: Record<string, string>) {
  const res = await fetch(`${app.url}${path(url)}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': 'Mozilla/5.0' },
    body: new URLSearchParams(campos).toString(),
  });
  return { status: res.status, text: await res.text(), headers: res.headers };
}

const VALIDO = {
  cargador_nombre: 'Frutas Peñalara, S.A.',
  cargador_nif: 'A58818501',
  cargador_domicilio: 'Camí Vell 3, 25001 Lleida',
  'envios[0].origen': 'Lleida',
  'envios[0].destino': 'Málaga',
  'envios[0].naturaleza': 'Fruta',
  'envios[0].peso': '24.500',
  'envios[0].unidad': 'kg',
};

async function estado({ app, c }: Fx, id: number) {
  return (await app.request('GET', `/api/v1/decas/${id}`, { key: c.live })).body.deca as Deca;
}

describe('completion link for the other party', () => {
  it('opening the link only shows a click-through page: nothing is consumed or changed', async ({ app, c }) => {
    const deca = await pendiente({ app, c });
    const res = await fetch(`${app.url}${path(deca.urls.completar ?? '')}`, { headers: { 'user-agent': 'Slackbot-LinkExpanding 1.0' } });
    expect(res.status).toBe(200);
    const doc = parseHtml(await res.text());
    expect(doc.querySelector('form[method=post]')).not.toBeNull();
    expect(doc.querySelectorAll('input[name=cargador_nombre]')).toHaveLength(0);
    expect(res.headers.get('x-robots-tag')).toContain('noindex');
    const after = await estado({ app, c }, deca.id);
    expect(after.estado).toBe('pendiente');
    expect(after.urls.completar).toBe(deca.urls.completar);
    const borradores = await app.database.db.selectFrom('completar_borradores').selectAll().where('deca_id', '=', deca.id).execute();
    expect(borradores).toEqual([]);
  });

  it("shows only the other side's fields as editable and the caller's side read-only", async ({ app, c }) => {
    const deca = await pendiente({ app, c });
    const res = await post({ app, c }, deca.urls.completar ?? '', { accion: 'abrir' });
    expect(res.status).toBe(200);
    const doc = parseHtml(res.text);
    const names = doc.querySelectorAll('input, textarea, select').map((e) => e.getAttribute('name'));
    expect(names).toEqual(expect.arrayContaining(['cargador_nombre', 'cargador_nif', 'cargador_domicilio', 'envios[0].origen', 'envios[0].peso', 'observaciones']));
    // The carrier issued: its own data, date, vehicle and driver are not the shipper's to set.
    for (const ajeno of ['transp_nombre', 'transp_nif', 'transp_domicilio', 'matricula', 'fecha_transporte', 'conductor_nombre']) expect(names).not.toContain(ajeno);
    // The carrier's data, shown read-only.
    const ro = doc.querySelector('.ro')?.textContent ?? '';
    for (const dato of ['Transportes Núñez, S.L.', 'B12345674', 'Avda. Ilustración 7, Zaragoza', '1234BCD', 'Luis Pérez']) expect(ro).toContain(dato);
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(doc.querySelector('script')?.getAttribute('src')).toBe('/p/completar.js');
  });

  it('keeps a half-filled form when the person leaves and returns', async ({ app, c }) => {
    const deca = await pendiente({ app, c });
    const saved = await post({ app, c }, deca.urls.completar ?? '', { accion: 'guardar', cargador_nombre: 'Frutas a medias', 'envios[0].origen': 'Huesca' });
    expect(saved.status).toBe(200);
    expect(saved.text).toContain('Borrador guardado');
    const back = parseHtml((await post({ app, c }, deca.urls.completar ?? '', { accion: 'abrir' })).text);
    expect(back.querySelector('input[name=cargador_nombre]')?.getAttribute('value')).toBe('Frutas a medias');
    expect(back.querySelector('input[name="envios[0].origen"]')?.getAttribute('value')).toBe('Huesca');
    expect((await estado({ app, c }, deca.id)).estado).toBe('pendiente');
  });

  it('shows validation errors in the page next to the right field, keeping the values', async ({ app, c }) => {
    const deca = await pendiente({ app, c });
    const res = await post({ app, c }, deca.urls.completar ?? '', { ...VALIDO, 'envios[0].peso': 'mucho', cargador_nif: '', accion: 'enviar' });
    expect(res.status).toBe(422);
    const doc = parseHtml(res.text);
    const peso = doc.querySelector('input[name="envios[0].peso"]');
    expect(peso?.getAttribute('aria-invalid')).toBe('true');
    expect(peso?.getAttribute('value')).toBe('mucho');
    expect(doc.getElementById(`${peso?.getAttribute('id')}-e`)?.textContent).toMatch(/24\.500/);
    expect(doc.querySelector('input[name=cargador_nif]')?.getAttribute('aria-invalid')).toBe('true');
    expect(doc.querySelector('.errs')?.textContent).toContain('Envío 1');
    expect((await estado({ app, c }, deca.id)).estado).toBe('pendiente');
  });

  it('a valid submit with no warnings issues the DeCA at once (completado + emitido), and a second submit is refused', async ({ app, c }) => {
    const deca = await pendiente({ app, c });
    const res = await post({ app, c }, deca.urls.completar ?? '', { ...VALIDO, accion: 'enviar' });
    expect(res.status, res.text).toBe(200);
    expect(res.text).toContain('emitida');
    const emitida = await estado({ app, c }, deca.id);
    expect(emitida.estado).toBe('emitido');
    expect(emitida).toMatchObject({ cargador_nombre: 'Frutas Peñalara, S.A.', cargador_nif: 'A58818501', matricula: '1234BCD', transp_nombre: 'Transportes Núñez, S.L.' });
    expect(emitida.envios).toEqual([{ origen: 'Lleida', destino: 'Málaga', naturaleza: 'Fruta', peso: 24500, unidad: 'kg', nota: null, destinatario_nombre: null, destinatario_nif: null }]);
    expect(emitida.urls.completar).toBeNull();
    expect(emitida.pdf_sha256).toMatch(/^[0-9a-f]{64}$/);

    const eventos = await app.database.db.selectFrom('eventos').select('evento').where('deca_id', '=', deca.id).orderBy('id').execute();
    expect(eventos.map((e) => e.evento)).toEqual(['deca.creado', 'deca.completado', 'deca.emitido']);
    const cambios = await app.request('GET', `/api/v1/decas/${deca.id}/cambios`, { key: c.live });
    const completado = cambios.body.cambios.find((x: { tipo: string }) => x.tipo === 'completado');
    expect(completado.autor.tipo).toBe('enlace');

    const again = await post({ app, c }, deca.urls.completar ?? '', { ...VALIDO, cargador_nombre: 'Otro', accion: 'enviar' });
    expect(again.status).toBe(409);
    expect(again.text).toContain('ya no admite cambios');
    expect((await estado({ app, c }, deca.id)).cargador_nombre).toBe('Frutas Peñalara, S.A.');
    const get = await fetch(`${app.url}${path(deca.urls.completar ?? '')}`);
    expect(await get.text()).toContain('ya emitida');
  });

  it('works with several shipments added without JavaScript', async ({ app, c }) => {
    const deca = await pendiente({ app, c });
    const more = parseHtml((await post({ app, c }, deca.urls.completar ?? '', { ...VALIDO, accion: 'mas' })).text);
    expect(more.querySelector('input[name="envios[1].origen"]')).not.toBeNull();
    const res = await post({ app, c }, deca.urls.completar ?? '', {
      ...VALIDO,
      'envios[1].origen': 'Lleida',
      'envios[1].destino': 'Sevilla',
      'envios[1].naturaleza': 'Peras',
      'envios[1].peso': '3,5',
      'envios[1].unidad': 't',
      accion: 'enviar',
    });
    expect(res.status, res.text).toBe(200);
    expect((await estado({ app, c }, deca.id)).envios[1]).toMatchObject({ destino: 'Sevilla', peso: 3.5, unidad: 't' });
  });

  it('is rate-limited per link', async ({ app, c }) => {
    const deca = await pendiente({ app, c });
    let last = 0;
    for (let i = 0; i < 61; i++) last = (await post({ app, c }, deca.urls.completar ?? '', { accion: 'guardar', cargador_nombre: `n${i}` })).status;
    expect(last).toBe(429);
  });

  it('answers an unknown link with 404', async ({ app, c }) => {
    const res = await fetch(`${app.url}/completar/${'x'.repeat(32)}`);
    expect(res.status).toBe(404);
  });
});

/** The data columns, events and drafts of a DeCA, to show a refused post changed nothing. */
async function huellaDeca({ app, c }: Fx, id: number) {
  const deca = await estado({ app, c }, id);
  const eventos = await app.database.db.selectFrom('eventos').select('evento').where('deca_id', '=', id).orderBy('id').execute();
  const borradores = await app.database.db.selectFrom('completar_borradores').select('campos').where('deca_id', '=', id).execute();
  const cambios = (await app.request('GET', `/api/v1/decas/${id}/cambios`, { key: c.live })).body.cambios as Cambio[];
  return { deca, eventos: eventos.map((e) => e.evento), borradores, cambios: cambios.length };
}

/** A pending DeCA made by the shipper's side of the account: the carrier completes its data, vehicle and driver. */
async function pendienteDelCargador({ app, c }: Fx, cambios: Record<string, unknown> = {}): Promise<Deca> {
  const res = await app.request('POST', '/api/v1/decas', {
    key: c.live,
    body: {
      emitir: false,
      emisor_rol: 'cargador',
      envios: [{ origen: 'Zaragoza', destino: 'Valencia', naturaleza: 'Tubos de acero', peso: '12.000' }],
      ...cambios,
    },
  });
  expect(res.status, res.text).toBe(201);
  const deca = DecaCreada.parse(res.body).deca;
  expect(deca).toMatchObject({ estado: 'pendiente', emisor_rol: 'cargador', cargador_nif: 'B12345674' });
  return deca;
}

const TRANSPORTISTA = {
  transp_nombre: 'Frutas Peñalara, S.A.',
  transp_nif: 'A58818501',
  transp_domicilio: 'Camí Vell 3, 25001 Lleida',
  fecha_transporte: '2026-11-25',
  matricula: '1234 BCD',
  conductor_nombre: 'Ana Ruiz',
};

describe('the completion link completes, it does not rewrite the issuer', () => {
  it("refuses a forged post that sets the carrier's own data on the carrier's DeCA, naming the fields, and changes nothing", async ({ app, c }) => {
    const deca = await pendiente({ app, c });
    const antes = await huellaDeca({ app, c }, deca.id);
    const forjado = { ...VALIDO, transp_nombre: 'Impostor SL', transp_nif: 'X0000000T', transp_domicilio: 'Calle Falsa 123, Madrid' };
    for (const accion of ['enviar', 'guardar', 'mas']) {
      const res = await post({ app, c }, deca.urls.completar ?? '', { ...forjado, accion });
      expect(res.status, `${accion}: ${res.text.slice(0, 300)}`).toBe(422);
      const rechazo = parseHtml(res.text).querySelector('[data-rechazados]')?.textContent ?? '';
      expect(rechazo).toContain('No se ha guardado ni emitido nada');
      for (const campo of ['Transportista: nombre o razón social', 'Transportista: NIF', 'Transportista: domicilio']) expect(rechazo).toContain(campo);
      expect(rechazo).not.toContain('Cargador');
    }
    // Its date, vehicle and driver, and the DeCA's own fields, are not the shipper's either.
    const ajenos: Record<string, string>[] = [
      { matricula: '9999ZZZ' },
      { fecha_transporte: '2026-12-01' },
      { conductor_nombre: 'Otro' },
      { tipo_vehiculo: 'articulado' },
      { ref_externa: 'x-1' },
      { emisor_rol: 'cargador' },
    ];
    for (const ajeno of ajenos) {
      const res = await post({ app, c }, deca.urls.completar ?? '', { ...VALIDO, ...ajeno, accion: 'enviar' });
      expect(res.status, JSON.stringify(ajeno)).toBe(422);
    }
    expect(await huellaDeca({ app, c }, deca.id)).toEqual(antes);
    expect(antes.deca).toMatchObject({ estado: 'pendiente', transp_nombre: 'Transportes Núñez, S.L.', transp_nif: 'B12345674', transp_domicilio: 'Avda. Ilustración 7, Zaragoza' });
    expect(antes.borradores).toEqual([]);

    // The same form without the forged fields issues, under the carrier's own data.
    const ok = await post({ app, c }, deca.urls.completar ?? '', { ...VALIDO, accion: 'enviar' });
    expect(ok.status, ok.text).toBe(200);
    expect(await estado({ app, c }, deca.id)).toMatchObject({ estado: 'emitido', transp_nombre: 'Transportes Núñez, S.L.', transp_nif: 'B12345674' });
  });

  it("on the shipper's DeCA the carrier sets its own data, date, vehicle and driver, and not the shipper's data or shipments", async ({ app, c }) => {
    const deca = await pendienteDelCargador({ app, c });
    const form = parseHtml((await post({ app, c }, deca.urls.completar ?? '', { accion: 'abrir' })).text);
    const names = form.querySelectorAll('input, textarea, select').map((e) => e.getAttribute('name'));
    expect(names).toEqual(
      expect.arrayContaining(['transp_nombre', 'transp_nif', 'transp_domicilio', 'fecha_transporte', 'matricula', 'matricula_remolque', 'conductor_nombre', 'conductor_tel', 'observaciones']),
    );
    expect(names.filter((n) => n?.startsWith('cargador_') || n?.startsWith('envios'))).toEqual([]);
    expect(form.querySelector('.ro')?.textContent).toContain('Tubos de acero');

    const antes = await huellaDeca({ app, c }, deca.id);
    const ajenos: Record<string, string>[] = [{ cargador_nombre: 'Impostor SL' }, { cargador_nif: 'X0000000T' }, { 'envios[0].peso': '1' }];
    for (const ajeno of ajenos) {
      const res = await post({ app, c }, deca.urls.completar ?? '', { ...TRANSPORTISTA, ...ajeno, accion: 'enviar' });
      expect(res.status, JSON.stringify(ajeno)).toBe(422);
      expect(parseHtml(res.text).querySelector('[data-rechazados]')?.textContent).toMatch(/Cargador|Envío 1/);
    }
    expect(await huellaDeca({ app, c }, deca.id)).toEqual(antes);

    const ok = await post({ app, c }, deca.urls.completar ?? '', { ...TRANSPORTISTA, accion: 'enviar' });
    expect(ok.status, ok.text).toBe(200);
    expect(await estado({ app, c }, deca.id)).toMatchObject({ estado: 'emitido', cargador_nif: 'B12345674', transp_nif: 'A58818501', matricula: '1234BCD', conductor_nombre: 'Ana Ruiz' });
  });

  it("the other party gives its address in parts and each shipment's consignee; a bad postcode is shown at its field", async ({ app, c }) => {
    const deca = await pendiente({ app, c });
    const form = parseHtml((await post({ app, c }, deca.urls.completar ?? '', { accion: 'abrir' })).text);
    const names = form.querySelectorAll('input, textarea, select').map((e) => e.getAttribute('name'));
    // Its own address's parts, right after its address; the carrier's (the issuer's) are not offered.
    const i = names.indexOf('cargador_domicilio');
    expect(names.slice(i, i + 5)).toEqual(['cargador_domicilio', 'cargador_cp', 'cargador_municipio', 'cargador_provincia', 'cargador_pais']);
    expect(names).toEqual(expect.arrayContaining(['envios[0].destinatario_nombre', 'envios[0].destinatario_nif']));
    for (const ajeno of ['transp_cp', 'transp_pais', 'matricula_pais', 'remolque_pais']) expect(names).not.toContain(ajeno);

    const mal = await post({ app, c }, deca.urls.completar ?? '', { ...VALIDO, cargador_cp: '2500', accion: 'enviar' });
    expect(mal.status).toBe(422);
    expect(parseHtml(mal.text).querySelector('#f-cargador_cp-e')?.textContent).toMatch(/^Código postal español no válido: son 5 cifras/);
    expect((await estado({ app, c }, deca.id)).estado).toBe('pendiente');

    const ok = await post({ app, c }, deca.urls.completar ?? '', {
      ...VALIDO,
      cargador_cp: '25001',
      cargador_municipio: 'Lleida',
      cargador_provincia: 'Lleida',
      cargador_pais: 'es',
      'envios[0].destinatario_nombre': 'Mercamálaga, S.A.',
      'envios[0].destinatario_nif': 'A29000007',
      accion: 'enviar',
    });
    expect(ok.status, ok.text).toBe(200);
    const emitida = await estado({ app, c }, deca.id);
    expect(emitida).toMatchObject({ estado: 'emitido', cargador_cp: '25001', cargador_municipio: 'Lleida', cargador_provincia: 'Lleida', cargador_pais: 'ES', transp_cp: null });
    expect(emitida.envios[0]).toMatchObject({ destinatario_nombre: 'Mercamálaga, S.A.', destinatario_nif: 'A29000007' });
  });

  it("says which missing data is the issuer's to give, when the other party cannot fill it", async ({ app, c }) => {
    const deca = await pendienteDelCargador({ app, c }, { envios: [] });
    const res = await post({ app, c }, deca.urls.completar ?? '', { ...TRANSPORTISTA, accion: 'enviar' });
    expect(res.status).toBe(422);
    expect(parseHtml(res.text).querySelector('.errs')?.textContent).toContain('Envíos: Falta, y lo pone quien le ha pedido los datos');
    expect((await estado({ app, c }, deca.id)).estado).toBe('pendiente');
  });

  it('shows a wrong NIF check character at the field and asks before issuing; the confirmation issues it', async ({ app, c }) => {
    const deca = await pendiente({ app, c });
    const url = deca.urls.completar ?? '';
    const res = await post({ app, c }, url, { ...VALIDO, cargador_nif: 'A46123456', accion: 'enviar' });
    expect(res.status).toBe(422);
    const doc = parseHtml(res.text);
    const nif = doc.querySelector('input[name=cargador_nif]');
    expect(nif?.getAttribute('value')).toBe('A46123456');
    const aviso = doc.getElementById(nif?.getAttribute('aria-describedby') ?? '');
    expect(aviso?.getAttribute('data-aviso')).toBe('cargador_nif');
    expect(aviso?.textContent).toContain('Revise el NIF A46123456: el dígito de control no corresponde (debería ser 1)');
    expect(doc.querySelectorAll('.aviso-campo')).toHaveLength(1);
    expect(doc.querySelector('.avisos')?.textContent).toContain('Cargador: NIF');
    const confirmar = doc.querySelector('input[type=hidden][name=avisos_confirmados]')?.getAttribute('value') ?? '';
    expect(confirmar).not.toBe('');
    expect(doc.querySelector('button[name=accion][value=enviar]')?.textContent).toBe('Emitir de todos modos');
    expect((await estado({ app, c }, deca.id)).estado).toBe('pendiente');
    // Kept as a draft: the person can come back to it.
    expect(
      parseHtml((await post({ app, c }, url, { accion: 'abrir' })).text)
        .querySelector('input[name=cargador_nif]')
        ?.getAttribute('value'),
    ).toBe('A46123456');

    // A confirmation covers the warnings it was shown: another wrong NIF is asked about again.
    const otro = await post({ app, c }, url, { ...VALIDO, cargador_nif: 'A46123457', avisos_confirmados: confirmar, accion: 'enviar' });
    expect(otro.status).toBe(422);
    expect(parseHtml(otro.text).querySelector('.aviso-campo')?.textContent).toContain('A46123457');
    expect((await estado({ app, c }, deca.id)).estado).toBe('pendiente');

    const emitida = await post({ app, c }, url, { ...VALIDO, cargador_nif: 'A46123456', avisos_confirmados: confirmar, accion: 'enviar' });
    expect(emitida.status, emitida.text).toBe(200);
    expect(emitida.text).toContain('emitida');
    expect(await estado({ app, c }, deca.id)).toMatchObject({ estado: 'emitido', cargador_nif: 'A46123456' });
  });

  it('warns at the field of an implausible load and of a plate of no known series, as the app does', async ({ app, c }) => {
    const deca = await pendiente({ app, c });
    const res = await post({ app, c }, deca.urls.completar ?? '', { ...VALIDO, 'envios[0].peso': '24.500', 'envios[0].unidad': 't', accion: 'enviar' });
    expect(res.status).toBe(422);
    const peso = parseHtml(res.text).querySelector('[data-aviso="envios[0].peso"]')?.textContent ?? '';
    expect(peso).toContain('es más de lo que lleva un vehículo por carretera');
    expect(peso).toContain('Cambie la unidad a «kg»');
    expect((await estado({ app, c }, deca.id)).estado).toBe('pendiente');

    const delCargador = await pendienteDelCargador({ app, c });
    const matricula = await post({ app, c }, delCargador.urls.completar ?? '', { ...TRANSPORTISTA, matricula: '1234 BCA', accion: 'enviar' });
    expect(matricula.status).toBe(422);
    const m = parseHtml(matricula.text);
    expect(m.querySelector('[data-aviso=matricula]')?.textContent).toContain('Revise la matrícula 1234BCA');
    expect(m.querySelector('input[name=matricula]')?.getAttribute('aria-describedby')).toBe('f-matricula-a');
    expect((await estado({ app, c }, delCargador.id)).estado).toBe('pendiente');
  });

  it('names what the other party set, old → new, in the history and in deca.completado', async ({ app, c }) => {
    const deca = await pendiente({ app, c });
    const res = await post({ app, c }, deca.urls.completar ?? '', { ...VALIDO, cargador_nif: 'A46123456', accion: 'enviar' });
    const confirmar = parseHtml(res.text).querySelector('input[name=avisos_confirmados]')?.getAttribute('value') ?? '';
    const ok = await post({ app, c }, deca.urls.completar ?? '', { ...VALIDO, cargador_nif: 'A46123456', avisos_confirmados: confirmar, accion: 'enviar' });
    expect(ok.status, ok.text).toBe(200);

    const cambios = (await app.request('GET', `/api/v1/decas/${deca.id}/cambios`, { key: c.live })).body.cambios as Cambio[];
    const puestos = cambios.find((x) => x.tipo === 'modificacion' && x.autor.tipo === 'enlace');
    expect(puestos?.campos).toEqual(
      expect.arrayContaining([
        { campo: 'cargador_nombre', antes: null, despues: 'Frutas Peñalara, S.A.' },
        { campo: 'cargador_nif', antes: null, despues: 'A46123456' },
        { campo: 'cargador_domicilio', antes: null, despues: 'Camí Vell 3, 25001 Lleida' },
      ]),
    );
    expect(puestos?.campos.map((x) => x.campo).filter((x) => x.startsWith('transp_') || x === 'matricula')).toEqual([]);
    expect(cambios.some((x) => x.tipo === 'completado')).toBe(true);
    const eventos = await app.database.db.selectFrom('eventos').select(['evento', 'data']).where('deca_id', '=', deca.id).orderBy('id').execute();
    expect(eventos.map((e) => e.evento)).toEqual(['deca.creado', 'deca.completado', 'deca.emitido']);
    expect(JSON.stringify(eventos[1]?.data)).toContain('A46123456');
  });
});
