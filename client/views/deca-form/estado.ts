/**
 * The DeCA form's data and what it derives from it, with no Preact and no
 * IndexedDB: the fields as typed, the bodies the outbox sends, and what is
 * missing to issue. The last comes from the shared rules the server runs on
 * the same request (`datosParaEmitir` for a create, `datosTrasCambios` and
 * `faltaParaEmitir` for a change), so «Lista para emitir» means the server
 * will issue it.
 */
import type { Aviso, Campos } from '../../../shared/errors';
import { CAMPOS_DATOS, type CampoDatos } from '../../../shared/rules/campos-deca';
import { completarDatos, datosDeEntrada, datosParaEmitir, datosVacios, type EmpresaPropia } from '../../../shared/rules/datos-deca';
import { avisosDeca, datosTrasCambios, faltaParaEmitir } from '../../../shared/rules/emision';
import type { Rol } from '../../../shared/schemas/cuenta';
import type { DatosDeca } from '../../data/db';
import { DecaInput, issuesToCampos } from '../../data/esquemas';
import { limpiar } from '../../data/outbox';

export interface EnvioForm {
  origen: string;
  destino: string;
  naturaleza: string;
  peso: string;
  unidad: string;
  nota: string;
  destinatario_nombre: string;
  destinatario_nif: string;
}
export type Valores = Record<string, string> & { envios?: never };
export interface Estado {
  v: Valores;
  envios: EnvioForm[];
}

/** Every plain (non-shipment) field of the form. */
export const PLANOS = ['ref_externa', ...CAMPOS_DATOS.filter((c): c is Exclude<CampoDatos, 'envios'> => c !== 'envios')] as const;

export const PASOS = ['Partes', 'Vehículo', 'Envíos', 'Revisión'] as const;

/** The phone step a field is on. */
export function pasoDe(path: string): number {
  if (path.startsWith('cargador_') || path.startsWith('transp_')) return 0;
  if (['fecha_transporte', 'tipo_vehiculo', 'matricula', 'matricula_remolque', 'autorizacion_especial', 'conductor_nombre', 'conductor_tel', 'matricula_pais', 'remolque_pais'].includes(path))
    return 1;
  if (path.startsWith('envios')) return 2;
  return 3;
}

/** The plain fields in the order the form shows them, the phone's steps in turn (the shipments between the vehicle and the references). */
const EN_ORDEN = [
  'cargador_nombre',
  'cargador_nif',
  'cargador_domicilio',
  'cargador_cp',
  'cargador_municipio',
  'cargador_provincia',
  'cargador_pais',
  'transp_nombre',
  'transp_nif',
  'transp_domicilio',
  'transp_cp',
  'transp_municipio',
  'transp_provincia',
  'transp_pais',
  'fecha_transporte',
  'matricula',
  'matricula_remolque',
  'tipo_vehiculo',
  'autorizacion_especial',
  'conductor_nombre',
  'conductor_tel',
  'matricula_pais',
  'remolque_pais',
];
const DEL_ENVIO = ['origen', 'destino', 'naturaleza', 'peso', 'unidad', 'nota', 'destinatario_nombre', 'destinatario_nif'];
const AL_FINAL = ['ref_externa', 'referencia', 'observaciones'];

/** Where a field comes in the form, top to bottom: the first of several to review is the one the user meets first. */
export function ordenDeCampo(path: string): number {
  const m = /^envios\[(\d+)\]\.(\w+)$/.exec(path);
  if (m) return 1_000 + Number(m[1]) * 10 + DEL_ENVIO.indexOf(m[2]!);
  const i = EN_ORDEN.indexOf(path);
  return i >= 0 ? i : 100_000 + AL_FINAL.indexOf(path);
}

export const envioVacio = (): EnvioForm => ({ origen: '', destino: '', naturaleza: '', peso: '', unidad: '', nota: '', destinatario_nombre: '', destinatario_nif: '' });
export const s = (x: unknown): string => (x === null || x === undefined ? '' : String(x));

