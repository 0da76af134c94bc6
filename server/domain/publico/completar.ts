import type { Kysely } from 'kysely';
import { issuesToCampos, type Campos } from '../../../shared/errors';
import { LADO_CAMPO, faltaParaEmitir } from '../../../shared/rules/emision';
import { formatPeso } from '../../../shared/rules/peso';
import { problemaDeTexto } from '../../../shared/rules/texto';
import { CAMPOS_DATOS, DecaPatch, type CampoDatos, type Deca, type DecaPatchParsed } from '../../../shared/schemas/deca';
import type { Rol } from '../../../shared/schemas/cuenta';
import type { DB } from '../../db/schema';
import type { Actor } from '../actor';
import type { DomainContext } from '../context';
import { datosDeRow } from '../decas/datos';
import { datosModificados, modificarDeca } from '../decas/modificar';
import { sinValores } from '../decas/crear';
import type { DecaConRefs } from '../decas/queries';

export const ENVIO_CAMPOS = ['origen', 'destino', 'naturaleza', 'peso', 'unidad', 'nota'] as const;

/** The side that did not create the DeCA: it completes its fields through the link. */
export function ladoOtro(row: Pick<DecaConRefs, 'emisor_rol'>): Rol {
  return row.emisor_rol === 'transportista' ? 'cargador' : 'transportista';
}

/** Fields the other party may fill (spec: «Set by» is its side, or both). */
export function camposEditables(row: Pick<DecaConRefs, 'emisor_rol'>): CampoDatos[] {
  const otro = ladoOtro(row);
  return CAMPOS_DATOS.filter((c) => c !== 'tipo_vehiculo' && (LADO_CAMPO[c] === otro || LADO_CAMPO[c] === 'ambos'));
}

/** The form's text values: the DeCA's current data, overlaid by the saved draft. */
export function valoresIniciales(row: DecaConRefs, borrador: Record<string, string> | null): Record<string, string> {
  const v: Record<string, string> = {};
  for (const c of CAMPOS_DATOS) {
    if (c === 'envios' || c === 'tipo_vehiculo') continue;
    v[c] = row[c] ?? '';
  }
  row.envios.forEach((e, i) => {
    v[`envios[${i}].origen`] = e.origen ?? '';
    v[`envios[${i}].destino`] = e.destino ?? '';
    v[`envios[${i}].naturaleza`] = e.naturaleza ?? '';
    v[`envios[${i}].peso`] = e.peso === null ? '' : formatPeso(e.peso);
    v[`envios[${i}].unidad`] = e.unidad;
    v[`envios[${i}].nota`] = e.nota ?? '';
  });
  return { ...v, ...(borrador ?? {}) };
}

/** Keep only the posted fields the other party may set (a form can post anything). */
export function valoresPermitidos(row: DecaConRefs, form: URLSearchParams): Record<string, string> {
  const editables = new Set<string>(camposEditables(row));
  const out: Record<string, string> = {};
  for (const [k, v] of form) {
    const envio = /^envios\[(\d{1,2})\]\.(\w+)$/.exec(k);
    if (envio && editables.has('envios') && Number(envio[1]) < 48 && (ENVIO_CAMPOS as readonly string[]).includes(envio[2] ?? '')) out[k] = v.slice(0, 1000);
    else if (editables.has(k)) out[k] = v.slice(0, 2000);
  }
  return out;
}

const MULTILINEA = /^(observaciones|envios\[\d+\]\.nota)$/;

/**
 * Values that cannot be printed or stored (control characters, bidirectional
 * overrides, lone surrogates), by field: the form comes back with them marked
 * and nothing is saved, not even as a draft.
 */
export function erroresDeTexto(valores: Record<string, string>): Campos {
  const errores: Campos = {};
  for (const [k, v] of Object.entries(valores)) {
    const problema = problemaDeTexto(v, { multilinea: MULTILINEA.test(k) });
    if (problema) errores[k] = problema;
  }
  return errores;
}

