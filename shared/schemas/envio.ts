import { normalizarNif } from '../rules/nif';
import { PESO_TEXTO_MAXIMO, parsePeso } from '../rules/peso';
import { problemaDeTexto } from '../rules/texto';
import { z } from './zod';

export const UNIDADES = ['kg', 't', 'm3', 'l', 'palets', 'bultos', 'unidades', 'contenedores'] as const;
export const Unidad = z.enum(UNIDADES).meta({ description: 'Unidad de la cantidad; por defecto kg' });
export type Unidad = z.infer<typeof Unidad>;

/**
 * A string that can be printed on the document and shown to an inspector:
 * no control characters (tab and line breaks only when `multilinea`), no
 * bidirectional overrides, no lone surrogates (rules/texto.ts). With `max`,
 * a longer value is not read character by character (its `.max` refuses it
 * anyway): a 4 MB text in a JSON body or a CSV cell held the server 80 ms.
 */
export const cadena = (opciones: { multilinea?: boolean; imprimible?: boolean; error?: string; max?: number } = {}) =>
  z.string(opciones.error ? { error: opciones.error } : undefined).check((ctx) => {
    if (opciones.max !== undefined && ctx.value.length > opciones.max) return;
    const problema = problemaDeTexto(ctx.value, opciones);
    if (problema) ctx.issues.push({ code: 'custom', message: problema, input: ctx.value });
  });

/** Optional text printed on the DeCA: trimmed, and an empty string counts as not given. */
export const textoOpcional = (max: number, opciones: { multilinea?: boolean } = {}) =>
  cadena({ ...opciones, imprimible: true, max })
    .max(max, `Máximo ${max} caracteres`)
    .transform((s) => s.trim())
    .transform((s) => (s === '' ? undefined : s))
    .optional();

/**
 * A weight as a number or as people write it (`24.500`, `24.500,5`, `1,5 t`).
 * Parsed with the shared rule so the app and the server read it the same way.
 */
export const Peso = z
  // The text's length is checked by parsePeso (a longer one is refused as not a weight).
  .union([z.number(), cadena({ max: PESO_TEXTO_MAXIMO }).meta({ maxLength: PESO_TEXTO_MAXIMO })])
  .transform((v, ctx) => {
    const r = parsePeso(v);
    if (!r.ok) {
      ctx.addIssue({ code: 'custom', message: r.motivo });
      return z.NEVER;
    }
    return { valor: r.valor, unidad: r.unidad };
  })
  .meta({ description: 'Número, o texto como se escribe: 24.500, 24.500,5, «1,5 t»' });

/** Longest text of each shipment field. */
export const LONGITUD_ENVIO = { origen: 300, destino: 300, naturaleza: 300, nota: 1000, destinatario_nombre: 200, destinatario_nif: 20 } as const;

/**
 * One shipment (`envios[]`) as sent. Fields are optional here so a pending
 * DeCA can hold a half-filled shipment; the ready-to-issue rules name what is
 * missing (spec: completeness is checked on issue).
 */
export const EnvioInput = z
  .object({
    origen: textoOpcional(LONGITUD_ENVIO.origen).meta({ description: 'Lugar de origen' }),
    destino: textoOpcional(LONGITUD_ENVIO.destino).meta({ description: 'Lugar de destino' }),
    naturaleza: textoOpcional(LONGITUD_ENVIO.naturaleza).meta({ description: 'Naturaleza de la mercancía' }),
    peso: Peso.optional(),
    unidad: Unidad.optional(),
    nota: cadena({ multilinea: true, imprimible: true, max: LONGITUD_ENVIO.nota }).max(LONGITUD_ENVIO.nota, `Máximo ${LONGITUD_ENVIO.nota} caracteres`).nullish(),
    destinatario_nombre: textoOpcional(LONGITUD_ENVIO.destinatario_nombre)
      .nullable()
      .meta({ description: 'Extensión (eFTI): destinatario de este envío, nombre o razón social; no se imprime en la DeCA' }),
    destinatario_nif: textoOpcional(LONGITUD_ENVIO.destinatario_nif)
      .transform((s) => (s === undefined ? s : normalizarNif(s)))
      .nullable()
      .meta({ description: 'Extensión (eFTI): NIF del destinatario de este envío; si el carácter de control no cuadra, se avisa' }),
  })
  .transform((e, ctx) => {
    const written = e.peso?.unidad;
    if (written && e.unidad && written !== e.unidad) {
      ctx.addIssue({
        code: 'custom',
        path: ['unidad'],
        message: `La unidad escrita en el peso (${written}) no coincide con «unidad» (${e.unidad})`,
      });
      return z.NEVER;
    }
    const nota = e.nota?.trim();
    return {
      origen: e.origen ?? null,
      destino: e.destino ?? null,
      naturaleza: e.naturaleza ?? null,
      peso: e.peso?.valor ?? null,
      unidad: e.unidad ?? written ?? 'kg',
      nota: nota ? nota : null,
      destinatario_nombre: e.destinatario_nombre ?? null,
      destinatario_nif: e.destinatario_nif ?? null,
    };
  })
  .meta({ id: 'EnvioInput' });
export type EnvioInput = z.input<typeof EnvioInput>;

/** A shipment as stored and returned. */
export const Envio = z
  .object({
    origen: z.string().nullable(),
    destino: z.string().nullable(),
    naturaleza: z.string().nullable(),
    peso: z.number().nullable(),
    unidad: Unidad,
    nota: z.string().nullable(),
    destinatario_nombre: z.string().nullable().meta({ description: 'Extensión (eFTI): destinatario de este envío; null si no se indicó' }),
    destinatario_nif: z.string().nullable().meta({ description: 'Extensión (eFTI): NIF del destinatario; null si no se indicó' }),
  })
  .meta({ id: 'Envio' });
export type Envio = z.infer<typeof Envio>;
/** A shipment as the document prints it: without its consignee (an eFTI extension, not printed). */
export type EnvioImpreso = Omit<Envio, 'destinatario_nombre' | 'destinatario_nif'>;

export const MAX_ENVIOS = 48;

/**
 * A shipment as stored, with the fields added since it was written (the
 * consignee, migration 0027's time) as null: jsonb rows of older DeCAs lack them.
 */
export function envioCompleto(e: EnvioImpreso & Partial<Pick<Envio, 'destinatario_nombre' | 'destinatario_nif'>>): Envio {
  return { ...e, destinatario_nombre: e.destinatario_nombre ?? null, destinatario_nif: e.destinatario_nif ?? null };
}
