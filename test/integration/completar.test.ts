import { parse as parseHtml } from 'node-html-parser';
import { describe, expect } from 'vitest';
import { DecaCreada, type Deca } from '../../shared/schemas/deca';
import { it, test, type Fx } from '../support/fixtures';

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
    expect(names).toEqual(expect.arrayContaining(['cargador_nombre', 'cargador_nif', 'cargador_domicilio', 'transp_nombre', 'transp_nif', 'envios[0].origen', 'envios[0].peso', 'observaciones']));
    expect(names).not.toContain('matricula');
    expect(names).not.toContain('fecha_transporte');
    expect(names).not.toContain('conductor_nombre');
    // The carrier's data, shown read-only.
    expect(doc.querySelector('.ro')?.textContent).toContain('1234BCD');
    expect(doc.querySelector('.ro')?.textContent).toContain('Luis Pérez');
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

  it('a valid submit issues the DeCA (completado + emitido), ignores fields of the other side, and a second submit is refused', async ({ app, c }) => {
    const deca = await pendiente({ app, c });
    const res = await post({ app, c }, deca.urls.completar ?? '', { ...VALIDO, matricula: 'HACK', accion: 'enviar' });
    expect(res.status, res.text).toBe(200);
    expect(res.text).toContain('emitida');
    const emitida = await estado({ app, c }, deca.id);
    expect(emitida.estado).toBe('emitido');
    expect(emitida).toMatchObject({ cargador_nombre: 'Frutas Peñalara, S.A.', cargador_nif: 'A58818501', matricula: '1234BCD', transp_nombre: 'Transportes Núñez, S.L.' });
    expect(emitida.envios).toEqual([{ origen: 'Lleida', destino: 'Málaga', naturaleza: 'Fruta', peso: 24500, unidad: 'kg', nota: null }]);
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
