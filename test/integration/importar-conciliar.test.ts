/**
 * The office's CSV desk over HTTP on the real database (PGlite and
 * PostgreSQL): the check (`validar=1`) warns as POST /decas does; the export
 * honours every filter of the list, free text included, and adds what an
 * office reconciles with (number, state, version, issue and end times), which
 * the import reads no data from; a multi-shipment DeCA without references
 * comes back whole; each DeCA's import key comes from its content, so another
 * day's file imports and the same file again is `repetida`; a wrong date
 * names the formats the file may use, once.
 */
import { parse } from 'csv-parse/sync';
import { describe, expect } from 'vitest';
import { COLUMNAS_EFTI, COLUMNAS_EXPORTACION } from '../../shared/rules/csv-deca';
import { type Deca, DecaList } from '../../shared/schemas/deca';
import { Importacion } from '../../shared/schemas/importar';
import { CABECERA, filaCsv } from '../support/csv';
import { decaCompleta } from '../support/decas';
import { type Fx, it } from '../support/fixtures';

/** One shipment row with the spec's columns, no reference; `over` by column name. */
const fila = (over: Record<string, string> = {}) => filaCsv({ ref_externa: '', cargador: 'Cítricos La Ribera SL', origen: 'Alzira', mercancia: 'Naranjas', ...over });

async function importar({ app, c }: Fx, cuerpo: string | Uint8Array, query = '', cabeceras: Record<string, string> = {}) {
  const res = await fetch(`${app.url}/api/v1/importar${query}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${c.live}`, 'content-type': 'text/csv', ...cabeceras },
    body: cuerpo as BodyInit,
  });
  const texto = await res.text();
  expect(res.status, texto).toBe(200);
  return Importacion.parse(JSON.parse(texto));
}

/** Every DeCA of the list with these filters, walking its pages. */
async function listaEntera({ app, c }: Fx, q: string): Promise<Deca[]> {
  const out: Deca[] = [];
  let despues = '';
  do {
    const r = await app.request('GET', `/api/v1/decas?limite=2${q}${despues ? `&despues_de=${encodeURIComponent(despues)}` : ''}`, { key: c.live });
    expect(r.status, r.text).toBe(200);
    const l = DecaList.parse(r.body);
    out.push(...l.decas);
    despues = l.siguiente ?? '';
  } while (despues);
  return out;
}

async function exportar({ app, c }: Fx, q = ''): Promise<{ texto: Uint8Array; filas: Record<string, string>[]; cabecera: string }> {
  const res = await fetch(`${app.url}/api/v1/decas.csv${q ? `?${q.replace(/^&/, '')}` : ''}`, { headers: { authorization: `Bearer ${c.live}` } });
  expect(res.status).toBe(200);
  const bytes = new Uint8Array(await res.arrayBuffer());
  const texto = new TextDecoder().decode(bytes);
  return { texto: bytes, cabecera: texto.replace(/^\uFEFF/, '').split('\r\n')[0]!, filas: parse(texto, { bom: true, delimiter: ';', columns: true }) as Record<string, string>[] };
}

/** The DeCA numbers of an export, in its order, each once (a DeCA has one row per shipment). */
const numerosDe = (filas: Record<string, string>[]) => [...new Set(filas.map((f) => f.numero))];

