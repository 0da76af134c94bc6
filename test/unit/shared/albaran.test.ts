import { describe, expect, it } from 'vitest';
import {
  buscarFechas,
  buscarMatriculas,
  buscarMatriculasEtiquetadas,
  buscarNifs,
  buscarPesos,
  certezaDeLinea,
  esEtiqueta,
  filasDeEnvio,
  leerAlbaran,
  leerBloques,
  leerEnColumnas,
  lineaPorReleer,
  lineasDeCampos,
  mejorLectura,
  type PalabraLeida,
  pareceRuido,
  situarCampos,
} from '../../../shared/rules/albaran';
import { DecaInput } from '../../../shared/schemas/deca';

describe('buscarNifs', () => {
  it('finds NIF, NIE and CIF as printed (ES prefix, dots, dashes, spaces) with the check digit right', () => {
    const t = 'CIF: ES-B12.345.674  ·  NIF 12345678Z  ·  NIE X-1234567-L  ·  A58818501';
    expect(buscarNifs(t).map((n) => [n.nif, n.confianza])).toEqual([
      ['B12345674', 0.95],
      ['12345678Z', 0.95],
      ['X1234567L', 0.95],
      ['A58818501', 0.95],
    ]);
  });

  it('undoes the usual OCR slips (O for 0, I or l for 1, S for 5) when that makes the check digit right, with less confidence', () => {
    expect(buscarNifs('C.I.F. B1234S674')).toEqual([{ nif: 'B12345674', confianza: 0.8, posicion: 7 }]);
    expect(buscarNifs('NIF: A588I85O1').map((n) => [n.nif, n.confianza])).toEqual([['A58818501', 0.8]]);
  });

  it('reads a CIF whose letter came out as a digit (G as 6) only where a NIF label stands before it', () => {
    expect(buscarNifs('N.I.F.: 604317764').map((n) => [n.nif, n.confianza])).toEqual([['G04317764', 0.8]]);
    expect(buscarNifs('Tel. 604317764')).toEqual([]);
  });

  it('reads a DNI whose letter came out as a digit (L as 1, Z as 7) where a label stands before it', () => {
    expect(buscarNifs('NIF: 484470121').map((n) => [n.nif, n.confianza])).toEqual([['48447012L', 0.8]]);
    expect(buscarNifs('NIF 216539857').map((n) => n.nif)).toEqual(['21653985Z']);
    expect(buscarNifs('Tel. 484470121')).toEqual([]);
  });

  it('reads nine digits after a company’s name, or with the first set apart by a dash, as a CIF whose letter was misread', () => {
    expect(buscarNifs('Transportes Núñez, S.L. 895432118').map((n) => n.nif)).toEqual(['B95432118']);
    expect(buscarNifs('Transportes Núñez 8-95432118').map((n) => n.nif)).toEqual(['B95432118']);
    expect(buscarNifs('Transportes Núñez, llame al 895432118')).toEqual([]);
  });

  it('reads a handwritten 9 taken for a 4, and prefers the fewest changes, then a company’s CIF, when several readings fit', () => {
    expect(buscarNifs('NIF: 627604284').map((n) => n.nif)).toEqual(['G27604289']);
    // B read as 8 (a CIF) or Z read as 2 (a DNI): both fit; the CIF goes first, for the user to check.
    expect(buscarNifs('NIF: 835098862').map((n) => [n.nif, n.confianza])).toEqual([['B35098862', 0.45]]);
    // A right check digit as read is never «corrected».
    expect(buscarNifs('NIF: B35098862').map((n) => [n.nif, n.confianza])).toEqual([['B35098862', 0.95]]);
  });

  it('reads a handwritten 4 taken for U or Y in a labelled NIF, even with few digits left as read', () => {
    expect(buscarNifs('NIF: B69SUUI38').map((n) => [n.nif, n.confianza])).toEqual([['B69544138', 0.8]]);
    expect(buscarNifs('NIF: B8U388636').map((n) => n.nif)).toEqual(['B84388636']);
    expect(buscarNifs('NIF: A6Y3Y0557').map((n) => n.nif)).toEqual(['A64340557']);
    // Unlabelled, a word with a few digits in it stays a word.
    expect(buscarNifs('Ref. B69SUUI38')).toEqual([]);
  });

  it('keeps a NIF whose check digit is wrong with low confidence, and ignores words and phone numbers', () => {
    expect(buscarNifs('NIF B12345678').map((n) => [n.nif, n.confianza])).toEqual([['B12345678', 0.3]]);
    expect(buscarNifs('ASOLIDOSX, Tel. 976 123 456, pedido 2026/000123')).toEqual([]);
  });
});

describe('buscarMatriculas', () => {
  it('tells the tractor from the trailer by the R, written before or after', () => {
    expect(buscarMatriculas('Matrícula: 1234-BCD   Remolque: R-5678-BBC')).toMatchObject({ matricula: '1234BCD', remolque: 'R5678BBC' });
    expect(buscarMatriculas('Tractora 9876 FGH / semirremolque 4321 DFG-R')).toMatchObject({ matricula: '9876FGH', remolque: 'R4321DFG' });
    expect(buscarMatriculas('Vehículo M-1234-AB')).toMatchObject({ matricula: 'M1234AB', remolque: null });
    expect(buscarMatriculas('Matrícula: 1670 NYS\nRemolque: R-7472-LTK')).toMatchObject({ matricula: '1670NYS', remolque: 'R7472LTK' });
    expect(buscarMatriculas('1670 NYS R-7472-LTK')).toMatchObject({ matricula: '1670NYS', remolque: 'R7472LTK' });
  });
  it('undoes the usual slips in a labelled plate’s letters (J as «)» or I, D as 0), with less confidence', () => {
    expect(buscarMatriculasEtiquetadas('Matrícula: 8118 P)Y Remolque: R-3016-SPS')).toEqual({ matricula: '8118PJY', remolque: 'R3016SPS', confianza: { matricula: 0.6, remolque: 0.9 } });
    expect(buscarMatriculasEtiquetadas('MATRICULA: 4364 SIM REMOLQUE: R-8782-RF0')).toMatchObject({ matricula: '4364SJM', remolque: 'R8782RFD' });
    expect(buscarMatriculasEtiquetadas('Matrícula: 9204 N)JG').matricula).toBe('9204NJG');
    expect(buscarMatriculas('Matrícula: 8118 P)Y').matricula).toBeNull();
  });
  it('undoes a handwritten F read as E, and a 4 read as U, in a labelled plate only', () => {
    expect(buscarMatriculasEtiquetadas('Matrícula: 8334 MEN').matricula).toBe('8334MFN');
    expect(buscarMatriculasEtiquetadas('Matrícula: U863 RNB').matricula).toBe('4863RNB');
    expect(buscarMatriculas('Matrícula: U863 RNB').matricula).toBeNull();
    // Four letters with no digit are a word, not a plate.
    expect(buscarMatriculasEtiquetadas('Matrícula: OSLO BCN').matricula).toBeNull();
  });
  it('joins a labelled plate’s letters that a dot-matrix print spaced apart', () => {
    expect(buscarMatriculasEtiquetadas('MATRICULA: 8085 JFF REMOLQUE: R-8121-WT M')).toMatchObject({ matricula: '8085JFF', remolque: 'R8121WTM' });
    expect(buscarMatriculasEtiquetadas('Matrícula: 8085 J FF').matricula).toBe('8085JFF');
    expect(buscarMatriculas('REMOLQUE: R-8121-WT M').remolque).toBeNull();
  });
  it('does not take a postcode, a vowel series or a reference for a plate', () => {
    expect(buscarMatriculas('50012 Zaragoza, pedido 1234 ABC, albarán 2026-1234')).toMatchObject({ matricula: null, remolque: null });
  });
});

