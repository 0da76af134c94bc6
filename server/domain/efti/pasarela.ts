/**
 * The platform side of the gate's queries (docs/efti.md, «La plataforma»):
 * a `uilQuery` answered with the dataset of one chain of DeCAs in the
 * subsets asked, an `identifierQuery` with the identifier subset and UIL of
 * every issued DeCA that carries that plate; both as the response messages
 * of the reference's schemas (`uilResponse`, `identifierResponse`), and
 * every answer recorded: once per request in `efti_consultas`, and per
 * account, with the DeCAs it returned, in `efti_accesos`.
 *
 * The gate acts for the authorities of the whole network, not for an
 * account: it reads the issued DeCAs of every account of the environment
 * its secret is for (that is what a platform is for), under the public
 * page's rules — issued only, never a pending one; a chain of replacements
 * is one dataset, answered with its DeCA in force.
 */
import type { Kysely } from 'kysely';
import { fechaMadrid, sumarDias } from '../../../shared/rules/fechas';
import { normalizarMatricula, paisDeMatricula } from '../../../shared/rules/matricula';
import type { Entorno } from '../../../shared/schemas/cuenta';
import type { DB, DecaRow } from '../../db/schema';
import type { Pasarela } from '../actor';
import type { Trx } from '../context';
import { consignmentDeDeca, SUBSETS_DECA } from './dataset';
import { datosDeVersion } from './leer';
import { type ConsultaIdentificador, type ConsultaUil, type MensajePasarela, NS_EDELIVERY } from './mensajes';
import type { IdentidadEfti } from './uil';
import { documentoXml, type Elemento, grupo, hoja, type Nodo } from './xml';

export const NS_CONSIGNMENT_IDENTIFIER = 'http://efti.eu/v1/consignment/identifier';

/**
 * The identifier query finds the DeCAs whose transport date is at most this
 * many days ago (or tomorrow, a DeCA made the day before): the message has
 * no date (gate.xsd), and a roadside check asks about the transport under
 * way, not about a plate's year. A dataset older than that is reached by
 * its UIL.
 */
export const DIAS_IDENTIFICADOR = 30;

/** At most this many datasets answer one identifier query (the most recent transports first). */
export const MAXIMO_IDENTIFICADOR = 50;

/** The subset ids a uilQuery may name that give the whole dataset: ours, and the reference's «full». */
const COMPLETO = new Set<string>(['full', ...SUBSETS_DECA]);
/** The identifier subset (gate.xsd's comment on UILQuery: «e.g. identifier, EU1, FI or FI01»). */
const IDENTIFICADOR = 'identifier';
/** The elements of the common data set that make its identifier subset (consignment-identifier.xsd's root sequence). */
const ELEMENTOS_IDENTIFICADOR = new Set(['carrierAcceptanceDateTime', 'deliveryEvent', 'mainCarriageTransportMovement', 'usedTransportEquipment']);

/** One DeCA the gate got, for the account's log. */
interface Devuelta {
  account_id: number;
  numero: string;
  version: number;
}

/** The answer to the gate and what is recorded of it. */
export interface RespuestaPasarela {
  /** The response's status, also the HTTP status. */
  estado: 200 | 400 | 404;
  xml: string;
}

interface Registro {
  tipo: 'uil' | 'identificador' | 'no_valida';
  requestId: string | null;
  datasetId?: string | null;
  identificador?: string | null;
  tipos?: string[];
  pais?: string | null;
  subsets?: string[];
  estado: number;
  devueltas: Devuelta[];
}

type Fila = Pick<
  DecaRow,
  'id' | 'account_id' | 'entorno' | 'estado' | 'numero' | 'version' | 'efti_dataset_id' | 'fecha_transporte' | 'matricula' | 'matricula_remolque' | 'tipo_vehiculo' | 'matricula_pais' | 'remolque_pais'
