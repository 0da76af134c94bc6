import { describe, expect } from 'vitest';
import { CuentaResponse } from '../../shared/schemas/cuenta';
import { type DecaInput, DecaValidada } from '../../shared/schemas/deca';
import { decaCompleta } from '../support/decas';
import { API, contarDecas, crearDecaOk, expectApiError, leerDeca } from '../support/decas-helpers';
import { buildCuenta } from '../support/factories';
import { type Fx, it } from '../support/fixtures';

/** A complete DeCA input without the carrier's side (left for the account to fill). */
function sinTransportista(over: Partial<DecaInput> = {}): DecaInput {
  const { transp_nombre: _n, transp_nif: _f, transp_domicilio: _d, ...rest } = decaCompleta(over);
  return rest;
}

/** A complete DeCA input without the shipper's side. */
function sinCargador(over: Partial<DecaInput> = {}): DecaInput {
  const { cargador_nombre: _n, cargador_nif: _f, cargador_domicilio: _d, ...rest } = decaCompleta(over);
  return rest;
}

const crear = ({ app, c }: Fx, body: unknown, key = c.live) => app.request('POST', `${API}/decas`, { key, body });

async function usadasEsteMes({ app, c }: Fx, key: string): Promise<number> {
  const res = await app.request('GET', `${API}/cuenta`, { key });
  expect(res.status).toBe(200);
  return CuentaResponse.parse(res.body).cuenta.cuota.usadas;
}

describe('create: the caller side comes from the account', () => {
  it('transportista account: transp_nombre, transp_nif and transp_domicilio from the account when left empty', async ({ app, c }) => {
    const t = await buildCuenta(app, { rol: 'transportista', nombre: 'Autónomo Ruiz', nif: '12345678z', domicilio: 'Calle Olmo 4, 44001 Teruel' });
    const { deca, avisos } = await crearDecaOk(app, t.live, sinTransportista());
    expect(deca).toMatchObject({
      emisor_rol: 'transportista',
      transp_nombre: 'Autónomo Ruiz',
      transp_nif: '12345678Z',
      transp_domicilio: 'Calle Olmo 4, 44001 Teruel',
      // The other side is as sent.
      cargador_nombre: 'Frutas Peñalara, S.A.',
      cargador_nif: 'A58818501',
    });
    expect(avisos).toEqual([]);
  });

  it('cargador account: cargador_nombre, cargador_nif and cargador_domicilio from the account', async ({ app, c }) => {
    const k = await buildCuenta(app, { rol: 'cargador', nombre: 'Conservas Ría, S.A.', nif: 'A58818501', domicilio: 'Puerto 1, 36202 Vigo' });
    const { deca } = await crearDecaOk(app, k.live, sinCargador({ transp_nombre: 'Camiones Sur, S.L.' }));
    expect(deca).toMatchObject({
      emisor_rol: 'cargador',
      cargador_nombre: 'Conservas Ría, S.A.',
      cargador_nif: 'A58818501',
      cargador_domicilio: 'Puerto 1, 36202 Vigo',
      transp_nombre: 'Camiones Sur, S.L.',
      transp_nif: 'B12345674',
    });
  });

  it('emisor_rol cargador on a transportista account fills the shipper side, not the carrier side', async ({ app, c }) => {
    const t = await buildCuenta(app, { rol: 'transportista', nombre: 'Logística Mixta, S.L.', nif: '12345678Z', domicilio: 'Nave 9, 50197 Zaragoza' });
    const { transp_domicilio: _d, ...body } = sinCargador({ emisor_rol: 'cargador' });
    const { deca, avisos } = await crearDecaOk(app, t.live, body);
    expect(deca).toMatchObject({
      emisor_rol: 'cargador',
      cargador_nombre: 'Logística Mixta, S.L.',
      cargador_nif: '12345678Z',
      cargador_domicilio: 'Nave 9, 50197 Zaragoza',
      transp_nombre: 'Transportes Núñez, S.L.',
      transp_domicilio: null,
    });
    // The carrier's address is asked for by art. 6: missing, it is a warning, not an error.
    expect(avisos).toEqual([expect.objectContaining({ campo: 'transp_domicilio', codigo: 'falta_domicilio_transportista' })]);
  });

  it('explicit values win over the account', async ({ app, c }) => {
    const t = await buildCuenta(app, { rol: 'transportista', nombre: 'Cuenta Propia, S.L.', nif: '12345678Z', domicilio: 'Calle de la Cuenta 1' });
    const { deca } = await crearDecaOk(app, t.live, decaCompleta({ transp_nombre: 'Subcontrata, S.L.', transp_domicilio: 'Polígono 3, Huesca' }));
    expect(deca).toMatchObject({ transp_nombre: 'Subcontrata, S.L.', transp_nif: 'B12345674', transp_domicilio: 'Polígono 3, Huesca' });
  });
});

