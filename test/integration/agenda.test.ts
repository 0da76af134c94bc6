/**
 * The address book over HTTP on the real database (PGlite and PostgreSQL):
 * search without case or accents, best first and paginated; hand-made
 * entries keyed by NIF, plate and text; learning from a create, a modify and
 * a completion, in the DeCA's own transaction; per account and environment;
 * a read-only key searches but does not write.
 */
import { describe, expect } from 'vitest';
import type { Actor } from '../../server/domain/actor';
import { prepararCreacion } from '../../server/domain/decas/crear';
import { escribirPlan } from '../../server/domain/plan';
import { AgendaEmpresa, AgendaList, AgendaVehiculo } from '../../shared/schemas/agenda';
import { DecaCreada, DecaInput } from '../../shared/schemas/deca';
import { decaCompleta } from '../support/decas';
import { type Fx, it } from '../support/fixtures';

const buscar = async ({ app, c }: Fx, tipo: string, q = '', extra = '', key = c.live) => {
  const res = await app.request('GET', `/api/v1/agenda/${tipo}?q=${encodeURIComponent(q)}${extra}`, { key });
  expect(res.status, res.text).toBe(200);
  return AgendaList.parse(res.body);
};

describe('agenda', () => {
  it('learns both parties, the vehicle with its driver and each place from a DeCA created, in the same transaction', async ({ app, cuentaNueva: c }) => {
    const fx = { app, c } as Fx;
    const res = await app.request('POST', '/api/v1/decas', {
      key: c.live,
      body: decaCompleta({
        envios: [
          { origen: 'Lleida', destino: 'Málaga', naturaleza: 'Fruta', peso: 1000 },
          { origen: 'LLEIDA ', destino: 'Córdoba', naturaleza: 'Fruta', peso: 500 },
        ],
      }),
    });
    expect(res.status, res.text).toBe(201);

    const empresas = (await buscar(fx, 'empresas')).entradas.map((e) => AgendaEmpresa.parse(e));
    expect(empresas.map((e) => [e.nombre, e.nif, e.lado, e.usos])).toEqual(
      expect.arrayContaining([
        ['Frutas Peñalara, S.A.', 'A58818501', 'cargador', 1],
        ['Transportes Núñez, S.L.', 'B12345674', 'transportista', 1],
      ]),
    );
    expect(empresas).toHaveLength(2);
    const [vehiculo] = (await buscar(fx, 'vehiculos')).entradas.map((e) => AgendaVehiculo.parse(e));
    expect(vehiculo).toMatchObject({ matricula: '1234BCD', conductor_nombre: 'José Ángel Muñoz', conductor_tel: '+34 600 000 000', usos: 1 });
    expect(vehiculo!.ultimo_uso).not.toBeNull();
    // «Lleida» and «LLEIDA » are one place, counted once for the DeCA.
    const lugares = (await buscar(fx, 'lugares')).entradas as { texto: string; usos: number }[];
    expect(lugares.map((l) => l.texto).sort()).toEqual(['Córdoba', 'Lleida', 'Málaga']);
    expect(lugares.every((l) => l.usos === 1)).toBe(true);

    // A DeCA that is refused (incomplete, asked to issue) teaches nothing: the transaction never ran.
    const mala = await app.request('POST', '/api/v1/decas', { key: c.live, body: decaCompleta({ cargador_nif: 'B87654321', cargador_nombre: 'Otra SL', matricula: undefined }) });
    expect(mala.status).toBe(422);
    expect((await buscar(fx, 'empresas', 'otra')).entradas).toHaveLength(0);
  });

  it('is written in the DeCA’s transaction: a create that fails at commit teaches nothing', async ({ app, cuentaNueva: c }) => {
    const actor: Actor = { accountId: c.account.id, cuenta: c.account, entorno: 'produccion', canal: 'api', keyId: c.keyIds.live, userId: null, rol: null, soloLectura: false, etiqueta: 'prueba' };
    const input = DecaInput.parse(decaCompleta({ cargador_nombre: 'Nunca Guardada SL', cargador_nif: 'B65410011' }));
    const fallo = escribirPlan(
      app.database.db,
      () => prepararCreacion(app.services, actor, input),
      async () => {
        throw new Error('fallo al confirmar');
      },
    );
    await expect(fallo).rejects.toThrow('fallo al confirmar');
    expect((await buscar({ app, c } as Fx, 'empresas', 'nunca')).entradas).toHaveLength(0);
    expect((await buscar({ app, c } as Fx, 'vehiculos')).entradas).toHaveLength(0);
    // The same DeCA committing does teach.
    await escribirPlan(app.database.db, () => prepararCreacion(app.services, actor, input));
    expect((await buscar({ app, c } as Fx, 'empresas', 'nunca')).entradas).toHaveLength(1);
  });

  it('finds without case, accents or spacing, anywhere in name, NIF, plate or place; most used first', async ({ app, cuentaNueva: c }) => {
    const fx = { app, c } as Fx;
    for (const body of [
      decaCompleta({ cargador_nombre: 'Transportes Pérez e Hijos', cargador_nif: 'A58818501' }),
      decaCompleta({ cargador_nombre: 'Transportes Pérez e Hijos', cargador_nif: 'A58818501', matricula: '5678 CDF' }),
      decaCompleta({ cargador_nombre: 'Peréz Logística', cargador_nif: 'B65410011' }),
    ]) {
      expect((await app.request('POST', '/api/v1/decas', { key: c.live, body })).status).toBe(201);
    }
    const perez = (await buscar(fx, 'empresas', 'perez')).entradas.map((e) => AgendaEmpresa.parse(e));
    expect(perez.map((e) => [e.nombre, e.usos])).toEqual([
      ['Transportes Pérez e Hijos', 2],
      ['Peréz Logística', 1],
    ]);
    expect((await buscar(fx, 'empresas', 'PÉREZ E HIJOS')).entradas).toHaveLength(1);
    expect((await buscar(fx, 'empresas', 'b-65410011')).entradas.map((e) => (e as AgendaEmpresa).nif)).toEqual(['B65410011']);
    expect((await buscar(fx, 'vehiculos', '1234bcd')).entradas.map((e) => (e as AgendaVehiculo).matricula)).toEqual(['1234BCD']);
    expect((await buscar(fx, 'vehiculos', '5678-cdf')).entradas).toHaveLength(1);
    expect((await buscar(fx, 'lugares', 'malaga')).entradas.map((e) => (e as { texto: string }).texto)).toEqual(['Málaga']);
    // LIKE's wildcards are only text here.
    expect((await buscar(fx, 'empresas', '%')).entradas).toHaveLength(0);
    expect((await buscar(fx, 'empresas', '_')).entradas).toHaveLength(0);
  });

  it('paginates like the DeCA list: every entry once, in order, with the «siguiente» cursor', async ({ app, cuentaNueva: c }) => {
    const fx = { app, c } as Fx;
    for (let i = 0; i < 5; i++) {
      const res = await app.request('POST', '/api/v1/agenda/lugares', { key: c.live, body: { texto: `Nave ${i}` } });
      expect(res.status, res.text).toBe(200);
    }
    const vistos: string[] = [];
    let despues = '';
    for (let pagina = 0; pagina < 5; pagina++) {
      const r = await buscar(fx, 'lugares', '', `&limite=2${despues ? `&despues_de=${despues}` : ''}`);
      vistos.push(...r.entradas.map((e) => (e as { texto: string }).texto));
      if (!r.siguiente) break;
      despues = r.siguiente;
    }
    expect(vistos).toEqual(['Nave 4', 'Nave 3', 'Nave 2', 'Nave 1', 'Nave 0']);
    const malo = await app.request('GET', '/api/v1/agenda/lugares?despues_de=xyz', { key: c.live });
    expect(malo.status).toBe(422);
    expect(malo.body.error.campos).toHaveProperty('despues_de');
  });

  it('POST creates or updates by normalised NIF, plate or text, keeping the use count; bad NIF or plate → 422 naming the field', async ({ app, cuentaNueva: c }) => {
    const fx = { app, c } as Fx;
    const creada = await app.request('POST', '/api/v1/agenda/empresas', { key: c.live, body: { nombre: 'Cargas del Sur', nif: 'b-65410011', domicilio: 'Sevilla' } });
    expect(creada.status, creada.text).toBe(200);
    expect(creada.body.entrada).toMatchObject({ nombre: 'Cargas del Sur', nif: 'B65410011', domicilio: 'Sevilla', lado: null, usos: 0, ultimo_uso: null });
    expect((await app.request('POST', '/api/v1/decas', { key: c.live, body: decaCompleta({ cargador_nif: 'B65410011', cargador_nombre: 'Cargas del Sur' }) })).status).toBe(201);
    const cambiada = await app.request('POST', '/api/v1/agenda/empresas', { key: c.live, body: { nombre: 'Cargas del Sur, S.L.', nif: 'B 6541 0011' } });
    expect(cambiada.status).toBe(200);
    expect(cambiada.body.entrada).toMatchObject({ id: creada.body.entrada.id, nombre: 'Cargas del Sur, S.L.', domicilio: null, usos: 1 });

    const vehiculo = await app.request('POST', '/api/v1/agenda/vehiculos', { key: c.live, body: { matricula: '9999 bbb', conductor_nombre: 'Ana', conductor_tel: '600111222' } });
    expect(vehiculo.status, vehiculo.text).toBe(200);
    expect(vehiculo.body.entrada).toMatchObject({ matricula: '9999BBB', conductor_nombre: 'Ana' });

    const nif = await app.request('POST', '/api/v1/agenda/empresas', { key: c.live, body: { nombre: 'X', nif: 'B12345678' } });
    expect(nif.status).toBe(422);
    expect(nif.body.error.codigo).toBe('validacion');
    expect(nif.body.error.campos.nif).toMatch(/NIF no válido/);
    const placa = await app.request('POST', '/api/v1/agenda/vehiculos', { key: c.live, body: { matricula: 'HOLA' } });
    expect(placa.status).toBe(422);
    expect(placa.body.error.campos.matricula).toMatch(/Matrícula no válida/);
    const vacio = await app.request('POST', '/api/v1/agenda/lugares', { key: c.live, body: { texto: '   ' } });
    expect(vacio.status).toBe(422);
    expect(vacio.body.error.campos.texto).toBe('Obligatorio');
  });

  it('learns from a modification and from the other party’s completion; the same company on the other side becomes «ambos»', async ({ app, cuentaNueva: c }) => {
    const fx = { app, c } as Fx;
    const creada = DecaCreada.parse(
      (await app.request('POST', '/api/v1/decas', { key: c.live, body: { ...decaCompleta(), emitir: false, cargador_nombre: undefined, cargador_nif: undefined } })).body,
    ).deca;
    expect((await buscar(fx, 'empresas')).entradas.map((e) => (e as AgendaEmpresa).nif)).toEqual(['B12345674']);
    const cambio = await app.request('PATCH', `/api/v1/decas/${creada.id}`, { key: c.live, body: { cargador_nombre: 'Frutas Peñalara, S.A.', cargador_nif: 'A58818501', matricula: '4321 FGH' } });
    expect(cambio.status, cambio.text).toBe(200);
    const empresas = (await buscar(fx, 'empresas')).entradas.map((e) => AgendaEmpresa.parse(e));
    expect(empresas.find((e) => e.nif === 'A58818501')).toMatchObject({ lado: 'cargador', usos: 1 });
    expect(empresas.find((e) => e.nif === 'B12345674')).toMatchObject({ usos: 2 });
    expect((await buscar(fx, 'vehiculos', '4321fgh')).entradas).toHaveLength(1);

    // The carrier of the account now appears as shipper on another DeCA: both sides.
    await app.request('POST', '/api/v1/decas', {
      key: c.live,
      body: decaCompleta({ cargador_nombre: 'Transportes Núñez, S.L.', cargador_nif: 'B12345674', transp_nif: 'A58818501', transp_nombre: 'Frutas Peñalara, S.A.' }),
    });
    const despues = (await buscar(fx, 'empresas')).entradas.map((e) => AgendaEmpresa.parse(e));
    expect(despues.find((e) => e.nif === 'B12345674')).toMatchObject({ lado: 'ambos', usos: 3 });
    expect(despues.find((e) => e.nif === 'A58818501')).toMatchObject({ lado: 'ambos', usos: 2 });

    // The other party completes a pending DeCA through its link: its data is learnt.
    const pendiente = DecaCreada.parse(
      (
        await app.request('POST', '/api/v1/decas', {
          key: c.live,
          body: { emitir: false, fecha_transporte: '2026-11-25', matricula: '1234BCD', transp_nif: 'B12345674', transp_nombre: 'Transportes Núñez, S.L.', transp_domicilio: 'Zaragoza' },
        })
      ).body,
    ).deca;
    const enlace = new URL(pendiente.urls.completar!).pathname;
    const completada = await fetch(`${app.url}${enlace}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': 'Mozilla/5.0' },
      body: new URLSearchParams({
        accion: 'enviar',
        cargador_nombre: 'Hortalizas del Ebro SL',
        cargador_nif: 'B65410011',
        cargador_domicilio: 'Tudela',
        'envios[0].origen': 'Tudela',
        'envios[0].destino': 'Bilbao',
        'envios[0].naturaleza': 'Alcachofas',
        'envios[0].peso': '8.000',
        'envios[0].unidad': 'kg',
      }).toString(),
    });
    expect(completada.status).toBeLessThan(400);
    expect((await app.request('GET', `/api/v1/decas/${pendiente.id}`, { key: c.live })).body.deca.estado).toBe('emitido');
    expect((await buscar(fx, 'empresas', 'hortalizas')).entradas.map((e) => AgendaEmpresa.parse(e))).toMatchObject([{ nif: 'B65410011', lado: 'cargador', usos: 1 }]);
    expect((await buscar(fx, 'lugares', 'tudela')).entradas).toHaveLength(1);
  });

  it('is per account and environment; a read-only key searches but cannot write', async ({ app, c, cuentaNueva: otra }) => {
    expect((await app.request('POST', '/api/v1/agenda/lugares', { key: c.live, body: { texto: 'Muelle privado 7' } })).status).toBe(200);
    expect((await buscar({ app, c } as Fx, 'lugares', 'muelle privado', '', c.liveReadOnly)).entradas).toHaveLength(1);
    expect((await buscar({ app, c: otra } as Fx, 'lugares', 'muelle privado')).entradas).toHaveLength(0);
    const pruebas = await app.request('GET', '/demo/api/v1/agenda/lugares?q=muelle', { key: c.test });
    expect(pruebas.status).toBe(200);
    expect(pruebas.body.entradas).toHaveLength(0);
    const escribir = await app.request('POST', '/api/v1/agenda/lugares', { key: c.liveReadOnly, body: { texto: 'Otro' } });
    expect(escribir.status).toBe(403);
    expect(escribir.body.error.codigo).toBe('solo_lectura');
    expect((await app.request('GET', '/api/v1/agenda/lugares', {})).status).toBe(401);
    expect((await app.request('GET', '/api/v1/agenda/clientes', { key: c.live })).status).toBe(404);
  });
});
