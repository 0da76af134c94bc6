/**
 * One issued version of a DeCA as an eFTI dataset: the root element
 * `consignment` of the reference's common data set
 * (server/efti/xsd/consignment-common.xsd, namespace
 * `http://efti.eu/v1/consignment/common`), written from exactly what that
 * version's PDF printed (`deca_versiones.datos_pdf`), so the dataset an
 * authority reads and the document the driver carries say the same.
 *
 * Which element holds which DeCA field, and what the DeCA does not hold, is
 * docs/efti.md; the order of the children below is the order of each type's
 * `xsd:sequence` (the schema refuses any other).
 */
import type { DecaPdfData, DecaPdfEnvio } from '../../../shared/pdf/deca-pdf-data';
import { paisDeMatricula } from '../../../shared/rules/matricula';
import { type Elemento, grupo, hoja, type Nodo } from './xml';

export const NS_CONSIGNMENT_COMMON = 'http://efti.eu/v1/consignment/common';

/**
 * The subsets (Delegated Regulation (EU) 2024/2024, annex; the reference's
 * `<subset id>` annotations) whose regulatory information a DeCA carries:
 * ES01, the Spanish control document of Orden FOM/2861/2012. docs/efti.md
 * says why, and which of ES01's elements the DeCA lacks.
 */
export const SUBSETS_DECA = ['ES01'] as const;

/** Units of a shipment's quantity as the schema codes them (UNECE Rec. 20), with the factor to the unit we total in. */
const PESO: Partial<Record<DecaPdfEnvio['unidad'], number>> = { kg: 1, t: 1000 };
const VOLUMEN: Partial<Record<DecaPdfEnvio['unidad'], number>> = { m3: 1, l: 0.001 };
const BULTOS: Partial<Record<DecaPdfEnvio['unidad'], string>> = { palets: 'palets', bultos: 'bultos', unidades: 'unidades', contenedores: 'contenedores' };

/**
 * A text cut into pieces of at most `max` characters (the schema's
 * `maxLength` counts code points: an emoji is one), at a space when one is
 * near, for the elements the schema lets repeat (names, street lines,
 * remarks): a DeCA field longer than the eFTI element is carried whole,
 * in order, never cut short.
 */
export function trozos(texto: string, max: number): string[] {
  const cps = Array.from(texto.trim());
  const salida: string[] = [];
  while (cps.length > 0) {
    if (cps.length <= max) {
      salida.push(cps.join(''));
      break;
    }
    let corte = cps.lastIndexOf(' ', max);
    if (corte < max / 2) corte = max;
    const trozo = cps.splice(0, corte).join('').trimEnd();
    if (trozo) salida.push(trozo);
    while (cps[0] === ' ') cps.shift();
  }
  return salida;
}

/** A repeatable element once per piece of the text. */
function repetido(nombre: string, texto: string | null, max: number, atributos?: Record<string, string>): Elemento[] {
  if (!texto) return [];
  return trozos(texto, max).map((t) => ({ nombre, texto: t, ...(atributos ? { atributos } : {}) }));
}

/** An identifier element only when the value fits it whole (an identifier cut in two would be a wrong one). */
function identificador(nombre: string, valor: string | null, max: number): Elemento | null {
  if (!valor || Array.from(valor).length > max) return null;
  return { nombre, texto: valor };
}

/**
 * `types:MeasureValue`: a decimal of at most 16 digits in all, 6 of them
 * after the point, never in exponent form; fewer decimals when the whole
 * part needs the room, and null when even that does not fit (the
 * shipments' lines in `information` still say every quantity).
 */
export function medida(n: number): string | null {
  if (!Number.isFinite(n) || Math.abs(n) >= 1e16) return null;
  const enteros = Math.trunc(Math.abs(n)).toString().length;
  const s = n
    .toFixed(Math.max(0, Math.min(6, 16 - enteros)))
    .replace(/(\.\d*?)0+$/, '$1')
    .replace(/\.$/, '');
  return s === '-0' ? '0' : s;
}

/** 'YYYY-MM-DD' → 'YYYYMMDD' (UN/EDIFACT 2379 code 102, as `formatId` says). */
const fecha102 = (iso: string): string => iso.replaceAll('-', '');

/** 'YYYY-MM-DD HH:MM:SS' Madrid wall time → 'YYYYMMDDHHMM' (code 203: local time, as the document prints it). */
const fechaHora203 = (madrid: string): string => madrid.slice(0, 16).replace(/[-: ]/g, '');

/** A party's address in parts, when the DeCA holds them (eFTI extension; absent in older versions). */
interface Direccion {
  cp?: string | null;
  municipio?: string | null;
  provincia?: string | null;
  pais?: string | null;
}