describe('a second look at a line', () => {
  it('asks for one where a labelled NIF’s check character does not hold as read, or was read in small letters', () => {
    expect(lineaPorReleer('NIF: 829646150')).toBe(true); // B29696150 with a 9 read as 4: no reading holds
    expect(lineaPorReleer('N.I.F.: 92656719')).toBe(true); // the CIF's letter dropped
    expect(lineaPorReleer('NIF: 7659042200')).toBe(true);
    expect(lineaPorReleer('NIF: g10050706')).toBe(true); // holds as G…, but OCR hesitated
    expect(lineaPorReleer('NIF: B18165779')).toBe(false);
    expect(lineaPorReleer('CIF: ES-B12.345.674')).toBe(false);
    // Not labelled: a phone number or a reference is left alone.
    expect(lineaPorReleer('Tel. 976 123 456 · Pedido 829646150')).toBe(false);
  });
  it('asks for one where a labelled plate is missing, not where it was read', () => {
    expect(lineaPorReleer('Matrícula: 309) BN')).toBe(true);
    expect(lineaPorReleer('Remolque: R-4160-Lw')).toBe(true);
    expect(lineaPorReleer('Matrícula: 8785 ZZK Remolque: R-7316-NLS')).toBe(false);
    expect(lineaPorReleer('Matrícula: 8785 ZZK Remolque:')).toBe(true);
    expect(lineaPorReleer('Mercancía: azulejos en palés')).toBe(false);
  });
  it('keeps the surer reading: a NIF that holds over one that does not, a plate over none, the first on a tie', () => {
    expect(mejorLectura('NIF: 829646150', 'NIF: 829696150')).toBe('NIF: 829696150'); // B29696150 holds after 8 → B
    expect(mejorLectura('N.I.F.: 92656719', 'N.I.F.: F92656719')).toBe('N.I.F.: F92656719');
    expect(mejorLectura('NIF: g10050706', 'NIF: 810050706')).toBe('NIF: 810050706');
    expect(mejorLectura('NIF: B18165779', 'NIF: 818165779')).toBe('NIF: B18165779');
    expect(mejorLectura('Matrícula: 309) BN', 'Matrícula: 3091 MBN')).toBe('Matrícula: 3091 MBN');
    expect(mejorLectura('Matrícula: 4364 STM', 'Matrícula: 4364 ST')).toBe('Matrícula: 4364 STM');
    expect(mejorLectura('Matrícula: 1234 BCD', 'Matrícula: 1234 BCF')).toBe('Matrícula: 1234 BCD');
    expect(certezaDeLinea('NIF: B18165779 · Matrícula: 1234 BCD')).toBeCloseTo(0.95 + 0.9);
  });
});

describe('buscarFechas', () => {
  it('reads the forms notes use, and refuses impossible dates', () => {
    expect(buscarFechas('Fecha: 23/11/2026').map((f) => f.fecha)).toEqual(['2026-11-23']);
    expect(buscarFechas('carga 3-1-26').map((f) => f.fecha)).toEqual(['2026-01-03']);
    expect(buscarFechas('Zaragoza, 23 de noviembre de 2026').map((f) => f.fecha)).toEqual(['2026-11-23']);
    expect(buscarFechas('salida 5-Dic-2026 y llegada 2026-12-06').map((f) => f.fecha)).toEqual(['2026-12-05', '2026-12-06']);
    expect(buscarFechas('31/02/2026 y 12/13/2026')).toEqual([]);
    expect(buscarFechas('Les confirmamos la carga para el 25/05/2026.').map((f) => f.fecha)).toEqual(['2026-05-25']);
    expect(buscarFechas('versión 1.2.2026.4')).toEqual([]);
  });
});

describe('buscarPesos', () => {
  it('reads weights with a unit and Spanish separators; a bare number is not a weight', () => {
    expect(buscarPesos('Peso bruto: 24.500 kg, 18.250,5 kgs, 1,5 t y 24 500 kilos; 12 palets; 300').map((p) => [p.valor, p.unidad])).toEqual([
      [24500, 'kg'],
      [18250.5, 'kg'],
      [1.5, 't'],
      [24500, 'kg'],
    ]);
  });
});

describe('leerBloques', () => {
  it('takes each labelled block: the rest of its line and the lines under it (blank ones skipped, as OCR leaves them), up to the next label', () => {
    const b = leerBloques('1. Remitente:\n\nFrutas Peñalara, S.A.\n\nNIF A58818501\n\n2. Destinatario\nMercamálaga, puesto 7\n3) Lugar de carga: Lleida');
    expect(b.map((x) => [x.etiqueta, x.lineas])).toEqual([
      ['cargador', ['Frutas Peñalara, S.A.', 'NIF A58818501']],
      ['destinatario', ['Mercamálaga, puesto 7']],
      ['origen', ['Lleida']],
    ]);
  });
});

