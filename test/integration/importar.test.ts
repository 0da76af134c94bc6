/**
 * CSV import and export over HTTP on the real database (PGlite and
 * PostgreSQL): both separators and both encodings, grouping, validar,
 * emitir=0, re-upload, the 500 limit, line-numbered errors, todo_o_nada,
 * bad input, the export's columns and formula neutralisation, and an
 * export → import round trip into an empty account that gives the same DeCAs.
 */
import { describe, expect } from 'vitest';
import { COLUMNAS_CSV } from '../../shared/rules/csv-deca';
import { Deca, DecaList } from '../../shared/schemas/deca';
import { Importacion } from '../../shared/schemas/importar';
import { decaCompleta } from '../support/decas';
import { it, type Fx } from '../support/fixtures';

const CABECERA = COLUMNAS_CSV.join(';');
/** One shipment row with the spec's columns; `over` by column name. */
function fila(over: Record<string, string> = {}, separador = ';'): string {
  const base: Record<string, string> = {
    ref_externa: 'PED-1',
    referencia: '',
    fecha_transporte: '23/11/2026',
    cargador: 'Frutas Peñalara, S.A.',
    cargador_nif: 'A58818501',
    cargador_domicilio: 'Camí Vell 3, Lleida',
    transportista: 'Transportes Núñez, S.L.',
    transportista_nif: 'B12345674',
    origen: 'Lleida',
    destino: 'Málaga',
    mercancia: 'Piñones',
    peso: '18.250,5',
    unidad: 'kg',
    tipo_vehiculo: '',
    matricula: '1234 BCD',
    remolque: '',
    autorizacion_especial: '',
    conductor: 'José Muñoz',
    conductor_tel: '',
    observaciones: '',
    ...over,
  };
  // With commas, every cell quoted (names and addresses hold commas), as a spreadsheet does.
  return COLUMNAS_CSV.map((c) => (separador === ',' ? `"${(base[c] ?? '').replace(/"/g, '""')}"` : (base[c] ?? ''))).join(separador);
}

/** Windows-1252 bytes of `s` (what a Spanish spreadsheet saves): Latin-1 plus € at 0x80. */
function cp1252(s: string): Uint8Array {
  return Uint8Array.from([...s].map((ch) => (ch === '€' ? 0x80 : ch.charCodeAt(0) <= 0xff ? ch.charCodeAt(0) : 0x3f)));
}

async function importar({ app, c }: Fx, cuerpo: string | Uint8Array, query = '', tipo = 'text/csv') {
  const res = await fetch(`${app.url}/api/v1/importar${query}`, { method: 'POST', headers: { authorization: `Bearer ${c.live}`, 'content-type': tipo }, body: cuerpo as BodyInit });
  const texto = await res.text();
  return { status: res.status, body: JSON.parse(texto) as Record<string, any>, texto };
}

const lista = async ({ app, c }: Fx, q = '') => DecaList.parse((await app.request('GET', `/api/v1/decas?limite=100${q}`, { key: c.live })).body).decas;