/**
 * A party of the DeCA: its name, its address, its NIF. The address's parts
 * when given (postcode, city, province, country: ES when parts are given
 * and no country, as the DeCA's fields say); the free text line always goes
 * as street lines, whole and in order (the schema has no free-text address).
 * The children follow TradeAddress's sequence.
 */
function parte(nombre: string, p: { nombre: string | null; domicilio: string | null; nif: string | null } & Direccion): Elemento | null {
  const conPartes = Boolean(p.cp || p.municipio || p.provincia || p.pais);
  return grupo(nombre, [
    ...repetido('name', p.nombre, 70),
    grupo('postalAddress', [
      ...repetido('cityName', p.municipio ?? null, 35),
      conPartes ? hoja('countryCode', p.pais || 'ES') : null,
      ...repetido('countrySubDivisionName', p.provincia ?? null, 35),
      hoja('postcode', p.cp ?? null),
      ...repetido('streetName', p.domicilio, 35),
    ]),
    grupo('taxRegistration', [identificador('id', p.nif, 35)]),
  ]);
}

/** The consignee every shipment shares, or null when they differ or none is given (each shipment's line then says its own). */
function destinatarioComun(envios: readonly DecaPdfEnvio[]): { nombre: string | null; nif: string | null } | null {
  const claves = new Set(envios.map((e) => JSON.stringify([e.destinatario_nombre ?? null, e.destinatario_nif ?? null])));
  const [primero] = envios;
  if (claves.size !== 1 || !primero || (!primero.destinatario_nombre && !primero.destinatario_nif)) return null;
  return { nombre: primero.destinatario_nombre ?? null, nif: primero.destinatario_nif ?? null };
}

/** A shipment's consignee in words, for its line: «destinatario X (NIF Y)». */
function destinatarioEnTexto(e: DecaPdfEnvio): string | null {
  if (!e.destinatario_nombre && !e.destinatario_nif) return null;
  return `destinatario ${[e.destinatario_nombre, e.destinatario_nif ? `NIF ${e.destinatario_nif}` : null].filter(Boolean).join(', ')}`;
}

/** A plate's country as the schema's `registrationCountry`, when it can be told (shared/rules/matricula.ts `paisDeMatricula`). */
function paisRegistro(matricula: string, pais: string | null | undefined): Elemento | null {
  const codigo = paisDeMatricula(matricula, pais);
  return codigo ? { nombre: 'registrationCountry', hijos: [{ nombre: 'code', texto: codigo }] } : null;
}

/** The one value every shipment shares (all the same origin, say), or null when they differ. */
function comun(envios: readonly DecaPdfEnvio[], campo: 'origen' | 'destino'): string | null {
  const valores = new Set(envios.map((e) => e[campo]));
  return valores.size === 1 ? (envios[0]?.[campo] ?? null) : null;
}

function cantidad(e: DecaPdfEnvio): string {
  return `${medida(e.peso) ?? e.peso} ${e.unidad}`;
}

/**
 * A shipment whole, as one remark: a DeCA's shipments may differ in places,
 * goods and consignees, which the consignment holds once. The consignee
 * only when the shipments do not share one (`conDestinatario`).
 */
function lineaDeEnvio(e: DecaPdfEnvio, i: number, total: number, conDestinatario: boolean): string {
  const partes = [`Envío ${i + 1} de ${total}: ${e.origen} → ${e.destino}`, e.naturaleza, cantidad(e)];
  const destinatario = conDestinatario ? destinatarioEnTexto(e) : null;
  if (destinatario) partes.push(destinatario);
  if (e.nota) partes.push(e.nota);
  return partes.join('; ');
}

/** Totals by kind of unit: weight in kg, volume in m³, packages by kind (only whole numbers of them). */
function totales(envios: readonly DecaPdfEnvio[]) {
  let kg = 0;
  let m3 = 0;
  let conPeso = false;
  let conVolumen = false;
  const bultos = new Map<string, number>();
  for (const e of envios) {
    const fp = PESO[e.unidad];
    const fv = VOLUMEN[e.unidad];
    const b = BULTOS[e.unidad];
    if (fp !== undefined) {
      kg += e.peso * fp;
      conPeso = true;
    } else if (fv !== undefined) {
      m3 += e.peso * fv;
      conVolumen = true;
    } else if (b !== undefined && Number.isInteger(e.peso) && e.peso < 1e8 - (bultos.get(b) ?? 0)) {
      bultos.set(b, (bultos.get(b) ?? 0) + e.peso);
    }
  }
  return { kg: conPeso ? kg : null, m3: conVolumen ? m3 : null, bultos };
}