describe('filasDeEnvio', () => {
  it('reads the rows of a goods table, each with its weight, up to the total', () => {
    const t = [
      'Nº  Descripción de la mercancía          Bultos   Peso (kg)',
      '1   Piñones en sacos de 25 kg             40       1.000',
      '2   Ñoras secas                           12       300,5',
      'Total                                              1.300,5',
    ].join('\n');
    expect(filasDeEnvio(t)).toEqual([
      { naturaleza: 'Piñones en sacos de 25 kg', peso: 1000, unidad: 'kg' },
      { naturaleza: 'Ñoras secas', peso: 300.5, unidad: 'kg' },
    ]);
  });
});

describe('leerAlbaran', () => {
  const ALBARAN = `ALBARÁN DE ENTREGA Nº 4711
Fecha: 23/11/2026

Remitente:
Frutas Peñalara, S.A.
NIF: A58818501
Camí Vell 3, 25001 Lleida

Transportista:
Transportes Núñez, S.L.
CIF B-12345674
Avda. de la Ilustración 7, 50012 Zaragoza

Lugar de carga: Polígono El Segre, Lleida
Lugar de descarga: Mercamálaga, puesto 7, Málaga

Matrícula: 1234 BCD    Remolque: R-5678-BBC
Conductor: José Ángel Muñoz  Tel. 600 111 222

Descripción de la mercancía                Peso (kg)
Piñones en sacos                           18.250,5
Ñoras secas                                2.000
`;

  it('proposes every datum of a table delivery note, with confidences', () => {
    const { propuesta, confianza, avisos } = leerAlbaran(ALBARAN);
    expect(propuesta).toEqual({
      cargador_nombre: 'Frutas Peñalara, S.A.',
      cargador_nif: 'A58818501',
      cargador_domicilio: 'Camí Vell 3, 25001 Lleida',
      transp_nombre: 'Transportes Núñez, S.L.',
      transp_nif: 'B12345674',
      transp_domicilio: 'Avda. de la Ilustración 7, 50012 Zaragoza',
      fecha_transporte: '2026-11-23',
      matricula: '1234BCD',
      matricula_remolque: 'R5678BBC',
      conductor_nombre: 'José Ángel Muñoz',
      conductor_tel: '600 111 222',
      envios: [
        { origen: 'Polígono El Segre, Lleida', destino: 'Mercamálaga, puesto 7, Málaga', naturaleza: 'Piñones en sacos', peso: 18250.5, unidad: 'kg' },
        { origen: 'Polígono El Segre, Lleida', destino: 'Mercamálaga, puesto 7, Málaga', naturaleza: 'Ñoras secas', peso: 2000, unidad: 'kg' },
      ],
    });
    expect(confianza.cargador_nif).toBe(0.95);
    expect(confianza['envios[1].peso']).toBeGreaterThan(0.8);
    expect(avisos).toEqual([]);
  });

  it('strips the invisible characters an OCR engine leaves, so the form never refuses its proposal', () => {
    // Zero-width spaces inside a NIF and a plate, a soft hyphen in a word, a BOM at the start, an RLM, a line separator.
    const sucio = `\ufeff${ALBARAN}`
      .replace('A58818501', 'A588\u200b18501')
      .replace('1234 BCD', '1234\u200d BCD')
      .replace('Piñones en sacos', 'Piño\u00adnes en sacos\u200f')
      .replace('Ñoras secas', 'Ñoras\u2060 secas');
    const limpio = leerAlbaran(ALBARAN);
    const leida = leerAlbaran(sucio);
    expect(leida.propuesta).toEqual(limpio.propuesta);
    const r = DecaInput.safeParse({ ...leida.propuesta, emitir: false });
    expect(r.success, JSON.stringify(r.error?.issues)).toBe(true);
  });

  it('recognises the account’s own company as its side and the other NIF as the other party', () => {
    const texto = 'PEDIDO DE TRANSPORTE\nCliente: Hortalizas del Ebro SL (NIF B65410011)\nFecha de carga 5-dic-2026\nMercancía: alcachofas\nPeso: 8.000 kg\nDestino: Bilbao';
    const { propuesta, confianza, avisos } = leerAlbaran(texto, { nif: 'B12345674', nombre: 'Transportes Núñez, S.L.', domicilio: 'Zaragoza', rol: 'transportista' });
    expect(propuesta).toMatchObject({
      transp_nif: 'B12345674',
      transp_nombre: 'Transportes Núñez, S.L.',
      cargador_nif: 'B65410011',
      fecha_transporte: '2026-12-05',
      envios: [{ naturaleza: 'alcachofas', peso: 8000, unidad: 'kg', destino: 'Bilbao' }],
    });
    expect(confianza.transp_nif).toBe(0.7);
    expect(avisos).toContain('No se ha leído ninguna matrícula.');
  });

  it('reads a CMR-like form with numbered boxes', () => {
    const cmr = `CARTA DE PORTE
1 Expedidor (nombre, domicilio)
Cooperativa Agrícola de Peñíscola
CIF F12345671
Peñíscola (Castellón)
16 Porteador
Transportes Núñez, S.L.   B12345674
3 Lugar de entrega de la mercancía
Valencia, Muelle 3
4 Lugar y fecha de carga
Peñíscola, 12.11.2026
Matrícula 1234-BCD
11 Peso bruto kg
24.500 kg`;
    const { propuesta } = leerAlbaran(cmr);
    expect(propuesta).toMatchObject({
      cargador_nombre: 'Cooperativa Agrícola de Peñíscola',
      cargador_nif: 'F12345671',
      transp_nif: 'B12345674',
      transp_nombre: 'Transportes Núñez, S.L.',
      fecha_transporte: '2026-11-12',
      matricula: '1234BCD',
    });
    expect(propuesta.envios[0]).toMatchObject({ peso: 24500, unidad: 'kg', origen: 'Peñíscola', destino: 'Valencia, Muelle 3' });
  });

  it('reads an order e-mail: the date in a sentence, a NIF in brackets after the name, a place with a written date', () => {
    const correo = `Asunto: Pedido de transporte 593
Les confirmamos la carga para el 25/05/2026.
Cargador: Distribuciones Muñoz Ortega, S.L. (NIF B46318085)
Transportista: Autotransportes Pérez Sanz, S.L. 873336257
Origen: Puerto Seco de Coslada, Madrid, 24 de mayo de 2026
Destino: Mercazaragoza, Zaragoza`;
    const { propuesta } = leerAlbaran(correo);
    expect(propuesta).toMatchObject({
      fecha_transporte: '2026-05-25',
      cargador_nombre: 'Distribuciones Muñoz Ortega, S.L.',
      cargador_nif: 'B46318085',
      transp_nombre: 'Autotransportes Pérez Sanz, S.L.',
      transp_nif: 'B73336257',
    });
    // No goods nor weight: the places are still proposed, for the user to add the goods.
    expect(propuesta.envios).toEqual([{ origen: 'Puerto Seco de Coslada, Madrid', destino: 'Mercazaragoza, Zaragoza' }]);
    expect(leerAlbaran(`${correo}\nPeso: 11.000 kg`).propuesta.envios[0]).toMatchObject({ origen: 'Puerto Seco de Coslada, Madrid', destino: 'Mercazaragoza, Zaragoza', peso: 11000 });
  });

  it('reads a note with the usual OCR slips, flagging only what it could not fix', () => {
    const ruido = ALBARAN.replace('A58818501', 'A588l85O1').replace('B-12345674', 'B-1234S674').replace('18.250,5', '18.250,5 ');
    const { propuesta, confianza } = leerAlbaran(ruido);
    expect(propuesta).toMatchObject({ cargador_nif: 'A58818501', transp_nif: 'B12345674' });
    expect(confianza.cargador_nif).toBe(0.8);
    expect(propuesta.envios.map((e) => e.peso)).toEqual([18250.5, 2000]);
  });
});

