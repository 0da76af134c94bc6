/**
 * The DeCA fields an eFTI dataset (subset ES01) asks for and the DeCA did not
 * hold: each party's address in parts, the plates' countries, a consignee per
 * shipment. Through every door that takes DeCA data: create, PATCH,
 * replacement, the list, the CSV import and export; with the same Spanish
 * errors and warnings everywhere.
 */
import { parse } from 'csv-parse/sync';
import { describe, expect } from 'vitest';
import { ErrorBody } from '../../shared/errors';
import { COLUMNAS_EXPORTACION } from '../../shared/rules/csv-deca';
import { type Deca, DecaCreada, DecaRespuesta, DecaValidada } from '../../shared/schemas/deca';
import { Importacion } from '../../shared/schemas/importar';
import { CABECERA, filaCsv } from '../support/csv';
import { decaCompleta } from '../support/decas';
import { type Fx, it } from '../support/fixtures';

const API = '/api/v1';

const EFTI = {
  cargador_cp: '25001',
  cargador_municipio: 'Lleida',
  cargador_provincia: 'Lleida',
  transp_cp: '50012',
  transp_municipio: 'Zaragoza',
  transp_provincia: 'Zaragoza',
  transp_pais: 'es',
  matricula_pais: 'ES',
};

async function importar({ app, c }: Fx, cuerpo: string) {
  const res = await fetch(`${app.url}${API}/importar`, { method: 'POST', headers: { authorization: `Bearer ${c.live}`, 'content-type': 'text/csv' }, body: cuerpo });
  const texto = await res.text();
  expect(res.status, texto).toBe(200);
  return Importacion.parse(JSON.parse(texto));
}

async function exportar({ app, c }: Fx, q: string): Promise<{ cabecera: string; texto: string; filas: Record<string, string>[] }> {
  const res = await fetch(`${app.url}${API}/decas.csv?${q}`, { headers: { authorization: `Bearer ${c.live}` } });
  expect(res.status).toBe(200);
  const texto = (await res.text()).replace(/^\uFEFF/, '');
  return { cabecera: texto.split('\r\n')[0]!, texto, filas: parse(texto, { delimiter: ';', columns: true }) as Record<string, string>[] };
}