describe('POST /importar', () => {
  it('reads `;` UTF-8 with BOM and `,` Windows-1252 alike; groups rows by ref_externa, then by referencia', async ({ app, cuentaNueva: c }) => {
    const fx = { app, c } as Fx;
    const utf8 = `\uFEFF${CABECERA}\r\n${fila()}\r\n${fila({ origen: 'Huesca', peso: '2.000' })}\r\n${fila({ ref_externa: '', referencia: 'ALB-7', peso: '18250' })}\r\n`;
    const r1 = await importar(fx, utf8);
    expect(r1.status, r1.texto).toBe(200);
    const i1 = Importacion.parse(r1.body);
    expect(i1).toMatchObject({ creados: 2, repetidos: 0, errores: 0 });
    expect(i1.decas.map((d) => [d.lineas, d.ref_externa, d.referencia, d.resultado, d.estado])).toEqual([
      [[2, 3], 'PED-1', null, 'creada', 'emitido'],
      [[4], null, 'ALB-7', 'creada', 'emitido'],
    ]);
    const todas = await lista(fx);
    const ped = todas.find((d) => d.ref_externa === 'PED-1');
    const alb = todas.find((d) => d.referencia === 'ALB-7');
    expect(ped!.envios.map((e) => [e.origen, e.peso])).toEqual([
      ['Lleida', 18250.5],
      ['Huesca', 2000],
    ]);
    expect(ped).toMatchObject({ canal: 'importacion', fecha_transporte: '2026-11-23', cargador_nombre: 'Frutas Peñalara, S.A.', matricula: '1234BCD' });
    expect(alb!.referencia).toBe('ALB-7');

    // The same kind of file from a spreadsheet in Windows-1252 with commas.
    const latin = cp1252(`${COLUMNAS_CSV.join(',')}\r\n${fila({ ref_externa: 'PED-2', cargador: 'Ñoras Güeñes, S.L.', mercancia: 'Ñoras (15 €)', peso: '1.500,5' }, ',')}\r\n`);
    const r2 = await importar(fx, latin);
    expect(r2.status, r2.texto).toBe(200);
    expect(r2.body, r2.texto).toMatchObject({ creados: 1 });
    const ped2 = (await lista(fx, '&ref_externa=PED-2'))[0]!;
    expect(ped2.cargador_nombre).toBe('Ñoras Güeñes, S.L.');
    expect(ped2.envios[0]).toMatchObject({ naturaleza: 'Ñoras (15 €)', peso: 1500.5 });
  });

  it('re-uploading the same file creates nothing and says so; validar=1 stores nothing; emitir=0 leaves them pending', async ({ app, cuentaNueva: c }) => {
    const fx = { app, c } as Fx;
    const csv = `${CABECERA}\n${fila()}\n${fila({ ref_externa: '', referencia: 'ALB-9' })}\n${fila({ ref_externa: '', referencia: '', origen: 'Sin referencia' })}\n`;
    const prueba = Importacion.parse((await importar(fx, csv, '?validar=1')).body);
    expect(prueba).toMatchObject({ validar: true, creados: 0, errores: 0 });
    expect(prueba.decas.map((d) => d.resultado)).toEqual(['valida', 'valida', 'valida']);
    expect(await lista(fx)).toHaveLength(0);

    expect(Importacion.parse((await importar(fx, csv)).body)).toMatchObject({ creados: 3, repetidos: 0 });
    const otra = Importacion.parse((await importar(fx, csv)).body);
    expect(otra).toMatchObject({ creados: 0, repetidos: 3, errores: 0 });
    expect(otra.decas.map((d) => d.resultado)).toEqual(['repetida', 'repetida', 'repetida']);
    // The same ref_externa with other data: the DeCA stays as it was, and the answer says so.
    const cambiada = Importacion.parse((await importar(fx, `${CABECERA}\n${fila({ mercancia: 'Otra cosa' })}\n`)).body);
    expect(cambiada.decas[0]).toMatchObject({ resultado: 'repetida', avisos: [expect.objectContaining({ codigo: 'ref_externa_repetida' })] });
    expect(await lista(fx)).toHaveLength(3);

    const pendientes = Importacion.parse((await importar(fx, `${CABECERA}\n${fila({ ref_externa: 'PEND-1', cargador_nif: '' })}\n`, '?emitir=0')).body);
    expect(pendientes.decas[0]).toMatchObject({ resultado: 'creada', estado: 'pendiente' });
    // Each DeCA created counts against the month's quota; checks and repeats do not.
    expect((await app.request('GET', '/api/v1/cuenta', { key: c.live })).body.cuenta.cuota.usadas).toBe(4);
  });

  it('names each error by line and column; the good DeCAs are stored unless todo_o_nada=1', async ({ app, cuentaNueva: c }) => {
    const fx = { app, c } as Fx;
    const csv = [
      CABECERA,
      fila({ ref_externa: 'BIEN-1' }),
      fila({ ref_externa: 'MAL-1', peso: 'mucho' }),
      fila({ ref_externa: 'MAL-1', matricula: '9999 ZZZ' }),
      fila({ ref_externa: 'MAL-2', cargador_nif: '', fecha_transporte: '31/02/2026' }),
    ].join('\n');
    const todo = Importacion.parse((await importar(fx, csv, '?todo_o_nada=1')).body);
    expect(todo.decas.map((d) => d.resultado)).toEqual(['no_guardada', 'error', 'error']);
    expect(await lista(fx)).toHaveLength(0);

    const r = Importacion.parse((await importar(fx, csv)).body);
    expect(r).toMatchObject({ creados: 1, errores: 2 });
    const mal1 = r.decas.find((d) => d.ref_externa === 'MAL-1')!;
    expect(mal1.errores).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ linea: 3, columna: 'peso' }),
        expect.objectContaining({ linea: 4, columna: 'matricula', mensaje: expect.stringMatching(/Distinto de la línea 3/) }),
      ]),
    );
    const mal2 = r.decas.find((d) => d.ref_externa === 'MAL-2')!;
    expect(mal2.errores.map((e) => [e.linea, e.columna])).toEqual(expect.arrayContaining([[5, 'fecha_transporte']]));
    expect((await lista(fx)).map((d) => d.ref_externa)).toEqual(['BIEN-1']);
  });

  it('refuses, with a clear 422 and nothing stored, a wrong header, an empty body, a binary file and more than 500 DeCAs', async ({ app, cuentaNueva: c }) => {
    const fx = { app, c } as Fx;
    const cabecera = await importar(fx, `ref;fecha\n1;2\n`);
    expect(cabecera.status).toBe(422);
    expect(cabecera.body.error.mensaje).toMatch(/La cabecera no es la esperada: la columna 1 es «ref» y debería ser «ref_externa»/);
    expect((await importar(fx, '')).body.error.mensaje).toMatch(/vacío/);
    const xlsx = await importar(fx, Uint8Array.from([0x50, 0x4b, 0x03, 0x04, 0, 0, 0x08, 0]), '', 'application/octet-stream');
    expect(xlsx.status).toBe(422);
    expect(xlsx.body.error.mensaje).toMatch(/no es un CSV/);
    const solo = await importar(fx, `${CABECERA}\n`);
    expect(solo.body.error.mensaje).toMatch(/solo tiene la cabecera/);

    const muchas = [CABECERA, ...Array.from({ length: 501 }, (_, i) => fila({ ref_externa: `R-${i}` }))].join('\n');
    const r = await importar(fx, muchas);
    expect(r.status).toBe(422);
    expect(r.body.error.mensaje).toMatch(/501 DeCA y el máximo por importación es 500/);
    expect(await lista(fx)).toHaveLength(0);

    const enorme = await importar(fx, `${CABECERA}\n${'x'.repeat(5 * 1024 * 1024)}\n`);
    expect(enorme.status).toBe(413);
    expect(enorme.body.error.mensaje).toMatch(/El CSV supera 5 MB/);

    // Multipart with the field «csv», as a browser form sends it.
    const form = new FormData();
    form.append('csv', new Blob([`${CABECERA}\n${fila({ ref_externa: 'FORM-1' })}\n`], { type: 'text/csv' }), 'decas.csv');
    const enviado = await fetch(`${app.url}/api/v1/importar`, { method: 'POST', headers: { authorization: `Bearer ${c.live}` }, body: form });
    expect(enviado.status).toBe(200);
    expect(((await enviado.json()) as Importacion).creados).toBe(1);
    const soloLectura = await fetch(`${app.url}/api/v1/importar`, { method: 'POST', headers: { authorization: `Bearer ${c.liveReadOnly}`, 'content-type': 'text/csv' }, body: `${CABECERA}\n${fila()}\n` });
    expect(soloLectura.status).toBe(403);
  });
});