describe('filasDeEnvio with the columns read apart', () => {
  it('pairs the goods and the weights in order when OCR gave the columns one after the other', () => {
    const texto = 'Peso (kg)\n22.600\n1.500,5\n24.100,5\n\nDescripción de la mercancía\nVino embotellado\nAlcachofas frescas\nTotal';
    expect(filasDeEnvio(texto)).toEqual([
      { naturaleza: 'Vino embotellado', peso: 22600, unidad: 'kg' },
      { naturaleza: 'Alcachofas frescas', peso: 1500.5, unidad: 'kg' },
    ]);
  });
  it('pairs nothing when the counts do not fit', () => {
    expect(filasDeEnvio('Peso (kg)\n22.600\n\nDescripción de la mercancía\nVino embotellado\nAlcachofas frescas\nPiñones\nTotal')).toEqual([]);
  });
});

describe('a printed label is never a value', () => {
  it.each(['REMITENTE', 'Remitente   Transportista', 'NIF:', 'Lugar de descarga', '(nombre, domicilio, país)', '1 Remitente (nombre, domicilio, país)', 'Firma y sello', 'Lugar y fecha de carga'])(
    '%s is a label',
    (t) => expect(esEtiqueta(t)).toBe(true),
  );
  it.each(['Frutas Peñalara, S.A.', 'Puerto de Valencia, Muelle 3', 'Carga general', 'Mercabarna, Barcelona'])('%s is not', (t) => expect(esEtiqueta(t)).toBe(false));

  it('leaves a party’s name empty rather than propose the box’s own caption', () => {
    const { propuesta, confianza } = leerAlbaran('Remitente\nNIF\nB96712344\n\nTransportista:\nREMITENTE\nCIF B21960109');
    expect(propuesta.cargador_nif).toBe('B96712344');
    expect(propuesta.cargador_nombre).toBeUndefined();
    expect(propuesta.transp_nombre).toBeUndefined();
    expect(confianza.transp_nombre).toBeUndefined();
  });
});

/** Words laid on a line at y, each at its x, 20 px tall, 14 px a letter. */
const linea = (y: number, ...trozos: [number, string][]): PalabraLeida[] =>
  trozos.flatMap(([x0, texto]) => {
    let x = x0;
    return texto.split(' ').map((t) => {
      const p = { texto: t, caja: { x0: x, y0: y, x1: x + 14 * t.length, y1: y + 20 }, confianza: 0.9 };
      x += 14 * t.length + 8;
      return p;
    });
  });

describe('leerEnColumnas', () => {
  it('reads a form laid out in two columns column by column, so each label keeps its own value', () => {
    const texto = leerEnColumnas([
      [
        linea(100, [100, 'REMITENTE'], [900, 'TRANSPORTISTA']),
        linea(130, [100, 'Cítricos La Ribera, S.L.'], [900, 'Transportes Núñez, S.L.']),
        linea(160, [100, 'NIF: B96712344'], [900, 'CIF: B21960109']),
        linea(190, [100, 'LUGAR DE CARGA'], [900, 'LUGAR DE ENTREGA']),
        linea(220, [100, 'Mercabarna, Barcelona'], [900, 'Mercazaragoza, Zaragoza']),
      ],
    ])
      .map((p) => p.map((t) => t.texto).join('\n'))
      .join('\n\n');
    const { propuesta } = leerAlbaran(texto);
    expect(propuesta).toMatchObject({ cargador_nombre: 'Cítricos La Ribera, S.L.', cargador_nif: 'B96712344', transp_nombre: 'Transportes Núñez, S.L.', transp_nif: 'B21960109' });
    expect(propuesta.envios[0]).toMatchObject({ origen: 'Mercabarna, Barcelona', destino: 'Mercazaragoza, Zaragoza' });
  });

  it('keeps a goods table’s rows whole: its weight column holds no label of its own', () => {
    const parrafos = leerEnColumnas([
      [linea(100, [100, 'Descripción de la mercancía'], [900, 'Peso (kg)']), linea(130, [100, 'Vino embotellado'], [900, '22.600']), linea(160, [100, 'Alcachofas frescas'], [900, '1.500,5'])],
    ]);
    expect(parrafos.map((p) => p.map((t) => t.texto))).toEqual([['Descripción de la mercancía Peso (kg)', 'Vino embotellado 22.600', 'Alcachofas frescas 1.500,5']]);
  });
});

describe('lineasDeCampos', () => {
  it('points each field at the line it was read from, whatever the separators it was printed with', () => {
    const lineas = [
      'ALBARÁN 123',
      'Fecha: 5 de diciembre de 2026',
      'Remitente: Frutas Peñalara, S.A.',
      'NIF: B-20.868.766',
      'Matrícula: 9391-KTR   Remolque: R-7384 CXW',
      'Naranjas en cajas   18.250,5',
    ];
    const { propuesta } = leerAlbaran(lineas.join('\n'));
    const donde = lineasDeCampos(propuesta, lineas);
    expect(donde).toMatchObject({ fecha_transporte: 1, cargador_nombre: 2, cargador_nif: 3, matricula: 4, matricula_remolque: 4 });
    expect(donde.cargador_domicilio).toBeUndefined();
  });
});

