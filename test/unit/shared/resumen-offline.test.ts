import { webcrypto } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { qrModules } from '../../../shared/pdf/qr';
import { ALFABETO_BASE41, base41, desdeBase41 } from '../../../shared/rules/base41';
import { EscritorBits, escribirCodigo, escribirTexto, LectorBits, leerCodigo, leerTexto } from '../../../shared/rules/bits';
import {
  base64url,
  codificarResumen,
  decodificarResumen,
  desdeBase64url,
  huellaDatos,
  leerParametro,
  paraLeer,
  pesoDeEnvios,
  type ResumenOffline,
  urlConResumen,
} from '../../../shared/rules/resumen-offline';
import { UNIDADES } from '../../../shared/schemas/envio';
import { FICHA_PEOR_CASO, RESUMEN_PEOR_CASO } from '../../support/resumen-peor-caso';
import { codificarResumenV1 } from '../../support/resumen-v1';

const version = (url: string) => (qrModules(url).size - 17) / 4;
const firma = new Uint8Array(64).map((_, i) => (i * 37) & 0xff);
const parametro = (url: string) => new URL(url).searchParams.get('o')!;

const CORTO: ResumenOffline = {
  ...RESUMEN_PEOR_CASO,
  cargador_nombre: 'Frutas Peñalara, S.A.',
  transp_nombre: 'Transportes Núñez, S.L.',
  origen: 'Lleida',
  destino: 'Mercamálaga, Málaga',
  naturaleza: 'Piñones y ñoras',
  conductor: null,
  remolque: null,
  envios: 1,
};

