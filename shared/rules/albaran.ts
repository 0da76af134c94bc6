/**
 * What a delivery note, order or consignment note says, read from its text
 * (as OCR gives it) into the data of a DeCA for review: parties with their
 * NIF, vehicle and trailer plates, date, places, goods and weights, each
 * with a confidence from 0 to 1. Pure functions, for the server and, later,
 * the app. Nothing here decides: the user reviews the proposal before
 * anything is created.
 */
import { clasificarMatricula, normalizarMatricula } from './matricula';
import { validarNif } from './nif';
import { parsePeso, type UnidadCantidad } from './peso';
import { quitarInvisibles } from './texto';

// ————— NIF —————

export interface NifLeido {
  nif: string;
  /** 0.95 with a right check digit as read; 0.8 once usual OCR slips were undone; 0.3 if still wrong. */
  confianza: number;
  /** Where in the text it starts. */
  posicion: number;
}

// Letters OCR reads in place of digits (a handwritten 4 as U or Y), and the letters a digit may stand for (a DNI's L read as 1, a CIF's B as 8).
const COMO_CIFRA: Record<string, string> = { O: '0', Q: '0', D: '0', I: '1', L: '1', '|': '1', Z: '2', S: '5', G: '6', B: '8', T: '7', U: '4', Y: '4' };
const COMO_LETRA: Record<string, string[]> = { '0': ['O', 'D', 'Q'], '1': ['I', 'L', 'T', 'J'], '2': ['Z'], '4': ['A'], '5': ['S'], '6': ['G'], '7': ['T', 'Z', 'J'], '8': ['B'] };
// Digits a hand writes alike: an open 4 and a 9.
const OTRA_CIFRA: Record<string, string[]> = { '4': ['9'], '9': ['4'] };

// A NIF as printed: DNI 8 digits + letter, NIE X/Y/Z + 7 + letter, CIF letter + 7 + check; optional «ES», dots, dashes and spaces inside.
const RE_NIF = /(?<![A-Z0-9])(?:ES[\s-]?)?([A-Z0-9][\s.-]?(?:[0-9OQDILZSGBTUY|][\s.-]?){7}[A-Z0-9])(?![A-Z0-9])/g;

/** Every NIF/NIE/CIF in the text, corrected where a usual OCR slip breaks the check digit; best first per position. */
export function buscarNifs(texto: string): NifLeido[] {
  const out: NifLeido[] = [];
  const vistos = new Set<string>();
  for (const m of texto.toUpperCase().matchAll(RE_NIF)) {
    const bruto = m[1]!.replace(/[\s.-]/g, '');
    // Nine digits are a phone number, unless a NIF label or a company's name («…, S.L.») stands right
    // before them, or the first stands apart by a dash as a CIF's letter does: then a letter was
    // misread as a digit (a CIF's G as 6, B as 8; a DNI's L as 1, Z as 7).
    const antes = texto.toUpperCase().slice(Math.max(0, m.index! - 14), m.index!);
    const etiquetado =
      /\b(?:N\.{0,2}\s?[IL1|]?\.?\s?F|C\.{0,2}\s?[IL1|]?\.?\s?F|NIE)\.?[\s:.-]*(?:ES[\s-]?)?$/.test(antes) || /\bS\.?\s?(?:L|A|COOP)\.?(?:\s?U\.?)?[\s,;]*$/.test(antes) || /^\d-\d/.test(m[1]!);
    // Most of the middle must be real digits («SOLIDOS» between two letters is a word); after a NIF
    // label, three do (a handwritten «B69SUUI38» is B69544138).
    if ((bruto.slice(1, 8).match(/\d/g)?.length ?? 0) < (etiquetado ? 3 : 5)) continue;
    if (!/[A-Z]/.test(bruto[0]!) && !/[A-Z]/.test(bruto[8]!) && !etiquetado) continue;
    const leido = leerNif(bruto);
    if (!leido || vistos.has(leido.nif)) continue;
    vistos.add(leido.nif);
    out.push({ ...leido, posicion: m.index! });
  }
  return out;
}

function leerNif(bruto: string): Omit<NifLeido, 'posicion'> | null {
  if (validarNif(bruto).valido) return { nif: bruto, confianza: 0.95 };
  // The middle seven are digits in every form; the first is a digit (DNI) or a letter (NIE, CIF).
  const medio = [...bruto.slice(1, 8)].map((c) => COMO_CIFRA[c] ?? c).join('');
  const lecturas = (c: string) => new Set([c, COMO_CIFRA[c] ?? c, ...(COMO_LETRA[c] ?? []), ...(OTRA_CIFRA[c] ?? [])]);
  const validos: { nif: string; cambios: number }[] = [];
  for (const primero of lecturas(bruto[0]!)) {
    for (const ultimo of lecturas(bruto[8]!)) {
      const c = `${primero}${medio}${ultimo}`;
      if (/^[A-Z0-9]\d{7}[A-Z0-9]$/.test(c) && validarNif(c).valido && !validos.some((v) => v.nif === c)) {
        validos.push({ nif: c, cambios: [...c].filter((x, i) => x !== bruto[i]).length });
      }
    }
  }
  // The fewest characters changed first; on a tie a company's CIF (a letter first) before a DNI, since the
  // parties of a transport are mostly companies («835098862»: B35098862 rather than 83509886Z).
  validos.sort((a, b) => a.cambios - b.cambios || Number(/^\d/.test(a.nif)) - Number(/^\d/.test(b.nif)));
  // One reading that fits is a likely fix; two that fit (a DNI and a CIF) need the user's eye.
  if (validos.length) return { nif: validos[0]!.nif, confianza: validos.length === 1 ? 0.8 : 0.45 };
  return /^[A-Z0-9]\d{7}[A-Z0-9]$/.test(`${bruto[0]}${medio}${bruto[8]}`) ? { nif: `${bruto[0]}${medio}${bruto[8]}`, confianza: 0.3 } : null;
}

// ————— Matrículas —————

export interface MatriculasLeidas {
  matricula: string | null;
  remolque: string | null;
  confianza: { matricula: number; remolque: number };
}

// Current (1234 BCD), trailer (R 1234 BCD, or 1234 BCD-R as some notes write it) and provincial (M-1234-AB) plates.
// A trailing R stays on the plate's line and is not the start of the next plate («1234 BCD R-5678-BBC»).
const RE_MATRICULA = /(?<![A-Z0-9])(R[\s-]?)?(\d{4}(?:[ \t]?-[ \t]?|[ \t])?[BCDFGHJKLMNPRSTVWXYZ]{3}|(?:[A-Z]{1,2})[\s-]?\d{4}[\s-]?[A-Z]{1,2})([ \t-]?R(?![ \t-]?\d))?(?![A-Z0-9])/g;

/** The tractor's (or rigid vehicle's) plate and the trailer's, told apart by the `R`. */
export function buscarMatriculas(texto: string): MatriculasLeidas {
  let matricula: string | null = null;
  let remolque: string | null = null;
  for (const m of texto.toUpperCase().matchAll(RE_MATRICULA)) {
    const esRemolque = Boolean(m[1] || m[3]);
    const placa = normalizarMatricula(`${esRemolque ? 'R' : ''}${m[2]}`);
    const c = clasificarMatricula(placa);
    if (!c.valida) continue;
    if (c.tipo === 'remolque') remolque ??= c.normalizada;
    else matricula ??= c.normalizada;
  }
  return { matricula, remolque, confianza: { matricula: matricula ? 0.9 : 0, remolque: remolque ? 0.9 : 0 } };
}

// What OCR makes of a plate's consonants: J as «)», «]» or I; D as O or 0; V as U; F as E; B, S, Z as 8, 5, 2.
const CONSONANTE_LEIDA: Record<string, string> = { ')': 'J', ']': 'J', '¡': 'J', I: 'J', O: 'D', '0': 'D', U: 'V', E: 'F', '8': 'B', '5': 'S', '2': 'Z' };

/**
 * The plates of a line labelled «Matrícula»: as {@link buscarMatriculas}, and where it finds none,
 * again after undoing the usual slips in the three letters (Spanish series use no vowels), with less confidence.
 */
export function buscarMatriculasEtiquetadas(texto: string): MatriculasLeidas {
  const leidas = buscarMatriculas(texto);
  if (leidas.matricula && leidas.remolque) return leidas;
  // «N)JG»: one J read twice; «WT M»: a dot-matrix print's letters spaced apart.
  const corregido = texto
    .toUpperCase()
    .replace(/[)\]]J|J[)\]]/g, 'J')
    .replace(/(\d{4}[\s-]?)([A-Z] ?[A-Z] ?[A-Z])(?![A-Z0-9])/g, (_, cifras: string, letras: string) => `${cifras}${letras.replace(/ /g, '')}`)
    .replace(
      /(?<![A-Z0-9])(R[\s-]?)?((?=[0-9OQDILZSGBTU|]*\d)[0-9OQDILZSGBTU|]{4})( ?- ?| )?([A-Z0-9)\]¡]{3})(?![A-Z0-9])/g,
      (_, r: string | undefined, cifras: string, espacio: string | undefined, letras: string) =>
        `${r ?? ''}${[...cifras].map((c) => COMO_CIFRA[c] ?? c).join('')}${espacio ?? ''}${[...letras].map((c) => CONSONANTE_LEIDA[c] ?? c).join('')}`,
    );
  const otra = buscarMatriculas(corregido);
  const matricula = leidas.matricula ?? otra.matricula;
  const remolque = leidas.remolque ?? otra.remolque;
  return {
    matricula,
    remolque,
    confianza: { matricula: leidas.matricula ? 0.9 : matricula ? 0.6 : 0, remolque: leidas.remolque ? 0.9 : remolque ? 0.6 : 0 },
  };
}

// ————— Una segunda mirada —————

const ETIQUETA_NIF = /\b(?:N\.{0,2}\s?[IL1|]?\.?\s?F|C\.{0,2}\s?[IL1|]?\.?\s?F|NIE)\b/i;
const ETIQUETA_MATRICULA = /\b(?:MATR[IÍ]CULA|TRACTORA|VEH[IÍ]CULO)\b/i;
const ETIQUETA_REMOLQUE = /\b(?:SEMI)?REMOLQUE\b/i;

