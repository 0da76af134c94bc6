import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { aFormulario, comprobar, diferencias, type Estado, ordenDeCampo, pasoDe, type Valores } from '../../../client/views/deca-form/estado';
import { datosModificados } from '../../../server/domain/decas/modificar';
import { datosParaEmitir, type EmpresaPropia } from '../../../shared/rules/datos-deca';
import { datosTrasCambios, faltaParaEmitir } from '../../../shared/rules/emision';
import type { Rol } from '../../../shared/schemas/cuenta';
import { type DecaDatos, DecaInput, DecaPatch } from '../../../shared/schemas/deca';

const EMPRESA: EmpresaPropia = { nombre: 'Frutas Peñalara, S.A.', nif: 'A58818501', domicilio: 'Camí Vell 3, 25001 Lleida' };
const cuenta = (rol: Rol) => ({ ...EMPRESA, rol });

/** A DeCA as the server stores it when created from `body` by an account of `rol`. */
function creada(body: Record<string, unknown>, rol: Rol): DecaDatos {
  return datosParaEmitir(DecaInput.parse({ ...body, emitir: false }), EMPRESA, rol).datos;
}

/**
 * What the server says is missing when the form's change arrives as a PATCH (the command's path): the
 * form sends what differs from what it started from (`base`, by default the server's copy), the server
 * applies that to `antes`, the DeCA it holds.
 */
function faltanEnServidor(antes: DecaDatos, form: Estado, emisorRol: Rol, base = aFormulario(antes as unknown as Record<string, unknown>)) {
  const crudo = diferencias(form, base);
  const despues = datosModificados(antes, DecaPatch.parse(crudo), new Set(Object.keys(crudo)));
  return faltaParaEmitir(despues, emisorRol);
}

/** The form after the user set `cambios` on it. */
const con = (base: Estado, cambios: Record<string, string>): Estado => ({ ...base, v: { ...base.v, ...cambios } as Valores });

const COMPLETA = {
  cargador_nombre: 'Frutas Peñalara, S.A.',
  cargador_nif: 'A58818501',
  cargador_domicilio: 'Camí Vell 3, 25001 Lleida',
  transp_nombre: 'Transportes Ruiz SL',
  transp_nif: 'B12345674',
  transp_domicilio: 'Calle Mayor 1, 28001 Madrid',
  fecha_transporte: '2026-11-25',
  matricula: '1234BCD',
  envios: [{ origen: 'Lleida', destino: 'Mercamálaga, Málaga', naturaleza: 'Piñones', peso: 18250 }],
};

