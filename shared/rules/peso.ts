/**
 * Weights and quantities of the goods on a DeCA (Orden FOM/2861/2012 art. 6:
 * «peso de la mercancía»), read the way Spanish users type them and written
 * back the way a Spanish document shows them.
 *
 * Spanish convention: the comma is the decimal mark and the dot groups
 * thousands. A lone dot is the only ambiguous case and is resolved below.
 * Hand-written on purpose: Intl locale data may be missing in some runtimes.
 */

/** Unit the user wrote after the number; the caller decides what it means for the DeCA. */
export type UnidadCantidad = 'kg' | 't' | 'm3' | 'l' | 'palets' | 'bultos' | 'unidades' | 'contenedores';

/** Result of {@link parsePeso}: a positive value (and unit, if written) or a Spanish reason to show the user. */
export type ResultadoPeso = { ok: true; valor: number; unidad?: UnidadCantidad } | { ok: false; motivo: string };

// Above this a typo is far more likely than a real load (a whole ship is ~1e8 kg).
const PESO_MAXIMO = 1e9;

/** Characters of the longest text read as a weight. */
export const PESO_TEXTO_MAXIMO = 1000;

const MOTIVO_FORMATO = 'escriba el peso como número, p. ej. 24.500 o 24500,5';

// Spellings seen in real consignment notes, lower case, without a final dot.
const UNIDADES: Record<string, UnidadCantidad> = {
  kg: 'kg',
  kgs: 'kg',
  kilo: 'kg',
  kilos: 'kg',
  kilogramo: 'kg',
  kilogramos: 'kg',
  t: 't',
  tn: 't',
  tm: 't',
  tonelada: 't',
  toneladas: 't',
  m3: 'm3',
  'm³': 'm3',
  l: 'l',
  lt: 'l',
  lts: 'l',
  litro: 'l',
  litros: 'l',
  palet: 'palets',
  palets: 'palets',
  pallet: 'palets',
  pallets: 'palets',
  palé: 'palets',
  palés: 'palets',
  bulto: 'bultos',
  bultos: 'bultos',
  u: 'unidades',
  ud: 'unidades',
  uds: 'unidades',
  unidad: 'unidades',
  unidades: 'unidades',
  contenedor: 'contenedores',
  contenedores: 'contenedores',
};

/** Integer part with optional thousands groups (`24500`, `24.500`, `1 500 000`), or null. */
function parseEntero(s: string): string | null {
  if (/^\d+$/.test(s)) return s;
  // One separator kind per number: «1.500 000» is a typo, not a number.
  if (/^[1-9]\d{0,2}(\.\d{3})+$/.test(s) || /^[1-9]\d{0,2}( \d{3})+$/.test(s)) return s.replace(/[. ]/g, '');
  return null;
}

/** Number part of the input in canonical `123.45` form, or null when it is not a number we can read. */
function parseNumero(s: string): string | null {
  const partes = s.split(',');
  if (partes.length > 2) return null;
  const [izquierda = '', decimales] = partes;
  if (decimales !== undefined) {
    const entero = parseEntero(izquierda);
    return entero !== null && /^\d+$/.test(decimales) ? `${entero}.${decimales}` : null;
  }
  const punto = /^(\d+)\.(\d+)$/.exec(izquierda);
  if (punto) {
    const [, antes = '', despues = ''] = punto;
    // A lone dot followed by exactly 3 digits after a 1–3 digit group is a
    // thousands separator (`24.500`); anything else can only be a decimal
    // point (`1.5`, `12.25`, `0.500`, `1234.5`).
    return despues.length === 3 && /^[1-9]\d{0,2}$/.test(antes) ? `${antes}${despues}` : `${antes}.${despues}`;
  }
  return parseEntero(izquierda);
}

