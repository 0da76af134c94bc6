/**
 * Reading the gate's queries: the `uilQuery` and `identifierQuery` messages
 * of the reference's `edelivery.xsd` / `edelivery/gate.xsd` (namespace
 * `http://efti.eu/v1/edelivery`), strictly — elements in their namespace and
 * order, nothing unknown —, into plain values. A message the gate got wrong
 * is answered with a response of status 400 saying why, not guessed at.
 *
 * The XML is parsed by fast-xml-parser after a well-formedness check; a
 * document type declaration is refused before parsing (no entity of ours to
 * define, and none of the gate's to expand), and the body is small (the
 * door reads at most LIMITE_MENSAJE_KB).
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser';

export const NS_EDELIVERY = 'http://efti.eu/v1/edelivery';

/** The largest message a gate sends us: a query is a few hundred bytes. */
export const LIMITE_MENSAJE_KB = 64;

/** The identifier kinds of `IdentifierType` (gate.xsd): eFTI618 transport means, eFTI374 equipment, eFTI448 carried equipment. */
export type TipoIdentificador = 'means' | 'equipment' | 'carried';
const TIPOS: readonly TipoIdentificador[] = ['means', 'equipment', 'carried'];

export interface ConsultaUil {
  tipo: 'uil';
  requestId: string;
  uil: { gateId: string; platformId: string; datasetId: string };
  subsets: string[];
}

export interface ConsultaIdentificador {
  tipo: 'identificador';
  requestId: string;
  identificador: string;
  /** The kinds asked for; empty: any (as the reference's registry reads an absent `type`). */
  tipos: TipoIdentificador[];
  schemeAgencyId: string | null;
  pais: string | null;
  modo: string | null;
  peligrosas: boolean | null;
}

/** A query of a kind we know that we could not read: answered with its response, status 400. */
export interface ConsultaNoValida {
  tipo: 'no_valida';
  raiz: 'uilQuery' | 'identifierQuery';
  requestId: string | null;
  motivo: string;
}

export type MensajePasarela = ConsultaUil | ConsultaIdentificador | ConsultaNoValida;

/** An element with its namespace resolved. */
interface Nodo {
  ns: string | null;
  local: string;
  attrs: Record<string, string>;
  hijos: Nodo[];
  texto: string;
}

/** A message that is not XML, or not one of the two queries: the door answers 400 (there is no response type to carry it). */
export class MensajeIlegible extends Error {}

class NoValido extends Error {}

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  processEntities: true,
  htmlEntities: false,
});

type Crudo = Record<string, unknown>;

function nodos(lista: unknown, ambito: Record<string, string>): Nodo[] {
  const salida: Nodo[] = [];
  for (const item of (lista as Crudo[]) ?? []) {
    const nombre = Object.keys(item).find((k) => k !== ':@');
    if (nombre === undefined || nombre === '#text' || nombre.startsWith('?')) continue;
    const attrsCrudos = (item[':@'] ?? {}) as Record<string, string>;
    const propio = { ...ambito };
    const attrs: Record<string, string> = {};
    for (const [k, v] of Object.entries(attrsCrudos)) {
      if (k === 'xmlns') propio[''] = v;
      else if (k.startsWith('xmlns:')) propio[k.slice(6)] = v;
      else attrs[k] = v;
    }
    const i = nombre.indexOf(':');
    const prefijo = i < 0 ? '' : nombre.slice(0, i);
    const local = i < 0 ? nombre : nombre.slice(i + 1);
    const contenido = item[nombre] as Crudo[];
    const texto = contenido
      .filter((c) => '#text' in c)
      .map((c) => String(c['#text']))
      .join('');
    salida.push({ ns: propio[prefijo] ?? null, local, attrs, hijos: nodos(contenido, propio), texto });
  }
  return salida;
}

/** xsd:token's value: whitespace collapsed and trimmed. */
const token = (s: string) => s.replace(/[\t\n\r ]+/g, ' ').trim();

function hijosEd(n: Nodo): Nodo[] {
  for (const h of n.hijos) if (h.ns !== NS_EDELIVERY) throw new NoValido(`<${h.local}> no es del espacio de nombres ${NS_EDELIVERY}.`);
  return n.hijos;
}

/** Reads the children of `n` in order against `esperados` (name, min, max): what each one got. */
function secuencia(n: Nodo, esperados: readonly [string, number, number][]): Record<string, Nodo[]> {
  const hijos = hijosEd(n);
  const salida: Record<string, Nodo[]> = {};
  let i = 0;
  for (const [nombre, min, max] of esperados) {
    const tomados: Nodo[] = [];
    while (i < hijos.length && hijos[i]?.local === nombre && tomados.length < max) tomados.push(hijos[i++] as Nodo);
    if (tomados.length < min) throw new NoValido(`Falta <${nombre}> en <${n.local}>.`);
    salida[nombre] = tomados;
  }
  if (i < hijos.length) throw new NoValido(`<${hijos[i]?.local}> no se espera ahí en <${n.local}>.`);
  return salida;
}

