import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import { type Aviso, type Campos, issuesToCampos } from '../../../shared/errors';
import { avisosDeca, camposDelOtroLado, faltaParaEmitir } from '../../../shared/rules/emision';
import { formatPeso } from '../../../shared/rules/peso';
import { problemaDeTexto } from '../../../shared/rules/texto';
import type { Rol } from '../../../shared/schemas/cuenta';
import { CAMPOS_DATOS, type CampoDatos, type Deca, type DecaDatos, DecaPatch, type DecaPatchParsed } from '../../../shared/schemas/deca';
import type { DB } from '../../db/schema';
import { formaDeToken } from '../accounts/tokens';
import type { Actor } from '../actor';
import { delAmbito } from '../ambito';
import type { DomainContext, Plan } from '../context';
import { sinValores } from '../decas/crear';
import { datosDeRow } from '../decas/datos';
import { datosModificados, prepararModificacion } from '../decas/modificar';
import type { DecaConRefs } from '../decas/queries';
import { obtenerPorToken } from './descargas';

export const ENVIO_CAMPOS = ['origen', 'destino', 'naturaleza', 'peso', 'unidad', 'nota', 'destinatario_nombre', 'destinatario_nif'] as const;

/** The side that did not create the DeCA: it completes its fields through the link. */
export function ladoOtro(row: Pick<DecaConRefs, 'emisor_rol'>): Rol {
  return row.emisor_rol === 'transportista' ? 'cargador' : 'transportista';
}

/** Fields the other party may fill: its own data and its side's (see camposDelOtroLado); never the issuer's data. */
export function camposEditables(row: Pick<DecaConRefs, 'emisor_rol'>): CampoDatos[] {
  return camposDelOtroLado(row.emisor_rol);
}

/** Whether a form path (`cargador_nif`, `envios[2].peso`) is one the other party may set. */
export function esEditable(row: Pick<DecaConRefs, 'emisor_rol'>, campo: string): boolean {
  const editables: readonly string[] = camposEditables(row);
  return /^envios(\[\d+\]\.\w+)?$/.test(campo) ? editables.includes('envios') : editables.includes(campo);
}

/** The DeCA's own fields besides its data: nobody sets them through the link either. */
const OTROS_CAMPOS_DECA = new Set(['ref_externa', 'emisor_rol', 'tipo_vehiculo']);

/**
 * The posted names that are fields of the DeCA the other party may not set
 * (the issuer's data, its side's fields): a form shows them read-only and
 * never posts them, so such a post is refused whole, whatever the values.
 */
