import { describe, expect, it } from 'vitest';
import { issuesToCampos } from '../../../shared/errors';
import { datosVacios } from '../../../shared/rules/datos-deca';
import { normalizarPais, problemaCodigoPostal, problemaPais } from '../../../shared/rules/direccion';
import { avisosDeca } from '../../../shared/rules/emision';
import { paisDeMatricula } from '../../../shared/rules/matricula';
import { type DecaDatos, DecaInput, DecaPatch } from '../../../shared/schemas/deca';
import { EnvioInput } from '../../../shared/schemas/envio';

function campos(schema: typeof DecaInput | typeof DecaPatch, input: unknown): Record<string, string> {
  const r = schema.safeParse(input);
  return r.success ? {} : issuesToCampos(r.error.issues);
}

describe('country codes (ISO 3166-1 alpha-2)', () => {
  it('takes the known ones in any case, and refuses the rest with a Spanish reason', () => {
    expect(normalizarPais(' pt ')).toBe('PT');
    for (const c of ['ES', 'PT', 'FR', 'DE', 'GB', 'MA', 'UA']) expect(problemaPais(c), c).toBeNull();
    expect(problemaPais('UK')).toBe('País no válido: «UK» no es un código ISO 3166-1; ¿quería decir GB (Reino Unido)?');
    expect(problemaPais('ESP')).toBe('País no válido: use el código ISO de dos letras (ES, FR, PT, DE…)');
    expect(problemaPais('ZZ')).toMatch(/^País no admitido: «ZZ» no está en la lista/);
  });
});

describe('postcodes', () => {
  it('a Spanish one (country ES or none) is 5 digits starting with a province, 01 to 52', () => {
    expect(problemaCodigoPostal('28001', null)).toBeNull();
    expect(problemaCodigoPostal('52001', 'ES')).toBeNull();
    expect(problemaCodigoPostal('01001', undefined)).toBeNull();
    expect(problemaCodigoPostal('2800', null)).toMatch(/^Código postal español no válido: son 5 cifras/);
    expect(problemaCodigoPostal('53001', 'ES')).toBe('Código postal español no válido: empieza por 53 y las provincias van de 01 a 52');
    expect(problemaCodigoPostal('00001', null)).toMatch(/empieza por 00/);
    expect(problemaCodigoPostal('28A01', null, 'cargador_pais')).toMatch(/indique también «cargador_pais»$/);
  });

  it("another country's: letters, digits, spaces and hyphens", () => {
    expect(problemaCodigoPostal('75001', 'FR')).toBeNull();
    expect(problemaCodigoPostal('1000-001', 'PT')).toBeNull();
    expect(problemaCodigoPostal('SW1A 1AA', 'GB')).toBeNull();
    expect(problemaCodigoPostal('75_001', 'FR')).toBe('Código postal no válido: solo letras, cifras, espacios y guiones');
  });
});

describe('the DeCA input with the eFTI fields', () => {
  it('normalises the countries and refuses unknown ones, by field', () => {
    const r = DecaInput.parse({ matricula_pais: 'fr', remolque_pais: ' de ', cargador_pais: '', transp_pais: 'pt', transp_cp: '1000-001' });
    expect(r).toMatchObject({ matricula_pais: 'FR', remolque_pais: 'DE', transp_pais: 'PT', transp_cp: '1000-001' });
    expect(r.cargador_pais).toBeUndefined();
    expect(campos(DecaInput, { matricula_pais: 'XX', cargador_pais: 'España' })).toEqual({
      matricula_pais: 'País no admitido: «XX» no está en la lista de códigos ISO que se aceptan (ES, PT, FR, DE, IT… y el resto de Europa)',
      cargador_pais: 'País no válido: use el código ISO de dos letras (ES, FR, PT, DE…)',
    });
  });

  it('checks a postcode with the country sent with it: Spanish when ES or none', () => {
    expect(campos(DecaInput, { cargador_cp: '28001', transp_cp: '75001', transp_pais: 'FR' })).toEqual({});
    expect(campos(DecaInput, { cargador_cp: '75 001' })).toEqual({
      cargador_cp: 'Código postal español no válido: son 5 cifras (p. ej. 28001). Si la dirección no está en España, indique también «cargador_pais»',
    });
    expect(campos(DecaPatch, { transp_cp: '99999', transp_pais: null })).toEqual({ transp_cp: 'Código postal español no válido: empieza por 99 y las provincias van de 01 a 52' });
    expect(campos(DecaPatch, { transp_cp: '99999', transp_pais: 'IT' })).toEqual({});
  });

  it('takes a consignee per shipment, its NIF normalised, null when not given', () => {
    expect(EnvioInput.parse({ origen: 'A', destinatario_nombre: ' Frutas del Sur, S.L. ', destinatario_nif: 'b-12345674' })).toMatchObject({
      destinatario_nombre: 'Frutas del Sur, S.L.',
      destinatario_nif: 'B12345674',
    });
    expect(EnvioInput.parse({ origen: 'A' })).toMatchObject({ destinatario_nombre: null, destinatario_nif: null });
  });
});

describe('warnings of the eFTI fields', () => {
  const con = (d: Partial<DecaDatos>): DecaDatos => ({ ...datosVacios(), transp_domicilio: 'x', ...d });
  const codigos = (d: Partial<DecaDatos>) => avisosDeca(con(d)).map((a) => [a.campo, a.codigo]);

  it('a plate of a Spanish series said to be of another country is asked about; a foreign one said foreign is not judged by Spanish series', () => {
    const avisos = avisosDeca(con({ matricula: '1234BCD', matricula_pais: 'FR' }));
    expect(avisos).toEqual([
      { campo: 'matricula_pais', codigo: 'pais_matricula_dudoso', mensaje: 'La matrícula 1234BCD es de una serie española, pero el país indicado es FR (Francia): revise el país.' },
    ]);
    expect(codigos({ matricula: 'AB123CD', matricula_pais: 'FR' })).toEqual([]);
    expect(codigos({ matricula: 'AB123CD' })).toEqual([['matricula', 'matricula_dudosa']]);
    expect(codigos({ matricula: '1234BCD', matricula_pais: 'ES', matricula_remolque: 'R1234BCD', remolque_pais: 'PT' })).toEqual([['remolque_pais', 'pais_matricula_dudoso']]);
  });

  it("a consignee's NIF with a wrong check character, like the parties'", () => {
    const d = con({ envios: [{ origen: 'A', destino: 'B', naturaleza: 'C', peso: 1, unidad: 'kg', nota: null, destinatario_nombre: 'X', destinatario_nif: 'B12345678' }] });
    expect(avisosDeca(d)).toEqual([{ campo: 'envios[0].destinatario_nif', codigo: 'nif_dudoso', mensaje: 'Revise el NIF B12345678: el dígito de control no corresponde (debería ser 4).' }]);
  });

  it('a postcode kept while its country changed no longer fits: a warning', () => {
    expect(codigos({ cargador_cp: '75001', cargador_pais: null })).toEqual([['cargador_cp', 'codigo_postal_dudoso']]);
    expect(codigos({ cargador_cp: '75001', cargador_pais: 'FR' })).toEqual([]);
  });
});

describe('paisDeMatricula', () => {
  it('the stored country first; else ES for a Spanish series; else unknown', () => {
    expect(paisDeMatricula('1234BCD')).toBe('ES');
    expect(paisDeMatricula('1234BCD', 'PT')).toBe('PT');
    expect(paisDeMatricula('AB123CD')).toBeNull();
    expect(paisDeMatricula('AB123CD', 'FR')).toBe('FR');
  });
});