/**
 * The NIFs of one line, each with how sure it is: its confidence, halved
 * when OCR gave it in small letters, a sign it hesitated («g10050706» for
 * B10050706).
 */
function nifsDeLinea(linea: string): number[] {
  return buscarNifs(linea).map((n) => n.confianza * (/\p{Ll}/u.test(linea.slice(n.posicion, n.posicion + 12)) ? 0.5 : 1));
}

/** How sure the NIFs and plates read in one line are, all together. */
export function certezaDeLinea(linea: string): number {
  const placas = buscarMatriculasEtiquetadas(linea);
  return nifsDeLinea(linea).reduce((s, c) => s + c, 0) + placas.confianza.matricula + placas.confianza.remolque;
}

/**
 * A line worth a second, closer look (the OCR reading it again, larger, as
 * one line): it is labelled as a NIF or a plate and what was read there is
 * not sure — no NIF whose check character holds as read, or fewer plates
 * than its labels.
 */
export function lineaPorReleer(linea: string): boolean {
  if (ETIQUETA_NIF.test(linea) && !nifsDeLinea(linea).some((c) => c >= 0.95)) return true;
  const matricula = ETIQUETA_MATRICULA.test(linea);
  const remolque = ETIQUETA_REMOLQUE.test(linea);
  if (!matricula && !remolque) return false;
  const placas = buscarMatriculasEtiquetadas(linea);
  return (matricula && !placas.matricula) || (remolque && !placas.remolque);
}

/** Of a line as first read and as read again, the one whose NIFs and plates are surer (the first on a tie). */
export function mejorLectura(primera: string, otra: string): string {
  return certezaDeLinea(otra) > certezaDeLinea(primera) ? otra : primera;
}

// ————— Fechas —————

const MESES: Record<string, number> = {
  ene: 1,
  enero: 1,
  feb: 2,
  febrero: 2,
  mar: 3,
  marzo: 3,
  abr: 4,
  abril: 4,
  may: 5,
  mayo: 5,
  jun: 6,
  junio: 6,
  jul: 7,
  julio: 7,
  ago: 8,
  agosto: 8,
  sep: 9,
  sept: 9,
  septiembre: 9,
  setiembre: 9,
  oct: 10,
  octubre: 10,
  nov: 11,
  noviembre: 11,
  dic: 12,
  diciembre: 12,
};

const dosCifras = (n: number) => String(n).padStart(2, '0');

function fechaValida(a: number, m: number, d: number): string | null {
  if (a < 100) a += 2000;
  if (m < 1 || m > 12 || d < 1 || a < 2000 || a > 2099) return null;
  const dias = new Date(Date.UTC(a, m, 0)).getUTCDate();
  return d <= dias ? `${a}-${dosCifras(m)}-${dosCifras(d)}` : null;
}

export interface FechaLeida {
  fecha: string;
  posicion: number;
  /** How many characters of the text it takes. */
  longitud: number;
}

/** Dates as notes print them: `23/11/2026`, `3-1-26`, `23.11.2026`, `2026-11-23`, `23 de noviembre de 2026`, `23-nov-2026`. */
export function buscarFechas(texto: string): FechaLeida[] {
  const out: FechaLeida[] = [];
  const t = texto.toLowerCase().normalize('NFD').replace(/\p{M}/gu, '');
  for (const m of t.matchAll(/(?<!\d)(\d{4})-(\d{1,2})-(\d{1,2})(?!\d)/g)) {
    const f = fechaValida(Number(m[1]), Number(m[2]), Number(m[3]));
    if (f) out.push({ fecha: f, posicion: m.index!, longitud: m[0].length });
  }
  // A full stop may end the sentence after it («la carga para el 25/05/2026.»).
  for (const m of t.matchAll(/(?<![\d/.-])(\d{1,2})[/.-](\d{1,2})[/.-](\d{4}|\d{2})(?![\d/-]|\.\d)/g)) {
    const f = fechaValida(Number(m[3]), Number(m[2]), Number(m[1]));
    if (f) out.push({ fecha: f, posicion: m.index!, longitud: m[0].length });
  }
  // A written month is sure enough to undo what OCR makes of the «de» («2 DE ABRIL pE 2026») and of a year's
  // first digit («18 DE JUNIO DE 7027»: no note is dated in the year 7027).
  for (const m of t.matchAll(/(?<!\d)(\d{1,2})(?:\s+de\s+|[\s.-]+)([a-z]{3,10})\.?(?:\s+(?:de|[a-z]e|d[a-z])\s+|[\s.-]+)(\d{4}|\d{2})(?!\d)/g)) {
    const mes = MESES[m[2]!];
    const anio = /^[013-9]0\d\d$/.test(m[3]!) ? `20${m[3]!.slice(2)}` : m[3]!;
    const f = mes ? fechaValida(Number(anio), mes, Number(m[1])) : null;
    if (f) out.push({ fecha: f, posicion: m.index!, longitud: m[0].length });
  }
  return out.sort((a, b) => a.posicion - b.posicion);
}

/** The text with its dates taken out. */
function sinFechas(texto: string): string {
  // With the day of the week before it («Domingo, 15 de marzo de 2026»).
  return buscarFechas(texto).reduceRight((t, f) => {
    const antes = t.slice(0, f.posicion).replace(/(?:^|\s)(?:lunes|martes|mi[eé]rcoles|jueves|viernes|s[aá]bado|domingo)[\s,]*$/i, '');
    return antes + t.slice(f.posicion + f.longitud);
  }, texto);
}

// ————— Pesos —————

export interface PesoLeido {
  valor: number;
  unidad: UnidadCantidad;
  posicion: number;
}

const UNIDAD_PESO: Record<string, UnidadCantidad> = { kg: 'kg', kgs: 'kg', kilos: 'kg', kilogramos: 'kg', t: 't', tn: 't', tm: 't', toneladas: 't' };

/** Weights with their unit (`24.500 kg`, `18.250,5 kgs`, `1,5 t`, `24 500 kilos`); a bare number is not a weight. */
export function buscarPesos(texto: string): PesoLeido[] {
  const out: PesoLeido[] = [];
  const re = /(?<![\d.,])(\d{1,3}(?:[.\s]\d{3})+(?:,\d+)?|\d+(?:[.,]\d+)?)\s?(kilogramos|toneladas|kilos|kgs|kg|tn|tm|t)\.?(?![a-z])/gi;
  for (const m of texto.matchAll(re)) {
    const unidad = UNIDAD_PESO[m[2]!.toLowerCase()]!;
    // «6.3005 kg»: thousands and four digits is «6.300,5» whose decimal comma OCR lost (no note prints four decimals).
    const r = parsePeso(m[1]!.replace(/\s(?=\d{3})/g, '.').replace(/^(\d{1,3})\.(\d{3})(\d)$/, '$1.$2,$3'));
    if (r.ok) out.push({ valor: r.valor, unidad, posicion: m.index! });
  }
  return out;
}

// ————— Bloques con etiqueta —————

export type Etiqueta = 'cargador' | 'transportista' | 'origen' | 'destino' | 'destinatario' | 'mercancia' | 'peso' | 'matricula' | 'conductor' | 'telefono' | 'fecha' | 'otro';

// The words notes put before each datum (first match wins, so longer phrases come first).
const ETIQUETAS: [RegExp, Etiqueta][] = [
  [/^(?:cargador(?:\s+contractual)?|remitente|expedidor|cliente\s+cargador)\b/, 'cargador'],
  [/^(?:transportista(?:\s+efectivo)?|transp\.?(?=[\s:])|porteador|empresa\s+de\s+transporte|agencia)\b/, 'transportista'],
  [/^(?:lu[gcq]ar\s+(?:y\s+fecha\s+)?de\s+carga(?:\s+de\s+la\s+mercancia)?|punto\s+de\s+carga|origen|carga\s+en|carga|recogida)\b/, 'origen'],
  [/^(?:lu[gcq]ar\s+(?:previsto\s+)?(?:de|para\s+la)\s+(?:descarga|entrega)(?:\s+de\s+la\s+mercancia)?|punto\s+de\s+(?:descarga|entrega)|destino|descarga|entrega)\b/, 'destino'],
  [/^(?:destinatario|consignatario|receptor)\b/, 'destinatario'],
  [/^(?:mercancias?|naturaleza(?:\s+de\s+la\s+mercancia)?|descripcion|producto|articulo)\b/, 'mercancia'],
  [/^(?:peso(?:\s+bruto|\s+neto|\s+total)?|kilos|cantidad)\b/, 'peso'],
  [/^(?:matriculas?|vehiculo|tractora?|camion|remolque|semirremolque)\b/, 'matricula'],
  [/^(?:conductor|chofer|transportista\s+conductor)\b/, 'conductor'],
  [/^(?:tel(?:efono|f)?\.?|movil|tlf\.?)\b/, 'telefono'],
  [/^(?:fecha(?:\s+de\s+(?:carga|transporte|salida|emision))?)\b/, 'fecha'],
  // What else a note labels: it ends the block before it, and is read for nothing.
  [
    /^(?:(?:n\S?\.?\s*|numero\s+de\s+|su\s+)?pedido|observaciones|codigo|bultos|firma|recibi\s+conforme|conforme|total|portes|pagina|documentos\s+anexos|marcas|cliente|albaran|asunto|enviado|para|de:|reservas|instrucciones|importe|precio|forma\s+de\s+pago)\b/,
    'otro',
  ],
];

/** A label this reading does not know, as forms print them («Ref. cliente:», «Hora de llegada:»): a few words and a colon. */
const OTRA_ETIQUETA = /^[\p{L}][\p{L}.º° /]{1,28}:(?:\s|$)/u;
/** Labels inside a party's block (its NIF, its address, its phone): they carry on the block. */
const DENTRO_DE_BLOQUE = /^(?:n\.?\s?i\.?\s?f|c\.?\s?i\.?\s?f|nie|dni|domicilio|direccion|calle|c\.?\s?p|poblacion|provincia|pais|nombre|razon\s+social|tel|telefono|tlf|movil|fax|e-?mail|correo)\b/;

const sinAcentos = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