describe('reading what a photo’s OCR gives', () => {
  it('knows a CMR’s boxes by their numbers when their small captions come out garbled', () => {
    const { propuesta } = leerAlbaran(
      'CARTA DE PORTE INTERNACIONAL CMR\n1 Exmeaidor ¡nombre domcilo par\nFerralla Zubieta, S.L.\nCIF B-63135313\n16 Poreano ¡omtre domino par\nTransportes Hermanos Ruiz, S.A.\nCIF B 10793743\n4 ya de carpa y ea\nPuerto Seco de Coslada, Madrid\n08.03.2026',
    );
    expect(propuesta).toMatchObject({ cargador_nombre: 'Ferralla Zubieta, S.L.', cargador_nif: 'B63135313', transp_nombre: 'Transportes Hermanos Ruiz, S.A.', transp_nif: 'B10793743' });
    expect(propuesta.envios[0]?.origen).toBe('Puerto Seco de Coslada, Madrid');
  });

  it('takes a CMR’s parties in its boxes’ order when their captions were lost, to review', () => {
    const { propuesta, confianza } = leerAlbaran(
      'Agroexport Cañete, S.L.\nNIF ES B48175079\nCtra. N-232, km 14\nSupermercados La Despensa, S.A.\nNIF B-81.041.535\nCARTA DE PORTE INTERNACIONAL\nCamiones Ibáñez Orduña, S.L.\nNIF G-52504529\nCalle San Vicente 41',
    );
    expect(propuesta).toMatchObject({ cargador_nombre: 'Agroexport Cañete, S.L.', cargador_nif: 'B48175079', transp_nombre: 'Camiones Ibáñez Orduña, S.L.', transp_nif: 'G52504529' });
    expect(confianza.transp_nif).toBeLessThan(0.6);
  });

  it('takes a label with a letter or two wrong, and a NIF label read N.L.F.', () => {
    const { propuesta } = leerAlbaran('Tramportiuta -\nFrigoríficos Castaño Trans, S.L.\nN.LF. ES 600996702');
    expect(propuesta).toMatchObject({ transp_nombre: 'Frigoríficos Castaño Trans, S.L.', transp_nif: 'G00996702' });
    // «N..F.»: the I lost; a name with «nf» in it is left whole.
    expect(leerAlbaran('Remitente:\nInformática Confiada, S.L.\nN..F. 825108432').propuesta).toMatchObject({ cargador_nombre: 'Informática Confiada, S.L.', cargador_nif: 'B25108432' });
  });

  it('proposes the letterhead’s company and NIF as the shipper, to review, when no block names one', () => {
    const { propuesta, confianza } = leerAlbaran(
      'CÍTRICOS VALL D’UIXÓ\nCítricos Vall d’Uixó, S.L. · NIF B96712344 · Tel. 943 997 125\nALBARÁN DE ENTREGA\nTransportista: TransMontes Peña, S.L.\nNIF ES F33977612\nDestino: Bodega La Umbría, Cariñena\nObservaciones: temperatura 2-4 °C',
    );
    expect(propuesta).toMatchObject({ cargador_nif: 'B96712344', cargador_nombre: 'Cítricos Vall d’Uixó, S.L.', transp_nif: 'F33977612' });
    expect(confianza.cargador_nif).toBeLessThan(0.6);
    expect(propuesta.envios[0]?.destino).toBe('Bodega La Umbría, Cariñena');
  });

  it('takes the load’s date from an e-mail’s sentence, not its send date beside a time', () => {
    const { propuesta } = leerAlbaran('02/11/26, 8:37 Correo - Pedido de transporte\nMon, 2 Nov 2026 8:37\nOs confirmamos la carga para el Miércoles, 4 de noviembre de 2026, con estos datos:');
    expect(propuesta.fecha_transporte).toBe('2026-11-04');
  });

  it('reads goods listed under «Naturaleza» with counts and weights, and a table row split over two lines', () => {
    expect(
      leerAlbaran('- Naturaleza:\n1. Harina de trigo en sacos - 10 palés - 5700,5 Kg\n2. Ladrillo cerámico - 58 bultos - 7600 Kg\nTotal: 13300,5 Kg').propuesta.envios.map((e) => [
        e.naturaleza,
        e.peso,
      ]),
    ).toEqual([
      ['Harina de trigo en sacos', 5700.5],
      ['Ladrillo cerámico', 7600],
    ]);
    expect(leerAlbaran('Código Descripción Bultos Peso (kg)\nLA-853 Ladrillo cerámico\n286 cajas 2350\nObservaciones: frágil').propuesta.envios.map((e) => [e.naturaleza, e.peso])).toEqual([
      ['Ladrillo cerámico', 2350],
    ]);
    expect(leerAlbaran('Naturaleza\nAceite de oliva en garrafas\n\nBultos Peso (kg)\n358 bultos 17.500').propuesta.envios.map((e) => [e.naturaleza, e.peso])).toEqual([
      ['Aceite de oliva en garrafas', 17500],
    ]);
  });

  it('takes «El del destinatario» in a CMR’s place of delivery as the consignee’s address', () => {
    const { propuesta } = leerAlbaran('Destinatario:\nSupermercados La Despensa, S.A.\nNIF B81041535\nCtra. N-232, km 14, 29006 Málaga\nLugar de entrega: El del destinatario');
    expect(propuesta.envios[0]?.destino).toBe('Ctra. N-232, km 14, 29006 Málaga');
  });

  it('splits two labelled boxes OCR read as one line, and takes a «Lucar de entrega» and a «” pedido» for what they are', () => {
    const { propuesta } = leerAlbaran('Carga en: Puerto Seco de Coslada, Madrid Lugar de entrega: Polígono Júndiz, Vitoria-Gasteiz\n” pedido\nOC15221');
    expect(propuesta.envios[0]).toMatchObject({ origen: 'Puerto Seco de Coslada, Madrid', destino: 'Polígono Júndiz, Vitoria-Gasteiz' });
    const otra = leerAlbaran('ORIGEN: POLIGONO JUNDIZ, VITORIA-GASTEIZ\nLUCAR DE ENTREGA. MERCAMALAGA, MALAGA');
    expect(otra.propuesta.envios[0]).toMatchObject({ origen: 'POLIGONO JUNDIZ, VITORIA-GASTEIZ', destino: 'MERCAMALAGA, MALAGA' });
  });

  it('reads a goods row’s weight with its thousands apart by a space, and its goods without marks, counts and table bars', () => {
    expect(leerAlbaran('Naturaleza Bultos Peso (kg) ]\nFruta de hueso en cajas 100 cajas 12 000').propuesta.envios.map((e) => [e.naturaleza, e.peso])).toEqual([['Fruta de hueso en cajas', 12000]]);
    expect(
      leerAlbaran('Código Descripción Bultos Peso (kg)\n| MU-965 | Muebles desmontados 315 bultos 8.300 |\nS/M 324 bultos Ñoras secas 22.100').propuesta.envios.map((e) => [e.naturaleza, e.peso]),
    ).toEqual([
      ['Muebles desmontados', 8300],
      ['Ñoras secas', 22100],
    ]);
  });

  it('tells OCR’s noise from a name or a place', () => {
    expect(pareceRuido('CAMIONE IBANEZ a NA $.L')).toBe(true);
    expect(pareceRuido('MERCAZARAGOZA ZARAGOZA, É a “, E PENA » “EZ TLF “74')).toBe(true);
    for (const t of ['Frutas Peñalara, S.A.', 'Ctra. N-232, km 14, 46024 Valencia', 'C/ Río Ebro 27', 'Polígono Júndiz, Vitoria-Gasteiz']) expect(pareceRuido(t), t).toBe(false);
  });

  it('caps a value’s confidence by OCR’s on its line, and places it there', () => {
    const lineas = [
      { texto: 'Remitente: Frutas Peñalara, S.A.', confianza: 0.95 },
      { texto: 'NIF: A58818501', confianza: 0.95 },
      { texto: 'Matrícula: 1234 BCD', confianza: 0.72 },
    ];
    const lectura = leerAlbaran(lineas.map((l) => l.texto).join('\n'));
    expect(lectura.confianza.matricula).toBeGreaterThan(0.9);
    const donde = situarCampos(lectura, lineas);
    expect(donde).toMatchObject({ cargador_nombre: 0, cargador_nif: 1, matricula: 2 });
    expect(lectura.confianza.cargador_nif).toBe(0.95);
    expect(lectura.confianza.matricula).toBeLessThan(0.6);
  });
});

