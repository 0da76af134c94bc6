/**
 * Spanish tax identifiers (NIF) of the cargador, transportista and
 * destinatario that a DeCA must carry (Orden FOM/2861/2012 art. 6).
 *
 * Pure and total: nothing here throws. The caller turns a known format with a
 * wrong check character into an `aviso` and an unknown format into an error,
 * so {@link validarNif} keeps those two cases apart (`tipo` set vs `null`).
 */

/** Kind of NIF detected; `null` means the format is not a Spanish NIF at all. */
export type TipoNif = 'dni' | 'nie' | 'cif' | null;

/** Result of {@link validarNif}, shaped so the caller can tell «formato» from «control» failures. */
export interface ValidacionNif {
  tipo: TipoNif;
  normalizado: string;
  valido: boolean;
  motivo?: string;
}

// DNI, NIE y NIF K/L/M: la letra es el resto del número entre 23 en esta tabla.
const LETRAS_DNI = 'TRWAGMYFPDXBNJZSQVHLCKE';
// Letra de control de un CIF cuando el control es alfabético: índice = dígito.
const LETRAS_CIF = 'JABCDEFGHI';
// NIE: la letra inicial sustituye a un dígito antes de aplicar el módulo 23.
const PREFIJO_NIE: Record<string, string> = { X: '0', Y: '1', Z: '2' };

// Orden EHA/451/2008 (claves de entidad): control alfabético para P, Q, S
// (y, en la práctica de la AEAT, N, R, W); numérico para A, B, E, H; el resto
// admite cualquiera de los dos.
const CIF_CONTROL_LETRA = new Set(['N', 'P', 'Q', 'R', 'S', 'W']);
const CIF_CONTROL_DIGITO = new Set(['A', 'B', 'E', 'H']);

const RE_DNI = /^(\d{8})([A-Z])$/;
const RE_NIE = /^([XYZ])(\d{7})([A-Z])$/;
// K (españoles menores de 14), L (españoles no residentes), M (extranjeros sin
// NIE): NIF de persona física con el algoritmo del DNI sobre las 7 cifras.
const RE_KLM = /^([KLM])(\d{7})([A-Z])$/;
const RE_CIF = /^([ABCDEFGHJNPQRSUVW])(\d{7})([0-9A-Z])$/;

/** Brings a NIF as people type it (`es-b12.345.674`) to the bare form we store and compare. */
export function normalizarNif(s: string): string {
  // Whitespace (incl. NBSP), dots and hyphens are only presentation.
  const limpio = s.toUpperCase().replace(/[\s.-]/g, '');
  // NIF-IVA intracomunitario: «ES» + NIF. No NIF starts with «ES» (a CIF «E»
  // is followed by a digit), so stripping it is never ambiguous.
  return limpio.startsWith('ES') ? limpio.slice(2) : limpio;
}

/** Letter that a DNI-style number must end with (mod 23), shared by DNI, NIE and K/L/M. */
function letraDni(numero: string): string {
  // Up to 8 digits fit comfortably in a double; no BigInt needed.
  return LETRAS_DNI.charAt(Number(numero) % 23);
}

/** Check digit (0–9) of the 7 CIF digits: odd positions doubled and digit-summed, even positions added. */
function digitoCif(cifras: string): number {
  let suma = 0;
  for (let i = 0; i < cifras.length; i++) {
    const d = Number(cifras.charAt(i));
    if (i % 2 === 0) {
      // Positions 1, 3, 5, 7 (1-based): double and add the digits of the product.
      const doble = d * 2;
      suma += Math.floor(doble / 10) + (doble % 10);
    } else {
      suma += d;
    }
  }
  return (10 - (suma % 10)) % 10;
}

/** Result for a known format whose control character is wrong (the caller makes it an aviso). */
function controlIncorrecto(tipo: Exclude<TipoNif, null>, normalizado: string, esperado: string, que: string): ValidacionNif {
  return { tipo, normalizado, valido: false, motivo: `${que} no corresponde (debería ser ${esperado})` };
}

/** Classifies a NIF and checks its control character, telling unknown formats from wrong check digits. */
export function validarNif(s: string): ValidacionNif {
  const normalizado = normalizarNif(s);
  if (normalizado === '') {
    return { tipo: null, normalizado, valido: false, motivo: 'falta el NIF' };
  }

  const dni = RE_DNI.exec(normalizado);
  if (dni) {
    const esperada = letraDni(dni[1] ?? '');
    return dni[2] === esperada ? { tipo: 'dni', normalizado, valido: true } : controlIncorrecto('dni', normalizado, esperada, 'la letra de control');
  }

  const nie = RE_NIE.exec(normalizado);
  if (nie) {
    const esperada = letraDni((PREFIJO_NIE[nie[1] ?? ''] ?? '') + (nie[2] ?? ''));
    return nie[3] === esperada ? { tipo: 'nie', normalizado, valido: true } : controlIncorrecto('nie', normalizado, esperada, 'la letra de control');
  }

  const klm = RE_KLM.exec(normalizado);
  if (klm) {
    // Reported as 'dni': a natural person whose letter follows the DNI table.
    const esperada = letraDni(klm[2] ?? '');
    return klm[3] === esperada ? { tipo: 'dni', normalizado, valido: true } : controlIncorrecto('dni', normalizado, esperada, 'la letra de control');
  }

  const cif = RE_CIF.exec(normalizado);
  if (cif) {
    const clave = cif[1] ?? '';
    const control = cif[3] ?? '';
    const digito = digitoCif(cif[2] ?? '');
    const comoDigito = String(digito);
    const comoLetra = LETRAS_CIF.charAt(digito);
    if (CIF_CONTROL_LETRA.has(clave)) {
      return control === comoLetra ? { tipo: 'cif', normalizado, valido: true } : controlIncorrecto('cif', normalizado, comoLetra, 'la letra de control');
    }
    if (CIF_CONTROL_DIGITO.has(clave)) {
      return control === comoDigito ? { tipo: 'cif', normalizado, valido: true } : controlIncorrecto('cif', normalizado, comoDigito, 'el dígito de control');
    }
    return control === comoDigito || control === comoLetra
      ? { tipo: 'cif', normalizado, valido: true }
      : controlIncorrecto('cif', normalizado, `${comoDigito} o ${comoLetra}`, 'el carácter de control');
  }

  // An 8-digit number without its letter is a common slip; say so, but it is
  // still not a usable NIF, so it stays an unknown format.
  if (/^\d{8}$/.test(normalizado)) {
    return {
      tipo: null,
      normalizado,
      valido: false,
      motivo: `formato no reconocido: falta la letra del DNI (sería ${letraDni(normalizado)})`,
    };
  }

  return {
    tipo: null,
    normalizado,
    valido: false,
    motivo: 'formato no reconocido (DNI 12345678Z, NIE X1234567L o CIF B12345674)',
  };
}

/**
 * The warning a NIF gets wherever it is typed or kept (the DeCA form and its
 * `avisos`, the address book): null when it is valid or empty.
 */
export function avisoNif(v: string): string | null {
  if (!v.trim()) return null;
  const r = validarNif(v);
  return r.valido ? null : `Revise el NIF ${v}: ${r.motivo ?? 'no es válido'}.`;
}
