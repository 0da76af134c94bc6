import { Aviso } from '../errors';
import { problemaCodigoPostal } from '../rules/direccion';
import { clasificarMatricula, normalizarMatricula } from '../rules/matricula';
import { NifEmpresa } from './cuenta';
import { CodigoPostal, PaisIso, TipoVehiculo } from './deca';
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

/** A plate that must be one: stored normalised, refused when no Spanish series produces it ("" too, unless `vacia`: a change clearing it). */
const matricula = (vacia = false) =>
  cadena()
    .max(20, 'Máximo 20 caracteres')
    .transform(normalizarMatricula)
    .check((ctx) => {
      if (vacia && ctx.value === '') return;
      const r = clasificarMatricula(ctx.value);
      if (!r.valida) ctx.issues.push({ code: 'custom', message: `Matrícula no válida: ${r.motivo ?? 'revísela'}`, input: ctx.value });
    });
const matriculaValida = matricula();

/** A company's address in parts (eFTI): what fills the DeCA's `*_cp`, `*_municipio`, `*_provincia`, `*_pais`. */
const direccionEmpresa = {
  cp: CodigoPostal.meta({ description: 'Código postal; 5 cifras si el país es ES o no se indica' }),
  municipio: textoOpcional(100).meta({ description: 'Municipio' }),
  provincia: textoOpcional(100).meta({ description: 'Provincia o región' }),
  pais: PaisIso.meta({ description: 'País del domicilio, código ISO de dos letras; si falta, se entiende ES' }),
};

/** A postcode with the country sent with it: a Spanish one when ES or none (as on a DeCA). */
function comprobarCodigoPostal(v: { cp?: string | null; pais?: string | null }, ctx: z.RefinementCtx): void {
  if (typeof v.cp !== 'string') return;
  const problema = problemaCodigoPostal(v.cp, v.pais ?? null, 'pais');
  if (problema) ctx.addIssue({ code: 'custom', path: ['cp'], message: problema });
}

export const AgendaEmpresaInput = z
  .object({
    nombre: obligatorio(200).meta({ description: 'Nombre o razón social' }),
    nif: NifEmpresa,
    domicilio: textoOpcional(300).meta({ description: 'Domicilio' }),
    ...direccionEmpresa,
    lado: LadoEmpresa.optional().meta({ description: 'Como qué parte aparece: cargador, transportista o ambos' }),
  })
  .superRefine(comprobarCodigoPostal)
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

/** A field a change may clear, with null or "" (an empty plate or kind is no plate or kind, not a wrong one). */
const borrable = <S extends z.ZodType>(s: S) => s.nullable().optional();
/** One of a list, or "" to clear it. */
const opcionBorrable = <T extends string>(valores: readonly T[]) => borrable(z.enum(['', ...valores] as ['', ...T[]]));

/**
 * A change of an entry (PATCH /agenda/{tipo}/{id}): the fields sent replace
 * the old ones (null or "" clears an optional one), those not sent stay.
 * Its key (NIF, plate, place) may change too, but not to another entry's.
 */
export const AgendaEmpresaPatch = z
  .object({
    nombre: obligatorio(200).optional().meta({ description: 'Nombre o razón social' }),
    nif: NifEmpresa.optional(),
    domicilio: borrable(textoOpcional(300)).meta({ description: 'Domicilio; null lo borra' }),
    cp: borrable(direccionEmpresa.cp).meta({ description: 'Código postal; null lo borra' }),
    municipio: borrable(direccionEmpresa.municipio).meta({ description: 'Municipio; null lo borra' }),
    provincia: borrable(direccionEmpresa.provincia).meta({ description: 'Provincia o región; null la borra' }),
    pais: borrable(direccionEmpresa.pais).meta({ description: 'País del domicilio (código ISO); null lo borra' }),
    lado: opcionBorrable(LadoEmpresa.options).meta({ description: 'Como qué parte aparece; null lo borra' }),
  })
  .superRefine(comprobarCodigoPostal)
  .meta({ id: 'AgendaEmpresaPatch' });

export const AgendaVehiculoPatch = z
  .object({
    matricula: matriculaValida.optional().meta({ description: 'Matrícula del tractor o del vehículo rígido' }),
    matricula_remolque: borrable(matricula(true)).meta({ description: 'Matrícula del remolque habitual; null la borra' }),
    tipo_vehiculo: opcionBorrable(TipoVehiculo.options),
    autorizacion_especial: borrable(textoOpcional(200)),
    conductor_nombre: borrable(textoOpcional(200)).meta({ description: 'Conductor habitual; null lo borra' }),
    conductor_tel: borrable(textoOpcional(40)).meta({ description: 'Teléfono del conductor habitual; null lo borra' }),
  })
  .meta({ id: 'AgendaVehiculoPatch' });

export const AgendaLugarPatch = z.object({ texto: obligatorio(300).optional().meta({ description: 'El lugar tal como se escribe en los envíos' }) }).meta({ id: 'AgendaLugarPatch' });

/** POST /agenda/{tipo}/{id}/fusionar: the entry of the path stays, with its data; `otra` goes, and its uses add up. */
export const AgendaFusionInput = z
  .object({ otra: z.coerce.number().int().positive().meta({ description: 'Id de la entrada que desaparece: sus usos se suman a la que queda' }) })
  .meta({ id: 'AgendaFusionInput' });

/** What every entry carries besides its data: how often and when it was last used, and what to revise in it. */
const uso = {
  id: z.number().int(),
  usos: z.number().int().meta({ description: 'DeCAs en que ha aparecido' }),
  ultimo_uso: z.string().nullable().meta({ description: 'Última vez que apareció en una DeCA (ISO 8601); null si solo se guardó a mano' }),
  avisos: z.array(Aviso).meta({ description: 'Lo que hay que revisar (un NIF con el carácter de control mal, `nif_dudoso`): una entrada con avisos no se sugiere hasta corregirla' }),
};

export const AgendaEmpresa = z
  .object({
    ...uso,
    nombre: z.string(),
    nif: z.string(),
    domicilio: z.string().nullable(),
    cp: z.string().nullable(),
    municipio: z.string().nullable(),
    provincia: z.string().nullable(),
    pais: z.string().nullable(),
    lado: LadoEmpresa.nullable(),
  })
  .meta({ id: 'AgendaEmpresa' });
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
  con_avisos: z
    .enum(['0', '1', 'true', 'false'])
    .transform((v) => v === '1' || v === 'true')
    .default(false)
    .meta({ description: '1: también las entradas con avisos (un NIF con el carácter de control mal), que por defecto no salen porque no se sugieren' }),
});
export type AgendaQuery = z.output<typeof AgendaQuery>;

export const AgendaList = z.object({
  entradas: z.array(z.union([AgendaEmpresa, AgendaVehiculo, AgendaLugar])).meta({ description: 'Las más usadas primero; a igualdad, las usadas más recientemente' }),
  siguiente: z.string().nullable().meta({ description: 'Pásalo como despues_de para la página siguiente; null si no hay más' }),
});
export type AgendaList = z.infer<typeof AgendaList>;

/** DELETE /agenda/{tipo}/{id}. */
export const AgendaEliminada = z.object({ eliminada: z.literal(true), id: z.number().int() }).meta({ id: 'AgendaEliminada' });
export type AgendaEliminada = z.infer<typeof AgendaEliminada>;