/** Highest shipment row index present in the values, plus one. */
export function filasEnvio(valores: Record<string, string>): number {
  let n = 0;
  for (const k of Object.keys(valores)) {
    const m = /^envios\[(\d+)\]\./.exec(k);
    if (m) n = Math.max(n, Number(m[1]) + 1);
  }
  return n;
}

/**
 * Validate the form with the same shared schemas and ready-to-issue rules as
 * the API. Returns the change to apply, or the errors keyed by field path.
 */
export function validarFormulario(row: DecaConRefs, valores: Record<string, string>): { errores: Campos } | { patch: DecaPatchParsed; enviados: Set<string> } {
  const editables = camposEditables(row);
  const input: Record<string, unknown> = {};
  for (const c of editables) if (c !== 'envios') input[c] = valores[c] ?? '';
  if (editables.includes('envios')) {
    const envios: Record<string, string>[] = [];
    for (let i = 0; i < filasEnvio(valores); i++) {
      const e = Object.fromEntries(ENVIO_CAMPOS.map((k) => [k, (valores[`envios[${i}].${k}`] ?? '').trim()]));
      if (ENVIO_CAMPOS.some((k) => k !== 'unidad' && e[k])) envios.push(e);
    }
    input.envios = envios.map((e) => ({ ...e, peso: e.peso || undefined, unidad: e.unidad || undefined }));
  }
  const enviados = new Set(Object.keys(input));
  const faltan = (patch: DecaPatchParsed) => faltaParaEmitir(datosModificados(datosDeRow(row), patch, enviados));
  const parsed = DecaPatch.safeParse(input);
  if (!parsed.success) {
    // Report what is missing too, not only what is malformed: one round of fixes.
    const resto = DecaPatch.safeParse(sinValores(input, parsed.error.issues.map((i) => i.path)));
    return { errores: { ...(resto.success ? faltan(resto.data) : {}), ...issuesToCampos(parsed.error.issues) } };
  }
  const errores = faltan(parsed.data);
  if (Object.keys(errores).length) return { errores };
  return { patch: parsed.data, enviados };
}

/** Keep a half-filled form so the person can leave and come back. */
export async function guardarBorrador(db: Kysely<DB>, row: DecaConRefs, valores: Record<string, string>, now: Date): Promise<void> {
  await db
    .insertInto('completar_borradores')
    .values({ account_id: row.account_id, entorno: row.entorno, deca_id: row.id, campos: JSON.stringify(valores), updated_at: now })
    .onConflict((oc) => oc.columns(['account_id', 'entorno', 'deca_id']).doUpdateSet({ campos: JSON.stringify(valores), updated_at: now }))
    .execute();
}

export async function leerBorrador(db: Kysely<DB>, row: DecaConRefs): Promise<Record<string, string> | null> {
  const b = await db
    .selectFrom('completar_borradores')
    .select('campos')
    .where('account_id', '=', row.account_id)
    .where('entorno', '=', row.entorno)
    .where('deca_id', '=', row.id)
    .executeTakeFirst();
  return b?.campos ?? null;
}

/**
 * The other party submits the form: its data is applied and the DeCA issued
 * in one transaction (`deca.completado` and `deca.emitido`), and the draft is dropped.
 */
export async function completarPorEnlace(ctx: DomainContext, row: DecaConRefs, patch: DecaPatchParsed, enviados: Set<string>): Promise<Deca> {
  const cuenta = await ctx.db.selectFrom('accounts').selectAll().where('id', '=', row.account_id).executeTakeFirstOrThrow();
  const actor: Actor = {
    accountId: row.account_id,
    cuenta,
    entorno: row.entorno,
    canal: 'web',
    keyId: null,
    userId: null,
    rol: null,
    soloLectura: false,
    etiqueta: `${ladoOtro(row)} (enlace para completar)`,
  };
  return modificarDeca(ctx, actor, String(row.id), { ...patch, emitir: true }, enviados, {
    completado: true,
    antesDeConfirmar: async (trx) => {
      await trx.deleteFrom('completar_borradores').where('account_id', '=', row.account_id).where('entorno', '=', row.entorno).where('deca_id', '=', row.id).execute();
    },
  });
}