describe('the signed summary of a DeCA issued with no coverage', () => {
  it('comes back as it went, through the URL, with the goods, the weight and its unit, the driver', () => {
    const variantes: ResumenOffline[] = [
      CORTO,
      { ...CORTO, remolque: 'R5678BBC', conductor: 'José María Fernández-Villaverde Núñez', envios: 3 },
      { ...CORTO, peso: { valor: 12, unidad: 'palets' }, naturaleza: null, fecha: '' },
      { ...CORTO, peso: null, cargador_nombre: 'TRANSPORTES GARCÍA LÓPEZ SL', origen: 'Ctra. N-II, km 312 (Fraga)' },
    ];
    for (const r of variantes) {
      const leido = leerParametro(parametro(urlConResumen(FICHA_PEOR_CASO, codificarResumen(r), firma)));
      expect(leido?.resumen).toEqual(r);
      expect(leido?.firma).toEqual(firma);
    }
  });

  it('keeps the longest realistic summary in a QR of version 14 at level M, places and plates whole, in base41 the QR stores as alphanumeric', () => {
    const url = urlConResumen(FICHA_PEOR_CASO, codificarResumen(RESUMEN_PEOR_CASO), firma);
    const v = version(url);
    console.log(`peor caso realista: URL de ${url.length} caracteres, QR versión ${v} (${17 + 4 * v} módulos)`);
    expect(v).toBeLessThanOrEqual(14);
    expect(parametro(url)).toMatch(/^[0-9A-Z$*/:-]+$/);
    const r = leerParametro(parametro(url))!.resumen;
    expect(r).toMatchObject({ origen: RESUMEN_PEOR_CASO.origen, destino: RESUMEN_PEOR_CASO.destino, matricula: '1234BCD', remolque: 'R5678BBC', peso: { valor: 24500.5, unidad: 'kg' }, envios: 3 });
    // What gave way: names and goods past 40 characters, and the end of the driver's name.
    expect(r.cortados).toEqual(['cargador_nombre', 'transp_nombre', 'naturaleza', 'conductor']);
    for (const campo of ['cargador_nombre', 'transp_nombre', 'naturaleza'] as const) expect([...r[campo]!].length).toBe(40);
    expect(RESUMEN_PEOR_CASO.conductor?.startsWith(r.conductor!)).toBe(true);
    expect([...r.conductor!].length).toBeGreaterThan(20);
    // A site on a host 50 characters longer: still version 15 at most.
    expect(version(urlConResumen(FICHA_PEOR_CASO.replace('deca.example.es', `deca.${'x'.repeat(50)}.example.es`), codificarResumen(RESUMEN_PEOR_CASO), firma))).toBeLessThanOrEqual(15);
    // The first format, with less in it (no goods, no driver, names at 24, places at 20), needed version 15.
    expect(version(`${FICHA_PEOR_CASO}?o=${codificarResumenV1(RESUMEN_PEOR_CASO)}.${base64url(firma)}`)).toBe(15);
  });

  it('cuts what does not fit, the driver first and the places last, marks it, and never passes version 15', () => {
    const doble = (s: string) => `${s}, ${s}`;
    const enorme: ResumenOffline = {
      ...RESUMEN_PEOR_CASO,
      cargador_nombre: doble(RESUMEN_PEOR_CASO.cargador_nombre),
      transp_nombre: doble(RESUMEN_PEOR_CASO.transp_nombre),
      origen: doble(RESUMEN_PEOR_CASO.origen),
      destino: doble(RESUMEN_PEOR_CASO.destino),
      naturaleza: doble(RESUMEN_PEOR_CASO.naturaleza!),
      conductor: doble(RESUMEN_PEOR_CASO.conductor!),
    };
    const url = urlConResumen(FICHA_PEOR_CASO, codificarResumen(enorme), firma);
    expect(version(url)).toBeLessThanOrEqual(14);
    const r = leerParametro(parametro(url))!.resumen;
    expect(r.cortados).toEqual(['cargador_nombre', 'transp_nombre', 'origen', 'destino', 'naturaleza', 'conductor']);
    expect(enorme.origen.startsWith(r.origen)).toBe(true);
    // The driver gave way before the places.
    expect(r.conductor).toBeNull();
    expect([...r.origen].length).toBeGreaterThanOrEqual(40);
    expect(paraLeer(r, 'origen')).toBe(`${r.origen.trimEnd()}…`);
    expect(paraLeer(r, 'matricula')).toBe('1234BCD');
    // Texts no one could fit: letters of other scripts, 300 characters each. Still a QR that scans, all cut.
    const ajeno = '漢字'.repeat(150);
    const imposible = { ...enorme, cargador_nombre: ajeno, transp_nombre: ajeno, origen: ajeno, destino: ajeno, naturaleza: ajeno, conductor: ajeno };
    expect(version(urlConResumen(FICHA_PEOR_CASO.replace('deca.example.es', 'deca.una-empresa-de-nombre-largo.example.es'), codificarResumen(imposible), firma))).toBeLessThanOrEqual(15);
  });

  it('reads the first format still, marking names and places that filled their length as perhaps cut', () => {
    const o = `${codificarResumenV1(RESUMEN_PEOR_CASO)}.${base64url(firma)}`;
    const leido = leerParametro(o)!;
    expect(leido.firma).toEqual(firma);
    expect(new TextDecoder().decode(leido.firmado)).toBe(o.split('.')[0]);
    expect(leido.resumen).toMatchObject({ formato: 1, numero: '2027-000123', origen: 'Polígono Industrial ', naturaleza: null, conductor: null, peso: { valor: 24500.5, unidad: 'kg' } });
    expect(paraLeer(leido.resumen, 'cargador_nombre')).toBe('Cooperativa Agrícola San…');
    expect(paraLeer(leido.resumen, 'origen')).toBe('Polígono Industrial…');
    // One a phone made before the change, byte for byte, with the public key it was registered with.
    const enCampo =
      'MR8yMDI2LTAwMDAxMR9Db29wZXJhdGl2YSBBZ3LDrWNvbGEgU2FuH0YwNDAxMjM0NR9UcmFuc3BvcnRlcyBOw7rDsWV6LCBTLkwuH0IxMjM0NTY3NB8yMDI2MTEyNh8xMjM0QkNEH1I1Njc4QkJDH01lcmNhemFyYWdvemEsIFphcmFnH03DoWxhZ2EfMjQ1MDAuNR8wamlZZ1VlMGI1aHg4dC10H3RwM21vYw.jtd2XefrZX7WK7VATy1PHbUTzyLvAl4qV057vK74YmySdSsN7I6t7PDDJ9xC8jCF6F3K89AnpARI_pOL2wQH1Q';
    const viejo = leerParametro(enCampo)!.resumen;
    expect(viejo).toMatchObject({ numero: '2026-000011', fecha: '2026-11-26', matricula: '1234BCD', remolque: 'R5678BBC', destino: 'Málaga', emitida_at: new Date('2026-11-26T07:41:00Z') });
    expect(paraLeer(viejo, 'origen')).toBe('Mercazaragoza, Zarag…');
    expect(paraLeer(viejo, 'transp_nombre')).toBe('Transportes Núñez, S.L.');
  });

  it('a phone’s signature of the first format still checks, and not once a field is changed', async () => {
    const enCampo =
      'MR8yMDI2LTAwMDAxMR9Db29wZXJhdGl2YSBBZ3LDrWNvbGEgU2FuH0YwNDAxMjM0NR9UcmFuc3BvcnRlcyBOw7rDsWV6LCBTLkwuH0IxMjM0NTY3NB8yMDI2MTEyNh8xMjM0QkNEH1I1Njc4QkJDH01lcmNhemFyYWdvemEsIFphcmFnH03DoWxhZ2EfMjQ1MDAuNR8wamlZZ1VlMGI1aHg4dC10H3RwM21vYw.jtd2XefrZX7WK7VATy1PHbUTzyLvAl4qV057vK74YmySdSsN7I6t7PDDJ9xC8jCF6F3K89AnpARI_pOL2wQH1Q';
    const clave = await webcrypto.subtle.importKey(
      'jwk',
      { kty: 'EC', crv: 'P-256', x: 'vByXTLU9Xlx1Y5PAXAjd_YZ7r4rZ57NONNYqAulAyQw', y: 'fRpg8q8lS8xtfK-F8inEJkFtJecqBVT5vLa1X-23Ncs', ext: true },
      { name: 'ECDSA', namedCurve: 'P-256' },
      false,
      ['verify'],
    );
    const verifica = async (o: string) => {
      const p = leerParametro(o);
      return p !== null && (await webcrypto.subtle.verify({ name: 'ECDSA', hash: 'SHA-256' }, clave, p.firma, p.firmado));
    };
    expect(await verifica(enCampo)).toBe(true);
    const [texto, f] = enCampo.split('.');
    const plano = new TextDecoder().decode(desdeBase64url(texto!)!);
    expect(await verifica(`${base64url(new TextEncoder().encode(plano.replace('1234BCD', '9999ZZZ')))}.${f}`)).toBe(false);
  });

  it('refuses what is not a summary: another format, bits short or left over, a foreign character, a bad signature length', () => {
    const bytes = codificarResumen(CORTO);
    const o = (b: Uint8Array, s = firma) => base41(new Uint8Array([...b, ...s]));
    expect(leerParametro(o(bytes))).not.toBeNull();
    expect(leerParametro(o(new Uint8Array([3, ...bytes.slice(1)])))).toBeNull();
    expect(decodificarResumen(bytes.slice(0, -1))).toBeNull();
    expect(decodificarResumen(new Uint8Array([...bytes, 0]))).toBeNull();
    expect(leerParametro(o(bytes).toLowerCase())).toBeNull();
    expect(leerParametro(`${o(bytes)}A`)).toBeNull();
    expect(leerParametro(o(bytes, firma.slice(1)))?.resumen ?? null).toBeNull();
    expect(leerParametro('no es base64!.x')).toBeNull();
    expect(leerParametro(`${base64url(new Uint8Array([0x31, 0xc3, 0x28]))}.${base64url(firma)}`)).toBeNull();
    expect(leerParametro('A'.repeat(1001))).toBeNull();
  });

  it('weighs the shipments: one unit summed, kg and t in kg, other units apart', () => {
    const e = (peso: number | null, unidad: (typeof UNIDADES)[number]) => ({ origen: null, destino: null, naturaleza: null, nota: null, peso, unidad });
    expect(pesoDeEnvios([e(1.5, 't'), e(2, 't')])).toEqual({ valor: 3.5, unidad: 't' });
    expect(pesoDeEnvios([e(18500, 'kg'), e(4.2, 't'), e(10, 'palets')])).toEqual({ valor: 22700, unidad: 'kg' });
    expect(pesoDeEnvios([e(10, 'palets'), e(null, 'kg')])).toEqual({ valor: 10, unidad: 'palets' });
    expect(pesoDeEnvios([e(10, 'palets'), e(3, 'bultos')])).toBeNull();
  });
});