/** The dataset of one issued version of a DeCA: the `consignment` element, namespace declared on it. */
export function consignmentDeDeca(d: DecaPdfData): Elemento {
  const envios = d.envios;
  const origen = comun(envios, 'origen');
  const destino = comun(envios, 'destino');
  const t = totales(envios);
  const consignee = destinatarioComun(envios);
  const informacion: string[] = [];
  if ((d.entorno ?? 'produccion') === 'pruebas') informacion.push('DOCUMENTO DE PRUEBA — SIN VALIDEZ');
  informacion.push(`DeCA ${d.numero}, versión ${d.version}${d.estado === 'sustituido' ? ' (sustituida)' : ''}`);
  if (d.sustituye_a) informacion.push(`Sustituye a la DeCA ${d.sustituye_a}`);
  if (d.motivo_modificacion) informacion.push(`Motivo de la modificación: ${d.motivo_modificacion}`);
  envios.forEach((e, i) => {
    informacion.push(lineaDeEnvio(e, i, envios.length, consignee === null));
  });
  if (d.autorizacion_especial) informacion.push(`Autorización especial de circulación: ${d.autorizacion_especial}`);
  if (d.observaciones) informacion.push(`Observaciones: ${d.observaciones}`);
  if (d.referencia) informacion.push(`Referencia: ${d.referencia}`);
  // A plate longer than the schema's identifier (17) is not cut: it travels as a remark.
  for (const [que, m] of [
    ['Matrícula', d.matricula],
    ['Matrícula del remolque', d.matricula_remolque],
  ] as const) {
    if (m && Array.from(m).length > 17) informacion.push(`${que}: ${m}`);
  }

  const hijos: Nodo[] = [
    // The DeCA itself, as the document this dataset is the data of.
    grupo('associatedDocument', [
      hoja('formattedIssueDateTime', fechaHora203(d.modificado_at ?? d.emitido_at), { formatId: '203' }),
      identificador('id', d.numero, 35),
      identificador('uRI', d.ficha_url, 512),
    ]),
    parte('carrier', {
      nombre: d.transp_nombre,
      domicilio: d.transp_domicilio,
      nif: d.transp_nif,
      cp: d.transp_cp,
      municipio: d.transp_municipio,
      provincia: d.transp_provincia,
      pais: d.transp_pais,
    }),
    hoja('carrierAcceptanceDateTime', fecha102(d.fecha_transporte), { formatId: '102' }),
    origen ? { nombre: 'carrierAcceptanceLocation', hijos: repetido('name', origen, 256) } : null,
    consignee ? parte('consignee', { nombre: consignee.nombre, domicilio: null, nif: consignee.nif }) : null,
    destino ? { nombre: 'consigneeReceiptLocation', hijos: repetido('name', destino, 256) } : null,
    parte('consignor', {
      nombre: d.cargador_nombre,
      domicilio: d.cargador_domicilio,
      nif: d.cargador_nif,
      cp: d.cargador_cp,
      municipio: d.cargador_municipio,
      provincia: d.cargador_provincia,
      pais: d.cargador_pais,
    }),
    t.m3 !== null ? hoja('grossVolume', medida(t.m3), { unitId: 'MTQ' }) : null,
    t.kg !== null ? hoja('grossWeight', medida(t.kg), { unitId: 'KGM' }) : null,
    ...informacion.flatMap((linea) => repetido('information', linea, 256)),
    grupo('mainCarriageTransportMovement', [
      // UNECE Rec. 19: 3 = road transport.
      { nombre: 'modeCode', texto: '3' },
      grupo('usedTransportMeans', identificador('id', d.matricula, 17) ? [identificador('id', d.matricula, 17), paisRegistro(d.matricula, d.matricula_pais)] : []),
    ]),
    grupo(
      'natureIdentificationCargo',
      envios.flatMap((e) => repetido('identificationText', e.naturaleza, 512, { languageId: 'ES' })),
    ),
    ...[...t.bultos].map(([tipo, n]) => ({
      nombre: 'transportPackage',
      hijos: [
        { nombre: 'itemQuantity', texto: String(n) },
        { nombre: 'typeText', texto: tipo, atributos: { languageId: 'ES' } },
      ],
    })),
    d.matricula_remolque
      ? grupo('usedTransportEquipment', [
          // UN/EDIFACT 8053: SM = semi-trailer (the DeCA's «articulado»: tractora + semirremolque), TE = trailer.
          { nombre: 'categoryCode', texto: d.tipo_vehiculo === 'rigido' ? 'TE' : 'SM' },
          identificador('id', d.matricula_remolque, 17),
          identificador('id', d.matricula_remolque, 17) ? paisRegistro(d.matricula_remolque, d.remolque_pais) : null,
          { nombre: 'sequenceNumber', texto: '1' },
        ])
      : null,
  ];
  return { nombre: 'consignment', atributos: { xmlns: NS_CONSIGNMENT_COMMON }, hijos };
}
