import { describe, expect, it } from 'vitest';
import { agruparFilas, columnaDeCampo, contarFilasCsv, type DecaParaCsv, fechaCsv, filasDeDeca, lineaCsv, neutralizar } from '../../../shared/rules/csv-deca';

describe('fechaCsv', () => {
  it.each([
    ['23/11/2026', '2026-11-23'],
    ['3/1/2026', '2026-01-03'],
    ['03-01-2026', '2026-01-03'],
    ['2026-11-23', '2026-11-23'],
    ['mañana', 'mañana'],
  ])('%j → %j', (a, b) => expect(fechaCsv(a)).toBe(b));
});

describe('neutralizar', () => {
  it('puts an apostrophe before what a spreadsheet would run as a formula, and nothing else', () => {
    expect(['=1+1', '+34 600', '-Huesca', '@casa', '\tx', '\rx', 'R-1234-BBC', 'Lleida', ''].map(neutralizar)).toEqual([
      "'=1+1",
      "'+34 600",
      "'-Huesca",
      "'@casa",
      "'\tx",
      "'\rx",
      'R-1234-BBC',
      'Lleida',
      '',
    ]);
  });
});

describe('agruparFilas', () => {
  const fila = (linea: number, celdas: Record<string, string>) => ({ linea, celdas });
  it('makes one DeCA per ref_externa, else per referencia, else per row; each row a shipment; a differing DeCA cell is a conflict', () => {
    const decas = agruparFilas([
      fila(2, { ref_externa: 'A', cargador: 'X', origen: 'Lleida', peso: '1.000', unidad: 'KG' }),
      fila(3, { ref_externa: 'A', cargador: 'Y', origen: 'Huesca', peso: '2' }),
      fila(4, { referencia: 'R', origen: 'Tudela', tipo_vehiculo: 'Rigido', fecha_transporte: '1/2/2026' }),
      fila(5, { origen: 'Suelta' }),
      fila(6, { ref_externa: "'=A" }),
    ]);
    expect(decas.map((d) => [d.clave, d.lineas, d.lineasEnvio])).toEqual([
      ['ref:A', [2, 3], [2, 3]],
      ['referencia:R', [4], [4]],
      ['linea:5', [5], [5]],
      ['ref:=A', [6], []],
    ]);
    expect(decas[0]!.cuerpo).toMatchObject({
      ref_externa: 'A',
      cargador_nombre: 'X',
      envios: [
        { origen: 'Lleida', peso: '1.000', unidad: 'kg' },
        { origen: 'Huesca', peso: '2' },
      ],
    });
    expect(decas[0]!.conflictos).toEqual([{ linea: 3, columna: 'cargador', mensaje: 'Distinto de la línea 2 («X»): una DeCA tiene un solo valor' }]);
    expect(decas[1]!.cuerpo).toMatchObject({ referencia: 'R', tipo_vehiculo: 'rigido', fecha_transporte: '2026-02-01' });
  });

  it('keeps together, by the export’s `numero`, the rows of a DeCA without references, and takes no data from the reconciling columns', () => {
    const decas = agruparFilas([
      fila(2, { origen: 'Lleida', numero: '2026-000007', estado: 'emitido', version: '3' }),
      fila(3, { origen: 'Huesca', numero: '2026-000007', estado: 'emitido', version: '3' }),
      fila(4, { origen: 'Tudela', numero: '2026-000008' }),
      fila(5, { referencia: 'R', origen: 'Jaén', numero: '2026-000009' }),
    ]);
    expect(decas.map((d) => [d.clave, d.lineas])).toEqual([
      ['numero:2026-000007', [2, 3]],
      ['numero:2026-000008', [4]],
      ['referencia:R', [5]],
    ]);
    expect(Object.keys(decas[0]!.cuerpo).sort()).toEqual(['envios']);
  });
});

describe('agruparFilas with the eFTI columns', () => {
  it('takes the addresses in parts and the countries once per DeCA, the consignee per row; a consignee alone is no shipment', () => {
    const [deca] = agruparFilas([
      {
        linea: 2,
        celdas: {
          ref_externa: 'E',
          origen: 'A',
          destino: 'B',
          mercancia: 'C',
          peso: '1',
          cargador_cp: '25001',
          transportista_pais: 'pt',
          matricula_pais: 'fr',
          destinatario: 'D1',
          destinatario_nif: 'B12345674',
        },
      },
      { linea: 3, celdas: { ref_externa: 'E', origen: 'A', destino: 'B2', mercancia: 'C', peso: '2', cargador_cp: '25001', destinatario: 'D2' } },
      { linea: 4, celdas: { ref_externa: 'E', destinatario: 'solo' } },
    ]);
    expect(deca!.cuerpo).toMatchObject({ cargador_cp: '25001', transp_pais: 'PT', matricula_pais: 'FR' });
    expect(deca!.cuerpo.envios).toEqual([
      { origen: 'A', destino: 'B', naturaleza: 'C', peso: '1', destinatario_nombre: 'D1', destinatario_nif: 'B12345674' },
      { origen: 'A', destino: 'B2', naturaleza: 'C', peso: '2', destinatario_nombre: 'D2' },
    ]);
    expect(deca!.conflictos).toEqual([]);
    expect(columnaDeCampo(['transp_cp'])).toBe('transportista_cp');
    expect(columnaDeCampo(['envios', 1, 'destinatario_nif'])).toBe('destinatario_nif');
  });
});