>;
const COLUMNAS = [
  'id',
  'account_id',
  'entorno',
  'estado',
  'numero',
  'version',
  'efti_dataset_id',
  'fecha_transporte',
  'matricula',
  'matricula_remolque',
  'tipo_vehiculo',
  'matricula_pais',
  'remolque_pais',
] as const;

/** A response message: the root in the edelivery namespace, its status and request id, an optional description, then its content. */
function respuesta(raiz: 'uilResponse' | 'identifierResponse', estado: number, requestId: string | null, descripcion: string | null, contenido: Nodo[], extra: Record<string, string> = {}): string {
  return documentoXml({
    nombre: raiz,
    atributos: { xmlns: NS_EDELIVERY, ...extra, status: String(estado), ...(requestId ? { requestId } : {}) },
    hijos: [hoja('description', descripcion), ...contenido],
  });
}

/**
 * The identifier subset of a DeCA, as an identifierResponse's `consignment`
 * (edelivery.xsd's `Consignment`: consignment-identifier.xsd's elements,
 * then the UIL). The identifier schema requires a registration country with
 * every plate: a plate whose country we cannot tell is left out (the UIL
 * still leads to the whole dataset).
 */
export function consignmentIdentificadores(f: Fila, yo: IdentidadEfti): Elemento {
  const id = (n: string) => `id:${n}`;
  const conPais = (m: string | null, guardado: string | null) => {
    const pais = m && Array.from(m).length <= 17 ? paisDeMatricula(m, guardado) : null;
    return m && pais ? { matricula: m, pais } : null;
  };
  const medio = conPais(f.matricula, f.matricula_pais);
  const equipo = conPais(f.matricula_remolque, f.remolque_pais);
  const pais = (codigo: string) => ({ nombre: id('registrationCountry'), hijos: [{ nombre: id('code'), texto: codigo }] });
  return {
    nombre: 'consignment',
    hijos: [
      f.fecha_transporte ? hoja(id('carrierAcceptanceDateTime'), f.fecha_transporte.replaceAll('-', ''), { formatId: '102' }) : null,
      {
        nombre: id('mainCarriageTransportMovement'),
        hijos: [
          // A DeCA never covers dangerous goods (ADR has its own document); UNECE Rec. 19: 3 = road.
          { nombre: id('dangerousGoodsIndicator'), texto: 'false' },
          { nombre: id('modeCode'), texto: '3' },
          medio ? { nombre: id('usedTransportMeans'), hijos: [{ nombre: id('id'), texto: medio.matricula }, pais(medio.pais)] } : null,
        ],
      },
      equipo
        ? {
            nombre: id('usedTransportEquipment'),
            hijos: [
              { nombre: id('categoryCode'), texto: f.tipo_vehiculo === 'rigido' ? 'TE' : 'SM' },
              { nombre: id('id'), texto: equipo.matricula },
              pais(equipo.pais),
              { nombre: id('sequenceNumber'), texto: '1' },
            ],
          }
        : null,
      grupo('uil', [hoja('gateId', yo.gateId), hoja('platformId', yo.platformId), hoja('datasetId', f.efti_dataset_id)]),
    ],
  };
}

/** The DeCA in force of the chain a dataset id names, issued, in the gate's environment; null when there is none. */
async function decaDelDataset(db: Kysely<DB>, entorno: Entorno, datasetId: string): Promise<Fila | null> {
  const fila = await db
    .selectFrom('decas')
    .select(COLUMNAS)
    .where('efti_dataset_id', '=', datasetId)
    .where('entorno', '=', entorno)
    .where('estado', '=', 'emitido')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return fila ?? null;
}