/** A line that opens a labelled block: which label, and what follows it on the same line. */
function etiquetaDe(linea: string): { etiqueta: Etiqueta; resto: string } | null {
  const limpia = linea
    .replace(/^[\s\d.)\-–•*|"'“”‘’«»]+(?=[A-Za-zÁÉÍÓÚÑáéíóúñ])/, '') // «1.», «(3)», bullets, table bars and OCR's quotes (a «Nº» read «”») before a label
    .replace(/(?<=\p{L})[=^~]+(?=\p{L})/gu, ''); // a speck OCR read inside a word («LUGAR DE ENTR=EGA»)
  const base = sinAcentos(limpia);
  for (const [re, etiqueta] of ETIQUETAS) {
    const m = re.exec(base);
    // A bare word that labels a place is not a label when a sentence goes on after it («Descarga con transpalé.»).
    if (m && /^(?:carga|recogida|descarga|entrega)$/.test(m[0]) && /^\s+\p{Ll}/u.test(base.slice(m[0].length)) && !/^\s+(?:en|de)\b/.test(base.slice(m[0].length))) continue;
    // «Mercancía paletizada, no remontable.»: a sentence about the goods, not their label.
    if (m && /^mercancias?$/.test(m[0]) && /^\s+\p{Ll}/u.test(limpia.slice(m[0].length))) continue;
    if (m) {
      // What follows the label on its line, without a form's caption in brackets («(nombre, domicilio)»).
      const resto = limpia
        .slice(m[0].length)
        .replace(/^[\s:.\-–/)|]+/, '')
        .replace(/^\([^)]*\)[\s:.]*/, '')
        // A caption in brackets OCR cut short («1 Cargador (m»).
        .replace(/^\([^)]*$/, '')
        .trim();
      // A header row of labels without colons («Porteador   Vehículo   Semirremolque»): the values are on the lines below.
      return { etiqueta, resto: resto && esEtiqueta(resto) ? '' : resto };
    }
  }
  return etiquetaParecida(limpia, /^\s*[*•·-]\s/.test(linea));
}

/** A label's word as OCR may garble it («Tramportiuta», «Remitenle»): the words, and what each labels. */
const PALABRAS_ETIQUETA: [string, Etiqueta][] = [
  ['remitente', 'cargador'],
  ['expedidor', 'cargador'],
  ['cargador', 'cargador'],
  ['transportista', 'transportista'],
  ['porteador', 'transportista'],
  ['destinatario', 'destinatario'],
  ['matricula', 'matricula'],
  ['vehiculo', 'matricula'],
  ['tractora', 'matricula'],
  ['semirremolque', 'matricula'],
  ['remolque', 'matricula'],
  ['naturaleza', 'mercancia'],
  ['mercancia', 'mercancia'],
  ['descripcion', 'mercancia'],
  ['conductor', 'conductor'],
  ['destino', 'destino'],
  ['origen', 'origen'],
  ['observaciones', 'otro'],
];

/** Levenshtein distance, stopping early once it exceeds `tope`. */
function distancia(a: string, b: string, tope: number): number {
  if (Math.abs(a.length - b.length) > tope) return tope + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let minimo = i;
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      minimo = Math.min(minimo, cur[j]!);
    }
    if (minimo > tope) return tope + 1;
    prev = cur;
  }
  return prev[b.length]!;
}

/**
 * A line opening with a label's word that OCR got one letter wrong (two in a
 * long word, three in one of twelve letters or more), then a colon, a dash or the end of the line: the label it
 * stands for. A word of fewer than six letters is not guessed.
 */
function etiquetaParecida(linea: string, vineta = false): { etiqueta: Etiqueta; resto: string } | null {
  // In a list («* Transportsta Autotransportes Pérez Sanz, S.L.») a label's word opens the item, its value after it.
  const m = (vineta ? /^([A-Za-zÁÉÍÓÚÑÜáéíóúñü]{9,})\s*(?:[:\-–|.]+\s*|\s|$)/ : /^([A-Za-zÁÉÍÓÚÑÜáéíóúñü]{6,})\s*(?:[:\-–|.]+\s*|$)/).exec(linea);
  // «Transportes» opens many carriers' names: in a list it is a name, not a garbled «Transportista».
  if (m && !(vineta && /^transportes?$/i.test(m[1]!))) {
    const que = palabraDeEtiqueta(m[1]!, 0);
    if (que) return { etiqueta: que, resto: linea.slice(m[0].length).trim() };
  }
  // A header row of a table's captions, garbled («Tramportiuta Tractore Remolque»): the first column's label, when
  // at least half the other words are captions too (a value never is: «Transportes Ondarroa Begoña»).
  const palabras = linea.trim().split(/\s+/);
  if (palabras.length < 2 || palabras.length > 4 || !palabras.every((p) => /^[A-Za-zÁÉÍÓÚÑÜáéíóúñü]{4,}$/.test(p))) return null;
  const primera = palabras[0]!.length >= 6 ? palabraDeEtiqueta(palabras[0]!, 0) : null;
  if (!primera) return null;
  const otras = palabras.slice(1).filter((p) => palabraDeEtiqueta(p, 1) || PALABRAS_DE_FORMULARIO.test(sinAcentos(p))).length;
  return otras * 2 >= palabras.length - 1 ? { etiqueta: primera, resto: '' } : null;
}

/** What a label's word OCR garbled stands for (one letter wrong, two in a long word, three in one of twelve or more; `holgura` more). */
function palabraDeEtiqueta(palabra: string, holgura: number): Etiqueta | null {
  const base = sinAcentos(palabra);
  for (const [etiqueta, que] of PALABRAS_ETIQUETA) {
    const tope = (etiqueta.length >= 12 ? 3 : etiqueta.length >= 9 ? 2 : 1) + holgura;
    if (distancia(base, etiqueta, tope) <= tope) return que;
  }
  return null;
}

/** A CMR consignment note (its title, or the convention it cites). */
const ES_CMR = /\bCMR\b|carta\s+de\s+porte\s+internacional/i;

/**
 * A CMR's numbered boxes (the convention's model form, the same in every
 * language): their captions are printed small, and a photo's OCR often
 * makes nonsense of them while the box's number survives.
 */
const CASILLAS_CMR: Record<number, Etiqueta> = {
  1: 'cargador',
  2: 'destinatario',
  3: 'destino',
  4: 'origen',
  5: 'otro',
  6: 'otro',
  7: 'otro',
  8: 'otro',
  9: 'mercancia',
  10: 'otro',
  11: 'peso',
  12: 'otro',
  13: 'otro',
  14: 'otro',
  15: 'otro',
  16: 'transportista',
  17: 'otro',
  18: 'otro',
  19: 'otro',
  20: 'otro',
  21: 'otro',
  22: 'otro',
  23: 'otro',
  24: 'otro',
};

/**
 * A line of a CMR that opens a numbered box whose caption OCR garbled
 * («16 Poreano ¡omtre domino par»): the box's number, then words; never a
 * value, which would start with a number of its own («155 bultos»,
 * «08.03.2026»).
 */
function casillaCmr(linea: string): { etiqueta: Etiqueta; resto: string } | null {
  // «1 Ejemplar para el remitente»: the copy's caption, not box 1.
  if (/\b(?:e[jy][eo]mp[l1]ar|para\s+el\s+re)/i.test(linea)) return { etiqueta: 'otro', resto: '' };
  const m = /^[|[(_]?\s*(\d{1,2})\s+(?=\S)(?!\d)/.exec(linea);
  const etiqueta = m ? CASILLAS_CMR[Number(m[1])] : undefined;
  return etiqueta ? { etiqueta, resto: '' } : null;
}

/** Words a form prints as captions, never a party's name or a place. */
const PALABRAS_DE_FORMULARIO =
  /^(?:n\.?\s?i\.?\s?f|c\.?\s?i\.?\s?f|nie|dni|nombre|razon\s+social|domicilio|direccion|pais|poblacion|provincia|c\.?\s?p|codigo\s+postal|firma|sello|firma\s+y\s+sello|observaciones|datos|lugar|fecha|hora|n[ºo°]|numero|referencia|pedido|albaran(?:\s+de\s+(?:entrega|salida))?|carta\s+de\s+porte(?:\s+internacional)?(?:\s+cmr)?|cmr|orden\s+de\s+carga|documento\s+de\s+control|pedido\s+de\s+transporte|hoja\s+de\s+ruta|nota\s+de\s+entrega|total|bultos|cantidad|unidades|importe|de|y|para|asunto)$/;

/**
 * Whether a text is only a printed label or caption (one or several of
 * them, a box's number, brackets and colons aside), never a value: a
 * two-column header («Remitente   Transportista»), «NIF:», «Lugar de
 * descarga», «(nombre, domicilio, país)».
 */
export function esEtiqueta(texto: string): boolean {
  let resto = texto.trim();
  for (let vueltas = 0; resto && vueltas < 6; vueltas++) {
    resto = resto
      .replace(/^[\s\d.)\-–•*|:/[\]]+/, '')
      .replace(/^\([^)]*\)[\s:.\]]*/, '')
      .trim();
    if (!resto) return true;
    if (PALABRAS_DE_FORMULARIO.test(sinAcentos(resto).replace(/[\s:.]+$/, ''))) return true;
    const e = etiquetaDe(resto);
    if (e) {
      resto = e.resto;
      continue;
    }
    // A caption in brackets after a title («Carta de porte internacional (CMR)») is a caption too.
    const base = sinAcentos(resto)
      .replace(/\s*\([^)]*\)\s*/g, ' ')
      .replace(/[\s:.]+$/, '')
      .trim();
    return PALABRAS_DE_FORMULARIO.test(base) || base.split(/[\s,/]+/).every((p) => PALABRAS_DE_FORMULARIO.test(p) || etiquetaDe(p) !== null);
  }
  return resto === '';
}

/** A proposal never carries a printed label as a value: such a value is dropped, and the field left for the user. */
function sinEtiquetas(p: PropuestaDeca, confianza: Record<string, number>): void {
  const campos = p as unknown as Record<string, unknown>;
  // A company's name ends at its legal form: what OCR put after it on the line is not the name.
  for (const campo of ['cargador_nombre', 'transp_nombre'] as const) {
    const v = campos[campo];
    const cortado = typeof v === 'string' ? nombreDeEmpresa(v) : undefined;
    if (cortado && cortado !== v) campos[campo] = cortado;
  }
  for (const campo of ['cargador_nombre', 'cargador_domicilio', 'transp_nombre', 'transp_domicilio', 'conductor_nombre'] as const) {
    const v = campos[campo];
    if (typeof v === 'string' && esEtiqueta(v)) {
      delete campos[campo];
      delete confianza[campo];
    }
  }
  p.envios.forEach((e, i) => {
    for (const campo of ['origen', 'destino', 'naturaleza'] as const) {
      const v = e[campo];
      if (v !== undefined && esEtiqueta(v)) {
        delete e[campo];
        delete confianza[`envios[${i}].${campo}`];
      }
    }
  });
}

