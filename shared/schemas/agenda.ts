import { clasificarMatricula, normalizarMatricula } from '../rules/matricula';
import { NifEmpresa } from './cuenta';
import { TipoVehiculo } from './deca';
import { cadena, textoOpcional } from './envio';
import { z } from './zod';

/**
 * The address book (spec: Endpoints, agenda): companies, vehicles and places
 * an account has used, learnt from its DeCAs and editable by hand.
 */
export const TIPOS_AGENDA = ['empresas', 'vehiculos', 'lugares'] as const;
export const TipoAgenda = z.enum(TIPOS_AGENDA);
export type TipoAgenda = z.infer<typeof TipoAgenda>;

/** The side a company was seen as on the account's DeCAs. */
export const LadoEmpresa = z.enum(['cargador', 'transportista', 'ambos']);
export type LadoEmpresa = z.infer<typeof LadoEmpresa>;

const obligatorio = (max: number) => cadena({ imprimible: true }).trim().min(1, 'Obligatorio').max(max, `Máximo ${max} caracteres`);

/** A plate that must be one: stored normalised, refused when no Spanish series produces it. */
const matriculaValida = cadena()
  .max(20, 'Máximo 20 caracteres')
  .transform(normalizarMatricula)
  .check((ctx) => {
    const r = clasificarMatricula(ctx.value);
    if (!r.valida) ctx.issues.push({ code: 'custom', message: `Matrícula no válida: ${r.motivo ?? 'revísela'}`, input: ctx.value });
  });

export const AgendaEmpresaInput = z
  .object({
    nombre: obligatorio(200).meta({ description: 'Nombre o razón social' }),
    nif: NifEmpresa,
    domicilio: textoOpcional(300).meta({ description: 'Domicilio' }),
    lado: LadoEmpresa.optional().meta({ description: 'Como qué parte aparece: cargador, transportista o ambos' }),
  })
  .meta({ id: 'AgendaEmpresaInput' });

export const AgendaVehiculoInput = z
  .object({
    matricula: matriculaValida.meta({ description: 'Matrícula del tractor o del vehículo rígido' }),
    matricula_remolque: matriculaValida.optional().meta({ description: 'Matrícula del remolque habitual' }),
    tipo_vehiculo: TipoVehiculo.optional(),
    autorizacion_especial: textoOpcional(200),
    conductor_nombre: textoOpcional(200).meta({ description: 'Conductor habitual' }),
    conductor_tel: textoOpcional(40).meta({ description: 'Teléfono del conductor habitual' }),
  })
  .meta({ id: 'AgendaVehiculoInput' });

export const AgendaLugarInput = z.object({ texto: obligatorio(300).meta({ description: 'El lugar tal como se escribe en los envíos' }) }).meta({ id: 'AgendaLugarInput' });

export const ENTRADAS_AGENDA = { empresas: AgendaEmpresaInput, vehiculos: AgendaVehiculoInput, lugares: AgendaLugarInput } as const;

/** What every entry carries besides its data: how often and when it was last used. */
const uso = {
  id: z.number().int(),
  usos: z.number().int().meta({ description: 'DeCAs en que ha aparecido' }),
  ultimo_uso: z.string().nullable().meta({ description: 'Última vez que apareció en una DeCA (ISO 8601); null si solo se guardó a mano' }),
};

export const AgendaEmpresa = z.object({ ...uso, nombre: z.string(), nif: z.string(), domicilio: z.string().nullable(), lado: LadoEmpresa.nullable() }).meta({ id: 'AgendaEmpresa' });
export type AgendaEmpresa = z.infer<typeof AgendaEmpresa>;

export const AgendaVehiculo = z
  .object({
    ...uso,
    matricula: z.string(),
    matricula_remolque: z.string().nullable(),
    tipo_vehiculo: TipoVehiculo.nullable(),
    autorizacion_especial: z.string().nullable(),
    conductor_nombre: z.string().nullable(),
    conductor_tel: z.string().nullable(),
  })
  .meta({ id: 'AgendaVehiculo' });
export type AgendaVehiculo = z.infer<typeof AgendaVehiculo>;

export const AgendaLugar = z.object({ ...uso, texto: z.string() }).meta({ id: 'AgendaLugar' });
export type AgendaLugar = z.infer<typeof AgendaLugar>;

export type EntradaAgenda = AgendaEmpresa | AgendaVehiculo | AgendaLugar;

export const AgendaQuery = z.object({
  q: cadena().max(200, 'Máximo 200 caracteres').optional().meta({ description: 'Texto a buscar: nombre, NIF, matrícula o lugar, sin importar mayúsculas ni acentos' }),
  limite: z.coerce.number().int().min(1, 'Mínimo 1').max(100, 'Máximo 100').default(50),
  despues_de: cadena().max(200).optional().meta({ description: 'El valor «siguiente» de la página anterior' }),
});
export type AgendaQuery = z.output<typeof AgendaQuery>;

export const AgendaList = z.object({
  entradas: z.array(z.union([AgendaEmpresa, AgendaVehiculo, AgendaLugar])).meta({ description: 'Las más usadas primero; a igualdad, las usadas más recientemente' }),
  siguiente: z.string().nullable().meta({ description: 'Pásalo como despues_de para la página siguiente; null si no hay más' }),
});
export type AgendaList = z.infer<typeof AgendaList>;