describe('GET /decas.csv', () => {
  it('exports the import’s columns, one row per shipment, with formulas neutralised; importing the export into an empty account gives the same DeCAs', async ({ app, c, cuentaNueva: otra }) => {
    const creadas = [
      decaCompleta({ ref_externa: 'EXP-1', referencia: '=HYPERLINK("x")', observaciones: 'Línea 1\nLínea 2; con "comillas"', conductor_tel: '+34 600 111 222' }),
      decaCompleta({
        ref_externa: 'EXP-2',
        matricula_remolque: 'R-1234-BBC',
        tipo_vehiculo: 'articulado',
        envios: [
          { origen: '@casa', destino: 'Málaga', naturaleza: 'Fruta', peso: 1000.5, nota: 'Con cuidado' },
          { origen: 'Lleida', destino: '-Huesca', naturaleza: 'Cajas', peso: 3, unidad: 'palets' },
        ],
      }),
    ];
    for (const body of creadas) expect((await app.request('POST', '/api/v1/decas', { key: c.live, body })).status).toBe(201);

    const res = await fetch(`${app.url}/api/v1/decas.csv?ref_externa=EXP-2`, { headers: { authorization: `Bearer ${c.live}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const texto = new TextDecoder().decode(bytes.subarray(3));
    const lineas = texto.trimEnd().split('\r\n');
    expect(lineas[0]).toBe(`${CABECERA};emisor_rol;transportista_domicilio;nota`);
    expect(lineas).toHaveLength(3);
    expect(lineas[1]).toContain(";'@casa;");
    expect(lineas[2]).toContain(";'-Huesca;");

    const todo = await (await fetch(`${app.url}/api/v1/decas.csv`, { headers: { authorization: `Bearer ${c.live}` } })).arrayBuffer();
    expect(new TextDecoder().decode(todo)).toContain(`'=HYPERLINK(""x"")`);
    const r = await importar({ app, c: otra } as Fx, new Uint8Array(todo));
    expect(r.status, r.texto).toBe(200);
    expect(r.body.creados).toBe((await lista({ app, c } as Fx)).length);

    const campos = (d: Deca) => {
      const { id, numero, urls, pdf_sha256, pdf_bytes, emitido_at, modificado_at, created_at, canal, descargas, ...resto } = d;
      return resto;
    };
    const antes = (await lista({ app, c } as Fx)).map(campos);
    const despues = (await lista({ app, c: otra } as Fx)).map(campos);
    expect(despues.sort((a, b) => String(a.ref_externa).localeCompare(String(b.ref_externa)))).toEqual(antes.sort((a, b) => String(a.ref_externa).localeCompare(String(b.ref_externa))));
  });
});
