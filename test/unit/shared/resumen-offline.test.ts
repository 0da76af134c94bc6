import { describe, expect, it } from 'vitest';
import { qrModules } from '../../../shared/pdf/qr';
import {
  base64url,
  codificarResumen,
  decodificarResumen,
  desdeBase64url,
  huellaDatos,
  LARGO_LUGAR,
  LARGO_NOMBRE,
  paraLeer,
  partirParametro,
  type ResumenOffline,
  urlConResumen,
} from '../../../shared/rules/resumen-offline';

const RESUMEN: ResumenOffline = {
  numero: '2027-000123',
  cargador_nombre: 'Cooperativa Agrícola San Isidro de Almería, S.C.A.',
  cargador_nif: 'F04012345',
  transp_nombre: 'Transportes Hermanos Núñez Peñalara, S.L.',
  transp_nif: 'B12345674',
  fecha: '2027-06-10',
  matricula: '1234BCD',
  remolque: 'R5678BBC',
  origen: 'Polígono Industrial El Ejido, Almería',
  destino: 'Mercamadrid, Nave 23, Madrid',
  peso_kg: 24500.5,
  huella: huellaDatos({ numero: '2027-000123' }),
  emitida_at: new Date('2027-06-10T08:41:00Z'),
};

describe('the signed summary of a DeCA issued with no coverage', () => {
  it('comes back as it went, names and places cut to what a QR on a screen can carry', () => {
    const r = decodificarResumen(codificarResumen(RESUMEN))!;
    expect(r).toEqual({ ...RESUMEN, cargador_nombre: 'Cooperativa Agrícola San', transp_nombre: 'Transportes Hermanos Núñ', origen: 'Polígono Industrial ', destino: 'Mercamadrid, Nave 23' });
    expect(decodificarResumen(codificarResumen({ ...RESUMEN, remolque: null, peso_kg: null }))).toMatchObject({ remolque: null, peso_kg: null });
  });

  it('shows a name or place that may have been cut with «…», and a shorter one as it is', () => {
    const r = decodificarResumen(codificarResumen(RESUMEN))!;
    expect(paraLeer(r.cargador_nombre, LARGO_NOMBRE)).toBe('Cooperativa Agrícola San…');
    expect(paraLeer(r.origen, LARGO_LUGAR)).toBe('Polígono Industrial…');
    expect(paraLeer(r.destino, LARGO_LUGAR)).toBe('Mercamadrid, Nave 23…');
    const corto = decodificarResumen(codificarResumen({ ...RESUMEN, cargador_nombre: 'Frutas Peñalara, S.A.', origen: 'Lleida' }))!;
    expect(paraLeer(corto.cargador_nombre, LARGO_NOMBRE)).toBe('Frutas Peñalara, S.A.');
    expect(paraLeer(corto.origen, LARGO_LUGAR)).toBe('Lleida');
    // Counted in characters, not bytes or UTF-16 units: 23 letters with accents are whole.
    expect(paraLeer('Ñ'.repeat(23), LARGO_NOMBRE)).toBe('Ñ'.repeat(23));
  });

  it('keeps the longest realistic URL under 400 characters: a version-15 QR at medium correction', () => {
    const url = urlConResumen(`https://deca.example.es/d/${'x'.repeat(32)}`, codificarResumen(RESUMEN), new Uint8Array(64));
    expect(url.length).toBeLessThanOrEqual(400);
    expect((qrModules(url).size - 17) / 4).toBeLessThanOrEqual(15);
  });

  it('refuses what is not a summary: another version, a field short, bad base64url, broken UTF-8, a bad date', () => {
    const campos = (texto: string) => base64url(new TextEncoder().encode(texto));
    const bueno = new TextDecoder().decode(desdeBase64url(codificarResumen(RESUMEN))!);
    expect(decodificarResumen(campos(bueno))).not.toBeNull();
    expect(decodificarResumen(campos(`2${bueno.slice(1)}`))).toBeNull();
    expect(decodificarResumen(campos(bueno.split('\u001f').slice(0, 13).join('\u001f')))).toBeNull();
    expect(decodificarResumen(campos(bueno.replace('20270610', '2027-06-10')))).toBeNull();
    expect(decodificarResumen('no es base64!')).toBeNull();
    expect(decodificarResumen(base64url(new Uint8Array([0x31, 0xc3, 0x28])))).toBeNull();
  });

  it('encodes base64url as Node does, both ways', () => {
    for (let n = 0; n < 40; n++) {
      const bytes = new Uint8Array(n).map((_, i) => (i * 97 + n * 13) & 0xff);
      expect(base64url(bytes)).toBe(Buffer.from(bytes).toString('base64url'));
      expect(desdeBase64url(base64url(bytes))).toEqual(bytes);
    }
  });

  it('hashes the same data to the same value whatever the order of its keys', () => {
    expect(huellaDatos({ a: 1, b: { c: [1, 'ñ'], d: null } })).toBe(huellaDatos({ b: { d: null, c: [1, 'ñ'] }, a: 1 }));
    expect(huellaDatos({ a: 1 })).not.toBe(huellaDatos({ a: 2 }));
    expect(huellaDatos({ a: 1 })).toMatch(/^[\w-]{16}$/);
  });

  it('splits the URL parameter into summary and a 64-byte signature, and nothing else', () => {
    const firma = new Uint8Array(64).fill(7);
    const o = new URL(urlConResumen('https://x.es/d/t', 'QUJD', firma)).searchParams.get('o')!;
    expect(partirParametro(o)).toEqual({ resumen: 'QUJD', firma });
    expect(partirParametro('QUJD')).toBeNull();
    expect(partirParametro(`QUJD.${base64url(new Uint8Array(63))}`)).toBeNull();
    expect(partirParametro(`QUJD.${base64url(firma)}.x`)).toBeNull();
  });
});