describe('what a photo’s OCR leaves of a table and its boxes', () => {
  it('reads a CMR’s goods rows whose boxes’ captions OCR garbled: marks, count, goods, weight and the volume after it', () => {
    const texto = 'CMR\n6 Ma y rume 7 de but 8 Cie de embalaye | 9 14 10 w 11 Peso 9 12 vormer\nS/M 64 bultos Leche UHT en briks 8.700| 23\nSs/m 344 cajas Ñoras secas 3.400 10\n\n408 Total 12.100';
    expect(filasDeEnvio(texto)).toEqual([
      { naturaleza: 'Leche UHT en briks', peso: 8700, unidad: 'kg' },
      { naturaleza: 'Ñoras secas', peso: 3400, unidad: 'kg' },
    ]);
  });

  it('takes the total as the weight of a one-row table whose row’s weight OCR garbled', () => {
    expect(filasDeEnvio('LIN NATURALEZA BULTOS PESO BRUTO KG\n\n801 VINO EMBOTELLADO 351 4.7060\nTOTAL .... 351 4.700')).toEqual([{ naturaleza: 'VINO EMBOTELLADO', peso: 4700, unidad: 'kg' }]);
    // Two rows read and a total: the total is no row's.
    expect(filasDeEnvio('Mercancía Peso (kg)\nVino 1.000\nAceite 2.000\nTotal 3.000').map((f) => f.peso)).toEqual([1000, 2000]);
  });

  it('proposes the goods without a weight when OCR lost the weight column, never its header or a count', () => {
    expect(filasDeEnvio('[código | Mercancía\n\nPeso bruto (kg)\n\nTU-853 Tubería de PVC\n\n166 sacos')).toEqual([{ naturaleza: 'Tubería de PVC' }]);
    expect(filasDeEnvio('Mercancía\n\nBultos Peso bruto (kg)\n\nMaterial eléctrico\n\nObservaciones: Entregar antes de las 8:00 h.')).toEqual([{ naturaleza: 'Material eléctrico' }]);
    const { propuesta, confianza } = leerAlbaran('Mercancía\n\nBultos Peso bruto (kg)\n\nMaterial eléctrico\n\nObservaciones: Entregar antes de las 8:00 h.');
    expect(propuesta.envios).toEqual([{ naturaleza: 'Material eléctrico' }]);
    expect(confianza['envios[0].naturaleza']).toBeLessThan(0.6);
  });

  it('gives places without the country a CMR prints, the day of the week, a caption’s remains or OCR’s specks', () => {
    const texto = 'CMR\n3 Lugar de entrega\nMercasevilla, Sevilla (ESPAÑA)\n4 Lugar y fecha de carga\ny fecha\nCentro de Transportes de Benavente\nDomingo, 15 de marzo de 2026\nSe .';
    expect(leerAlbaran(texto).propuesta.envios[0]).toMatchObject({ origen: 'Centro de Transportes de Benavente', destino: 'Mercasevilla, Sevilla' });
  });

  it('ends a CMR’s place where the right column’s box OCR read on the same line begins', () => {
    const texto = 'CMR\n3 Lugar de enuega o"\nPuerto de Valencia, Muelle 3 18 Reservas y onservaciones del porteade\n4 Lugar y fecha de carga\nMercasevilla, Sevilla';
    expect(leerAlbaran(texto).propuesta.envios[0]).toMatchObject({ origen: 'Mercasevilla, Sevilla', destino: 'Puerto de Valencia, Muelle 3' });
  });

  it('does not take a sentence that starts with «Descarga» or «Entrega» for the place’s label', () => {
    const texto = 'Destinatario\nAlmacenes Gutiérrez Roldán, S.L.\nNIF B12345674\nCami Vell 3\n28823 Coslada\n\nObservaciones\nDescarga con transpalé.';
    expect(leerAlbaran(texto).propuesta.envios[0]?.destino).toBe('Cami Vell 3, 28823 Coslada');
  });

  it('keeps the lines under a row of labels with the party’s column, not with the plate’s label at its end', () => {
    const texto = 'Porteador: Camiones Ibáñez Orduña, S.L. Tractora: 2095 NRX Semirremolque: R-1840 DWW\nCIF A-58818501\nCalle Mayor 3';
    expect(leerAlbaran(texto).propuesta).toMatchObject({ transp_nombre: 'Camiones Ibáñez Orduña, S.L.', transp_nif: 'A58818501', matricula: '2095NRX', matricula_remolque: 'R1840DWW' });
    // The same row printed without colons: the labels after the first are not the party's name.
    const sinDosPuntos = leerAlbaran('Porteador Vehículo Semirremolque\nTransportes Ondarroa Begoña, S.L. 2150 XSV R-7999 PGS\nNIF ES B12345674').propuesta;
    expect(sinDosPuntos).toMatchObject({ transp_nombre: 'Transportes Ondarroa Begoña, S.L.', transp_nif: 'B12345674', matricula: '2150XSV', matricula_remolque: 'R7999PGS' });
  });

  it('gives a party whose NIF OCR separated from its name the one NIF no one else has, for review', () => {
    const texto =
      'CMR\n1 Remitente\nFrutas Peñalara, S.A.\nNIF A58818501\n16 Transportista\nTrans-Ebro Carga, S.L.\n2 Destinatario\nSupermercados La Despensa, S.A.\nNIF 12345678Z\nAvda. de la Ilustración 7\n47012 Valladolid\nNIF B12345674\nC/ Río Ebro 27';
    const { propuesta, confianza } = leerAlbaran(texto);
    expect(propuesta.transp_nif).toBe('B12345674');
    expect(confianza.transp_nif).toBeLessThan(0.6);
    // Two such NIFs: neither is guessed.
    expect(leerAlbaran(`${texto}\nNIF X1234567L`).propuesta.transp_nif).toBeUndefined();
  });

  it('reads a plate whose dash OCR spaced, and one whose letters it slipped nowhere labelled, the latter for review', () => {
    expect(buscarMatriculas('0026 - XNL').matricula).toBe('0026XNL');
    const { propuesta, confianza } = leerAlbaran('Albarán 086383 2953 JIR\nR 7827-FX)');
    expect(propuesta).toMatchObject({ matricula: '2953JJR', matricula_remolque: 'R7827FXJ' });
    expect(confianza.matricula).toBeLessThan(0.6);
    // Never across lines: a year and the next line's letters are not a plate.
    expect(leerAlbaran('Córdoba 21.09.2027\nCIF B12345674').propuesta.matricula).toBeUndefined();
  });
});

