/**
 * An address book an office can keep clean, over HTTP on the real database
 * (PGlite and PostgreSQL): every field of an entry changed (its NIF too),
 * entries deleted and merged (uses added up, the other one gone), with the
 * Idempotency-Key of every change; a company learnt from a DeCA with a NIF
 * whose check character is wrong is marked and never suggested until fixed;
 * a read-only key and another account are refused; a merge racing an edit
 * or another merge of the same entries always leaves exactly one.
 */
import { describe, expect } from 'vitest';
import { AgendaEmpresa, AgendaList } from '../../shared/schemas/agenda';
import { decaCompleta } from '../support/decas';
import { type Fx, it } from '../support/fixtures';

/** «Cítricos La Ribera SL»: its NIF, and the one a CSV row had with a wrong check character (B96712341, «debería ser 4»). */
const BUENO = 'B96712344';
const MALO = 'B96712341';

const empresas = async ({ app, c }: Fx, q = '', conAvisos = false, key = c.live) => {
  const res = await app.request('GET', `/api/v1/agenda/empresas?q=${encodeURIComponent(q)}${conAvisos ? '&con_avisos=1' : ''}`, { key });
  expect(res.status, res.text).toBe(200);
  return AgendaList.parse(res.body).entradas.map((e) => AgendaEmpresa.parse(e));
};

/** The NIFs MCP's buscar_agenda (the same command as the REST search) gives for `q`. */
async function porMcp({ app, c }: Fx, q: string, conAvisos = false): Promise<string[]> {
  const res = await fetch(`${app.url}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${c.live}` },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'buscar_agenda', arguments: { tipo: 'empresas', q, ...(conAvisos ? { con_avisos: '1' } : {}) } } }),
  });
  expect(res.status).toBe(200);
  const r = (await res.json()) as { result: { isError?: boolean; structuredContent: { entradas: { nif: string }[] } } };
  expect(r.result.isError, JSON.stringify(r)).toBeFalsy();
  return r.result.structuredContent.entradas.map((e) => e.nif);
}

/** One DeCA per NIF given, each with «Cítricos La Ribera SL» as shipper: the book learns it from each. */
async function aprender({ app, c }: Fx, ...nifs: string[]): Promise<void> {
  for (const nif of nifs) {
    const res = await app.request('POST', '/api/v1/decas', { key: c.live, body: decaCompleta({ cargador_nombre: 'Cítricos La Ribera SL', cargador_nif: nif }) });
    expect(res.status, res.text).toBe(201);
  }
}

/** The two entries of the company, the right one and the wrong one. */
async function lasDos(fx: Fx): Promise<{ buena: AgendaEmpresa; mala: AgendaEmpresa }> {
  const todas = await empresas(fx, 'ribera', true);
  return { buena: todas.find((e) => e.nif === BUENO)!, mala: todas.find((e) => e.nif === MALO)! };
}