describe('POST /importar?validar=1 warns as POST /decas does', () => {
  it('gives each DeCA the avisos POST /decas gives the same data (a NIF with a wrong check character among them), and the import answers them too', async ({ app, cuentaNueva: c }) => {
    const fx = { app, c } as Fx;
    const csv = `${CABECERA}\n${fila({ cargador_nif: 'B96712341', peso: '95.000' })}\n${fila({ origen: 'Sueca' })}\n`;
    const prueba = await importar(fx, csv, '?validar=1');
    expect(prueba.decas.map((d) => d.resultado)).toEqual(['valida', 'valida']);

    const cuerpo = (over: Record<string, unknown>) => ({
      fecha_transporte: '2026-11-23',
      cargador_nombre: 'Cítricos La Ribera SL',
      cargador_nif: 'A58818501',
      cargador_domicilio: 'Camí Vell 3, Lleida',
      transp_nombre: 'Transportes Núñez, S.L.',
      transp_nif: 'B12345674',
      matricula: '1234 BCD',
      conductor_nombre: 'José Muñoz',
      envios: [{ origen: 'Alzira', destino: 'Málaga', naturaleza: 'Naranjas', peso: '18.250,5', unidad: 'kg' }],
      ...over,
    });
    const conAvisos = cuerpo({ cargador_nif: 'B96712341', envios: [{ origen: 'Alzira', destino: 'Málaga', naturaleza: 'Naranjas', peso: '95.000', unidad: 'kg' }] });
    const validada = await app.request('POST', '/api/v1/decas', { key: c.live, body: { ...conAvisos, solo_validar: true } });
    expect(validada.status, validada.text).toBe(200);
    const creada = await app.request('POST', '/api/v1/decas', { key: c.live, body: conAvisos });
    expect(creada.status, creada.text).toBe(201);
    const avisos = creada.body.avisos as { codigo: string }[];
    expect(avisos.map((a) => a.codigo)).toEqual(expect.arrayContaining(['nif_dudoso', 'carga_inverosimil']));
    expect(prueba.decas[0]!.avisos).toEqual(avisos);
    expect(validada.body.avisos).toEqual(avisos);
    const sinNif = await app.request('POST', '/api/v1/decas', {
      key: c.live,
      body: { ...cuerpo({ envios: [{ origen: 'Sueca', destino: 'Málaga', naturaleza: 'Naranjas', peso: '18.250,5', unidad: 'kg' }] }), solo_validar: true },
    });
    expect(prueba.decas[1]!.avisos).toEqual(sinNif.body.avisos);
    expect(prueba.decas[1]!.avisos.map((a) => a.codigo)).not.toContain('nif_dudoso');

    const hecha = await importar(fx, csv);
    expect(hecha.decas.map((d) => d.resultado)).toEqual(['creada', 'creada']);
    expect(hecha.decas[0]!.avisos).toEqual(avisos);
  });

  it('names the accepted date formats, once, for 31/02/2026, and a unit’s accepted values; no message is said twice for one cell', async ({ app, cuentaNueva: c }) => {
    const fx = { app, c } as Fx;
    const r = await importar(fx, `${CABECERA}\n${fila({ fecha_transporte: '31/02/2026', peso: 'mucho', unidad: 'cajas' })}\n`, '?validar=1');
    const errores = r.decas[0]!.errores;
    const deFecha = errores.filter((e) => e.columna === 'fecha_transporte');
    expect(deFecha).toHaveLength(1);
    expect(deFecha[0]!.mensaje).toMatch(/dd\/mm\/aaaa/);
    expect(deFecha[0]!.mensaje).toMatch(/aaaa-mm-dd/);
    expect(errores.filter((e) => e.columna === 'peso')).toHaveLength(1);
    // A closed list names its values as the file may write them.
    expect(errores.find((e) => e.columna === 'unidad')!.mensaje).toMatch(/kg, t, m3, l, palets, bultos, unidades, contenedores$/);
    const donde = errores.map((e) => `${e.linea}:${e.columna}`);
    expect(new Set(donde).size).toBe(donde.length);
  });
});