describe('create: data as people write it', () => {
  it('a trailer plate makes the vehicle articulado, even when rigido was sent (with an aviso); plates are normalised', async ({ app, c }) => {
    const { deca, avisos } = await crearDecaOk(app, c.live, decaCompleta({ matricula: '1234-bcd', matricula_remolque: 'r-1234-bcd', tipo_vehiculo: 'rigido' }));
    expect(deca).toMatchObject({ tipo_vehiculo: 'articulado', matricula: '1234BCD', matricula_remolque: 'R1234BCD' });
    expect(avisos).toEqual([expect.objectContaining({ campo: 'tipo_vehiculo', codigo: 'vehiculo_articulado' })]);
    const sinTipo = await crearDecaOk(app, c.live, decaCompleta({ matricula_remolque: 'R 5678 FGH' }));
    expect(sinTipo.deca.tipo_vehiculo).toBe('articulado');
    expect(sinTipo.avisos).toEqual([]);
    expect((await crearDecaOk(app, c.live, decaCompleta())).deca.tipo_vehiculo).toBe('rigido');
  });

  it('weights: thousands separator, unit in the text, default unit kg; an empty nota is null', async ({ app, c }) => {
    const { deca } = await crearDecaOk(
      app,
      c.live,
      decaCompleta({
        envios: [
          { origen: 'Lleida', destino: 'Málaga', naturaleza: 'Fruta', peso: '24.500', nota: '' },
          { origen: 'Lleida', destino: 'Jaén', naturaleza: 'Gasóleo', peso: '1,5 t', nota: '   ' },
          { origen: 'Lleida', destino: 'Jaén', naturaleza: 'Cajas', peso: 12, unidad: 'palets', nota: ' Frágil ' },
          { origen: 'Lleida', destino: 'Jaén', naturaleza: 'Arena', peso: 3.25 },
        ],
      }),
    );
    // No consignee given: null, as an empty nota.
    const sin = { destinatario_nombre: null, destinatario_nif: null };
    expect(deca.envios).toEqual([
      { origen: 'Lleida', destino: 'Málaga', naturaleza: 'Fruta', peso: 24500, unidad: 'kg', nota: null, ...sin },
      { origen: 'Lleida', destino: 'Jaén', naturaleza: 'Gasóleo', peso: 1.5, unidad: 't', nota: null, ...sin },
      { origen: 'Lleida', destino: 'Jaén', naturaleza: 'Cajas', peso: 12, unidad: 'palets', nota: 'Frágil', ...sin },
      { origen: 'Lleida', destino: 'Jaén', naturaleza: 'Arena', peso: 3.25, unidad: 'kg', nota: null, ...sin },
    ]);
    expect((await leerDeca(app, c.live, deca.id)).envios).toEqual(deca.envios);
  });

  it('a NIF with a bad check character is accepted with an aviso on that field', async ({ app, c }) => {
    const { deca, avisos } = await crearDecaOk(app, c.live, decaCompleta({ cargador_nif: 'a58818502' }));
    expect(deca.estado).toBe('emitido');
    expect(deca.cargador_nif).toBe('A58818502');
    expect(avisos).toHaveLength(1);
    expect(avisos[0]).toMatchObject({ campo: 'cargador_nif', codigo: 'nif_dudoso' });
    expect(avisos[0]?.mensaje).toContain('A58818502');
  });

  it('an unknown field is ignored with an aviso campo_desconocido', async ({ app, c }) => {
    const { deca, avisos } = await crearDecaOk(app, c.live, { ...decaCompleta(), matriculaa: '5678 FGH' });
    expect(deca.matricula).toBe('1234BCD');
    expect(avisos).toEqual([expect.objectContaining({ campo: 'matriculaa', codigo: 'campo_desconocido' })]);
  });

  it('solo_validar: 200 with what would be created, nothing stored, quota untouched, no number used', async ({ app, c }) => {
    const v = await buildCuenta(app, { nombre: 'Solo Validar, S.L.' });
    const db = app.database.db;
    const antes = await contarDecas(app, v.account.id);
    const usadas = await usadasEsteMes({ app, c }, v.live);

    const res = await crear({ app, c }, { ...decaCompleta({ matricula: '1234 bcd' }), solo_validar: true }, v.live);
    expect(res.status, res.text).toBe(200);
    const r = DecaValidada.parse(res.body);
    expect(r).toMatchObject({ valida: true, lista_para_emitir: true, faltan: {}, avisos: [] });
    expect(r.datos).toMatchObject({ emisor_rol: 'transportista', matricula: '1234BCD', tipo_vehiculo: 'rigido' });

    const pend = await crear({ app, c }, { ...decaCompleta({ matricula: undefined }), emitir: false, solo_validar: true }, v.live);
    expect(pend.status, pend.text).toBe(200);
    expect(DecaValidada.parse(pend.body)).toMatchObject({ lista_para_emitir: false, faltan: { matricula: expect.any(String) } });

    expect(await contarDecas(app, v.account.id)).toBe(antes);
    expect(await usadasEsteMes({ app, c }, v.live)).toBe(usadas);
    expect(await db.selectFrom('eventos').select('id').where('account_id', '=', v.account.id).execute()).toEqual([]);
    expect(await db.selectFrom('numeradores').select('ultimo').where('account_id', '=', v.account.id).execute()).toEqual([]);
    // The first real DeCA still gets number 000001.
    expect((await crearDecaOk(app, v.live, decaCompleta())).deca.numero).toMatch(/-000001$/);
    expect(await usadasEsteMes({ app, c }, v.live)).toBe(usadas + 1);
  });
});