describe('agenda: edit, delete, merge', () => {
  it('a NIF learnt from a DeCA with a wrong check character is marked and not suggested; fixed, it is again', async ({ app, cuentaNueva: c }) => {
    const fx = { app, c } as Fx;
    const res = await app.request('POST', '/api/v1/decas', { key: c.live, body: decaCompleta({ cargador_nombre: 'Cítricos La Ribera SL', cargador_nif: MALO }) });
    expect(res.status, res.text).toBe(201);
    // The DeCA itself carried the warning, and the book learnt the entry with it.
    expect(res.body.avisos.map((a: { codigo: string }) => a.codigo)).toContain('nif_dudoso');
    expect(await empresas(fx, 'ribera')).toEqual([]);
    const [marcada] = await empresas(fx, 'ribera', true);
    expect(marcada).toMatchObject({ nif: MALO, usos: 1, avisos: [{ campo: 'nif', codigo: 'nif_dudoso', mensaje: `Revise el NIF ${MALO}: el dígito de control no corresponde (debería ser 4).` }] });
    // An assistant searching through MCP is not offered it either.
    expect(await porMcp(fx, 'ribera')).toEqual([]);
    expect(await porMcp(fx, 'ribera', true)).toEqual([MALO]);
    // The other party, with a right NIF, is suggested as ever.
    expect((await empresas(fx, 'nunez')).map((e) => e.avisos)).toEqual([[]]);

    // Its address fixed without touching the NIF: still marked, still not suggested.
    const domicilio = await app.request('PATCH', `/api/v1/agenda/empresas/${marcada!.id}`, { key: c.live, body: { domicilio: 'Pol. Ind. El Romaní, Sueca' } });
    expect(domicilio.status, domicilio.text).toBe(200);
    expect(AgendaEmpresa.parse(domicilio.body.entrada)).toMatchObject({ nif: MALO, domicilio: 'Pol. Ind. El Romaní, Sueca', avisos: [{ codigo: 'nif_dudoso' }] });
    expect(await empresas(fx, 'ribera')).toEqual([]);

    // The NIF fixed (as people type it): no longer marked, suggested again, same entry, same uses.
    const arreglada = await app.request('PATCH', `/api/v1/agenda/empresas/${marcada!.id}`, { key: c.live, body: { nif: 'b-9671 2344' } });
    expect(arreglada.status, arreglada.text).toBe(200);
    expect(AgendaEmpresa.parse(arreglada.body.entrada)).toMatchObject({ id: marcada!.id, nif: BUENO, usos: 1, avisos: [] });
    expect((await empresas(fx, 'ribera')).map((e) => [e.id, e.nif])).toEqual([[marcada!.id, BUENO]]);
    expect(await porMcp(fx, 'ribera')).toEqual([BUENO]);
    // A later DeCA with the right NIF counts on the fixed entry; one with the wrong NIF again is learnt marked, apart.
    await aprender(fx, BUENO, MALO);
    expect((await empresas(fx, 'ribera')).map((e) => [e.nif, e.usos])).toEqual([[BUENO, 2]]);
    expect((await empresas(fx, 'ribera', true)).map((e) => [e.nif, e.usos, e.avisos.length])).toEqual([
      [BUENO, 2, 0],
      [MALO, 1, 1],
    ]);
  });

  it('a wrong NIF learnt from a CSV import is marked the same way', async ({ app, cuentaNueva: c }) => {
    const csv = [
      'ref_externa;referencia;fecha_transporte;cargador;cargador_nif;cargador_domicilio;transportista;transportista_nif;origen;destino;mercancia;peso;unidad;tipo_vehiculo;matricula;remolque;autorizacion_especial;conductor;conductor_tel;observaciones',
      `CSV-RIBERA-1;;23/11/2026;Cítricos La Ribera SL;${MALO};Sueca;Transportes Núñez, S.L.;B12345674;Sueca;Bilbao;Naranjas;18.000;kg;;1234 BCD;;;José Muñoz;;`,
    ].join('\n');
    const res = await app.request('POST', '/api/v1/importar', { key: c.live, body: csv, headers: { 'content-type': 'text/csv' } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.decas.map((d: { resultado: string }) => d.resultado)).toEqual(['creada']);
    const fx = { app, c } as Fx;
    expect(await empresas(fx, 'ribera')).toEqual([]);
    expect((await empresas(fx, 'ribera', true)).map((e) => [e.nif, e.avisos.map((a) => a.codigo)])).toEqual([[MALO, ['nif_dudoso']]]);
  });

  it('changes every field, refuses a key another entry has, deletes, and merges adding the uses', async ({ app, cuentaNueva: c }) => {
    const fx = { app, c } as Fx;
    await aprender(fx, MALO, MALO, MALO, BUENO);
    const { buena, mala } = await lasDos(fx);
    expect([buena.usos, mala.usos]).toEqual([1, 3]);

    // Every field of a company; null clears an optional one.
    const cambio = await app.request('PATCH', `/api/v1/agenda/empresas/${buena.id}`, {
      key: c.live,
      body: { nombre: 'Cítricos La Ribera, S.L.', domicilio: null, lado: 'ambos' },
    });
    expect(cambio.status, cambio.text).toBe(200);
    expect(cambio.body.entrada).toMatchObject({ id: buena.id, nombre: 'Cítricos La Ribera, S.L.', nif: BUENO, domicilio: null, lado: 'ambos', usos: 1 });
    // The wrong entry cannot take the right NIF: that would be two of one; merge them.
    const repetida = await app.request('PATCH', `/api/v1/agenda/empresas/${mala.id}`, { key: c.live, body: { nif: BUENO } });
    expect(repetida.status).toBe(422);
    expect(repetida.body.error.campos.nif).toMatch(/fusiónelas/);
    // A NIF of no known format is refused as on POST.
    const formato = await app.request('PATCH', `/api/v1/agenda/empresas/${mala.id}`, { key: c.live, body: { nif: '12345' } });
    expect(formato.status).toBe(422);
    expect(formato.body.error.campos.nif).toMatch(/NIF no válido/);

    // Merge: the right one stays with its data, the wrong one goes, the uses add up. A repeat with the same key answers the same.
    const clave = { 'Idempotency-Key': 'fusion-ribera-1' };
    const fusion = await app.request('POST', `/api/v1/agenda/empresas/${buena.id}/fusionar`, { key: c.live, headers: clave, body: { otra: mala.id } });
    expect(fusion.status, fusion.text).toBe(200);
    expect(AgendaEmpresa.parse(fusion.body.entrada)).toMatchObject({ id: buena.id, nombre: 'Cítricos La Ribera, S.L.', nif: BUENO, usos: 4, avisos: [] });
    const otraVez = await app.request('POST', `/api/v1/agenda/empresas/${buena.id}/fusionar`, { key: c.live, headers: clave, body: { otra: mala.id } });
    expect(otraVez.status).toBe(200);
    expect(otraVez.headers.get('idempotent-replayed')).toBe('true');
    expect(otraVez.body).toEqual(fusion.body);
    expect((await empresas(fx, 'ribera', true)).map((e) => [e.id, e.nif, e.usos])).toEqual([[buena.id, BUENO, 4]]);
    expect((await app.request('PATCH', `/api/v1/agenda/empresas/${mala.id}`, { key: c.live, body: { nombre: 'X' } })).status).toBe(404);
    // Without the key, merging what is gone is a 404 naming `otra`; an entry with itself, a 422.
    const ida = await app.request('POST', `/api/v1/agenda/empresas/${buena.id}/fusionar`, { key: c.live, body: { otra: mala.id } });
    expect(ida.status).toBe(404);
    expect(ida.body.error.campos).toHaveProperty('otra');
    expect((await app.request('POST', `/api/v1/agenda/empresas/${buena.id}/fusionar`, { key: c.live, body: { otra: buena.id } })).status).toBe(422);

    // A vehicle and a place: every field, the key included (normalised as on POST).
    const [vehiculo] = AgendaList.parse((await app.request('GET', '/api/v1/agenda/vehiculos', { key: c.live })).body).entradas as { id: number }[];
    const v = await app.request('PATCH', `/api/v1/agenda/vehiculos/${vehiculo!.id}`, {
      key: c.live,
      body: { matricula: '5678 cdf', matricula_remolque: 'r-1234-bbb', tipo_vehiculo: 'articulado', conductor_nombre: 'Ana Gil', conductor_tel: '' },
    });
    expect(v.status, v.text).toBe(200);
    expect(v.body.entrada).toMatchObject({ matricula: '5678CDF', matricula_remolque: 'R1234BBB', tipo_vehiculo: 'articulado', conductor_nombre: 'Ana Gil', conductor_tel: null, usos: 4 });
    // "" clears a plate or a kind as null does; a plate that is none is refused.
    const sinRemolque = await app.request('PATCH', `/api/v1/agenda/vehiculos/${vehiculo!.id}`, { key: c.live, body: { matricula_remolque: '', tipo_vehiculo: null } });
    expect(sinRemolque.status, sinRemolque.text).toBe(200);
    expect(sinRemolque.body.entrada).toMatchObject({ matricula: '5678CDF', matricula_remolque: null, tipo_vehiculo: null, conductor_nombre: 'Ana Gil' });
    const placa = await app.request('PATCH', `/api/v1/agenda/vehiculos/${vehiculo!.id}`, { key: c.live, body: { matricula_remolque: 'HOLA' } });
    expect(placa.status).toBe(422);
    expect(placa.body.error.campos.matricula_remolque).toMatch(/Matrícula no válida/);
    const lugar = (AgendaList.parse((await app.request('GET', '/api/v1/agenda/lugares?q=malaga', { key: c.live })).body).entradas as { id: number }[])[0]!;
    const l = await app.request('PATCH', `/api/v1/agenda/lugares/${lugar.id}`, { key: c.live, body: { texto: 'Mercamálaga, Málaga' } });
    expect(l.body.entrada).toMatchObject({ texto: 'Mercamálaga, Málaga', usos: 4 });

    // Delete: gone, and a second delete finds nothing; a kind's id is not another kind's.
    expect((await app.request('DELETE', `/api/v1/agenda/vehiculos/${lugar.id}`, { key: c.live })).status).toBe(404);
    const borrada = await app.request('DELETE', `/api/v1/agenda/lugares/${lugar.id}`, { key: c.live });
    expect(borrada.status, borrada.text).toBe(200);
    expect(borrada.body).toEqual({ eliminada: true, id: lugar.id });
    expect((await app.request('GET', '/api/v1/agenda/lugares?q=mercamalaga', { key: c.live })).body.entradas).toEqual([]);
    expect((await app.request('DELETE', `/api/v1/agenda/lugares/${lugar.id}`, { key: c.live })).status).toBe(404);
    expect((await app.request('DELETE', '/api/v1/agenda/lugares/abc', { key: c.live })).status).toBe(404);
  });

  it('a read-only key cannot change, delete or merge; another account’s entries are not found', async ({ app, cuentaNueva: c, c: otra }) => {
    const fx = { app, c } as Fx;
    await aprender(fx, BUENO, MALO);
    const { buena, mala } = await lasDos(fx);
    for (const [metodo, ruta, body] of [
      ['PATCH', `/api/v1/agenda/empresas/${buena.id}`, { nombre: 'Otro' }],
      ['DELETE', `/api/v1/agenda/empresas/${mala.id}`, undefined],
      ['POST', `/api/v1/agenda/empresas/${buena.id}/fusionar`, { otra: mala.id }],
    ] as const) {
      const solo = await app.request(metodo, ruta, { key: c.liveReadOnly, ...(body ? { body } : {}) });
      expect(solo.status, `${metodo} ${ruta}`).toBe(403);
      expect(solo.body.error.codigo).toBe('solo_lectura');
      // Another account's key: the entry does not exist for it (and its test environment is another book).
      expect((await app.request(metodo, ruta, { key: otra.live, ...(body ? { body } : {}) })).status, `${metodo} ${ruta}`).toBe(404);
      expect((await app.request(metodo, ruta.replace('/api/v1', '/demo/api/v1'), { key: c.test, ...(body ? { body } : {}) })).status).toBe(404);
    }
    // Merging in an entry of another account: not found either, and nothing moved.
    const suya = await app.request('POST', '/api/v1/agenda/lugares', { key: otra.live, body: { texto: 'Muelle ajeno' } });
    const ajena = await app.request('POST', `/api/v1/agenda/empresas/${buena.id}/fusionar`, { key: c.live, body: { otra: suya.body.entrada.id } });
    expect(ajena.status).toBe(404);
    expect((await empresas(fx, 'ribera', true)).map((e) => `${e.nif} ${e.usos}`).sort()).toEqual([`${MALO} 1`, `${BUENO} 1`]);
    expect((await empresas({ app, c: otra } as Fx, 'ribera', true)).length).toBe(0);
  });

  it('a merge racing an edit, or the opposite merge, of the same entries always leaves exactly one', async ({ app, cuentaNueva: c }) => {
    const fx = { app, c } as Fx;
    for (let ronda = 0; ronda < 6; ronda++) {
      await aprender(fx, BUENO, MALO, MALO);
      const { buena, mala } = await lasDos(fx);
      const usos = buena.usos + mala.usos;
      const carrera =
        ronda % 2 === 0
          ? [
              app.request('POST', `/api/v1/agenda/empresas/${buena.id}/fusionar`, { key: c.live, body: { otra: mala.id } }),
              app.request('PATCH', `/api/v1/agenda/empresas/${mala.id}`, { key: c.live, body: { nombre: `Cítricos La Ribera (ronda ${ronda})`, domicilio: 'Sueca' } }),
            ]
          : [
              app.request('POST', `/api/v1/agenda/empresas/${buena.id}/fusionar`, { key: c.live, body: { otra: mala.id } }),
              app.request('POST', `/api/v1/agenda/empresas/${mala.id}/fusionar`, { key: c.live, body: { otra: buena.id } }),
            ];
      const estados = (await Promise.all(carrera)).map((r) => r.status);
      if (ronda % 2 === 0) {
        // An edit first is merged after it; a merge first leaves the edit nothing to find.
        expect(estados[0]).toBe(200);
        expect([200, 404]).toContain(estados[1]);
      } else {
        // Two opposite merges: the first wins, the second finds the other entry gone.
        expect(estados.sort()).toEqual([200, 404]);
      }
      const quedan = await empresas(fx, 'ribera', true);
      expect(quedan, `ronda ${ronda}: ${estados}`).toHaveLength(1);
      expect(quedan[0]!.usos).toBe(usos);
      // Next round starts from two entries again: the one left goes.
      expect((await app.request('DELETE', `/api/v1/agenda/empresas/${quedan[0]!.id}`, { key: c.live })).status).toBe(200);
    }
  });
});