describe('the DeCA form says what the server will say about issuing', () => {
  it('editing a DeCA, clearing the account’s own name is missing, as the PATCH finds it (the server fills it only on create)', () => {
    const antes = creada(COMPLETA, 'cargador');
    const base = aFormulario(antes as unknown as Record<string, unknown>);
    const form = con(base, { cargador_nombre: '' });
    const f = comprobar(form, { tipo: 'modificar', antes: base, emisorRol: 'cargador' }, cuenta('cargador'));
    expect(f.faltan).toEqual({ cargador_nombre: 'Obligatorio para emitir' });
    expect(f.faltan).toEqual(faltanEnServidor(antes, form, 'cargador'));
  });

  it('creating one, the account’s own side left empty is filled from the account, as the create does', () => {
    const { cargador_nombre: _n, cargador_nif: _i, cargador_domicilio: _d, ...sinPropios } = COMPLETA;
    const form = aFormulario(sinPropios);
    const f = comprobar(form, { tipo: 'crear' }, cuenta('cargador'));
    expect(f).toEqual({ campos: {}, faltan: {}, avisos: [] });
    // …but not the other side's: a carrier account creating it still needs the shipper.
    expect(Object.keys(comprobar(form, { tipo: 'crear' }, cuenta('transportista')).faltan).sort()).toEqual(['cargador_domicilio', 'cargador_nif', 'cargador_nombre']);
  });

  it('a DeCA created on this device and edited before it reaches the server: its create fills the own side first', () => {
    const { cargador_nombre: _n, ...sinNombre } = COMPLETA;
    const base = aFormulario(sinNombre);
    const form = con(base, { matricula: '5678FGH' });
    expect(comprobar(form, { tipo: 'modificar', antes: base, emisorRol: 'cargador', creadaAqui: true }, cuenta('cargador')).faltan).toEqual({});
    expect(faltanEnServidor(creada(sinNombre, 'cargador'), form, 'cargador', base)).toEqual({});
  });

  it('removing the trailer of an articulated vehicle makes it rigid, as the server’s modification does', () => {
    const antes = creada({ ...COMPLETA, matricula_remolque: 'R1234BCD' }, 'cargador');
    expect(antes.tipo_vehiculo).toBe('articulado');
    const base = aFormulario(antes as unknown as Record<string, unknown>);
    const form = con(base, { matricula_remolque: '' });
    const f = comprobar(form, { tipo: 'modificar', antes: base, emisorRol: 'cargador' }, cuenta('cargador'));
    // The form's state still says «articulado»; the server drops it, so no «articulado sin remolque» warning.
    expect(form.v.tipo_vehiculo).toBe('articulado');
    expect(f.avisos.map((a) => a.codigo)).not.toContain('falta_remolque');
    const despues = datosModificados(antes, DecaPatch.parse(diferencias(form, base)), new Set(Object.keys(diferencias(form, base))));
    expect(despues.tipo_vehiculo).toBe('rigido');
  });

  it('for any DeCA and any edit of it, the form’s «falta para emitir» is the server’s', () => {
    const uno = <T>(...xs: T[]) => fc.constantFrom(...xs);
    const envio = fc.record({ origen: uno('', 'Lleida'), destino: uno('', 'Málaga'), naturaleza: uno('', 'Piñones'), peso: uno('', '18250', '1,5 t'), unidad: uno(''), nota: uno('') });
    const datos = fc.record({
      cargador_nombre: uno('', 'Frutas Peñalara, S.A.', 'Otra Carga SL'),
      cargador_nif: uno('', 'A58818501'),
      cargador_domicilio: uno('', 'Camí Vell 3, Lleida'),
      transp_nombre: uno('', 'Transportes Ruiz SL'),
      transp_nif: uno('', 'B12345674'),
      transp_domicilio: uno('', 'Calle Mayor 1, Madrid'),
      fecha_transporte: uno('', '2026-11-25'),
      matricula: uno('', '1234BCD'),
      matricula_remolque: uno('', 'R1234BCD'),
      tipo_vehiculo: uno('', 'rigido', 'articulado'),
      envios: fc.array(envio, { maxLength: 2 }),
    });
    const sinVacios = (d: Record<string, unknown>) => Object.fromEntries(Object.entries(d).filter(([, v]) => v !== ''));
    fc.assert(
      fc.property(datos, datos, uno<Rol>('cargador', 'transportista'), (a, b, rol) => {
        const antes = creada({ ...sinVacios(a), envios: a.envios.map(sinVacios) }, rol);
        const base = aFormulario(antes as unknown as Record<string, unknown>);
        const form = aFormulario({ ...b });
        const f = comprobar(form, { tipo: 'modificar', antes: base, emisorRol: rol }, cuenta(rol));
        expect(f.campos).toEqual({});
        expect(f.faltan).toEqual(faltanEnServidor(antes, form, rol));
        // The shared derivation is the server's modification, field by field.
        const crudo = diferencias(form, base);
        const parsed = DecaPatch.parse(crudo);
        const enviados = new Set(Object.keys(crudo));
        expect(datosTrasCambios(antes, parsed, enviados)).toEqual(datosModificados(antes, parsed, enviados));
      }),
      { numRuns: 300 },
    );
  });
});

describe('the first datum of a photo to review', () => {
  it('is the one the form shows first: the phone’s steps in turn, the shipments in order, the references last', () => {
    const leidos = ['referencia', 'envios[1].origen', 'envios[0].peso', 'matricula', 'envios[0].origen', 'transp_nif', 'cargador_nombre'];
    expect([...leidos].sort((a, b) => ordenDeCampo(a) - ordenDeCampo(b))).toEqual([
      'cargador_nombre',
      'transp_nif',
      'matricula',
      'envios[0].origen',
      'envios[0].peso',
      'envios[1].origen',
      'referencia',
    ]);
    // In the order of the phone's steps, as the form's «Siguiente» goes.
    for (let i = 1; i < leidos.length; i++) {
      const [a, b] = [...leidos].sort((x, y) => ordenDeCampo(x) - ordenDeCampo(y)).slice(i - 1, i + 1);
      expect(pasoDe(a!)).toBeLessThanOrEqual(pasoDe(b!));
    }
  });
});