describe('create: validation names each field', () => {
  async function rechazo({ app, c }: Fx, body: unknown): Promise<Record<string, string>> {
    const antes = await contarDecas(app, c.account.id);
    const err = expectApiError(await crear({ app, c }, body), 422, 'validacion');
    expect(await contarDecas(app, c.account.id)).toBe(antes);
    return err.campos;
  }
  const envio = { origen: 'Lleida', destino: 'Málaga', naturaleza: 'Fruta', peso: 1000 };

  it('more than 48 envios → envios (48 is fine)', async ({ app, c }) => {
    const campos = await rechazo({ app, c }, decaCompleta({ envios: Array.from({ length: 49 }, () => envio) }));
    expect(Object.keys(campos)).toEqual(['envios']);
    expect(campos.envios).toContain('48');
    expect((await crearDecaOk(app, c.live, decaCompleta({ envios: Array.from({ length: 48 }, () => envio) }))).deca.envios).toHaveLength(48);
  });

  it('ref_externa of 101 characters → ref_externa (100 is fine)', async ({ app, c }) => {
    expect(Object.keys(await rechazo({ app, c }, decaCompleta({ ref_externa: 'x'.repeat(101) })))).toEqual(['ref_externa']);
    expect((await crearDecaOk(app, c.live, decaCompleta({ ref_externa: 'y'.repeat(100) }))).deca.ref_externa).toBe('y'.repeat(100));
  });

  it('a shipment without destino, when issuing → envios[0].destino; pending is fine', async ({ app, c }) => {
    const envios = [{ origen: 'Lleida', naturaleza: 'Fruta', peso: 1000 }];
    expect(Object.keys(await rechazo({ app, c }, decaCompleta({ envios })))).toEqual(['envios[0].destino']);
    const { deca } = await crearDecaOk(app, c.live, decaCompleta({ envios, emitir: false }));
    expect(deca.estado).toBe('pendiente');
    expect(deca.envios[0]?.destino).toBeNull();
  });

  it('an impossible date → fecha_transporte', async ({ app, c }) => {
    expect(Object.keys(await rechazo({ app, c }, decaCompleta({ fecha_transporte: '2026-02-30' })))).toEqual(['fecha_transporte']);
    expect(Object.keys(await rechazo({ app, c }, decaCompleta({ fecha_transporte: '23/11/2026' })))).toEqual(['fecha_transporte']);
  });

  it('an unreadable weight → envios[0].peso', async ({ app, c }) => {
    expect(Object.keys(await rechazo({ app, c }, decaCompleta({ envios: [{ ...envio, peso: 'abc' }] })))).toEqual(['envios[0].peso']);
    expect(Object.keys(await rechazo({ app, c }, decaCompleta({ envios: [envio, { ...envio, peso: -5 }] })))).toEqual(['envios[1].peso']);
  });

  it('an unknown unit → envios[0].unidad', async ({ app, c }) => {
    expect(Object.keys(await rechazo({ app, c }, decaCompleta({ envios: [{ ...envio, unidad: 'toneladas' as never }] })))).toEqual(['envios[0].unidad']);
  });

  it('an unknown emisor_rol → emisor_rol', async ({ app, c }) => {
    expect(Object.keys(await rechazo({ app, c }, decaCompleta({ emisor_rol: 'otro' as never })))).toEqual(['emisor_rol']);
  });

  it('reports every invalid field at once, not just the first', async ({ app, c }) => {
    const campos = await rechazo(
      { app, c },
      decaCompleta({
        emisor_rol: 'otro' as never,
        fecha_transporte: '2026-02-30',
        ref_externa: 'z'.repeat(101),
        envios: [
          { ...envio, peso: 'abc' },
          { ...envio, unidad: 'barriles' as never },
        ],
      }),
    );
    expect(Object.keys(campos).sort()).toEqual(['emisor_rol', 'envios[0].peso', 'envios[1].unidad', 'fecha_transporte', 'ref_externa']);
  });

  it('reports the missing fields together with the invalid ones', async ({ app, c }) => {
    const campos = await rechazo({ app, c }, decaCompleta({ matricula: undefined, fecha_transporte: '2026-02-30', envios: [{ origen: 'Lleida', naturaleza: 'Fruta', peso: 'abc' }] }));
    expect(Object.keys(campos).sort()).toEqual(['envios[0].destino', 'envios[0].peso', 'fecha_transporte', 'matricula']);
  });

  it('a JSON array body → 422 validacion', async ({ app, c }) => {
    await rechazo({ app, c }, [decaCompleta()]);
  });

  it('a body that is not JSON → 400 json_invalido', async ({ app, c }) => {
    const antes = await contarDecas(app, c.account.id);
    expectApiError(await crear({ app, c }, '{"matricula": "1234 BCD",'), 400, 'json_invalido');
    expectApiError(await crear({ app, c }, 'matricula=1234BCD'), 400, 'json_invalido');
    expect(await contarDecas(app, c.account.id)).toBe(antes);
  });
});

