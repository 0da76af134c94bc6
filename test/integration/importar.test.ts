/**
 * CSV import and export over HTTP on the real database (PGlite and
 * PostgreSQL): both separators and both encodings, grouping, validar,
 * emitir=0, re-upload, the 500 limit, line-numbered errors, todo_o_nada,
 * bad input, the export's columns and formula neutralisation, and an
 * export → import round trip into an empty account that gives the same DeCAs;
 * and large files: the row bound (1 + 500 × 48) refused before parsing, at
 * most 50 errors per DeCA, and other requests answered while the largest
 * file is checked (an order of events, never a duration).
 */
import diagnostics from 'node:diagnostics_channel';
import type { IncomingMessage } from 'node:http';
import { describe, expect } from 'vitest';
import { COLUMNAS_CSV, COLUMNAS_EFTI } from '../../shared/rules/csv-deca';
import { type Deca, DecaList } from '../../shared/schemas/deca';
import { MAX_ENVIOS } from '../../shared/schemas/envio';
import { Importacion } from '../../shared/schemas/importar';
import { CABECERA, filaCsv } from '../support/csv';
import { decaCompleta } from '../support/decas';
import { type Fx, it } from '../support/fixtures';

/** One shipment row with the spec's columns; `over` by column name. */
const fila = filaCsv;

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
    const soloLectura = await fetch(`${app.url}/api/v1/importar`, {
      method: 'POST',
      headers: { authorization: `Bearer ${c.liveReadOnly}`, 'content-type': 'text/csv' },
      body: `${CABECERA}\n${fila()}\n`,
    });
    expect(soloLectura.status).toBe(403);
  });
});

/** The largest file an import takes: 500 DeCAs of 48 shipments each, one row per shipment (24,000 rows and the header). */
function csvMaximo(): string {
  const filas = [CABECERA];
  for (let d = 0; d < 500; d++) {
    for (let e = 0; e < MAX_ENVIOS; e++) filas.push(fila({ ref_externa: `MAX-${d}`, origen: `Almacén ${e + 1}, Lleida`, destino: `Cliente ${d}, Málaga` }));
  }
  return `${filas.join('\r\n')}\r\n`;
}

/**
 * Calls `alLeer` when the server has read the whole body of the next request
 * to `ruta` (Node's `http.server.request.start` channel): from then on that
 * request needs nothing more from the network, and anything else the server
 * answers before it does, it answers in between that request's own work.
 */
function alLeerCuerpo(ruta: string, alLeer: () => void): () => void {
  const canal = diagnostics.channel('http.server.request.start');
  const oyente = (mensaje: unknown) => {
    const { request } = mensaje as { request: IncomingMessage };
    if (!request.url?.startsWith(ruta)) return;
    canal.unsubscribe(oyente);
    request.once('end', alLeer);
  };
  canal.subscribe(oyente);
  return () => canal.unsubscribe(oyente);
}

describe('POST /importar of a large file', () => {
  const maximo = csvMaximo();

  it('refuses at once, with 422 naming the file, a file one row over 1 + 500 × 48 rows; takes one at the bound', async ({ app, cuentaNueva: c }) => {
    const fx = { app, c } as Fx;
    // One row over, and that row a broken quote: refused on the count of rows, before the
    // parser could get to it (read in full, the answer would be «El CSV no se puede leer»).
    const pasado = await importar(fx, `${maximo}"sin cerrar;x\r\n`, '?validar=1');
    expect(pasado.status, pasado.texto).toBe(422);
    expect(pasado.body.error.codigo).toBe('validacion');
    expect(pasado.body.error.mensaje).toBe(
      'El archivo tiene 24.002 filas y una importación admite como máximo 24.001: la cabecera y una fila por envío, ' +
        'con hasta 48 envíos en cada una de las 500 DeCA. Divídalo en varios archivos. No se ha guardado nada.',
    );
    expect(pasado.body.error.campos).toEqual({ csv: pasado.body.error.mensaje });

    const justo = await importar(fx, maximo, '?validar=1');
    expect(justo.status, justo.texto.slice(0, 500)).toBe(200);
    const r = Importacion.parse(justo.body);
    expect(r).toMatchObject({ validar: true, creados: 0, errores: 0 });
    expect(r.decas).toHaveLength(500);
    expect(r.decas.every((d) => d.resultado === 'valida' && d.lineas.length === MAX_ENVIOS)).toBe(true);
    expect(r.decas[499]!.lineas.at(-1)).toBe(24_001);
  });

  it('lists at most 50 errors of one DeCA, and says how many more it has', async ({ app, cuentaNueva: c }) => {
    // 48 rows of one DeCA, each but the first with another cargador and conductor: 94 conflicts.
    const filas = Array.from({ length: MAX_ENVIOS }, (_, i) => fila({ ref_externa: 'MUCHOS', ...(i ? { cargador: `Cargador ${i}`, conductor: `Conductor ${i}` } : {}) }));
    const r = Importacion.parse((await importar({ app, c } as Fx, `${CABECERA}\n${filas.join('\n')}\n`, '?validar=1')).body);
    const errores = r.decas[0]!.errores;
    expect(errores).toHaveLength(51);
    expect(errores[0]).toMatchObject({ linea: 3, columna: 'cargador', mensaje: 'Distinto de la línea 2 («Frutas Peñalara, S.A.»): una DeCA tiene un solo valor' });
    expect(errores[50]).toEqual({ linea: 2, columna: null, mensaje: 'Y 44 errores más en esta DeCA: corrija los anteriores y vuelva a comprobar el archivo.' });
  });

  it('answers other requests while it checks the largest file: /healthz and a GET with a key come back before the import does', async ({ app, c }) => {
    const orden: string[] = [];
    const otras: Promise<void>[] = [];
    // Sent once the server holds the whole file, so each has to be answered in between the import's own work.
    const quitar = alLeerCuerpo('/api/v1/importar', () => {
      otras.push(
        fetch(`${app.url}/healthz`).then(async (res) => {
          await res.arrayBuffer();
          orden.push(`healthz ${res.status}`);
        }),
        fetch(`${app.url}/api/v1/decas?limite=1`, { headers: { authorization: `Bearer ${c.live}` } }).then(async (res) => {
          await res.arrayBuffer();
          orden.push(`decas ${res.status}`);
        }),
      );
    });
    try {
      // Noted when its headers arrive, which the server writes as soon as its work ends; uncompressed,
      // so that they leave at that very moment rather than after a first piece of gzip.
      const res = await fetch(`${app.url}/api/v1/importar?validar=1`, {
        method: 'POST',
        headers: { authorization: `Bearer ${c.live}`, 'content-type': 'text/csv', 'accept-encoding': 'identity' },
        body: maximo,
      });
      orden.push(`importar ${res.status}`);
      expect(Importacion.parse(await res.json()).decas).toHaveLength(500);
      await Promise.all(otras);
    } finally {
      quitar();
    }
    expect(otras).toHaveLength(2);
    expect(orden.slice(0, 2).sort()).toEqual(['decas 200', 'healthz 200']);
    expect(orden[2]).toBe('importar 200');
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
    expect(lineas[0]).toBe(`${CABECERA};emisor_rol;transportista_domicilio;nota;${COLUMNAS_EFTI.join(';')};numero;estado;version;emitido_at;fin_servicio_at`);
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
