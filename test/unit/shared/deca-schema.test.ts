import { describe, expect, it } from 'vitest';
import { issuesToCampos } from '../../../shared/errors';
import { datosVacios } from '../../../shared/rules/datos-deca';
import { avisosDeca, derivarTipoVehiculo, faltaParaEmitir } from '../../../shared/rules/emision';
import { type DecaDatos, DecaInput, DecaListQuery, DecaPatch } from '../../../shared/schemas/deca';

function campos(input: unknown): Record<string, string> {
  const r = DecaInput.safeParse(input);
  return r.success ? {} : issuesToCampos(r.error.issues);
}

const completa: DecaDatos = {
  ...datosVacios(),
  cargador_nombre: 'Frutas Peñalara, S.A.',
  cargador_nif: 'A58818501',
  cargador_domicilio: 'Camí Vell 3, Lleida',
  transp_nombre: 'Transportes Núñez, S.L.',
  transp_nif: 'B12345674',
  transp_domicilio: 'Avda. Ilustración 7, Zaragoza',
  fecha_transporte: '2026-11-23',
  tipo_vehiculo: 'rigido',
  matricula: '1234BCD',
  matricula_remolque: null,
  autorizacion_especial: null,
  conductor_nombre: null,
  conductor_tel: null,
  observaciones: null,
  referencia: null,
  envios: [{ origen: 'Lleida', destino: 'Málaga', naturaleza: 'Fruta', peso: 24500, unidad: 'kg', nota: null, destinatario_nombre: null, destinatario_nif: null }],
};

describe('DecaInput', () => {
  it('normalises what people type: plates, NIF, weights, units, empty notes', () => {
    const r = DecaInput.parse({
      matricula: ' 1234 bcd ',
      matricula_remolque: 'r-1234-bcd',
      cargador_nif: 'b-12345674',
      observaciones: '   ',
      envios: [
        { origen: 'A', destino: 'B', naturaleza: 'C', peso: '24.500,5' },
        { origen: 'A', destino: 'B', naturaleza: 'C', peso: '1,5 t', nota: '' },
      ],
    });
    expect(r.matricula).toBe('1234BCD');
    expect(r.matricula_remolque).toBe('R1234BCD');
    expect(r.cargador_nif).toBe('B12345674');
    expect(r.observaciones).toBeUndefined();
    expect(r.emitir).toBe(true);
    expect(r.solo_validar).toBe(false);
    expect(r.envios?.[0]).toMatchObject({ peso: 24500.5, unidad: 'kg', nota: null });
    expect(r.envios?.[1]).toMatchObject({ peso: 1.5, unidad: 't', nota: null });
  });

  it('names every bad field by its path, all at once', () => {
    const c = campos({
      ref_externa: 'x'.repeat(101),
      emisor_rol: 'otro',
      fecha_transporte: '2026-02-30',
      envios: [{ origen: 'A', peso: 'mucho' }, { unidad: 'cajas' }],
    });
    expect(Object.keys(c).sort()).toEqual(['emisor_rol', 'envios[0].peso', 'envios[1].unidad', 'fecha_transporte', 'ref_externa']);
    expect(c['envios[0].peso']).toMatch(/24\.500/);
  });

  it('refuses more than 48 shipments', () => {
    const envio = { origen: 'A', destino: 'B', naturaleza: 'C', peso: 1 };
    expect(campos({ envios: Array.from({ length: 48 }, () => envio) })).toEqual({});
    expect(Object.keys(campos({ envios: Array.from({ length: 49 }, () => envio) }))).toEqual(['envios']);
  });

  it('refuses a unit that contradicts the one written in the weight', () => {
    expect(Object.keys(campos({ envios: [{ peso: '2 t', unidad: 'kg' }] }))).toEqual(['envios[0].unidad']);
  });
});

describe('DecaPatch', () => {
  it('keeps null (clear a field) apart from absent', () => {
    const r = DecaPatch.parse({ matricula_remolque: null, motivo: 'Sin remolque' });
    expect(r.matricula_remolque).toBeNull();
    expect('matricula' in r ? r.matricula : undefined).toBeUndefined();
    expect(r.motivo).toBe('Sin remolque');
  });
});

describe('DecaListQuery', () => {
  it('caps the page size at 100 and defaults to 50', () => {
    expect(DecaListQuery.parse({}).limite).toBe(50);
    expect(DecaListQuery.safeParse({ limite: '101' }).success).toBe(false);
    expect(DecaListQuery.parse({ limite: '100', archivado: 'false' })).toMatchObject({ limite: 100, archivado: false });
  });
});

describe('ready-to-issue rules (art. 6 minimum)', () => {
  it('accepts complete data', () => {
    expect(faltaParaEmitir(completa)).toEqual({});
  });

  it('names each missing field, shipments by index', () => {
    const d: DecaDatos = {
      ...completa,
      cargador_domicilio: null,
      transp_nif: null,
      fecha_transporte: null,
      matricula: null,
      envios: [{ origen: 'A', destino: null, naturaleza: null, peso: null, unidad: 'kg', nota: null, destinatario_nombre: null, destinatario_nif: null }],
    };
    expect(Object.keys(faltaParaEmitir(d)).sort()).toEqual(['cargador_domicilio', 'envios[0].destino', 'envios[0].naturaleza', 'envios[0].peso', 'fecha_transporte', 'matricula', 'transp_nif']);
    expect(Object.keys(faltaParaEmitir({ ...completa, envios: [] }))).toEqual(['envios']);
  });

  it('a trailer makes the vehicle articulated; a lone plate is rigid', () => {
    expect(derivarTipoVehiculo({ tipo_vehiculo: 'rigido', matricula: '1234BCD', matricula_remolque: 'R1234BCD' })).toBe('articulado');
    expect(derivarTipoVehiculo({ tipo_vehiculo: null, matricula: '1234BCD', matricula_remolque: null })).toBe('rigido');
    expect(derivarTipoVehiculo({ tipo_vehiculo: null, matricula: null, matricula_remolque: null })).toBeNull();
  });

  it('warns (does not fail) on a bad NIF check digit, odd plates and the missing carrier address', () => {
    const avisos = avisosDeca({ ...completa, cargador_nif: 'A58818502', matricula: 'XX99', transp_domicilio: null });
    expect(avisos.map((a) => `${a.campo}:${a.codigo}`).sort()).toEqual(['cargador_nif:nif_dudoso', 'matricula:matricula_dudosa', 'transp_domicilio:falta_domicilio_transportista']);
    expect(avisosDeca(completa)).toEqual([]);
  });
});