describe('what OCR drops from a weight or a row', () => {
  it('reads a weight whose decimal comma OCR lost between thousands and the decimal', () => {
    expect(buscarPesos('- FRUTA DE HUESO EN CAJAS 6.3005 KG').map((p) => p.valor)).toEqual([6300.5]);
  });
  it('ends the table at a bare number that is the sum of the rows above (a total whose word OCR lost)', () => {
    expect(filasDeEnvio('DESCRIPCION PESO BRUTO KG\nCONSERVAS VEGETALES 3.500\nNARANJAS EN PALOTS 3.700\nBOBINAS DE PAPEL 500\n\n7.700').map((f) => f.peso)).toEqual([3500, 3700, 500]);
  });
  it('leaves out of a place the carriage’s «Pagados» a «Portes» column put on its line', () => {
    expect(leerAlbaran('Carga en Portes\nPuerto de Valencia, Muelle 3 Pagados').propuesta.envios[0]?.origen).toBe('Puerto de Valencia, Muelle 3');
  });
});

describe('a header row of captions OCR garbled', () => {
  it('opens the first column’s block, its values on the lines below', () => {
    const { propuesta } = leerAlbaran('Tramportiuta Tractore Remolque\nFngorificos Castaño Trans. S.L 8752 JBV\nCIF B 16559577');
    expect(propuesta).toMatchObject({ transp_nif: 'B16559577', matricula: '8752JBV' });
    expect(propuesta.transp_nombre).toMatch(/^Fngorificos Castaño Trans\. S\.L/);
  });
  it('never takes a company’s name whose first word looks like a label for a row of captions', () => {
    expect(leerBloques('Transportes Ondarroa Begoña\nNIF B12345674')).toEqual([]);
  });
});

describe('dates OCR slipped', () => {
  it('reads a written month’s date whose «de» or year’s first digit OCR slipped', () => {
    expect(buscarFechas('FECHA DE CARGA: 2 DE ABRIL pE 2026').map((f) => f.fecha)).toEqual(['2026-04-02']);
    expect(buscarFechas('FECHA DE CARMGA 18 DE JUNIO DE 7027').map((f) => f.fecha)).toEqual(['2027-06-18']);
    // Digits alone are not sure enough to guess a year.
    expect(buscarFechas('18/06/7027')).toEqual([]);
  });
  it('takes the date a sentence sets for the load over an e-mail header’s', () => {
    const texto = '09/07/26. 1126 Correo - Orden de carga OC87485 - Málaga\nOs confirmamos la carga para el 14-7-26, con estos datos:';
    expect(leerAlbaran(texto).propuesta.fecha_transporte).toBe('2026-07-14');
  });
});

describe('a CMR’s goods row OCR read in pieces', () => {
  it('puts together the count, the goods on the next line and the weight a few lines down', () => {
    const texto = 'CMR\n6 veras y meo 7 vemo de tutos | B Case de estais | 9 nuesmera\n\nS/M 15 pales\n\nPerfiles de aluminio\n\n17.400 | 4\n\n13 munccones de remaras';
    expect(filasDeEnvio(texto)).toEqual([{ naturaleza: 'Perfiles de aluminio', peso: 17400, unidad: 'kg' }]);
  });
  it('does not take the volume column for the weight, beside it or with the weight on the next line', () => {
    const cabecera = 'CMR\n6 Marcas y numeros 7 Numero de bultos | 8 Clase de embalaje | 9 Mercancía 10 11 Peso kg 12 volumen m³';
    expect(filasDeEnvio(`${cabecera}\nS/M 324 bultos Ñoras secas | 50\n\n| 22.100`)).toEqual([{ naturaleza: 'Ñoras secas', peso: 22100, unidad: 'kg' }]);
    expect(filasDeEnvio(`${cabecera}\nS/M 64 bultos Leche UHT en briks 8.700| 23`)).toEqual([{ naturaleza: 'Leche UHT en briks', peso: 8700, unidad: 'kg' }]);
    // A light load's weight alone is its weight.
    expect(filasDeEnvio(`${cabecera}\nS/M 2 cajas Piezas de recambio 350`)).toEqual([{ naturaleza: 'Piezas de recambio', peso: 350, unidad: 'kg' }]);
  });
});

describe('a place’s block as OCR leaves it', () => {
  it('reads a label with a speck inside a word, and leaves out of the place a noisy line that follows it', () => {
    const texto = 'LUGAR DE ENTR=EGA MERCASEVILLA, SEVILLA\nTRACITORA $155 ETY sem';
    expect(leerAlbaran(texto).propuesta.envios[0]?.destino).toBe('MERCASEVILLA, SEVILLA');
  });
});