/** Reads a weight or quantity as typed (`24.500`, `2,5 t`, `12 palets`) so forms and CSV imports accept it. */
export function parsePeso(input: number | string): ResultadoPeso {
  if (typeof input === 'number') {
    if (!Number.isFinite(input)) return { ok: false, motivo: MOTIVO_FORMATO };
    if (input <= 0) return { ok: false, motivo: 'el peso debe ser mayor que cero' };
    if (input > PESO_MAXIMO) return { ok: false, motivo: 'peso no plausible' };
    return { ok: true, valor: input };
  }

  // No weight, however spaced, is this long: a 4 MB «weight» is refused without running the patterns over it.
  if (input.length > PESO_TEXTO_MAXIMO) return { ok: false, motivo: MOTIVO_FORMATO };
  // Any whitespace (NBSP and thin spaces from spreadsheets included) counts as one space.
  const texto = input.trim().replace(/\s+/g, ' ').toLowerCase();
  if (texto === '') return { ok: false, motivo: 'falta el peso' };

  let numero = texto;
  let unidad: UnidadCantidad | undefined;
  // A unit is letters only (or m3/m³), so «1e3» or «0x10» stay format errors.
  const conUnidad = /^(.*\d) ?([a-zñáéíóú]+|m[3³])\.?$/.exec(texto);
  if (conUnidad) {
    const [, parteNumero = '', escrita = ''] = conUnidad;
    unidad = UNIDADES[escrita];
    if (unidad === undefined) return { ok: false, motivo: `unidad no reconocida: «${escrita}»` };
    numero = parteNumero;
  }

  const negativo = /^[-−]\s?/.exec(numero);
  if (negativo) {
    return parseNumero(numero.slice(negativo[0].length)) === null ? { ok: false, motivo: MOTIVO_FORMATO } : { ok: false, motivo: 'el peso debe ser mayor que cero' };
  }

  const canonico = parseNumero(numero);
  if (canonico === null) return { ok: false, motivo: MOTIVO_FORMATO };
  const valor = Number(canonico);
  if (!(valor > 0)) return { ok: false, motivo: 'el peso debe ser mayor que cero' };
  if (valor > PESO_MAXIMO) return { ok: false, motivo: 'peso no plausible' };
  return unidad === undefined ? { ok: true, valor } : { ok: true, valor, unidad };
}

/** Writes a weight the Spanish way for the PDF and the UI (`24.500`, `24.500,5`), without locale data. */
export function formatPeso(valor: number): string {
  // toFixed switches to exponent notation from 1e21; such values are never weights.
  if (!Number.isFinite(valor) || Math.abs(valor) >= 1e21) return String(valor);
  // Six decimals keep a gram in tonnes (0,000001 t) and hide float noise (0.1 + 0.2).
  const [entero = '0', fraccion = ''] = Math.abs(valor).toFixed(6).split('.');
  const decimales = fraccion.replace(/0+$/, '');
  const miles = entero.replace(/\B(?=(\d{3})+(?!\d))/g, '.');
  const cuerpo = decimales === '' ? miles : `${miles},${decimales}`;
  // A tiny negative rounds to «0»; never print «-0».
  return valor < 0 && cuerpo !== '0' ? `-${cuerpo}` : cuerpo;
}

/**
 * The most a road vehicle carries in Spain without a special permit: 44 t of
 * gross mass for the heaviest combination (RD 2822/1998, annex IX), so the
 * load is always less. Exceptional transports go far beyond, with a permit.
 */
export const CARGA_MAXIMA_KG = 44_000;
const CARGA_MAXIMA_ESPECIAL_KG = 300_000;

const KG_POR_UNIDAD: Partial<Record<UnidadCantidad, number>> = { kg: 1, t: 1000 };

/**
 * Why a load is implausible for the vehicle, or null: more than a road
 * vehicle carries (more with a special permit). When the number read in the
 * other weight unit fits, the message suggests it (`23.800 t` → kg).
 */
export function cargaInverosimil(valor: number, unidad: UnidadCantidad | null | undefined, opciones: { autorizacionEspecial?: boolean } = {}): string | null {
  const u = unidad ?? 'kg';
  const factor = KG_POR_UNIDAD[u];
  if (factor === undefined) return null; // volume or count: no mass to judge
  const limite = opciones.autorizacionEspecial ? CARGA_MAXIMA_ESPECIAL_KG : CARGA_MAXIMA_KG;
  if (valor * factor <= limite) return null;
  const escrito = `${formatPeso(valor)} ${u}`;
  const maximo = `${formatPeso(limite / 1000)} t`;
  const otra = u === 't' ? 'kg' : 't';
  const sugerencia = valor * KG_POR_UNIDAD[otra]! <= limite ? ` ¿Quería decir ${formatPeso(valor)} ${otra}? Cambie la unidad a «${otra}».` : '';
  return `${escrito} es más de lo que lleva un vehículo por carretera (${opciones.autorizacionEspecial ? 'incluso con autorización especial, ' : ''}hasta ${maximo}).${sugerencia}`;
}