describe('GET /decas.csv', () => {
  it('honours every filter of the list, free text included: the same DeCAs, in the same order, as GET /decas', async ({ app, cuentaNueva: c }) => {
    const fx = { app, c } as Fx;
    const crear = async (body: Record<string, unknown>) => {
      const r = await app.request('POST', '/api/v1/decas', { key: c.live, body });
      expect(r.status, r.text).toBe(201);
      return r.body.deca as Deca;
    };
    await crear(decaCompleta({ fecha_transporte: '2026-11-20', referencia: 'ALB-1', cargador_nombre: 'Cítricos La Ribera SL' }));
    await crear(decaCompleta({ fecha_transporte: '2026-11-21', matricula: '5678 FGH', envios: [{ origen: 'Sueca', destino: 'Valencia', naturaleza: 'Naranjas', peso: '1000' }] }));
    await crear(
      decaCompleta({
        fecha_transporte: '2026-11-22',
        ref_externa: 'PED-9',
        envios: [
          { origen: 'Lleida', destino: 'Jaén', naturaleza: 'Cajas', peso: '10' },
          { origen: 'Huesca', destino: 'Valencia', naturaleza: 'Palés', peso: '20' },
        ],
      }),
    );
    await crear(decaCompleta({ fecha_transporte: '2026-11-22', cargador_nombre: 'Ribera Baixa SA', emitir: false }));
    const archivada = await crear(decaCompleta({ fecha_transporte: '2026-11-23', cargador_nombre: 'Ribera Alta SA' }));
    expect((await app.request('POST', `/api/v1/decas/${archivada.id}/archivar`, { key: c.live, body: { archivado: true } })).status).toBe(200);
    await crear(decaCompleta({ fecha_transporte: '2026-11-24', matricula: '5678 FGH', matricula_remolque: 'R-1234-BBC', tipo_vehiculo: 'articulado', conductor_nombre: 'Ana Ribera' }));

    const consultas = [
      '',
      '&q=ribera',
      '&q=RIBERA&archivado=false',
      '&q=valencia',
      '&q=5678',
      '&q=%25',
      '&estado=pendiente',
      '&desde=2026-11-21&hasta=2026-11-23',
      '&matricula=5678FGH',
      '&ref_externa=PED-9',
      '&archivado=true',
      '&modificado_desde=2026-01-01',
      '&estado=emitido&desde=2026-11-20&hasta=2026-11-24&matricula=5678%20FGH&archivado=false&modificado_desde=2026-01-01&q=ana',
      '&estado=emitido&desde=2026-11-20&hasta=2026-11-24&ref_externa=PED-9&archivado=false&q=valencia',
    ];
    const vistos = new Set<number>();
    for (const q of consultas) {
      const lista = await listaEntera(fx, q);
      const { filas } = await exportar(fx, q);
      expect(numerosDe(filas), q).toEqual(lista.map((d) => d.numero));
      vistos.add(lista.length);
      // One row per shipment, and every row carries its DeCA's state as the list has it.
      expect(filas, q).toHaveLength(lista.reduce((n, d) => n + d.envios.length, 0));
      for (const f of filas) expect(f.estado).toBe(lista.find((d) => d.numero === f.numero)!.estado);
    }
    // The filters did filter: lists of several sizes, none the whole account for every query.
    expect(vistos.size).toBeGreaterThan(3);
    // Any part of a shipper, a driver or a place, in any case; archived ones only when the list shows them.
    expect(await listaEntera(fx, '&q=ribera')).toHaveLength(4);
    expect(await listaEntera(fx, '&q=RIBERA&archivado=false')).toHaveLength(3);
    expect(await listaEntera(fx, '&q=valencia')).toHaveLength(2);
    expect(await listaEntera(fx, '&q=%25')).toHaveLength(0);
  });

  it('writes numero, estado, version, emitido_at and fin_servicio_at after the import’s columns; the import takes no data from them', async ({ app, c, cuentaNueva: otra }) => {
    const fx = { app, c } as Fx;
    const creada = await app.request('POST', '/api/v1/decas', { key: c.live, body: decaCompleta({ ref_externa: 'CONC-1' }) });
    expect(creada.status).toBe(201);
    const deca = creada.body.deca as Deca;
    expect((await app.request('POST', `/api/v1/decas/${deca.id}/fin`, { key: c.live, body: {} })).status).toBe(200);
    const ahora = (await app.request('GET', `/api/v1/decas/${deca.id}`, { key: c.live })).body.deca as Deca;

    const { cabecera, filas } = await exportar(fx, 'ref_externa=CONC-1');
    expect(cabecera).toBe(COLUMNAS_EXPORTACION.join(';'));
    expect(cabecera.startsWith(`${CABECERA};emisor_rol;transportista_domicilio;nota;`)).toBe(true);
    expect(cabecera.endsWith(';numero;estado;version;emitido_at;fin_servicio_at')).toBe(true);
    expect(filas).toHaveLength(1);
    expect(filas[0]).toMatchObject({ numero: ahora.numero, estado: ahora.estado, version: String(ahora.version), emitido_at: ahora.emitido_at, fin_servicio_at: ahora.fin_servicio_at });
    expect(ahora.fin_servicio_at).not.toBeNull();

    // Made up values in those columns: the new DeCA has its own number, state, version and times.
    const inventada = `${COLUMNAS_EXPORTACION.join(';')}\n${fila({ ref_externa: 'CONC-2' })};;;;${';'.repeat(COLUMNAS_EFTI.length)}1999-000001;sustituido;9;2020-01-01T00:00:00+01:00;2020-01-02T00:00:00+01:00\n`;
    const r = await importar({ app, c: otra } as Fx, inventada);
    expect(r.decas[0]).toMatchObject({ resultado: 'creada', estado: 'emitido' });
    const importada = (await app.request('GET', `/api/v1/decas/${r.decas[0]!.id}`, { key: otra.live })).body.deca as Deca;
    expect(importada.numero).not.toBe('1999-000001');
    expect(importada).toMatchObject({ estado: 'emitido', version: 1, fin_servicio_at: null });
    expect(importada.emitido_at!.startsWith('2020')).toBe(false);
  });

  it('brings back a multi-shipment DeCA without references as one DeCA with the same shipments; the same export again is `repetida`', async ({ app, cuentaNueva: c, c: origen }) => {
    const envios = [
      { origen: 'Alzira', destino: 'Málaga', naturaleza: 'Naranjas', peso: 1000, unidad: 'kg' as const, nota: null },
      { origen: 'Sueca', destino: 'Jaén', naturaleza: 'Mandarinas', peso: 2000.5, unidad: 'kg' as const, nota: 'Frío' },
      { origen: 'Carcaixent', destino: 'Córdoba', naturaleza: 'Limones', peso: 3, unidad: 'palets' as const, nota: null },
    ];
    const body = decaCompleta({ envios: envios.map(({ peso, ...e }) => ({ ...e, peso: String(peso).replace('.', ','), nota: e.nota ?? undefined })) });
    const a = await app.request('POST', '/api/v1/decas', { key: origen.live, body });
    const b = await app.request('POST', '/api/v1/decas', { key: origen.live, body: { ...body, matricula: '5678 FGH' } });
    expect([a.status, b.status]).toEqual([201, 201]);
    const numeros = [a.body.deca.numero, b.body.deca.numero].join(',');
    const { texto, filas } = await exportar({ app, c: origen } as Fx, 'q=carcaixent');
    expect(numerosDe(filas).sort().join(',')).toBe(numeros.split(',').sort().join(','));
    expect(filas).toHaveLength(6);

    const r = await importar({ app, c } as Fx, texto);
    expect(r.decas.map((d) => [d.resultado, d.lineas.length])).toEqual([
      ['creada', 3],
      ['creada', 3],
    ]);
    const importadas = await listaEntera({ app, c } as Fx, '');
    expect(importadas).toHaveLength(2);
    for (const d of importadas) expect(d.envios.map(({ origen, destino, naturaleza, peso, unidad, nota }) => ({ origen, destino, naturaleza, peso, unidad, nota }))).toEqual(envios);
    expect(importadas.map((d) => d.matricula).sort()).toEqual(['1234BCD', '5678FGH']);

    const otra = await importar({ app, c } as Fx, texto);
    expect(otra).toMatchObject({ creados: 0, repetidos: 2, errores: 0 });
  });
});