describe('the eFTI fields of a DeCA', () => {
  it('create keeps them (countries in upper case, the consignee per shipment), GET and the list show them; a DeCA without them has them null', async ({ app, c }) => {
    const body = decaCompleta({
      ref_externa: 'EFTI-1',
      ...EFTI,
      matricula_remolque: 'R1234BCD',
      remolque_pais: 'es',
      envios: [
        { origen: 'Lleida', destino: 'Málaga', naturaleza: 'Fruta', peso: 100, destinatario_nombre: 'Mercamálaga, S.A.', destinatario_nif: 'a-29000007' },
        { origen: 'Lleida', destino: 'Jaén', naturaleza: 'Peras', peso: 50 },
      ],
    });
    const r = await app.request('POST', `${API}/decas`, { key: c.live, body });
    expect(r.status, r.text).toBe(201);
    const { deca, avisos } = DecaCreada.parse(r.body);
    expect(avisos).toEqual([]);
    expect(deca).toMatchObject({ ...EFTI, transp_pais: 'ES', remolque_pais: 'ES', cargador_pais: null });
    expect(deca.envios.map((e) => [e.destinatario_nombre, e.destinatario_nif])).toEqual([
      ['Mercamálaga, S.A.', 'A29000007'],
      [null, null],
    ]);
    const leida = DecaRespuesta.parse((await app.request('GET', `${API}/decas/${deca.id}`, { key: c.live })).body).deca;
    expect(leida).toEqual({ ...deca, descargas: leida.descargas });
    const lista = (await app.request('GET', `${API}/decas?ref_externa=EFTI-1`, { key: c.live })).body.decas as Deca[];
    expect(lista[0]).toMatchObject({ cargador_cp: '25001', matricula_pais: 'ES' });

    const sin = DecaCreada.parse((await app.request('POST', `${API}/decas`, { key: c.live, body: decaCompleta({ ref_externa: 'EFTI-0' }) })).body).deca;
    expect(sin).toMatchObject({ cargador_cp: null, cargador_municipio: null, cargador_provincia: null, cargador_pais: null, transp_pais: null, matricula_pais: null, remolque_pais: null });
    expect(sin.envios[0]).toMatchObject({ destinatario_nombre: null, destinatario_nif: null });
  });

  it('refuses unknown countries and non-Spanish postcodes for Spain, by field, in Spanish; with solo_validar too', async ({ app, c }) => {
    const r = await app.request('POST', `${API}/decas`, {
      key: c.live,
      body: decaCompleta({
        matricula_pais: 'UK',
        remolque_pais: 'XX',
        cargador_cp: '75001',
        transp_cp: '2800',
        transp_pais: 'ES',
        envios: [{ origen: 'A', destino: 'B', naturaleza: 'C', peso: 1, destinatario_nif: 'x'.repeat(21) }],
      }),
    });
    expect(r.status).toBe(422);
    const campos = ErrorBody.parse(r.body).error.campos;
    expect(campos).toMatchObject({
      matricula_pais: 'País no válido: «UK» no es un código ISO 3166-1; ¿quería decir GB (Reino Unido)?',
      remolque_pais: 'País no admitido: «XX» no está en la lista de códigos ISO que se aceptan (ES, PT, FR, DE, IT… y el resto de Europa)',
      'envios[0].destinatario_nif': 'Máximo 20 caracteres',
    });
    // The postcodes are judged with their countries once every field is valid.
    const cp = await app.request('POST', `${API}/decas`, { key: c.live, body: decaCompleta({ cargador_cp: '75001', transp_cp: '2800', transp_pais: 'ES' }) });
    expect(cp.status).toBe(422);
    expect(ErrorBody.parse(cp.body).error.campos).toEqual({
      cargador_cp: 'Código postal español no válido: empieza por 75 y las provincias van de 01 a 52',
      transp_cp: 'Código postal español no válido: son 5 cifras (p. ej. 28001). Si la dirección no está en España, indique también «transp_pais»',
    });
    const francesa = await app.request('POST', `${API}/decas`, { key: c.live, body: { ...decaCompleta({ cargador_cp: '75001', cargador_pais: 'FR' }), solo_validar: true } });
    expect(francesa.status, francesa.text).toBe(200);
    expect(DecaValidada.parse(francesa.body)).toMatchObject({ valida: true, datos: { cargador_cp: '75001', cargador_pais: 'FR' } });
  });

  it('warns (never refuses) a Spanish plate said to be foreign, and a consignee NIF whose check character fails', async ({ app, c }) => {
    const r = await app.request('POST', `${API}/decas`, {
      key: c.live,
      body: decaCompleta({ matricula_pais: 'PT', envios: [{ origen: 'A', destino: 'B', naturaleza: 'C', peso: 1, destinatario_nombre: 'D', destinatario_nif: 'B12345678' }] }),
    });
    expect(r.status, r.text).toBe(201);
    const { avisos, deca } = DecaCreada.parse(r.body);
    expect(deca.estado).toBe('emitido');
    expect(avisos).toEqual([
      { campo: 'matricula_pais', codigo: 'pais_matricula_dudoso', mensaje: 'La matrícula 1234BCD es de una serie española, pero el país indicado es PT (Portugal): revise el país.' },
      { campo: 'envios[0].destinatario_nif', codigo: 'nif_dudoso', mensaje: 'Revise el NIF B12345678: el dígito de control no corresponde (debería ser 4).' },
    ]);
    // A foreign plate said foreign: no «not a Spanish series» warning.
    const extranjera = DecaCreada.parse((await app.request('POST', `${API}/decas`, { key: c.live, body: decaCompleta({ matricula: 'AB-123-CD', matricula_pais: 'FR' }) })).body);
    expect(extranjera.avisos).toEqual([]);
  });

  it('PATCH and replacement change and clear them, recorded in the history; a postcode sent alone is judged Spanish', async ({ app, c }) => {
    const deca = DecaCreada.parse((await app.request('POST', `${API}/decas`, { key: c.live, body: decaCompleta({ ...EFTI, emitir: false }) })).body).deca;
    const p = await app.request('PATCH', `${API}/decas/${deca.id}`, {
      key: c.live,
      body: {
        transp_cp: '1000-001',
        transp_pais: 'PT',
        transp_municipio: 'Lisboa',
        transp_provincia: null,
        matricula_pais: '',
        envios: [{ origen: 'A', destino: 'B', naturaleza: 'C', peso: 1, destinatario_nombre: 'Destino, S.L.' }],
      },
    });
    expect(p.status, p.text).toBe(200);
    const cambiada = DecaRespuesta.parse(p.body).deca;
    expect(cambiada).toMatchObject({ transp_cp: '1000-001', transp_pais: 'PT', transp_municipio: 'Lisboa', transp_provincia: null, matricula_pais: null, cargador_cp: '25001' });
    expect(cambiada.envios[0]).toMatchObject({ destinatario_nombre: 'Destino, S.L.', destinatario_nif: null });

    const solo = await app.request('PATCH', `${API}/decas/${deca.id}`, { key: c.live, body: { transp_cp: '1100-148' } });
    expect(solo.status).toBe(422);
    expect(ErrorBody.parse(solo.body).error.campos.transp_cp).toMatch(/^Código postal español no válido: son 5 cifras.*«transp_pais»$/);

    const emitida = DecaRespuesta.parse((await app.request('POST', `${API}/decas/${deca.id}/emitir`, { key: c.live, body: {} })).body).deca;
    const m = await app.request('PATCH', `${API}/decas/${emitida.id}`, {
      key: c.live,
      body: { motivo: 'Dirección completa', cargador_pais: 'ES', remolque_pais: 'FR', matricula_remolque: 'CD-456-EF' },
    });
    expect(m.status, m.text).toBe(200);
    expect(DecaRespuesta.parse(m.body).deca).toMatchObject({ version: 2, cargador_pais: 'ES', remolque_pais: 'FR', matricula_remolque: 'CD456EF' });
    const cambios = (await app.request('GET', `${API}/decas/${deca.id}/cambios`, { key: c.live })).body.cambios as { version: number; campos: { campo: string; antes: unknown; despues: unknown }[] }[];
    expect(cambios.find((x) => x.version === 2)?.campos).toEqual(
      expect.arrayContaining([
        { campo: 'cargador_pais', antes: null, despues: 'ES' },
        { campo: 'remolque_pais', antes: null, despues: 'FR' },
      ]),
    );
    const s = await app.request('POST', `${API}/decas/${deca.id}/sustituir`, {
      key: c.live,
      body: { motivo: 'Otro destinatario', envios: [{ origen: 'A', destino: 'B', naturaleza: 'C', peso: 1, destinatario_nif: 'B12345674' }] },
    });
    expect(s.status, s.text).toBe(200);
    const nueva = DecaRespuesta.parse(s.body).deca;
    // The replacement keeps every eFTI field it was not sent.
    expect(nueva).toMatchObject({ cargador_cp: '25001', transp_pais: 'PT', remolque_pais: 'FR' });
    expect(nueva.envios[0]).toMatchObject({ destinatario_nombre: null, destinatario_nif: 'B12345674' });
  });

  it('CSV: the export writes the eFTI columns, the import reads them back; a file without them, or with the old layout, still imports', async ({ app, c, cuentaNueva: otra }) => {
    const fx = { app, c } as Fx;
    const r = await app.request('POST', `${API}/decas`, {
      key: c.live,
      body: decaCompleta({
        ref_externa: 'CSV-EFTI',
        ...EFTI,
        matricula_remolque: 'CD-456-EF',
        remolque_pais: 'FR',
        envios: [
          { origen: 'Lleida', destino: 'Málaga', naturaleza: 'Fruta', peso: 100, destinatario_nombre: 'Mercamálaga, S.A.', destinatario_nif: 'A29000007' },
          { origen: 'Lleida', destino: 'Jaén', naturaleza: 'Peras', peso: 50, destinatario_nombre: 'Frutas Jaén' },
        ],
      }),
    });
    expect(r.status, r.text).toBe(201);
    const original = DecaCreada.parse(r.body).deca;
    const { cabecera, filas, texto } = await exportar(fx, 'ref_externa=CSV-EFTI');
    expect(cabecera).toBe(COLUMNAS_EXPORTACION.join(';'));
    expect(cabecera).toContain(
      ';nota;cargador_cp;cargador_municipio;cargador_provincia;cargador_pais;transportista_cp;transportista_municipio;transportista_provincia;transportista_pais;matricula_pais;remolque_pais;destinatario;destinatario_nif;numero;',
    );
    expect(filas.map((f) => [f.cargador_cp, f.transportista_pais, f.remolque_pais, f.destinatario, f.destinatario_nif])).toEqual([
      ['25001', 'ES', 'FR', 'Mercamálaga, S.A.', 'A29000007'],
      ['25001', 'ES', 'FR', 'Frutas Jaén', ''],
    ]);

    // Round trip into another account: the same data.
    const imp = await importar({ app, c: otra } as Fx, texto.replaceAll('CSV-EFTI', 'CSV-EFTI-2'));
    expect(imp.decas[0], JSON.stringify(imp)).toMatchObject({ resultado: 'creada' });
    const copia = DecaRespuesta.parse((await app.request('GET', `${API}/decas/${imp.decas[0]!.id}`, { key: otra.live })).body).deca;
    for (const k of [
      'cargador_cp',
      'cargador_municipio',
      'cargador_provincia',
      'cargador_pais',
      'transp_cp',
      'transp_municipio',
      'transp_provincia',
      'transp_pais',
      'matricula_pais',
      'remolque_pais',
    ] as const) {
      expect(copia[k], k).toBe(original[k]);
    }
    expect(copia.envios).toEqual(original.envios);

    // The spec's columns only, and an export of before (reconciliation columns right after `nota`): both import.
    expect((await importar(fx, `${CABECERA}\n${filaCsv({ ref_externa: 'SOLO-SPEC' })}\n`)).decas[0]).toMatchObject({ resultado: 'creada' });
    const antigua = `${CABECERA};emisor_rol;transportista_domicilio;nota;numero;estado;version;emitido_at;fin_servicio_at\n${filaCsv({ ref_externa: 'ANTIGUA' })};;Zaragoza;ojo;2026-000001;emitido;1;;\n`;
    expect((await importar(fx, antigua)).decas[0]).toMatchObject({ resultado: 'creada' });

    // A wrong value in an eFTI column is named by its line and column, in Spanish.
    const mala = await fetch(`${app.url}${API}/importar?validar=1`, {
      method: 'POST',
      headers: { authorization: `Bearer ${c.live}`, 'content-type': 'text/csv' },
      body: `${CABECERA};matricula_pais;cargador_cp\n${filaCsv({ ref_externa: 'MALA' })};ZZ;7500\n`,
    });
    const cuerpo = JSON.parse(await mala.text());
    expect(JSON.stringify(cuerpo)).toContain('País no admitido: «ZZ»');
    // An unknown optional column is refused by name.
    const rara = await fetch(`${app.url}${API}/importar`, { method: 'POST', headers: { authorization: `Bearer ${c.live}`, 'content-type': 'text/csv' }, body: `${CABECERA};pais\n${filaCsv()};ES\n` });
    expect(rara.status).toBe(422);
    expect(ErrorBody.parse(await rara.json()).error.mensaje).toMatch(/^La cabecera no es la esperada: la columna 21 es «pais», que no es ninguna de las opcionales/);
  });

  it("the address book keeps a company's address parts: learnt from a DeCA, kept when a later DeCA lacks them, checked like the DeCA's", async ({ app, c }) => {
    // A shipper of its own (the file's other DeCAs teach the book about the usual one).
    const cargador = { cargador_nombre: 'Cítricos La Ribera SL', cargador_nif: 'B96712344' };
    const r = await app.request('POST', `${API}/decas`, { key: c.live, body: decaCompleta({ ref_externa: 'AG-1', ...EFTI, ...cargador }) });
    expect(r.status, r.text).toBe(201);
    await app.request('POST', `${API}/decas`, { key: c.live, body: decaCompleta({ ref_externa: 'AG-2', ...cargador }) });
    const lista = await app.request('GET', `${API}/agenda/empresas?q=B96712344`, { key: c.live });
    expect(lista.status, lista.text).toBe(200);
    expect(lista.body.entradas[0]).toMatchObject({ nif: 'B96712344', usos: 2, cp: '25001', municipio: 'Lleida', provincia: 'Lleida', pais: null });

    const mala = await app.request('POST', `${API}/agenda/empresas`, { key: c.live, body: { nombre: 'Transportes Lisboa', nif: 'B12345674', cp: '1000-001', pais: 'PX' } });
    expect(mala.status).toBe(422);
    expect(ErrorBody.parse(mala.body).error.campos).toEqual({ pais: expect.stringMatching(/^País no admitido: «PX»/) });
    const sinPais = await app.request('POST', `${API}/agenda/empresas`, { key: c.live, body: { nombre: 'Transportes Lisboa', nif: 'B12345674', cp: '1000-001' } });
    expect(ErrorBody.parse(sinPais.body).error.campos.cp).toMatch(/^Código postal español no válido: son 5 cifras.*«pais»$/);
    const ok = await app.request('POST', `${API}/agenda/empresas`, { key: c.live, body: { nombre: 'Transportes Lisboa', nif: 'B12345674', cp: '1000-001', pais: 'pt' } });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.entrada).toMatchObject({ cp: '1000-001', pais: 'PT', municipio: null });
    const cambio = await app.request('PATCH', `${API}/agenda/empresas/${ok.body.entrada.id}`, { key: c.live, body: { municipio: 'Lisboa', pais: null, cp: '28001' } });
    expect(cambio.status, cambio.text).toBe(200);
    expect(cambio.body.entrada).toMatchObject({ cp: '28001', pais: null, municipio: 'Lisboa' });
  });
});