export interface Bloque {
  etiqueta: Etiqueta;
  /** The text after the label on its line, then the lines under it up to the next label (four at most). */
  lineas: string[];
  /** Offset of the block in the text. */
  posicion: number;
}

/** The labelled blocks of a note, in order. */
/** A second label and its colon further along a line: two boxes side by side that OCR read as one line. */
const PARTES = new Set<Etiqueta>(['cargador', 'transportista', 'destinatario']);

const SEGUNDA_ETIQUETA =
  /\s(?=(?:lu[gcq]ar\s+de\s+(?:carga|entrega|descarga)|destino|origen|destinatario|transportista|porteador|remitente|expedidor|cargador|matr[ií]cula|remolque|semirremolque|veh[ií]culo|tractora|conductor|fecha(?:\s+de\s+carga)?|peso(?:\s+bruto)?|mercanc[ií]a|naturaleza)\s*:)/i;

/** A line that holds two labelled values («Carga en: Mercabarna   Destino: Mercasevilla»), as two lines; else the line. */
function dosEtiquetas(linea: string): string[] {
  const m = SEGUNDA_ETIQUETA.exec(linea);
  if (!m || m.index < 3 || !etiquetaDe(linea.trim())) return [linea];
  return [linea.slice(0, m.index), ...dosEtiquetas(linea.slice(m.index + 1))];
}

export function leerBloques(texto: string): Bloque[] {
  const bloques: Bloque[] = [];
  let actual: Bloque | null = null;
  let offset = 0;
  const cmr = ES_CMR.test(texto);
  // A CMR's left and right boxes read as one line («Puerto de Valencia, Muelle 3 18 Reservas y observaciones»):
  // the right column's box (16 to 24) starts a line of its own.
  const partidas = texto.split(/\r?\n/).flatMap((l) => (cmr ? l.split(/\s+(?=(?:1[6-9]|2[0-4])\s+\p{L}{3})/u) : [l]));
  for (const entera of partidas) {
    const trozos = dosEtiquetas(entera);
    // A row of labels («Porteador: Camiones Ibáñez, S.L.  Tractora: 2095NAX  Semirremolque: R-1840 PWW»): the
    // lines under it carry on the party's column (its NIF, its address), not the last label's.
    let columna: Bloque | null = null;
    let etiquetada = false;
    for (const trozo of trozos) {
      const posicion = offset;
      offset += trozo.length + 1;
      const e = etiquetaDe(trozo.trim()) ?? (cmr ? casillaCmr(trozo.trim()) : null);
      if (!e) continue;
      etiquetada = true;
      actual = { etiqueta: e.etiqueta, lineas: e.resto ? [e.resto] : [], posicion };
      bloques.push(actual);
      if (trozos.length > 1 && !columna && PARTES.has(e.etiqueta)) columna = actual;
    }
    if (etiquetada) {
      if (columna) actual = columna;
      continue;
    }
    const linea = entera;
    // OCR puts blank lines between most lines, so a blank line closes nothing: a block runs to the
    // next label, at most four lines (a name, a NIF and an address of two lines).
    if (linea.trim() === '') continue;
    if (OTRA_ETIQUETA.test(linea.trim()) && !DENTRO_DE_BLOQUE.test(sinAcentos(linea.trim()))) actual = null;
    else if (actual && actual.lineas.length < 4) actual.lineas.push(linea.trim());
    else actual = null;
  }
  return bloques;
}

// ————— Propuesta —————

/** The account reading the note: its own company is recognised as its side. */
export interface CuentaLectora {
  nif: string;
  nombre: string;
  domicilio: string | null;
  rol: 'cargador' | 'transportista';
}

export interface EnvioPropuesto {
  origen?: string;
  destino?: string;
  naturaleza?: string;
  peso?: number;
  unidad?: UnidadCantidad;
}

/** A DeCA input for `POST /decas` after review (only what was read). */
export interface PropuestaDeca {
  cargador_nombre?: string;
  cargador_nif?: string;
  cargador_domicilio?: string;
  transp_nombre?: string;
  transp_nif?: string;
  transp_domicilio?: string;
  fecha_transporte?: string;
  matricula?: string;
  matricula_remolque?: string;
  conductor_nombre?: string;
  conductor_tel?: string;
  envios: EnvioPropuesto[];
}

export interface Lectura {
  propuesta: PropuestaDeca;
  /** Field (as in the proposal; shipments as `envios[0].peso`) → 0..1. */
  confianza: Record<string, number>;
  avisos: string[];
}

interface Parte {
  nombre?: string;
  nif?: string;
  domicilio?: string;
  confianza: number;
}

/** A party's block: the NIF wherever it is, the first other line its name, the rest its address. */
function parteDe(b: Bloque): Parte {
  const parte: Parte = { confianza: 0.6 };
  const resto: string[] = [];
  for (const linea of b.lineas) {
    const nif = buscarNifs(linea)[0];
    if (nif && !parte.nif) {
      parte.nif = nif.nif;
      parte.confianza = nif.confianza;
      // The line without the NIF, its label and the brackets that held them («Papelera, S.A. (NIF A…)»).
      const sinNif = linea
        .replace(/\b(?:N\.{0,2}\s?[IL1|]?\.?\s?F\.?|C\.{0,2}\s?[IL1|]?\.?\s?F\.?|NIE)[\s:.]*/i, '')
        .replace(/(?:ES[\s-]?)?[A-Z0-9][\s.-]?(?:[0-9OQDILZSGBT|][\s.-]?){7}[A-Z0-9]/i, '')
        .replace(/[([]\s*[)\]]/g, '')
        .replace(/^[\s,;:\-–|]+|[\s,;:\-–|]+$/g, '');
      if (sinNif) resto.push(sinNif);
      continue;
    }
    // A NIF's line whose NIF could not be read is neither the name nor the address.
    if (/^(?:N\.{0,2}\s?[IL1|]?\.?\s?F|C\.{0,2}\s?[IL1|]?\.?\s?F|NIE|DNI)\b/i.test(linea.trim())) continue;
    resto.push(linea);
  }
  if (resto[0]) parte.nombre = resto[0];
  if (resto.length > 1) parte.domicilio = resto.slice(1).join(', ');
  return parte;
}

/** A place without the country a CMR prints after the town («29006 Málaga (ESPAÑA)»): a DeCA's places are in Spain. */
const sinPais = (lugar: string | undefined) => lugar?.replace(/\s*\((?:espa[ñn]a|spain)\)\s*$/i, '');

/** A CMR's parties in the form's order: each a company's line with its NIF on it or under it, and the address lines after. */
function gruposCmr(texto: string): { nombre: string; nif: NifLeido; domicilio?: string }[] {
  const lineas = texto.split('\n').filter((l) => l.trim() !== '');
  const grupos: { nombre: string; nif: NifLeido; domicilio?: string }[] = [];
  lineas.forEach((l, i) => {
    const enLinea = buscarNifs(l)[0];
    const nif = enLinea ?? buscarNifs(lineas[i + 1] ?? '')[0];
    if (!EMPRESA(l) || esEtiqueta(l) || !nif || grupos.some((g) => g.nif.nif === nif.nif)) return;
    const domicilio: string[] = [];
    for (const d of lineas.slice(i + (enLinea ? 1 : 2), i + (enLinea ? 3 : 4)).map((x) => x.trim())) {
      if (etiquetaDe(d) || casillaCmr(d) || buscarNifs(d).length || EMPRESA(d) || (d.match(/\p{L}/gu)?.length ?? 0) < 3) break;
      domicilio.push(d);
    }
    grupos.push({ nombre: nombreDeEmpresa(l) ?? l.trim(), nif, ...(domicilio.length ? { domicilio: domicilio.join(', ') } : {}) });
  });
  return grupos;
}

/** A company's legal form at the end of its name. */
// OCR reads an S as «$» now and then («Aceites La Almazara, $.Coop.»).
const SOCIEDAD = /(?:\b|(?<=[\s,])(?=\$))(?:[S$]\.?\s?L\.?(?:\s?U\.?)?|[S$]\.?\s?A\.?(?:\s?U\.?)?|[S$]\.?\s?Coop\.?)(?=[\s,.;·|-]|$)/i;
/** A line that names a company: its legal form, or a cooperative's name. */
const EMPRESA = (l: string) => SOCIEDAD.test(l) || /\bcooperativa\b/i.test(l);

/** The company's name in a letterhead's line («Cítricos Vall d’Uixó, S.L. · NIF 83199288P · Tel. …»): up to its legal form. */
function nombreDeEmpresa(linea: string): string | undefined {
  const m = SOCIEDAD.exec(linea);
  if (!m) return undefined;
  const nombre = linea
    .slice(0, m.index + m[0].length)
    .replace(/^.*[·|]\s*/, '')
    .trim();
  return nombre.length >= 4 && !esEtiqueta(nombre) ? nombre : undefined;
}

const primerValor = (b: Bloque | undefined) => b?.lineas.find((l) => l.trim() !== '')?.trim();

/**
 * Reads a note's text into a DeCA proposal. Invisible characters an OCR
 * engine or a PDF's text layer leaves (zero-width spaces, soft hyphens, BOM)
 * are stripped first: the form would refuse a proposal holding them.
 */