async function responderUil(db: Kysely<DB>, p: Pasarela, yo: IdentidadEfti, q: ConsultaUil): Promise<{ r: RespuestaPasarela; reg: Registro }> {
  const reg = (estado: number, devueltas: Devuelta[] = []): Registro => ({ tipo: 'uil', requestId: q.requestId, datasetId: q.uil.datasetId, subsets: q.subsets, estado, devueltas });
  const noEsta = (descripcion: string) => ({ r: { estado: 404 as const, xml: respuesta('uilResponse', 404, q.requestId, descripcion, []) }, reg: reg(404) });
  if (q.uil.gateId !== yo.gateId || q.uil.platformId !== yo.platformId) {
    return noEsta(`El UIL es de la pasarela ${q.uil.gateId} y la plataforma ${q.uil.platformId}; esta es la plataforma ${yo.platformId} de la pasarela ${yo.gateId}.`);
  }
  const completo = q.subsets.some((s) => COMPLETO.has(s));
  if (!completo && !q.subsets.includes(IDENTIFICADOR)) {
    return noEsta(`El conjunto de datos no lleva datos de los subconjuntos pedidos (${q.subsets.join(', ')}): lleva ${SUBSETS_DECA.join(', ')} e ${IDENTIFICADOR}.`);
  }
  const deca = await decaDelDataset(db, p.entorno, q.uil.datasetId);
  const datos = deca ? await datosDeVersion(db, deca, deca.version) : null;
  if (!deca || !datos) return noEsta(`No hay ningún conjunto de datos ${q.uil.datasetId} en esta plataforma.`);
  const entero = consignmentDeDeca(datos);
  const consignment = completo ? entero : { ...entero, hijos: (entero.hijos ?? []).filter((h) => h && ELEMENTOS_IDENTIFICADOR.has(h.nombre)) };
  return {
    r: { estado: 200, xml: respuesta('uilResponse', 200, q.requestId, null, [consignment]) },
    reg: reg(200, [{ account_id: deca.account_id, numero: deca.numero, version: deca.version }]),
  };
}

/** The plates of issued DeCAs of the environment that match the query, most recent transports first. */
async function buscarPorIdentificador(db: Kysely<DB>, entorno: Entorno, q: ConsultaIdentificador, hoy: string): Promise<Fila[]> {
  const matricula = normalizarMatricula(q.identificador);
  const tipos = q.tipos.length ? q.tipos : ['means', 'equipment'];
  // The DeCA holds no carried equipment (containers), no mode other than road and no dangerous goods.
  const columnas = [...(tipos.includes('means') ? (['matricula'] as const) : []), ...(tipos.includes('equipment') ? (['matricula_remolque'] as const) : [])];
  if (!matricula || columnas.length === 0 || (q.modo !== null && q.modo !== '3') || q.peligrosas === true) return [];
  const desde = sumarDias(hoy, -DIAS_IDENTIFICADOR);
  const hasta = sumarDias(hoy, 1);
  const filas = await db
    .selectFrom('decas')
    .select(COLUMNAS)
    .where('entorno', '=', entorno)
    .where('estado', '=', 'emitido')
    .where((eb) => eb.or(columnas.map((c) => eb(c, '=', matricula))))
    .where('fecha_transporte', '>=', desde)
    .where('fecha_transporte', '<=', hasta)
    .orderBy('fecha_transporte', 'desc')
    .orderBy('id', 'desc')
    .limit(MAXIMO_IDENTIFICADOR * 2)
    .execute();
  // The country: the one the DeCA holds; else Spain for a Spanish series; a plate with neither matches any country but Spain (its country is unknown to us).
  const delPais = (m: string | null, guardado: string | null) => q.pais === null || (m === matricula && (paisDeMatricula(m, guardado) ?? (q.pais === 'ES' ? null : q.pais)) === q.pais);
  return filas
    .filter((f) => (columnas.includes('matricula') && delPais(f.matricula, f.matricula_pais)) || (columnas.includes('matricula_remolque') && delPais(f.matricula_remolque, f.remolque_pais)))
    .slice(0, MAXIMO_IDENTIFICADOR);
}