/** A DeCA's data (input shape) as the form's text fields. */
export function aFormulario(d: DatosDeca): Estado {
  const v: Valores = {} as Valores;
  for (const k of PLANOS) v[k] = s(d[k]);
  const envios = Array.isArray(d.envios)
    ? (d.envios as Record<string, unknown>[]).map((e) => ({
        origen: s(e.origen),
        destino: s(e.destino),
        naturaleza: s(e.naturaleza),
        peso: s(e.peso),
        unidad: s(e.unidad),
        nota: s(e.nota),
        destinatario_nombre: s(e.destinatario_nombre),
        destinatario_nif: s(e.destinatario_nif),
      }))
    : [];
  return { v, envios };
}

function enviosBody(envios: EnvioForm[]): Record<string, string>[] {
  return envios.map((e) => limpiar({ ...e }) as Record<string, string>);
}

/** Full body (create, replace): empty strings are «not given». */
export function cuerpo(e: Estado): DatosDeca {
  return { ...limpiar(e.v), envios: enviosBody(e.envios) };
}

/** Only what changed against `base` (PATCH semantics: a cleared field is sent as null). */
export function diferencias(e: Estado, base: Estado): DatosDeca {
  const out: DatosDeca = {};
  for (const k of PLANOS) if ((e.v[k] ?? '') !== (base.v[k] ?? '')) out[k] = e.v[k] ? e.v[k] : null;
  if (JSON.stringify(e.envios) !== JSON.stringify(base.envios)) out.envios = enviosBody(e.envios);
  return out;
}

/**
 * What the request the form will send does on the server: a create (the
 * caller's side filled from the account when left empty), or a change to a
 * DeCA the server has or will have (`antes`: the data the change applies to;
 * nothing is filled from the account; `creadaAqui`: its create is still
 * queued, and fills the caller's side of `antes` when the server runs it).
 */
export type Operacion = { tipo: 'crear' } | { tipo: 'modificar'; antes: Estado; emisorRol: Rol; creadaAqui?: boolean };

export interface Comprobacion {
  /** Values the schema refuses, by field path (the server's 422). */
  campos: Campos;
  /** What is still missing to issue, by field path (empty: «Lista para emitir»). */
  faltan: Campos;
  /** The warnings the server returns, by field (the informational `vehiculo_articulado` aside). */
  avisos: Aviso[];
}

/** The form's state checked as the server will check the request it becomes. */
export function comprobar(e: Estado, op: Operacion, cuenta: EmpresaPropia & { rol: Rol }): Comprobacion {
  const p = DecaInput.safeParse({ ...cuerpo(e), emitir: false });
  if (!p.success) return { campos: issuesToCampos(p.error.issues), faltan: {}, avisos: [] };
  let emisorRol: Rol;
  let datos;
  let tipoPedido: string | null;
  if (op.tipo === 'crear') {
    ({ emisorRol, datos } = datosParaEmitir(p.data, cuenta, cuenta.rol));
    tipoPedido = p.data.tipo_vehiculo ?? null;
  } else {
    emisorRol = op.emisorRol;
    // The PATCH carries only the fields that differ; the rest stay as the server holds them.
    const enviados = new Set(Object.keys(diferencias(e, op.antes)));
    const pa = DecaInput.safeParse({ ...cuerpo(op.antes), emitir: false });
    const leidos = pa.success ? datosDeEntrada(pa.data) : datosVacios();
    const antes = op.creadaAqui ? completarDatos(leidos, emisorRol, cuenta) : leidos;
    datos = datosTrasCambios(antes, datosDeEntrada(p.data), pa.success ? enviados : new Set(CAMPOS_DATOS));
    tipoPedido = enviados.has('tipo_vehiculo') ? (p.data.tipo_vehiculo ?? null) : null;
  }
  const avisos = avisosDeca(datos, { tipo_vehiculo: tipoPedido, emisorRol }).filter((a) => a.codigo !== 'vehiculo_articulado');
  return { campos: {}, faltan: faltaParaEmitir(datos, emisorRol), avisos };
}
