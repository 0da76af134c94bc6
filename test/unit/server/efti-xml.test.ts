import { describe, expect, it } from 'vitest';
import { consignmentDeDeca, medida, trozos } from '../../../server/domain/efti/dataset';
import { documentoXml, escaparAtributo, escaparTexto, grupo, hoja } from '../../../server/domain/efti/xml';
import type { DecaPdfData } from '../../../shared/pdf/deca-pdf-data';

describe('the eFTI XML writer', () => {
  it('escapes what could open markup in text, and keeps a carriage return as a reference', () => {
    expect(escaparTexto(`a<b>&c "d" 'e' ]]> f\r\ng`)).toBe(`a&lt;b&gt;&amp;c "d" 'e' ]]&gt; f&#13;\ng`);
  });

  it('escapes quotes and whitespace a parser would fold in an attribute', () => {
    expect(escaparAtributo(`x"y'<&>\t\n\r`)).toBe(`x&quot;y'&lt;&amp;&gt;&#9;&#10;&#13;`);
  });

  it('replaces the characters XML cannot hold at all, even escaped, and keeps emoji whole', () => {
    expect(escaparTexto('a\u0000b\u001Fc\uFFFEd\uD800e')).toBe('a\uFFFDb\uFFFDc\uFFFDd\uFFFDe');
    expect(escaparTexto('🚚 ok')).toBe('🚚 ok');
  });

  it('writes nested elements, drops absent ones and empty groups, and refuses a bad name', () => {
    const xml = documentoXml({
      nombre: 'raiz',
      atributos: { xmlns: 'urn:x' },
      hijos: [hoja('a', 'uno & dos'), hoja('b', ''), null, grupo('c', [null, false]), grupo('d', [hoja('e', '<x>')])],
    });
    expect(xml).toBe('<?xml version="1.0" encoding="UTF-8"?>\n<raiz xmlns="urn:x">\n  <a>uno &amp; dos</a>\n  <d>\n    <e>&lt;x&gt;</e>\n  </d>\n</raiz>\n');
    expect(() => documentoXml({ nombre: 'a b' })).toThrow(TypeError);
    expect(() => documentoXml({ nombre: 'a', atributos: { 'x"': '1' } })).toThrow(TypeError);
  });

  it('cuts long text at spaces into pieces no longer than the limit, counting code points', () => {
    const texto = 'Avenida de la Ilustración número 7, nave 3, polígono industrial Malpica, 50016 Zaragoza';
    const partes = trozos(texto, 35);
    expect(partes.every((p) => Array.from(p).length <= 35)).toBe(true);
    expect(partes.join(' ')).toBe(texto);
    // No space to cut at: cut at the limit, never inside a surrogate pair.
    const emoji = '🚚'.repeat(40);
    expect(trozos(emoji, 35).map((p) => Array.from(p).length)).toEqual([35, 5]);
    expect(trozos(emoji, 35).join('')).toBe(emoji);
  });

  it('writes measures as plain decimals with at most six places', () => {
    expect(medida(24500.5)).toBe('24500.5');
    expect(medida(0.0000001)).toBe('0');
    expect(medida(3)).toBe('3');
    expect(medida(0.1 + 0.2)).toBe('0.3');
    // 16 digits in all (types:MeasureValue): the whole part takes what it needs, decimals the rest.
    expect(medida(123456789012.25)).toBe('123456789012.25');
    expect(medida(1e21)).toBeNull();
  });
});

const BASE: DecaPdfData = {
  entorno: 'produccion',
  numero: '2026-000042',
  version: 1,
  estado: 'emitido',
  cargador_nombre: 'Frutas Peñalara, S.A.',
  cargador_nif: 'A58818501',
  cargador_domicilio: 'Camí Vell 3, 25001 Lleida',
  transp_nombre: 'Transportes Núñez, S.L.',
  transp_nif: 'B12345674',
  transp_domicilio: null,
  fecha_transporte: '2026-11-23',
  tipo_vehiculo: 'articulado',
  matricula: '1234BCD',
  matricula_remolque: 'R5678BBC',
  autorizacion_especial: null,
  conductor_nombre: 'José',
  observaciones: null,
  referencia: null,
  envios: [{ origen: 'Lleida', destino: 'Málaga', naturaleza: 'Fruta', peso: 18250, unidad: 'kg', nota: null }],
  emitido_at: '2026-11-22 18:30:00',
  modificado_at: null,
  motivo_modificacion: null,
  sustituye_a: null,
  ficha_url: 'https://deca.example/d/abc',
};

describe('a DeCA version as a consignment', () => {
  it('keeps the driver (not part of any subset the DeCA carries) and the phone out of the dataset', () => {
    const xml = documentoXml(consignmentDeDeca(BASE));
    expect(xml).not.toContain('José');
  });

  it('totals weights in kg and volumes in m³, and counts whole packages by kind', () => {
    const xml = documentoXml(
      consignmentDeDeca({
        ...BASE,
        envios: [
          { origen: 'A', destino: 'B', naturaleza: 'x', peso: 1.5, unidad: 't', nota: null },
          { origen: 'A', destino: 'C', naturaleza: 'y', peso: 500, unidad: 'kg', nota: null },
          { origen: 'A', destino: 'C', naturaleza: 'z', peso: 250, unidad: 'l', nota: null },
          { origen: 'A', destino: 'C', naturaleza: 'w', peso: 12, unidad: 'palets', nota: null },
        ],
      }),
    );
    expect(xml).toContain('<grossWeight unitId="KGM">2000</grossWeight>');
    expect(xml).toContain('<grossVolume unitId="MTQ">0.25</grossVolume>');
    expect(xml).toContain('<itemQuantity>12</itemQuantity>');
    // One origin for all: the consignment's; two destinations: none at its level, each in its shipment's line.
    expect(xml).toContain('<carrierAcceptanceLocation>\n    <name>A</name>');
    expect(xml).not.toContain('consigneeReceiptLocation');
    expect(xml).toContain('<information>Envío 2 de 4: A → C; y; 500 kg</information>');
  });
});