describe('the codes under it', () => {
  it('base41: two bytes in three characters of the QR’s alphanumeric set a URL carries as they are, both ways', () => {
    expect(ALFABETO_BASE41).toHaveLength(41);
    expect(encodeURIComponent(ALFABETO_BASE41.replace('/', '').replace(':', '').replace('$', ''))).toBe(ALFABETO_BASE41.replace('/', '').replace(':', '').replace('$', ''));
    for (let n = 0; n < 40; n++) {
      const bytes = new Uint8Array(n).map((_, i) => (i * 97 + n * 13) & 0xff);
      expect(base41(bytes)).toHaveLength(Math.floor(n / 2) * 3 + (n % 2) * 2);
      expect(desdeBase41(base41(bytes))).toEqual(bytes);
    }
    expect(desdeBase41(base41(new Uint8Array([0xff, 0xff])))).toEqual(new Uint8Array([0xff, 0xff]));
    expect(desdeBase41(':::')).toBeNull(); // 68,920 > 65,535
    expect(desdeBase41('::')).toBeNull();
    expect(desdeBase41('AB.')).toBeNull();
    expect(desdeBase41('A')).toBeNull();
  });

  it('texts and codes come back as written, in fewer bits than UTF-8 for Spanish names', () => {
    const textos = ['Cooperativa Agrícola San Isidro de Almería, S.C.A.', 'Ctra. N-II, km 312 (Fraga)', 'Çà et là «ñ» 漢 😀 ¿Qué?', ''];
    for (const t of textos) {
      const w = new EscritorBits();
      escribirTexto(w, t);
      expect(leerTexto(new LectorBits(w.bytes()))).toBe(t);
    }
    const w = new EscritorBits();
    escribirTexto(w, textos[0]!);
    expect(w.length).toBeLessThan(new TextEncoder().encode(textos[0]).length * 8 * 0.8);
    for (const c of ['B12345674', '1234BCD', 'R-5678-BBC', 'D 12.345/Ä']) {
      const wc = new EscritorBits();
      escribirCodigo(wc, c);
      expect(leerCodigo(new LectorBits(wc.bytes()))).toBe(c);
    }
  });

  it('varint up to 2^49', () => {
    for (const v of [0, 1, 127, 128, 24_500_500, 4.8e13]) {
      const w = new EscritorBits();
      w.varint(v);
      expect(new LectorBits(w.bytes()).varint()).toBe(v);
    }
  });

  it('the summary knows every unit a shipment may have', () => {
    for (const unidad of UNIDADES) {
      const r = { ...CORTO, peso: { valor: 1.25, unidad } };
      expect(leerParametro(base41(new Uint8Array([...codificarResumen(r), ...firma])))?.resumen.peso).toEqual({ valor: 1.25, unidad });
    }
  });

  it('hashes the same data to the same value whatever the order of its keys', () => {
    expect(huellaDatos({ a: 1, b: { c: [1, 'ñ'], d: null } })).toBe(huellaDatos({ b: { d: null, c: [1, 'ñ'] }, a: 1 }));
    expect(huellaDatos({ a: 1 })).not.toBe(huellaDatos({ a: 2 }));
    expect(huellaDatos({ a: 1 })).toMatch(/^[\w-]{16}$/);
  });

  it('hashes the data of an app older than the eFTI fields (no such keys) as the server does (null ones); given ones count', () => {
    const envio = { origen: 'A', destino: 'B', naturaleza: 'C', peso: 1, unidad: 'kg', nota: null };
    const antigua = { matricula: '1234BCD', cargador_nif: 'B12345674', envios: [envio] };
    const nueva = { ...antigua, cargador_cp: null, matricula_pais: null, remolque_pais: null, envios: [{ ...envio, destinatario_nombre: null, destinatario_nif: null }] };
    expect(huellaDatos(nueva)).toBe(huellaDatos(antigua));
    expect(huellaDatos({ ...nueva, cargador_cp: '28001' })).not.toBe(huellaDatos(antigua));
    expect(huellaDatos({ ...nueva, envios: [{ ...envio, destinatario_nombre: 'X', destinatario_nif: null }] })).not.toBe(huellaDatos(antigua));
    // Any other null still counts: only the extensions' empty keys are left out.
    expect(huellaDatos({ ...antigua, referencia: null })).not.toBe(huellaDatos(antigua));
  });

  it('encodes base64url as Node does, both ways', () => {
    for (let n = 0; n < 40; n++) {
      const bytes = new Uint8Array(n).map((_, i) => (i * 97 + n * 13) & 0xff);
      expect(base64url(bytes)).toBe(Buffer.from(bytes).toString('base64url'));
      expect(desdeBase64url(base64url(bytes))).toEqual(bytes);
    }
  });
});