function textoSimple(n: Nodo, max: number, que: string): string {
  if (n.hijos.length) throw new NoValido(`<${n.local}> debe llevar solo texto.`);
  const v = token(n.texto);
  if (!v) throw new NoValido(`${que} está vacío.`);
  if (v.length > max) throw new NoValido(`${que} tiene más de ${max} caracteres.`);
  return v;
}

function leerUil(raiz: Nodo, requestId: string): ConsultaUil {
  const s = secuencia(raiz, [
    ['uil', 1, 1],
    ['subsetId', 1, 50],
  ]);
  const u = secuencia(s.uil?.[0] as Nodo, [
    ['gateId', 1, 1],
    ['platformId', 1, 1],
    ['datasetId', 1, 1],
  ]);
  return {
    tipo: 'uil',
    requestId,
    uil: {
      gateId: textoSimple(u.gateId?.[0] as Nodo, 100, 'gateId'),
      platformId: textoSimple(u.platformId?.[0] as Nodo, 100, 'platformId'),
      datasetId: textoSimple(u.datasetId?.[0] as Nodo, 100, 'datasetId'),
    },
    subsets: [...new Set((s.subsetId ?? []).map((n) => textoSimple(n, 50, 'subsetId')))],
  };
}

function leerIdentificador(raiz: Nodo, requestId: string): ConsultaIdentificador {
  const s = secuencia(raiz, [
    ['identifier', 1, 1],
    ['registrationCountryCode', 0, 1],
    ['modeCode', 0, 1],
    ['dangerousGoodsIndicator', 0, 1],
  ]);
  const id = s.identifier?.[0] as Nodo;
  const tipos: TipoIdentificador[] = [];
  for (const t of token(id.attrs.type ?? '')
    .split(' ')
    .filter(Boolean)) {
    if (!TIPOS.includes(t as TipoIdentificador)) throw new NoValido(`type="${t.slice(0, 20)}" no es means, equipment ni carried.`);
    if (!tipos.includes(t as TipoIdentificador)) tipos.push(t as TipoIdentificador);
  }
  const peligrosas = s.dangerousGoodsIndicator?.[0];
  let indicador: boolean | null = null;
  if (peligrosas) {
    const v = textoSimple(peligrosas, 5, 'dangerousGoodsIndicator');
    if (!['true', 'false', '1', '0'].includes(v)) throw new NoValido('dangerousGoodsIndicator debe ser true o false.');
    indicador = v === 'true' || v === '1';
  }
  const opcional = (n: Nodo | undefined, que: string) => (n ? textoSimple(n, 10, que) : null);
  return {
    tipo: 'identificador',
    requestId,
    identificador: textoSimple(id, 100, 'identifier'),
    tipos,
    schemeAgencyId: id.attrs.schemeAgencyId ? token(id.attrs.schemeAgencyId) : null,
    pais: opcional(s.registrationCountryCode?.[0], 'registrationCountryCode')?.toUpperCase() ?? null,
    modo: opcional(s.modeCode?.[0], 'modeCode'),
    peligrosas: indicador,
  };
}

/** The gate's message, read; MensajeIlegible when it is not XML or not a query we answer. */
export function leerMensaje(xml: string): MensajePasarela {
  if (/<!DOCTYPE|<!ENTITY/i.test(xml)) throw new MensajeIlegible('El mensaje no puede llevar declaración de tipo de documento (<!DOCTYPE>).');
  const valido = XMLValidator.validate(xml);
  if (valido !== true) throw new MensajeIlegible(`El mensaje no es XML bien formado (línea ${valido.err.line}): ${valido.err.msg}`);
  const raices = nodos(parser.parse(xml), {});
  const raiz = raices[0];
  if (raices.length !== 1 || !raiz) throw new MensajeIlegible('El mensaje debe tener un único elemento raíz.');
  if (raiz.ns !== NS_EDELIVERY || (raiz.local !== 'uilQuery' && raiz.local !== 'identifierQuery')) {
    throw new MensajeIlegible(`Esta plataforma responde a uilQuery e identifierQuery del espacio de nombres ${NS_EDELIVERY}; llegó <${raiz.local.slice(0, 50)}>.`);
  }
  const requestId = raiz.attrs.requestId !== undefined ? token(raiz.attrs.requestId).slice(0, 200) || null : null;
  try {
    if (!requestId) throw new NoValido('Falta el atributo requestId.');
    return raiz.local === 'uilQuery' ? leerUil(raiz, requestId) : leerIdentificador(raiz, requestId);
  } catch (err) {
    if (err instanceof NoValido) return { tipo: 'no_valida', raiz: raiz.local, requestId, motivo: err.message };
    throw err;
  }
}