export function camposAjenos(row: Pick<DecaConRefs, 'emisor_rol'>, form: URLSearchParams): string[] {
  const ajenos = new Set<string>();
  for (const k of form.keys()) {
    const deca = (CAMPOS_DATOS as readonly string[]).includes(k) || OTROS_CAMPOS_DECA.has(k) || /^envios(\[\d+\]\.\w+)?$/.test(k);
    if (deca && (OTROS_CAMPOS_DECA.has(k) || !esEditable(row, k))) ajenos.add(k);
  }
  return [...ajenos];
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
    v[`envios[${i}].destinatario_nombre`] = e.destinatario_nombre ?? '';
    v[`envios[${i}].destinatario_nif`] = e.destinatario_nif ?? '';
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

/** The form's values as the API's patch input: the other party's fields only, empty shipment rows dropped. */
function entrada(row: DecaConRefs, valores: Record<string, string>): Record<string, unknown> {
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
  return input;
}

const FALTA_DEL_EMISOR = 'Falta, y lo pone quien le ha pedido los datos: pídale que lo complete.';

/**
 * The shared warnings of the app's form (NIF and plate check characters,
 * an implausible load, the carrier's address), on the data as it would be
 * issued, for the fields the other party sets: it can do nothing about the
 * issuer's. A value that does not parse is left out (it has its error).
 */
function avisosDe(row: DecaConRefs, d: DecaDatos): Aviso[] {
  return avisosDeca(d, { tipo_vehiculo: null, emisorRol: row.emisor_rol }).filter((a) => a.codigo !== 'vehiculo_articulado' && a.campo !== null && esEditable(row, a.campo));
}

/** The form read leniently: what parses, the data it would give, and the format errors. */
function leer(row: DecaConRefs, valores: Record<string, string>): { patch: DecaPatchParsed | null; datos: DecaDatos | null; enviados: Set<string>; errores: Campos } {
  const input = entrada(row, valores);
  const enviados = new Set(Object.keys(input));
  const datos = (patch: DecaPatchParsed) => datosModificados(datosDeRow(row), patch, enviados);
  const parsed = DecaPatch.safeParse(input);
  if (parsed.success) return { patch: parsed.data, datos: datos(parsed.data), enviados, errores: {} };
  // What does parse still counts (missing fields, warnings): one round of fixes.
  const resto = DecaPatch.safeParse(
    sinValores(
      input,
      parsed.error.issues.map((i) => i.path),
    ),
  );
  return { patch: null, datos: resto.success ? datos(resto.data) : null, enviados, errores: issuesToCampos(parsed.error.issues) };
}

/** The warnings to show at the fields as the form stands (on opening it, on saving a draft). */
export function avisosFormulario(row: DecaConRefs, valores: Record<string, string>): Aviso[] {
  const { datos } = leer(row, valores);
  return datos ? avisosDe(row, datos) : [];
}

/**
 * Validate the form with the same shared schemas and ready-to-issue rules as
 * the API. Returns the change to apply with the warnings it carries, or the
 * errors keyed by field path (a missing field of the issuer's is said to be
 * the issuer's to fill).
 */
export function validarFormulario(row: DecaConRefs, valores: Record<string, string>): { errores: Campos; avisos: Aviso[] } | { patch: DecaPatchParsed; enviados: Set<string>; avisos: Aviso[] } {
  const { patch, datos, enviados, errores } = leer(row, valores);
  const avisos = datos ? avisosDe(row, datos) : [];
  const faltan = datos ? faltaParaEmitir(datos, row.emisor_rol) : {};
  for (const k of Object.keys(faltan)) if (!esEditable(row, k)) faltan[k] = FALTA_DEL_EMISOR;
  const todos = { ...faltan, ...errores };
  if (!patch || Object.keys(todos).length) return { errores: todos, avisos };
  return { patch, enviados, avisos };
}

/**
 * What a confirmation covers: these warnings on these values. A hidden
 * field carries it back with «Emitir de todos modos»; a changed value that
 * raises another warning is asked about again.
 */
export function huellaAvisos(avisos: readonly Aviso[]): string {
  const claves = avisos.map((a) => `${a.campo ?? ''}\u0000${a.codigo}\u0000${a.mensaje}`).sort();
  return createHash('sha256').update(claves.join('\u0001')).digest('base64url').slice(0, 22);
}

/**
 * The DeCA behind a completion link (any account), with the name of the
 * company that asks for the data; null when the link is unknown or its DeCA
 * was deleted.
 */
export async function obtenerPorEnlace(db: Kysely<DB>, token: string): Promise<{ row: DecaConRefs; solicitante: string } | null> {
  if (!formaDeToken(token)) return null;
  const enlace = await db.selectFrom('decas').select('token_publico').where('token_completar', '=', token).executeTakeFirst();
  const row = enlace ? await obtenerPorToken(db, enlace.token_publico) : null;
  if (!row) return null;
  const { nombre } = await db.selectFrom('accounts').select('nombre').where('id', '=', row.account_id).executeTakeFirstOrThrow();
  return { row, solicitante: nombre };
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
    .where(delAmbito({ accountId: row.account_id, entorno: row.entorno }))
    .where('deca_id', '=', row.id)
    .executeTakeFirst();
  return b?.campos ?? null;
}

/**
 * The other party submits the form: its data applied and the DeCA issued
 * (`deca.completado` and `deca.emitido`), prepared outside any transaction
 * as a modification (prepararModificacion); the plan's writes also drop the
 * draft. A DeCA that moved meanwhile is prepared again from here (read
 * afresh), not from the page's checks: the link's rate limits are spent once.
 */
export async function prepararCompletar(ctx: DomainContext, row: DecaConRefs, patch: DecaPatchParsed, enviados: Set<string>): Promise<Plan<Deca>> {
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
  const plan = await prepararModificacion(ctx, actor, String(row.id), { ...patch, emitir: true }, enviados, { completado: true });
  if ('valor' in plan) return plan;
  return {
    aplicar: async (trx) => {
      const e = await plan.aplicar(trx);
      // The draft goes in the change's last statement.
      const borrador = trx
        .deleteFrom('completar_borradores')
        .where(delAmbito({ accountId: row.account_id, entorno: row.entorno }))
        .where('deca_id', '=', row.id);
      return { ...e, partes: [...(e.partes ?? []), { nombre: `borrador_${row.id}`, sentencia: borrador }] };
    },
    reintentar: () => prepararCompletar(ctx, row, patch, enviados),
  };
}