describe('a list of labelled items', () => {
  it('reads an item whose label OCR garbled, its value after it; a carrier named «Transportes …» stays a name', () => {
    expect(leerAlbaran('* Transportsta Autotransportes Pérez Sanz, S.L., CIF B12345674').propuesta).toMatchObject({ transp_nif: 'B12345674' });
    expect(leerBloques('* Transportes Núñez, S.L.')).toEqual([]);
  });
});

describe('a CMR’s captions', () => {
  it('takes «1 Ejemplar para el remitente» for the copy’s caption, not box 1, and a caption OCR cut short for no name', () => {
    const texto = 'CMR\n1 Ejemplar para el remiente\n\n1 Cargador (m\nAgroexport Cañete, S.L.\nN.I.F. A58818501\nPol. Ind. Los Ángeles, nave 8';
    expect(leerAlbaran(texto).propuesta).toMatchObject({ cargador_nombre: 'Agroexport Cañete, S.L.', cargador_nif: 'A58818501' });
  });
  it('does not take a sentence about the goods in another box for their label', () => {
    expect(leerBloques('Mercancía paletizada, no remontable.')).toEqual([]);
    expect(leerBloques('Mercancía: Vino embotellado')[0]).toMatchObject({ etiqueta: 'mercancia', lineas: ['Vino embotellado'] });
  });
});

describe('a place and its date', () => {
  it('ends the place at the date under it, and takes the first block of its label that holds a place', () => {
    const texto = 'CMR\n4 ¡rOMDR Dcdo pa\n\n2 Destinatario\nSupermercados La Despensa, S.A.\n\n4 Luejas Se cara y echa\nPuerto de Gijón, Muelle de la Osa\n27-2-27\nE Donumentos anesos ena Tre';
    expect(leerAlbaran(texto).propuesta.envios[0]?.origen).toBe('Puerto de Gijón, Muelle de la Osa');
  });
});

describe('a CMR whose box 4 caption OCR lost', () => {
  it('takes the place with the date alone under it for the place of loading, for review', () => {
    const texto = 'CMR\n3 one nue po\n\nPuerto de Gijón, Muelle de la Osa\n\n18 Peservas | tervcares de provado\n\n[ra\n\nPuerto de Valencia, Muelle 3\n\n8-dic-2026\n$ e í— Ma E';
    const { propuesta, confianza } = leerAlbaran(texto);
    expect(propuesta.envios[0]).toMatchObject({ origen: 'Puerto de Valencia, Muelle 3', destino: 'Puerto de Gijón, Muelle de la Osa' });
    expect(confianza['envios[0].origen']).toBeLessThan(0.6);
  });
});

describe('a CMR whose consignee’s caption OCR lost', () => {
  it('takes the second party’s address, in the form’s order, as the destination, for review', () => {
    const texto =
      'CMR\n1 Remitente\nAgroexport Cañete, S.L.\nCIF A58818501\nAvda. de Andalucía 110\n\n1\nSupermercados La Despensa, S.A.\nCIF 12345678Z\n\nTravesia de Guemes 16\n\n33211 Gijón (ESPAÑA)\n\n16 Transportista\nTransportes Hermanos Ruiz, S.A.\nCIF B12345674';
    const { propuesta, confianza } = leerAlbaran(texto);
    expect(propuesta.envios[0]?.destino).toBe('Travesia de Guemes 16, 33211 Gijón');
    expect(confianza['envios[0].destino']).toBeLessThan(0.6);
  });
});

describe('a goods list whose figure OCR garbled', () => {
  it('keeps the goods of a line whose weight it could not read, for review', () => {
    const { propuesta, confianza } = leerAlbaran('NATURALEZA:\n- TUBERIA DE PVC 1.200 KG\n- AZULEJOS EN PALES $000 KG\nTOTAL: 12.200 KG');
    expect(propuesta.envios.map((e) => [e.naturaleza, e.peso])).toEqual([
      ['TUBERIA DE PVC', 1200],
      ['AZULEJOS EN PALES', undefined],
    ]);
    expect(confianza['envios[1].naturaleza']).toBeLessThan(0.6);
  });
});

describe('a legal form OCR slipped', () => {
  it('knows a company whose «S» OCR read as «$», in a CMR’s parties by order', () => {
    const texto =
      'CMR\n[NE\nAceites La Almazara, $.Coop.\nN.I.F. A58818501\n\n2 ra omo Mumia paras\nExclusivas Peña Gorbea, S.L.\nN.I.F. 12345678Z\n\n38 Vem—— o As pas\nTrans -Ebro Carga, S.L.\nN.I.F. B12345674';
    expect(leerAlbaran(texto).propuesta).toMatchObject({ cargador_nif: 'A58818501', cargador_nombre: 'Aceites La Almazara, $.Coop.', transp_nif: 'B12345674' });
  });
});

describe('a weight’s figure', () => {
  it('takes the figure a «Peso» label opens as kilograms whatever OCR made of the unit, and no bare figure under 10 kg from a table', () => {
    expect(leerAlbaran('MERCANCIA: PIENSO PARA GANADO\nPESO: 17.200 KS BULTOS: 243').propuesta.envios[0]).toMatchObject({ naturaleza: 'PIENSO PARA GANADO', peso: 17200, unidad: 'kg' });
    expect(filasDeEnvio('Naturaleza Bultos Peso bruto (kg)\nFR-654 Fruta de hueso en cajas 5 pales\n1')).toEqual([{ naturaleza: 'Fruta de hueso en cajas' }]);
  });
});

describe('the letterhead’s NIF', () => {
  it('is the surest NIF up there, not a run of an address’s digits read as one', () => {
    const texto =
      'Distribuciones Muñoz Ortega\n\nAura dela Bustación 7 33211 Gaón Tel 9611\n\nDistribuciones Muñoz Ortega SL NIF ES A58818501\n\nALBARÁN\n\n086370\n\n6 de agosto de 2026\n\nTransportista: Transportes Núñez. S.L.\nNIF B12345674\n\nOrigen: Plataforma Logística PLAZA, Zaragoza\n\nNaturaleza Bultos Peso (kg)\nAlcachofas frescas 28 palés 5.100\n\nObservaciones: Llamar 30 min antes de llegar.\n\nConforme destinatario';
    expect(leerAlbaran(texto).propuesta.cargador_nif).toBe('A58818501');
  });
});