export function leerAlbaran(leido: string, cuenta?: CuentaLectora): Lectura {
  const texto = quitarInvisibles(leido);
  const bloques = leerBloques(texto);
  const de = (e: Etiqueta) => bloques.filter((b) => b.etiqueta === e);
  const confianza: Record<string, number> = {};
  const avisos: string[] = [];
  const propuesta: PropuestaDeca = { envios: [] };

  // Parties: from their labelled blocks; the account's own NIF, wherever it appears, is its side.
  const partes: Record<'cargador' | 'transportista', Parte | undefined> = { cargador: de('cargador').map(parteDe)[0], transportista: de('transportista').map(parteDe)[0] };
  const nifs = buscarNifs(texto);
  const destinatarios = de('destinatario').map(parteDe);
  const destinatario = destinatarios[0];
  if (cuenta) {
    const propia = nifs.find((n) => n.nif === cuenta.nif);
    const otroLado = cuenta.rol === 'cargador' ? 'transportista' : 'cargador';
    if (propia || !partes[cuenta.rol]?.nif) {
      partes[cuenta.rol] = { nombre: cuenta.nombre, nif: cuenta.nif, domicilio: cuenta.domicilio ?? undefined, confianza: propia ? 0.95 : 0.7 };
    }
    // The other side: its block, else the one other NIF the note holds.
    if (partes[otroLado]?.nif === cuenta.nif) partes[otroLado] = undefined;
    if (!partes[otroLado]?.nif) {
      const otros = nifs.filter((n) => n.nif !== cuenta.nif);
      if (otros.length === 1) partes[otroLado] = { ...partes[otroLado], nif: otros[0]!.nif, confianza: Math.min(0.7, otros[0]!.confianza) };
    }
  }
  // A CMR whose boxes' captions were lost: its parties come in the form's order (sender, consignee, then the
  // carrier's box), each a company's line with its NIF under it. Proposed for review, never sure.
  const esCmr = ES_CMR.test(texto);
  const grupos = esCmr ? gruposCmr(texto) : [];
  if (esCmr && (!partes.cargador?.nif || !partes.transportista?.nif)) {
    const libres = grupos.filter((g) => g.nif.nif !== partes.cargador?.nif && g.nif.nif !== partes.transportista?.nif && g.nif.nif !== destinatario?.nif && g.nif.nif !== cuenta?.nif);
    const enOrden = grupos.filter((g) => libres.includes(g));
    if (!partes.cargador?.nif && grupos[0] && libres.includes(grupos[0])) partes.cargador = { nombre: grupos[0].nombre, nif: grupos[0].nif.nif, confianza: 0.45 };
    // The carrier's box comes after the sender's and the consignee's: the third party, when three were read.
    const tercero = grupos.length >= 3 ? grupos[2] : undefined;
    if (!partes.transportista?.nif && tercero && enOrden.includes(tercero)) partes.transportista = { nombre: tercero.nombre, nif: tercero.nif.nif, confianza: 0.45 };
  }
  // A party whose name was read and whose NIF was not, where the note holds exactly one NIF no one has (a CMR's
  // carrier box that OCR split around the consignee's): proposed for review, never sure.
  for (const lado of ['cargador', 'transportista'] as const) {
    const p = partes[lado];
    if (!p?.nombre || p.nif) continue;
    const usados = new Set([partes.cargador?.nif, partes.transportista?.nif, cuenta?.nif, ...destinatarios.map((d) => d.nif)].filter(Boolean));
    const libres = [...new Set(nifs.filter((n) => !usados.has(n.nif) && n.confianza >= 0.9).map((n) => n.nif))];
    if (libres.length === 1) partes[lado] = { ...p, nif: libres[0]!, confianza: 0.45 };
  }
  // No shipper's block: a note's letterhead is its issuer's, mostly the shipper (an albarán, an order), with
  // its NIF at the top or in the first lines. Proposed for review, never sure.
  if (!partes.cargador?.nif) {
    const usados = new Set([partes.transportista?.nif, cuenta?.nif, ...destinatarios.map((d) => d.nif)].filter(Boolean));
    const arriba = texto.length * 0.3;
    // The surest NIF up there, then the first: a run of digits in the address read as one is no match for a NIF whose letter checks.
    const membrete = nifs.filter((n) => !usados.has(n.nif) && n.posicion < arriba).reduce<NifLeido | undefined>((mejor, n) => (!mejor || n.confianza > mejor.confianza ? n : mejor), undefined);
    if (membrete) {
      const lineas = texto.slice(0, arriba).split('\n');
      const empresa = lineas.find((l) => buscarNifs(l).some((n) => n.nif === membrete.nif) && EMPRESA(l)) ?? lineas.find((l) => EMPRESA(l) && !esEtiqueta(l));
      const nombre = empresa ? nombreDeEmpresa(empresa) : undefined;
      partes.cargador = { ...partes.cargador, nif: membrete.nif, confianza: Math.min(0.5, membrete.confianza), ...(nombre && !partes.cargador?.nombre ? { nombre } : {}) };
    }
  }
  for (const [lado, prefijo] of [
    ['cargador', 'cargador'],
    ['transportista', 'transp'],
  ] as const) {
    const p = partes[lado];
    if (!p) continue;
    for (const campo of ['nombre', 'nif', 'domicilio'] as const) {
      const v = p[campo];
      if (!v) continue;
      (propuesta as unknown as Record<string, string>)[`${prefijo}_${campo}`] = v;
      confianza[`${prefijo}_${campo}`] = campo === 'nif' ? p.confianza : Math.min(p.confianza, 0.8);
    }
  }
  if (nifs.some((n) => n.confianza < 0.5)) avisos.push('Hay un NIF cuyo carácter de control no cuadra: revíselo.');

  // Date: the labelled one, else the first in the note.
  const etiquetaFecha = de('fecha')[0];
  const fechas = buscarFechas(texto);
  const fecha = (etiquetaFecha && buscarFechas(etiquetaFecha.lineas.join(' '))[0]) ?? fechaDelTransporte(texto, fechas);
  if (fecha) {
    propuesta.fecha_transporte = fecha.fecha;
    confianza.fecha_transporte = etiquetaFecha || fechas.length === 1 ? 0.9 : 0.7;
  }

  // Plates: the labelled ones first.
  const textoMatriculas = de('matricula')
    .flatMap((b) => b.lineas)
    .join('\n');
  const placas = buscarMatriculasEtiquetadas(textoMatriculas);
  const todas = buscarMatriculas(texto);
  // Neither labelled nor printed cleanly anywhere: the usual slips undone over the whole note, for review.
  const dudosas = (placas.matricula ?? todas.matricula) && (placas.remolque ?? todas.remolque) ? null : buscarMatriculasEtiquetadas(texto);
  const matricula = placas.matricula ?? todas.matricula ?? dudosas?.matricula;
  const remolque = placas.remolque ?? todas.remolque ?? dudosas?.remolque;
  const certeza = (deEtiqueta: string | null, c: number, deTodas: string | null) => (deEtiqueta ? Math.min(0.95, c + 0.05) : deTodas ? 0.75 : 0.45);
  if (matricula) {
    propuesta.matricula = matricula;
    confianza.matricula = certeza(placas.matricula, placas.confianza.matricula, todas.matricula);
  }
  if (remolque) {
    propuesta.matricula_remolque = remolque;
    confianza.matricula_remolque = certeza(placas.remolque, placas.confianza.remolque, todas.remolque);
  }

  const conductor = primerValor(de('conductor')[0]);
  if (conductor) {
    const tel = /(\+?\d[\d\s]{7,14}\d)/.exec(conductor);
    const nombre = conductor
      .replace(tel?.[0] ?? '', '')
      .replace(/\b(?:tel(?:efono|f)?|movil|tlf)\.?[:\s]*/i, '')
      .replace(/[\s,;:\-–]+$/, '')
      .trim();
    if (nombre && /[A-Za-zÁÉÍÓÚÑáéíóúñ]{2}/.test(nombre)) {
      propuesta.conductor_nombre = nombre;
      confianza.conductor_nombre = 0.7;
    }
    if (tel) propuesta.conductor_tel = tel[1]!.replace(/\s+/g, ' ');
  }
  const telefono = primerValor(de('telefono')[0]);
  const tel = telefono ? /(\+?\d[\d\s]{7,14}\d)/.exec(telefono) : null;
  if (tel && !propuesta.conductor_tel) propuesta.conductor_tel = tel[1]!.replace(/\s+/g, ' ');
  if (propuesta.conductor_tel) confianza.conductor_tel = 0.7;

  // Places: a loading/unloading block; else the recipient's address as the destination.
  // A place's block, without NIFs and dates («Peñíscola, 12 de noviembre de 2026» in a CMR's «place and date of loading»).
  // The first block of that label with a place in it (a CMR box whose number OCR misread opens an empty one before).
  const lugar = (e: Etiqueta) => de(e).map(lugarDe).find(Boolean);
  const lugarDe = (b: Bloque) => {
    // «Place and date»: a line that is only the date ends the place (what follows is the next box's, in a CMR).
    const fin = b.lineas.findIndex(
      (l, i) => i > 0 && buscarFechas(l).length > 0 && !/\p{L}{3}/u.test(sinFechas(l).replace(/\b(?:lunes|martes|mi[eé]rcoles|jueves|viernes|s[aá]bado|domingo)\b/giu, '')),
    );
    const lineas = (fin < 0 ? b.lineas : b.lineas.slice(0, fin))
      .filter((l) => !buscarNifs(l).length)
      // A CMR prints the country after the town («29006 Málaga (ESPAÑA)»): a DeCA's place is within Spain.
      // The carriage's «Pagados» or «Debidos» of a «Portes» column read on the place's line.
      .map((l) => (sinPais(sinFechas(l)) ?? '').replace(/\s+(?:pagados|debidos)$/i, '').replace(/^[\s,;|]+|[\s,;|]+$/g, ''))
      // Not a caption's remains («y fecha»), nor OCR's specks («Se .»).
      .filter((l, i) => (l.match(/\p{L}/gu)?.length ?? 0) >= 3 && !esEtiqueta(l) && (i === 0 || !pareceRuido(l)));
    return lineas.join(', ') || undefined;
  };
  // A CMR whose box 4 caption OCR lost: its place and date of loading are still a place with the date alone under it.
  const cargaCmr = () => {
    if (!esCmr) return undefined;
    const llenas = texto
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean);
    const i = llenas.findIndex(
      (l, j) =>
        j + 1 < llenas.length &&
        /^\p{L}[\p{L}\s.,'-]*(?:\d+[\p{L}\s.,'-]*)?$/u.test(l) &&
        l.split(/\s+/).length >= 2 &&
        !esEtiqueta(l) &&
        !EMPRESA(l) &&
        buscarFechas(llenas[j + 1]!).length > 0 &&
        sinFechas(llenas[j + 1]!).trim() === '',
    );
    return i < 0 ? undefined : llenas[i];
  };
  const origenEtiquetado = lugar('origen');
  const origenCmr = origenEtiquetado ? undefined : cargaCmr();
  const origen = origenEtiquetado ?? origenCmr ?? (sinPais(partes.cargador?.domicilio) || undefined);
  // «El del destinatario», «Véase casilla 2»: the place of delivery is the consignee's address.
  const dondeDestinatario = (l: string | undefined) => (l && /^(?:(?:el|la|lo)\s+del\s+destinatario|v[eé]ase\s+(?:la\s+)?casilla)/i.test(l) ? undefined : l);
  // A CMR whose consignee's box caption OCR lost: the second party in the form's order, when it is neither side.
  const segundo = destinatario ? undefined : grupos[1];
  const destinatarioCmr = segundo && segundo.nif.nif !== partes.cargador?.nif && segundo.nif.nif !== partes.transportista?.nif && segundo.nif.nif !== cuenta?.nif ? segundo : undefined;
  const destinoEtiquetado = dondeDestinatario(lugar('destino'));
  const destino = destinoEtiquetado ?? (sinPais(destinatario?.domicilio) || destinatario?.nombre || sinPais(destinatarioCmr?.domicilio));

  // Shipments: each line of a goods table that carries a weight; else the labelled goods and weight.
  const envios = filasDeEnvio(texto);
  // A table's row whose weight OCR lost: its goods are proposed for review.
  const deTabla = envios.length;
  // No table: a goods block whose lines each carry a weight («1. Harina en sacos - 10 palés - 5.700 kg»).
  if (envios.length === 0) {
    for (const linea of de('mercancia').flatMap((b) => b.lineas)) {
      const peso = buscarPesos(linea).at(-1);
      // A line that ends with its unit but whose figure OCR garbled («AZULEJOS EN PALES $000 KG»): its goods, for review.
      const sinCifra = peso ? null : /^(.*\p{L}{3}.*?)\s+\S*\d\S*\s*(?:kg|kgs|kilos)\.?$/iu.exec(linea);
      if (!peso && !sinCifra) continue;
      const naturaleza = limpiarNaturaleza(peso ? linea.slice(0, peso.posicion) : sinCifra![1]!);
      if (peso) envios.push({ ...(naturaleza ? { naturaleza } : {}), peso: peso.valor, unidad: peso.unidad });
      else if (naturaleza) envios.push({ naturaleza });
    }
  }
  if (envios.length === 0) {
    const naturaleza = primerValor(de('mercancia')[0]);
    // «PESO: 17.200 KS»: the figure a «Peso» label opens is the weight in kilograms, whatever OCR made of its unit.
    const cifraEtiquetada = (l: string) => {
      const m = /^(\d{1,3}(?:\.\d{3})+(?:,\d+)?|\d{2,6}(?:,\d+)?)(?!\s*(?:t|tn|tm|toneladas)\b)/i.exec(l.trim());
      const r = m ? parsePeso(m[1]!) : null;
      return r?.ok ? [{ valor: r.valor, unidad: 'kg' as const, posicion: 0 }] : [];
    };
    const pesoEtiquetado = de('peso').flatMap((b) => buscarPesos(b.lineas.join(' ')))[0] ?? de('peso').flatMap((b) => cifraEtiquetada(b.lineas[0] ?? ''))[0] ?? buscarPesos(texto)[0];
    if (naturaleza || pesoEtiquetado) envios.push({ naturaleza, peso: pesoEtiquetado?.valor, unidad: pesoEtiquetado?.unidad });
    // The places alone are worth proposing: the user adds the goods.
    else if (origen || destino) envios.push({});
  }
  envios.forEach((e, i) => {
    const envio: EnvioPropuesto = { ...(origen ? { origen } : {}), ...(destino ? { destino } : {}) };
    if (e.naturaleza) envio.naturaleza = e.naturaleza;
    if (e.peso !== undefined) {
      envio.peso = e.peso;
      envio.unidad = e.unidad ?? 'kg';
    }
    propuesta.envios.push(envio);
    if (envio.origen) confianza[`envios[${i}].origen`] = origenEtiquetado ? 0.7 : origenCmr ? 0.45 : 0.5;
    if (envio.destino) confianza[`envios[${i}].destino`] = destinoEtiquetado ? 0.7 : destinatario ? 0.5 : 0.45;
    if (envio.naturaleza) confianza[`envios[${i}].naturaleza`] = (deTabla || envios.some((x) => x.peso !== undefined)) && envio.peso === undefined ? 0.55 : 0.7;
    if (envio.peso !== undefined) confianza[`envios[${i}].peso`] = 0.85;
  });
  if (propuesta.envios.length > 48) {
    propuesta.envios.length = 48;
    avisos.push('La nota tiene más de 48 líneas de envío: solo se proponen las 48 primeras.');
  }
  sinEtiquetas(propuesta, confianza);
  if (!matricula) avisos.push('No se ha leído ninguna matrícula.');
  if (propuesta.envios.every((e) => e.peso === undefined)) avisos.push('No se ha leído ningún peso.');
  return { propuesta, confianza, avisos };
}

