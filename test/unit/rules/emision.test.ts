import { describe, expect, it } from 'vitest';
import { camposDelOtroLado, DATOS_PROPIOS, LADO_CAMPO } from '../../../shared/rules/emision';
import { CAMPOS_DATOS } from '../../../shared/schemas/deca';

describe('camposDelOtroLado: what the other party completes through the link', () => {
  it('when the carrier issues, the shipper sets its own data, the shipments, remarks and reference', () => {
    expect(camposDelOtroLado('transportista').sort()).toEqual([
      'cargador_cp',
      'cargador_domicilio',
      'cargador_municipio',
      'cargador_nif',
      'cargador_nombre',
      'cargador_pais',
      'cargador_provincia',
      'envios',
      'observaciones',
      'referencia',
    ]);
  });

  it('when the shipper issues, the carrier sets its own data, the date, vehicle and driver, remarks and reference', () => {
    expect(camposDelOtroLado('cargador').sort()).toEqual([
      'autorizacion_especial',
      'conductor_nombre',
      'conductor_tel',
      'fecha_transporte',
      'matricula',
      'matricula_pais',
      'matricula_remolque',
      'observaciones',
      'referencia',
      'remolque_pais',
      'transp_cp',
      'transp_domicilio',
      'transp_municipio',
      'transp_nif',
      'transp_nombre',
      'transp_pais',
      'transp_provincia',
    ]);
  });

  it("never gives the issuer's own data to the other party, whichever side issues", () => {
    for (const emisor of ['cargador', 'transportista'] as const) {
      for (const c of DATOS_PROPIOS[emisor]) expect(camposDelOtroLado(emisor)).not.toContain(c);
    }
  });

  it("gives every field of the other side's «Set by» but the issuer's data, and none of the issuer's side", () => {
    for (const emisor of ['cargador', 'transportista'] as const) {
      const otro = emisor === 'cargador' ? 'transportista' : 'cargador';
      const campos = camposDelOtroLado(emisor);
      for (const c of CAMPOS_DATOS) {
        if (c === 'tipo_vehiculo' || DATOS_PROPIOS[emisor].includes(c)) continue;
        if (LADO_CAMPO[c] === otro || LADO_CAMPO[c] === 'ambos') expect(campos, c).toContain(c);
        else if (!DATOS_PROPIOS[otro].includes(c)) expect(campos, c).not.toContain(c);
      }
    }
  });

  it('never asks for the vehicle type: the plates say it', () => {
    expect(camposDelOtroLado('cargador')).not.toContain('tipo_vehiculo');
    expect(camposDelOtroLado('transportista')).not.toContain('tipo_vehiculo');
  });
});