describe('agruparFilas on long cells', () => {
  it('quotes only the start of a long value in a conflict: a 5 MB file must not answer 47 copies of its cells', () => {
    const largo = 'x'.repeat(100_000);
    const [deca] = agruparFilas([
      { linea: 2, celdas: { ref_externa: 'A', cargador: largo } },
      { linea: 3, celdas: { ref_externa: 'A', cargador: 'Y' } },
    ]);
    expect(deca!.conflictos).toEqual([{ linea: 3, columna: 'cargador', mensaje: `Distinto de la línea 2 («${'x'.repeat(40)}…»): una DeCA tiene un solo valor` }]);
  });
});

describe('contarFilasCsv', () => {
  const bytes = (s: string) => new TextEncoder().encode(s);
  it.each([
    ['', 0],
    ['a;b', 1],
    ['a;b\n1;2\n', 2],
    ['a;b\r\n1;2\r\n3;4', 3],
    ['a;b\r1;2\r', 2],
    // Blank lines are skipped by the reader, so they are not rows.
    ['a;b\n\n1;2\n\n\n', 2],
    ['a;b\r\n\r\n1;2\r\n', 2],
    // A line break inside quotes is part of a cell, in every kind of file.
    ['a;b\n"línea 1\nlínea 2";2\n3;"x\r\n"\n', 3],
    ['a;b\r\n"dice ""hola""\r\nadiós";2\r\n', 2],
    // The file's first break decides: in a CRLF file a lone LF is data, as the reader takes it.
    ['a;b\r\n1\n2;3\r\n', 2],
    // A line of spaces is a row (the reader makes a record of it).
    ['a;b\n  \n', 2],
  ])('%j has %i rows', (texto, filas) => expect(contarFilasCsv(bytes(texto))).toBe(filas));
});

describe('columnaDeCampo', () => {
  it('names the CSV column of an input field', () => {
    expect(columnaDeCampo(['transp_nombre'])).toBe('transportista');
    expect(columnaDeCampo(['envios', 2, 'naturaleza'])).toBe('mercancia');
    expect(columnaDeCampo(['matricula_remolque'])).toBe('remolque');
    expect(columnaDeCampo(['envios'])).toBe('origen');
    expect(columnaDeCampo(['emitir'])).toBeNull();
  });
});

describe('filasDeDeca and lineaCsv', () => {
  it('writes one row per shipment, weights with a decimal comma, quotes what needs it', () => {
    const d: DecaParaCsv = {
      ref_externa: 'E-1',
      referencia: null,
      fecha_transporte: '2026-11-23',
      cargador_nombre: 'Frutas; S.A.',
      cargador_nif: 'A58818501',
      cargador_domicilio: null,
      transp_nombre: 'T',
      transp_nif: 'B12345674',
      transp_domicilio: 'Zaragoza',
      tipo_vehiculo: 'rigido',
      matricula: '1234BCD',
      matricula_remolque: null,
      autorizacion_especial: null,
      conductor_nombre: null,
      conductor_tel: '+34 600',
      observaciones: 'dice "hola"\nadiós',
      emisor_rol: 'transportista',
      numero: '2026-000042',
      estado: 'emitido',
      version: 2,
      emitido_at: '2026-11-23T08:15:00+01:00',
      fin_servicio_at: null,
      cargador_cp: null,
      cargador_municipio: 'Lleida',
      cargador_provincia: null,
      cargador_pais: null,
      transp_cp: '50001',
      transp_municipio: null,
      transp_provincia: null,
      transp_pais: 'ES',
      matricula_pais: 'ES',
      remolque_pais: null,
      envios: [
        { origen: 'Lleida', destino: 'Málaga', naturaleza: 'Fruta', peso: 18250.5, unidad: 'kg', nota: null, destinatario_nombre: 'Frutas del Sur, S.L.', destinatario_nif: 'B12345674' },
        { origen: 'Huesca', destino: 'Jaén', naturaleza: 'Cajas', peso: 3, unidad: 'palets', nota: 'ojo', destinatario_nombre: null, destinatario_nif: null },
      ],
    };
    const filas = filasDeDeca(d).map(lineaCsv);
    expect(filas).toHaveLength(2);
    expect(filas[0]).toBe(
      'E-1;;2026-11-23;"Frutas; S.A.";A58818501;;T;B12345674;Lleida;Málaga;Fruta;18250,5;kg;rigido;1234BCD;;;;\'+34 600;"dice ""hola""\nadiós";transportista;Zaragoza;;;Lleida;;;50001;;;ES;ES;;Frutas del Sur, S.L.;B12345674;2026-000042;emitido;2;2026-11-23T08:15:00+01:00;',
    );
    expect(filas[1]).toContain(';Huesca;Jaén;Cajas;3;palets;');
    // Every row of the DeCA carries what an office reconciles with, after the shipment's note and the eFTI columns (the consignee is the row's).
    expect(filas[1]!.endsWith(';ojo;;Lleida;;;50001;;;ES;ES;;;;2026-000042;emitido;2;2026-11-23T08:15:00+01:00;')).toBe(true);
  });
});