// After a code or line-number column's header, when there is one («[Código | Mercancía»).
const CABECERA_MERCANCIA = /^[[(|\s]*(?:(?:codigo|cod\.?|ref\.?|referencia|lin\.?|linea)\s*[|\]\s]+)?(?:descripcion|mercancias?|naturaleza|producto|articulo|concepto)\b[^0-9]*$/;
// A weight column's header, after a count's («Bultos   Peso (kg)»).
const CABECERA_PESO = /^(?:(?:bultos|cantidad|uds?|unidades|n[º°o]\s+bultos)\s+)*(?:peso\b|kg\b|kilos\b)[^0-9]*$/;
/** A row of the weight column, with the count before it read on the same line («358 bultos   17.500»). */
const CIFRA_FINAL = /(?:^|\s)(\d{1,3}(?:\.\d{3})+(?:,\d+)?|\d+(?:,\d+)?)\s*(kg|kgs|kilos)?\.?$/i;
const CIFRA_SOLA = /^(\d{1,3}(?:\.\d{3})+(?:,\d+)?|\d+(?:,\d+)?)\s*(kg|kgs|kilos)?\.?$/i;

/**
 * A goods table whose columns OCR gave one after the other: a goods header
 * with its rows (up to «Total» or the first blank), and apart a weight header
 * with as many numbers (one more when the last is the total). Rows pair in
 * order; counts that do not fit give nothing, rather than a wrong pairing.
 */
function columnasSeparadas(lineas: string[]): { naturaleza?: string; peso?: number; unidad?: UnidadCantidad }[] {
  const columna = (cabecera: RegExp, fila: (l: string) => boolean) => {
    const i = lineas.findIndex((l) => cabecera.test(sinAcentos(l.trim())));
    if (i < 0) return null;
    const filas: string[] = [];
    for (const l of lineas.slice(i + 1)) {
      const t = l.trim();
      // Blanks, and the other column's header read on a line of its own, before the first row.
      if (filas.length === 0 && (t === '' || CABECERA_PESO.test(sinAcentos(t)) || CABECERA_MERCANCIA.test(sinAcentos(t)))) continue;
      if (t === '' || !fila(t)) break;
      filas.push(t);
    }
    return filas;
  };
  const pesos = columna(CABECERA_PESO, (t) => CIFRA_FINAL.test(t) && !/\p{L}{3}/u.test(t.replace(/\b(?:bultos|cajas|palets?|pal[eé]s|sacos|uds?|kgs?|kilos)\b/giu, '')));
  const mercancias = columna(CABECERA_MERCANCIA, (t) => !/^(?:total|suma)\b/i.test(t) && !CIFRA_SOLA.test(t));
  // A weight column OCR lost entirely: the goods alone, which the user completes with their weights.
  if (mercancias?.length && pesos?.length === 0) return soloDescripciones(mercancias);
  if (!pesos?.length || !mercancias?.length || (pesos.length !== mercancias.length && pesos.length !== mercancias.length + 1)) return [];
  const filas: { naturaleza?: string; peso?: number; unidad?: UnidadCantidad }[] = [];
  for (const [i, naturaleza] of mercancias.entries()) {
    const m = CIFRA_FINAL.exec(pesos[i]!)!;
    const r = parsePeso(m[1]!);
    if (!r.ok) return [];
    filas.push({ naturaleza: naturaleza.replace(/[\s|;:\-–]+$/, ''), peso: r.valor, unidad: 'kg' });
  }
  return filas;
}

const UNIDADES_DE_CUENTA = String.raw`(?:uds?\.?|unidades|bultos|cajas|palets?|pal[eé]s|sacos|garrafas|bobinas|piezas|rollos)`;
type Fila = { naturaleza?: string; peso?: number; unidad?: UnidadCantidad };
/**
 * A goods row whose table header OCR lost (a CMR's boxes 6–12 read as noise): marks, a count of packages,
 * the goods, the gross weight, and the volume after it, when there is one («S/M 64 bultos Leche UHT en briks 8.700| 23»).
 */
const FILA_SIN_CABECERA = new RegExp(
  String.raw`^(?:\S{1,4}\s+)?\d+\s*${UNIDADES_DE_CUENTA}\s+(\p{L}[^|]*?\p{L}\.?)[\s|]+(\d{1,3}(?:\.\d{3})+(?:,\d+)?|\d{3,6}(?:,\d+)?)\s*(kg|kgs|kilos)?(?:[\s|]+\d{1,3}(?:,\d+)?)?[\s|]*$`,
  'iu',
);

/** A CMR row's count of packages, read on a line of its own or before the goods («S/M 15 pales», «S/M 324 bultos Ñoras secas | 50»). */
const CUENTA_DE_FILA = new RegExp(String.raw`^(?:\S{1,4}\s+)?\d+\s*${UNIDADES_DE_CUENTA}(?:\s+(\p{L}[^|\d]*?\p{L}\.?))?(?:[\s|]+\d{1,3}(?:,\d+)?)?[\s|]*$`, 'iu');
/** Its weight on a line further down, with the volume after it («17.400 | 4», «| 22.100»). */
const PESO_DE_FILA = /^[|\s]*(\d{1,3}(?:\.\d{3})+(?:,\d+)?|\d{3,6}(?:,\d+)?)(?:\s*\|?\s*\d{1,3}(?:,\d+)?)?[\s|]*$/;

function filasSinCabecera(lineas: string[], cmr: boolean): Fila[] {
  const filas: Fila[] = [];
  const llenas = lineas.map((l) => l.trim()).filter(Boolean);
  for (const [i, linea] of llenas.entries()) {
    const m = FILA_SIN_CABECERA.exec(linea);
    const r = m ? parsePeso(m[2]!) : null;
    if (m && r?.ok) {
      filas.push({ naturaleza: m[1]!.trim(), peso: r.valor, unidad: 'kg' });
      continue;
    }
    // A CMR's row OCR read in pieces: the count, the goods on the next line unless beside it, the weight a few lines down.
    const c = cmr ? CUENTA_DE_FILA.exec(linea) : null;
    if (!c) continue;
    const siguiente = llenas[i + 1] ?? '';
    const naturaleza = c[1]?.trim() ?? (/^\p{L}[\p{L} ,.'-]{2,}$/u.test(siguiente) && !esEtiqueta(siguiente) ? siguiente : undefined);
    if (!naturaleza) continue;
    const pesoLeido = llenas
      .slice(i + 1, i + 6)
      .map((l) => PESO_DE_FILA.exec(l))
      .find(Boolean);
    const peso = pesoLeido ? parsePeso(pesoLeido[1]!) : null;
    filas.push(peso?.ok ? { naturaleza, peso: peso.valor, unidad: 'kg' } : { naturaleza });
  }
  return filas;
}

/** A table's goods whose weights OCR lost: each a row of its own, with no weight (up to three, none a label or a count). */
function soloDescripciones(lineas: string[]): Fila[] {
  return lineas
    .map(limpiarNaturaleza)
    .filter((l) => /\p{L}{3}/u.test(l) && !SOLO_CUENTA.test(l) && !esEtiqueta(l) && !CABECERA_PESO.test(sinAcentos(l)))
    .slice(0, 3)
    .map((naturaleza) => ({ naturaleza }));
}
const SOLO_CUENTA = new RegExp(`^(?:\\d+\\s*)?${UNIDADES_DE_CUENTA}$`, 'iu');
const CUENTA_DELANTE = new RegExp(`^(?:S\\/M\\s+)?\\d+\\s*${UNIDADES_DE_CUENTA}\\s+(?=\\p{L})`, 'iu');
const CUENTA_AL_FINAL = new RegExp(`\\s+\\d+(?:[.,]\\d+)?\\s*${UNIDADES_DE_CUENTA}?\\s*$`, 'iu');

/**
 * A goods row's description: without a leading line number or article code
 * («3.», «LA-853», «P1-783»), a trailing count of packages («344 cajas»),
 * and the bars and dashes a table or a list puts between its columns.
 */
function limpiarNaturaleza(texto: string): string {
  return (
    texto
      .replace(/^[\s\-–•*|;:]+/, '')
      // A CMR's «marks and numbers» and package count before the goods («S/M 324 bultos Ñoras secas»).
      .replace(CUENTA_DELANTE, '')
      .replace(/^(?:\d{1,3}[.)]?|[A-Z]{0,3}\d*[-/]?\d+[A-Z0-9-]*)[\s|]+(?=\p{L})/u, '')
      .replace(/[\s|;:\-–]+$/, '')
      .replace(CUENTA_AL_FINAL, '')
      .replace(/[\s|;:\-–]+$/, '')
      // A count and a weight OCR could not read as one («VINO EMBOTELLADO 351 4.7060»).
      .replace(/(?<=\p{L}.*)\s+\d+(?:[.,]\d+)*$/u, '')
      // A stray letter OCR made of a table's bar at the row's end.
      .replace(/\s+\p{L}$/u, '')
      .trim()
  );
}

/**
 * The date of the transport when no label names it: of the note's dates,
 * one on a line that speaks of the load («la carga para el 4 de noviembre»)
 * before others, and one beside a time of day (an e-mail's send date, a
 * print's stamp) after them; on a tie the first.
 */
function fechaDelTransporte(texto: string, fechas: FechaLeida[]): FechaLeida | undefined {
  const puntos = (f: FechaLeida) => {
    const inicio = texto.lastIndexOf('\n', f.posicion) + 1;
    const fin = texto.indexOf('\n', f.posicion);
    const linea = sinAcentos(texto.slice(inicio, fin < 0 ? undefined : fin));
    // «para el 14-7-26», «el día 3»: a date a sentence sets for something, over one a header prints.
    const puesta = /\b(?:para\s+el|el\s+d[ií]a|el)\s+$/i.test(texto.slice(Math.max(inicio, f.posicion - 12), f.posicion)) ? 1 : 0;
    return (/\b(?:carga|cargar|recogida|recoger|salida|transporte|entrega|servicio)\b/.test(linea) ? 2 : 0) - (/\b\d{1,2}:\d{2}\b/.test(linea) ? 2 : 0) + puesta;
  };
  return fechas.reduce<FechaLeida | undefined>((mejor, f) => (!mejor || puntos(f) > puntos(mejor) ? f : mejor), undefined);
}

/**
 * The goods table: after a header line naming the goods and the weight, each
 * line holding a weight is one shipment (its text before the weight, without
 * a leading line number or quantity, is the goods), up to the first line
 * without one after at least one row.
 */
export function filasDeEnvio(texto: string): { naturaleza?: string; peso?: number; unidad?: UnidadCantidad }[] {
  const lineas = texto.split(/\r?\n/);
  const cabecera = lineas.findIndex((l) => {
    const b = sinAcentos(l);
    return /(mercancia|descripcion|producto|articulo|concepto|naturaleza)/.test(b) && /(peso|kg|kilos)/.test(b);
  });
  if (cabecera < 0) {
    const apartes = columnasSeparadas(lineas);
    return apartes.length ? apartes : filasSinCabecera(lineas, ES_CMR.test(texto));
  }
  const unidadCabecera: UnidadCantidad | undefined = /\b(kg|kilos)\b/.test(sinAcentos(lineas[cabecera]!)) ? 'kg' : undefined;
  const filas: { naturaleza?: string; peso?: number; unidad?: UnidadCantidad }[] = [];
  // A row's description that OCR gave on a line of its own, above its quantity and weight.
  let suelta: string | undefined;
  // A CMR's volume column after the weight («11 Peso kg 12 volumen m³»): a row's last number may be its volume.
  const volumenDetras = /peso.*\b(?:volumen|m3|m³)/.test(sinAcentos(lineas[cabecera]!));
  const filasDeTabla = lineas.slice(cabecera + 1);
  for (const [i, cruda] of filasDeTabla.entries()) {
    // A table's rules and bars read as dashes and pipes around the text.
    let linea = cruda.replace(/[\s|\]—–_-]+$/, '');
    // OCR puts blank lines between a table's rows as it does between paragraphs: they end nothing.
    if (linea.trim() === '') continue;
    // The volume is the row's last number when the weight is before it, or on the next line OCR gave it («| 22.100»).
    const volumen = volumenDetras ? /(?<=\S)[\s|]+\d{1,3}(?:,\d+)?$/.exec(linea) : null;
    if (volumen) {
      const antes = linea.slice(0, volumen.index);
      const pesoDebajo = PESO_DE_FILA.test(filasDeTabla.slice(i + 1).find((l) => l.trim() !== '') ?? '');
      if (/\d$/.test(antes) || pesoDebajo) linea = antes;
    }
    // A labelled line («Observaciones: …», «Tel. …», «Total …») is past the table.
    const rotulo = etiquetaDe(linea.trim());
    if (filas.length && rotulo && rotulo.etiqueta !== 'mercancia') break;
    // The weight column is the last: a weight inside the description («sacos de 25 kg») is not the row's.
    let peso: PesoLeido | undefined = buscarPesos(linea).at(-1);
    // A table whose header says «kg»: its rows may carry the bare number as the last column.
    if (unidadCabecera) {
      // Thousands apart by a dot or a space («12.000», «12 000»).
      const m = /(?<![\d.,])(\d{1,3}(?:[.\s]\d{3})+(?:,\d+)?|\d+(?:,\d+)?)\s*$/.exec(linea.trimEnd());
      const r = m ? parsePeso(m[1]!.replace(/\s(?=\d{3})/g, '.')) : null;
      const posicion = m ? linea.trimEnd().length - m[0].length : -1;
      // A bare figure under 10 kg is a count or a speck, not a lorry's shipment.
      if (m && r?.ok && r.valor >= 10 && (!peso || posicion > peso.posicion)) peso = { valor: r.valor, unidad: unidadCabecera, posicion };
    }
    if (!peso) {
      // A rule between rows (no word in it) is passed over; a line of words is a description, or the table's end.
      if (!/\p{L}{3}/u.test(linea)) continue;
      if (filas.length && suelta !== undefined) break;
      suelta = linea.trim();
      continue;
    }
    if (/^\s*(?:total|suma)\b/i.test(linea)) {
      // A one-row table whose row's weight OCR could not read: the total is that row's weight.
      if (filas.length === 0 && suelta !== undefined) {
        const naturaleza = limpiarNaturaleza(suelta);
        if (naturaleza && !SOLO_CUENTA.test(naturaleza)) filas.push({ naturaleza, peso: peso.valor, unidad: peso.unidad });
        suelta = undefined;
      }
      break;
    }
    let naturaleza = limpiarNaturaleza(linea.slice(0, peso.posicion));
    // Nothing but a count left: the description is the line above.
    if ((!naturaleza || SOLO_CUENTA.test(naturaleza)) && suelta) naturaleza = limpiarNaturaleza(suelta);
    // A bare number that is the sum of the rows above: the total, whose word OCR lost.
    if (!naturaleza && filas.length >= 2 && Math.abs(filas.reduce((t, f) => t + (f.peso ?? 0), 0) - peso.valor) < 0.01) break;
    suelta = undefined;
    filas.push({ ...(naturaleza ? { naturaleza } : {}), peso: peso.valor, unidad: peso.unidad });
  }
  if (filas.length === 0 && suelta !== undefined) return soloDescripciones([suelta]);
  return filas.length ? filas : filasSinCabecera(lineas, ES_CMR.test(texto));
}

// ————— Dónde se leyó —————

const clave = (s: string) => sinAcentos(s).replace(/[^a-z0-9]/g, '');

/** Does this line hold that value, as read? */
function contiene(linea: string, campo: string, valor: string | number): boolean {
  if (typeof valor === 'number') {
    // A weight as printed, with its unit or bare in a column: each number of the line as a Spanish note writes it.
    if (buscarPesos(linea).some((p) => p.valor === valor)) return true;
    return [...linea.matchAll(/(?<![\d.,])(\d{1,3}(?:[.\s]\d{3})+(?:,\d+)?|\d+(?:,\d+)?)(?![\d])/g)].some((m) => {
      const r = parsePeso(m[1]!.replace(/\s(?=\d{3})/g, '.'));
      return r.ok && r.valor === valor;
    });
  }
  if (campo.endsWith('_nif')) return buscarNifs(linea).some((n) => n.nif === valor);
  if (campo === 'fecha_transporte') return buscarFechas(linea).some((f) => f.fecha === valor);
  if (campo.startsWith('matricula')) return clave(linea).includes(clave(valor).replace(/^r/, '')) || Object.values(buscarMatriculasEtiquetadas(linea)).includes(valor);
  const v = clave(valor);
  const l = clave(linea);
  if (v.length >= 3 && l.includes(v)) return true;
  // A value joined from several lines (an address, a place of two lines): its first part.
  const primera = clave(valor.split(/,\s*/)[0] ?? '');
  return primera.length >= 4 && l.includes(primera);
}

/**
 * How sure a value can be at most, read on a line OCR was this sure of
 * (its words' mean confidence): a clean print reads at 0.9 and more, and
 * the values on such lines are right; below, a digit or a letter may have
 * been taken for another, and the user is asked to look («revisar», under
 * 0.6). Calibrated on bench/fotos.ts's photos so that ≥ 97% of the values
 * left at 0.6 or more are right.
 */
export function techoPorLinea(confianzaOcr: number): number {
  if (confianzaOcr >= 0.9) return 1;
  if (confianzaOcr >= 0.8) return 0.55;
  return 0.45;
}

/**
 * Where each field of a reading was read (the index of its line, see
 * lineasDeCampos), its confidence capped by how sure OCR was of that line.
 * A field found on no line keeps its own (the account's company, the
 * address book's name).
 */
export function situarCampos(lectura: Lectura, lineas: { texto: string; confianza: number }[]): Record<string, number> {
  const donde = lineasDeCampos(
    lectura.propuesta,
    lineas.map((l) => l.texto),
  );
  for (const [campo, i] of Object.entries(donde)) {
    const c = lectura.confianza[campo];
    if (c !== undefined) lectura.confianza[campo] = Math.min(c, techoPorLinea(lineas[i]!.confianza));
  }
  // A name, a place or goods that reads like OCR's noise is not sure, whatever its line's confidence.
  const p = lectura.propuesta as unknown as Record<string, unknown>;
  const textos: [string, unknown][] = [
    ...['cargador_nombre', 'cargador_domicilio', 'transp_nombre', 'transp_domicilio', 'conductor_nombre'].map((k): [string, unknown] => [k, p[k]]),
    ...lectura.propuesta.envios.flatMap((e, i) => (['origen', 'destino', 'naturaleza'] as const).map((k): [string, unknown] => [`envios[${i}].${k}`, e[k]])),
  ];
  for (const [campo, valor] of textos) {
    const c = lectura.confianza[campo];
    if (typeof valor === 'string' && c !== undefined && pareceRuido(valor)) lectura.confianza[campo] = Math.min(c, 0.45);
  }
  return donde;
}

/**
 * Whether a text read as a name, a place or goods looks like OCR's noise
 * rather than words: signs no name holds («$», «“», «|», «=», «—»), words
 * without a vowel, lone letters, or the length of several lines run
 * together.
 */
export function pareceRuido(texto: string): boolean {
  if (texto.length > 70) return true;
  if (/[$“”"|=_~<>{}[\]\\@#%^*—]/.test(texto)) return true;
  const palabras = texto.split(/[\s,.;:()/-]+/).filter(Boolean);
  if (!palabras.length) return true;
  const raras = palabras.filter((w) => {
    const base = sinAcentos(w);
    if (/^\d+[a-z]?$/.test(base) || /^(?:s|l|a|u|y|e|o|c|n|km|sl|sa|slu|sau|de|del|la|el|en)$/.test(base)) return false;
    if (base.length === 1) return true;
    return /[a-z]/.test(base) && !/[aeiouy]/.test(base);
  });
  return raras.length / palabras.length > 0.25;
}

/**
 * For each field of a proposal, the index of the line it was read from (the
 * first line holding it), so the app can point at it on the photo. A field
 * found in no line (completed from the address book, or the account's own
 * company) has none.
 */
export function lineasDeCampos(propuesta: PropuestaDeca, lineas: string[]): Record<string, number> {
  const out: Record<string, number> = {};
  const buscar = (campo: string, valor: string | number | undefined) => {
    if (valor === undefined || valor === '') return;
    const i = lineas.findIndex((l) => contiene(l, campo, valor));
    if (i >= 0) out[campo] = i;
  };
  for (const [campo, valor] of Object.entries(propuesta)) {
    if (campo !== 'envios') buscar(campo, valor as string);
  }
  propuesta.envios.forEach((e, i) => {
    for (const [campo, valor] of Object.entries(e)) if (campo !== 'unidad') buscar(`envios[${i}].${campo}`, valor as string | number);
  });
  return out;
}

// ————— Columnas —————

export interface Caja {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** A word as OCR read it, with its box on the page. */
export interface PalabraLeida {
  texto: string;
  caja: Caja;
  /** 0..1 */
  confianza: number;
}

/** A piece of a line as it will be read: its words, its text, its box. */
export interface TrozoDeLinea {
  texto: string;
  caja: Caja;
  confianza: number;
}

/** Labels that a second column of a form carries (a goods table's weight column is not one). */
const ETIQUETAS_DE_COLUMNA = new Set<Etiqueta>(['cargador', 'transportista', 'origen', 'destino', 'destinatario', 'matricula', 'conductor', 'fecha']);

/** Words of one line as one piece: their text, their joint box and their mean confidence. */
export const unirPalabras = (palabras: PalabraLeida[]): TrozoDeLinea => ({
  texto: palabras.map((p) => p.texto).join(' '),
  caja: {
    x0: Math.min(...palabras.map((p) => p.caja.x0)),
    y0: Math.min(...palabras.map((p) => p.caja.y0)),
    x1: Math.max(...palabras.map((p) => p.caja.x1)),
    y1: Math.max(...palabras.map((p) => p.caja.y1)),
  },
  confianza: palabras.reduce((s, p) => s + p.confianza, 0) / palabras.length,
});

/** A line's words cut where the space between two is much wider than a word space: the pieces of a line that crosses columns. */
function trozos(palabras: PalabraLeida[]): PalabraLeida[][] {
  if (!palabras.length) return [];
  const alto = Math.max(1, ...palabras.map((p) => p.caja.y1 - p.caja.y0));
  const out: PalabraLeida[][] = [[palabras[0]!]];
  for (let i = 1; i < palabras.length; i++) {
    if (palabras[i]!.caja.x0 - palabras[i - 1]!.caja.x1 > 2.5 * alto) out.push([]);
    out.at(-1)!.push(palabras[i]!);
  }
  return out;
}

/**
 * The lines of a page in reading order, with forms laid out in two columns
 * read column by column: OCR reads a line straight across the page, so a
 * shipper's box beside a carrier's comes out as «Remitente Transportista»,
 * then both names on one line. Where consecutive lines split at the same
 * place into two pieces, and the right-hand pieces hold labels of their own
 * (a party, a place, a plate: not a goods table's weight column), the left
 * pieces are given first, then the right ones, each column its own
 * paragraph. Each paragraph is a list of lines; the others pass unchanged.
 */
export function leerEnColumnas(parrafos: PalabraLeida[][][]): TrozoDeLinea[][] {
  const lineas = parrafos.flatMap((p, i) => p.map((palabras) => ({ palabras, parrafo: i })));
  const out: TrozoDeLinea[][] = [];
  let i = 0;
  let parrafoActual = -1;
  const seguir = (t: TrozoDeLinea, parrafo: number) => {
    if (parrafo !== parrafoActual || !out.length) out.push([]);
    parrafoActual = parrafo;
    out.at(-1)!.push(t);
  };
  while (i < lineas.length) {
    const partes = trozos(lineas[i]!.palabras);
    if (partes.length === 2) {
      // A run of lines sharing the cut: each either two pieces with the right one starting near `corte`,
      // or one piece lying wholly on one side of it.
      const corte = partes[1]![0]!.caja.x0;
      const ancho = Math.max(...lineas.map((l) => Math.max(0, ...l.palabras.map((p) => p.caja.x1))));
      const tolerancia = 0.04 * ancho;
      const izquierda: TrozoDeLinea[] = [];
      const derecha: TrozoDeLinea[] = [];
      let j = i;
      for (; j < lineas.length; j++) {
        const ps = trozos(lineas[j]!.palabras);
        if (ps.length === 2 && Math.abs(ps[1]![0]!.caja.x0 - corte) < tolerancia) {
          izquierda.push(unirPalabras(ps[0]!));
          derecha.push(unirPalabras(ps[1]!));
        } else if (ps.length === 1 && unirPalabras(ps[0]!).caja.x1 < corte - tolerancia / 2) izquierda.push(unirPalabras(ps[0]!));
        else if (ps.length === 1 && Math.abs(ps[0]![0]!.caja.x0 - corte) < tolerancia) derecha.push(unirPalabras(ps[0]!));
        else break;
      }
      const rotulada = derecha.some((t) => {
        const e = etiquetaDe(t.texto);
        return e !== null && ETIQUETAS_DE_COLUMNA.has(e.etiqueta);
      });
      if (rotulada && j > i + 1) {
        out.push(izquierda, derecha);
        parrafoActual = -1;
        i = j;
        continue;
      }
    }
    seguir(unirPalabras(lineas[i]!.palabras), lineas[i]!.parrafo);
    i++;
  }
  return out.filter((p) => p.length);
}