async function responderIdentificador(db: Kysely<DB>, p: Pasarela, yo: IdentidadEfti, q: ConsultaIdentificador, hoy: string): Promise<{ r: RespuestaPasarela; reg: Registro }> {
  const filas = await buscarPorIdentificador(db, p.entorno, q, hoy);
  const reg: Registro = {
    tipo: 'identificador',
    requestId: q.requestId,
    identificador: q.identificador,
    tipos: q.tipos,
    pais: q.pais,
    estado: 200,
    devueltas: filas.map((f) => ({ account_id: f.account_id, numero: f.numero, version: f.version })),
  };
  const descripcion = filas.length === MAXIMO_IDENTIFICADOR ? `Se devuelven los ${MAXIMO_IDENTIFICADOR} transportes más recientes; puede haber más.` : null;
  const xml = respuesta(
    'identifierResponse',
    200,
    q.requestId,
    descripcion,
    filas.map((f) => consignmentIdentificadores(f, yo)),
    { 'xmlns:id': NS_CONSIGNMENT_IDENTIFIER },
  );
  return { r: { estado: 200, xml }, reg };
}

/** Records a gate's request (once: its signature's digest is unique per gate) and, per account, the DeCAs it returned. */
async function registrar(trx: Trx, p: Pasarela, reg: Registro, ahora: Date): Promise<void> {
  const consulta = await trx
    .insertInto('efti_consultas')
    .values({
      entorno: p.entorno,
      gate_id: p.gateId,
      request_id: reg.requestId,
      tipo: reg.tipo,
      dataset_id: reg.datasetId ?? null,
      identificador: reg.identificador ?? null,
      tipos_identificador: JSON.stringify(reg.tipos ?? []),
      pais: reg.pais ?? null,
      subsets: JSON.stringify(reg.subsets ?? []),
      estado: reg.estado,
      datasets: reg.devueltas.length,
      firma_sha256: p.firmaSha256,
      created_at: ahora,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const porCuenta = new Map<number, { numero: string; version: number }[]>();
  for (const d of reg.devueltas) {
    let l = porCuenta.get(d.account_id);
    if (!l) porCuenta.set(d.account_id, (l = []));
    l.push({ numero: d.numero, version: d.version });
  }
  if (porCuenta.size === 0) return;
  await trx
    .insertInto('efti_accesos')
    .values([...porCuenta].map(([accountId, decas]) => ({ account_id: accountId, entorno: p.entorno, consulta_id: consulta.id, decas: JSON.stringify(decas), created_at: ahora })))
    .execute();
}

/** Whether this gate already sent this very signed request (a replay within the signature's window). */
export async function yaRecibida(db: Kysely<DB>, p: Pasarela): Promise<boolean> {
  const fila = await db.selectFrom('efti_consultas').select('id').where('gate_id', '=', p.gateId).where('firma_sha256', '=', p.firmaSha256).executeTakeFirst();
  return fila !== undefined;
}

/**
 * The answer to one of the gate's messages, read before the transaction,
 * and its record, written in it (a response is given only once recorded).
 */
export async function prepararRespuesta(
  deps: { db: Kysely<DB>; efti: IdentidadEfti; ahora: Date },
  p: Pasarela,
  m: MensajePasarela,
): Promise<{ valor: RespuestaPasarela; escribir: (trx: Trx) => Promise<RespuestaPasarela> }> {
  let hecho: { r: RespuestaPasarela; reg: Registro };
  if (m.tipo === 'uil') hecho = await responderUil(deps.db, p, deps.efti, m);
  else if (m.tipo === 'identificador') hecho = await responderIdentificador(deps.db, p, deps.efti, m, fechaMadrid(deps.ahora));
  else {
    const raiz = m.raiz === 'uilQuery' ? 'uilResponse' : 'identifierResponse';
    hecho = {
      r: { estado: 400, xml: respuesta(raiz, 400, m.requestId, `Consulta no válida: ${m.motivo}`, []) },
      reg: { tipo: 'no_valida', requestId: m.requestId, estado: 400, devueltas: [] },
    };
  }
  return {
    valor: hecho.r,
    escribir: async (trx) => {
      await registrar(trx, p, hecho.reg, deps.ahora);
      return hecho.r;
    },
  };
}
