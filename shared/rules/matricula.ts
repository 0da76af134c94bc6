/**
 * Spanish vehicle plates (tractora y remolque) as written on a DeCA
 * (Orden FOM/2861/2012 art. 6: «matrícula del vehículo que realiza el transporte»).
 *
 * One stored convention — upper case, no spaces, no hyphens — so that
 * `1234 bcd` and `1234-BCD` are the same vehicle in the agenda and in search.
 * A plate we cannot classify is not refused here: the caller turns
 * `tipo: 'desconocida'` into an aviso, because foreign trucks carry foreign plates.
 */

/** Family of a plate; `desconocida` is anything not matching a Spanish series we know. */
export type TipoMatricula = 'actual' | 'provincial' | 'remolque' | 'especial' | 'desconocida';

/** Result of {@link clasificarMatricula}: the stored form plus why it did not match, if it did not. */
export interface ClasificacionMatricula {
  normalizada: string;
  tipo: TipoMatricula;
  valida: boolean;
  motivo?: string;
}

// Reglamento General de Vehículos (RD 2822/1998), anexo XVIII: desde 2000 las
// series usan consonantes sin Ñ ni Q para evitar confusiones (vocales fuera).
const CONSONANTES = '[BCDFGHJKLMNPRSTVWXYZ]';

// Códigos provinciales del sistema anterior al 2000, incluidos los que se
// sustituyeron antes (PM→IB, GE→GI, OR→OU) y siguen en vehículos antiguos.
const PROVINCIAS = [
  'A',
  'AB',
  'AL',
  'AV',
  'B',
  'BA',
  'BI',
  'BU',
  'C',
  'CA',
  'CC',
  'CE',
  'CO',
  'CR',
  'CS',
  'CU',
  'GC',
  'GE',
  'GI',
  'GR',
  'GU',
  'H',
  'HU',
  'IB',
  'J',
  'L',
  'LE',
  'LO',
  'LU',
  'M',
  'MA',
  'ML',
  'MU',
  'NA',
  'O',
  'OR',
  'OU',
  'P',
  'PM',
  'PO',
  'S',
  'SA',
  'SE',
  'SG',
  'SO',
  'SS',
  'T',
  'TE',
  'TF',
  'TO',
  'V',
  'VA',
  'VI',
  'Z',
  'ZA',
].join('|');

// Mismo esquema que la serie actual con una letra delante (anexo XVIII):
// E especiales (maquinaria), H históricos, P/S/V temporales, C ciclomotores.
const RE_ESPECIAL_SERIE = new RegExp(`^[EHPSVC]\\d{4}${CONSONANTES}{3}$`);
// Placas del Ministerio de Asuntos Exteriores: CD cuerpo diplomático, CC
// consular, OI organismos internacionales, TA técnico-administrativo.
const RE_DIPLOMATICA = /^(CD|CC|OI|TA)\d{3,6}$/;
// Organismos del Estado con numeración propia: ET/EA/FN (Ejército de Tierra,
// del Aire, Armada), PGC Guardia Civil, CNP/DGP Policía, MF Fomento, MMA Medio
// Ambiente, PME/PMM parques móviles, CME Mossos, FAE fuerzas aliadas.
const RE_ESTADO = /^(ET|EA|FN|PGC|CNP|DGP|MF|MMA|PME|PMM|CME|FAE)\d{3,6}[A-Z]{0,2}$/;

const RE_ACTUAL = new RegExp(`^\\d{4}${CONSONANTES}{3}$`);
const RE_REMOLQUE = new RegExp(`^R\\d{4}${CONSONANTES}{3}$`);
// 1971–2000: provincia + 4 cifras + 1–2 letras. Antes de 1971: provincia +
// hasta 6 cifras; pedimos al menos 4 porque las de 1–3 cifras son rarezas de
// principios del siglo XX y en un vehículo de trabajo «A-1» es más bien una
// errata (el resultado solo es un aviso).
const RE_PROVINCIAL = new RegExp(`^(${PROVINCIAS})(\\d{4}[A-Z]{1,2}|\\d{4,6})$`);

/** Brings a plate as people type it (`m-1234-ab`, `1234 bcd`) to the one form we store and compare. */
export function normalizarMatricula(s: string): string {
  // Whitespace (incl. NBSP) and any dash-like character are only presentation.
  return s.toUpperCase().replace(/[\s\-‐‑‒–—]/g, '');
}

/** Names the plate family so the caller can warn (aviso) about plates no Spanish series produces. */
export function clasificarMatricula(s: string): ClasificacionMatricula {
  const normalizada = normalizarMatricula(s);
  const con = (tipo: TipoMatricula): ClasificacionMatricula => ({ normalizada, tipo, valida: true });
  const desconocida = (motivo: string): ClasificacionMatricula => ({
    normalizada,
    tipo: 'desconocida',
    valida: false,
    motivo,
  });

  if (normalizada === '') return desconocida('falta la matrícula');

  // Order matters: prefixed series (R…, E…, H…) are one letter longer than a
  // provincial plate and would otherwise be misread as «provincia + letras».
  if (RE_ACTUAL.test(normalizada)) return con('actual');
  if (RE_REMOLQUE.test(normalizada)) return con('remolque');
  if (RE_ESPECIAL_SERIE.test(normalizada)) return con('especial');
  // Before the provincial check: «CC123456» is read as consular, not as an old Cáceres plate.
  if (RE_DIPLOMATICA.test(normalizada) || RE_ESTADO.test(normalizada)) return con('especial');
  if (RE_PROVINCIAL.test(normalizada)) return con('provincial');

  if (/^\d{4}[A-ZÑ]{3}$/.test(normalizada)) {
    return desconocida('las matrículas actuales llevan 4 cifras y 3 consonantes, sin vocales, Ñ ni Q');
  }
  if (!/^[A-Z0-9]+$/.test(normalizada)) {
    return desconocida('la matrícula solo puede llevar letras y cifras');
  }
  if (normalizada.length < 4 || normalizada.length > 10 || !/\d/.test(normalizada) || !/[A-Z]/.test(normalizada)) {
    return desconocida('no parece una matrícula (p. ej. 1234BCD o R1234BCD)');
  }
  return desconocida('no coincide con ninguna serie española conocida; compruebe si es extranjera');
}

/**
 * The country a plate is registered in, when it can be told (eFTI's
 * `registrationCountry`): the one the DeCA holds (`matricula_pais`,
 * `remolque_pais`) when given; else Spain for a plate of a Spanish series;
 * else unknown (null): a foreign-looking plate with no country stated.
 */
export function paisDeMatricula(matricula: string, pais?: string | null): string | null {
  if (pais) return pais;
  return clasificarMatricula(matricula).valida ? 'ES' : null;
}