describe('POST /importar keys each DeCA by its content', () => {
  it('imports two different files without references one after the other; the same file twice is `repetida`, with or without the upload’s key', async ({ app, cuentaNueva: c }) => {
    const fx = { app, c } as Fx;
    const lunes = `${CABECERA}\n${fila({ fecha_transporte: '23/11/2026', origen: 'Alzira' })}\n${fila({ fecha_transporte: '23/11/2026', origen: 'Sueca' })}\n`;
    const martes = `${CABECERA}\n${fila({ fecha_transporte: '24/11/2026', origen: 'Alzira' })}\n${fila({ fecha_transporte: '24/11/2026', origen: 'Carcaixent' })}\n`;
    expect(await importar(fx, lunes)).toMatchObject({ creados: 2, repetidos: 0, errores: 0 });
    const segundo = await importar(fx, martes);
    expect(segundo, JSON.stringify(segundo.decas.map((d) => d.errores))).toMatchObject({ creados: 2, repetidos: 0, errores: 0 });
    const otraVez = await importar(fx, lunes);
    expect(otraVez).toMatchObject({ creados: 0, repetidos: 2, errores: 0 });
    expect(otraVez.decas.map((d) => d.resultado)).toEqual(['repetida', 'repetida']);
    // Its rows in another order, or another file's lines: the same DeCAs.
    const alReves = `${CABECERA}\n${fila({ fecha_transporte: '24/11/2026', origen: 'Carcaixent' })}\n${fila({ fecha_transporte: '23/11/2026', origen: 'Alzira' })}\n`;
    expect(await importar(fx, alReves)).toMatchObject({ creados: 0, repetidos: 2 });
    // Two identical rows of one file are two DeCAs (two trips), and stay two when the file comes again.
    const dosViajes = `${CABECERA}\n${fila({ fecha_transporte: '25/11/2026' })}\n${fila({ fecha_transporte: '25/11/2026' })}\n`;
    expect(await importar(fx, dosViajes)).toMatchObject({ creados: 2, repetidos: 0 });
    expect(await importar(fx, dosViajes)).toMatchObject({ creados: 0, repetidos: 2 });
    expect(await listaEntera(fx, '')).toHaveLength(6);

    // With the upload's Idempotency-Key: the same key again is a repeat; a new key is a new upload.
    const miercoles = `${CABECERA}\n${fila({ fecha_transporte: '26/11/2026' })}\n`;
    expect(await importar(fx, miercoles, '', { 'idempotency-key': 'subida-1' })).toMatchObject({ creados: 1 });
    expect(await importar(fx, miercoles, '', { 'idempotency-key': 'subida-1' })).toMatchObject({ creados: 0, repetidos: 1 });
    expect(await importar(fx, miercoles, '', { 'idempotency-key': 'subida-2' })).toMatchObject({ creados: 1, repetidos: 0 });
    expect(await listaEntera(fx, '')).toHaveLength(8);
  });
});