describe('cuenta_incompleta', () => {
  it('409 when the shipper address would come from an account that has none, saying what to do', async ({ app, c }) => {
    // An empty domicilio is stored as null: this account has no address.
    const k = await buildCuenta(app, { rol: 'transportista', nombre: 'Sin Domicilio, S.L.', domicilio: '' });
    expect(k.account.domicilio).toBeNull();
    const usadas = await usadasEsteMes({ app, c }, k.live);
    const err = expectApiError(await crear({ app, c }, sinCargador({ emisor_rol: 'cargador' }), k.live), 409, 'cuenta_incompleta');
    expect(err.mensaje).toMatch(/domicilio/i);
    expect(err.mensaje).toContain('cargador_domicilio');
    expect(Object.keys(err.campos)).toEqual(['cargador_domicilio']);
    expect(await contarDecas(app, k.account.id)).toBe(0);
    expect(await usadasEsteMes({ app, c }, k.live)).toBe(usadas);

    // Doing what the message says works.
    const { deca } = await crearDecaOk(app, k.live, { ...sinCargador({ emisor_rol: 'cargador' }), cargador_domicilio: 'Calle Nueva 5, Soria' });
    expect(deca).toMatchObject({ estado: 'emitido', cargador_nombre: 'Sin Domicilio, S.L.', cargador_domicilio: 'Calle Nueva 5, Soria' });
  });

  it('a pending DeCA can wait for the address, but issuing it is refused the same way', async ({ app, c }) => {
    const k = await buildCuenta(app, { rol: 'cargador', nombre: 'Otra Sin Domicilio, S.L.', domicilio: '' });
    const { deca } = await crearDecaOk(app, k.live, sinCargador({ emitir: false }));
    expect(deca).toMatchObject({ estado: 'pendiente', cargador_domicilio: null });
    expectApiError(await app.request('POST', `${API}/decas/${deca.id}/emitir`, { key: k.live, body: {} }), 409, 'cuenta_incompleta');

    // Once the account has its address, issuing the same pending DeCA takes it.
    await app.database.db.updateTable('accounts').set({ domicilio: 'Calle Real 8, Soria' }).where('id', '=', k.account.id).execute();
    app.services.caches.claves.invalidateWhere((x) => x.account.id === k.account.id);
    const emitida = await app.request('POST', `${API}/decas/${deca.id}/emitir`, { key: k.live, body: {} });
    expect(emitida.status, emitida.text).toBe(200);
    expect(emitida.body.deca).toMatchObject({ estado: 'emitido', cargador_nombre: 'Otra Sin Domicilio, S.L.', cargador_domicilio: 'Calle Real 8, Soria' });
  });
});

describe('the carrier’s own address', () => {
  it('a carrier account with no address cannot issue until it has one: 409 cuenta_incompleta naming transp_domicilio', async ({ app }) => {
    const k = await buildCuenta(app, { rol: 'transportista', nombre: 'Transportista Sin Domicilio, S.L.', domicilio: '' });
    const { transp_domicilio: _d, transp_nombre: _n, transp_nif: _f, ...body } = decaCompleta();
    const err = expectApiError(await app.request('POST', `${API}/decas`, { key: k.live, body }), 409, 'cuenta_incompleta');
    expect(Object.keys(err.campos)).toEqual(['transp_domicilio']);
    expect(err.mensaje).toMatch(/domicilio/);
    // Pending is fine; sending the address issues it.
    const { deca } = await crearDecaOk(app, k.live, { ...body, emitir: false });
    expectApiError(await app.request('POST', `${API}/decas/${deca.id}/emitir`, { key: k.live, body: {} }), 409, 'cuenta_incompleta');
    const issued = await crearDecaOk(app, k.live, { ...body, transp_domicilio: 'Calle del Puerto 2, Vigo' });
    expect(issued.deca).toMatchObject({ estado: 'emitido', transp_domicilio: 'Calle del Puerto 2, Vigo' });
  });
});
