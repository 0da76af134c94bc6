/**
 * Countries and postcodes: what an eFTI dataset asks of a party's address
 * and of a plate (Delegated Regulation (EU) 2024/2024, subset ES01:
 * `postalAddress/postcode`, `countryCode`, `registrationCountry/code`), kept
 * apart from the free address line the DeCA prints. Pure, so the app's
 * form, the server and the CSV import judge them the same way.
 */

/**
 * ISO 3166-1 alpha-2 codes accepted, with their Spanish names: Europe (the
 * EU, the EEA, Switzerland, the United Kingdom, the Balkans and the East)
 * and the countries whose lorries and companies most often take part in
 * transport from or to Spain. A short list on purpose: a typo (`SP` for
 * Spain, `UK` for the United Kingdom) must be refused, not stored.
 */
export const PAISES: Readonly<Record<string, string>> = {
  AD: 'Andorra',
  AL: 'Albania',
  AM: 'Armenia',
  AT: 'Austria',
  AZ: 'Azerbaiyán',
  BA: 'Bosnia y Herzegovina',
  BE: 'Bélgica',
  BG: 'Bulgaria',
  BY: 'Bielorrusia',
  CH: 'Suiza',
  CY: 'Chipre',
  CZ: 'Chequia',
  DE: 'Alemania',
  DK: 'Dinamarca',
  DZ: 'Argelia',
  EE: 'Estonia',
  ES: 'España',
  FI: 'Finlandia',
  FR: 'Francia',
  GB: 'Reino Unido',
  GE: 'Georgia',
  GI: 'Gibraltar',
  GR: 'Grecia',
  HR: 'Croacia',
  HU: 'Hungría',
  IE: 'Irlanda',
  IS: 'Islandia',
  IT: 'Italia',
  KZ: 'Kazajistán',
  LI: 'Liechtenstein',
  LT: 'Lituania',
  LU: 'Luxemburgo',
  LV: 'Letonia',
  MA: 'Marruecos',
  MC: 'Mónaco',
  MD: 'Moldavia',
  ME: 'Montenegro',
  MK: 'Macedonia del Norte',
  MT: 'Malta',
  NL: 'Países Bajos',
  NO: 'Noruega',
  PL: 'Polonia',
  PT: 'Portugal',
  RO: 'Rumanía',
  RS: 'Serbia',
  RU: 'Rusia',
  SE: 'Suecia',
  SI: 'Eslovenia',
  SK: 'Eslovaquia',
  SM: 'San Marino',
  TN: 'Túnez',
  TR: 'Turquía',
  UA: 'Ucrania',
  VA: 'Ciudad del Vaticano',
  CN: 'China',
  US: 'Estados Unidos',
};

/** Common mistakes for a code, named in the refusal (`UK` and `EL` are the EU's own abbreviations, not ISO 3166-1). */
const CONFUSIONES: Readonly<Record<string, string>> = { UK: 'GB', SP: 'ES', EL: 'GR', PO: 'PL' };

/** A country code as people type it (` es `, `Es`) → the stored form (`ES`). */
export function normalizarPais(s: string): string {
  return s.trim().toUpperCase();
}

/** Why a country code is refused (null when it is one of `PAISES`); the code already normalised. */
export function problemaPais(codigo: string): string | null {
  if (PAISES[codigo]) return null;
  const quiso = CONFUSIONES[codigo];
  if (quiso) return `País no válido: «${codigo}» no es un código ISO 3166-1; ¿quería decir ${quiso} (${PAISES[quiso]})?`;
  if (!/^[A-Z]{2}$/.test(codigo)) return 'País no válido: use el código ISO de dos letras (ES, FR, PT, DE…)';
  return `País no admitido: «${codigo}» no está en la lista de códigos ISO que se aceptan (ES, PT, FR, DE, IT… y el resto de Europa)`;
}

/** The most a postcode takes (a Spanish one is 5 digits; other countries' up to 10, with letters, spaces or a hyphen). */
export const CP_MAXIMO = 10;

/**
 * Why a postcode is refused for a country (null when it is fine): Spanish
 * (country `ES`, or none given: the DeCA's parties are Spanish by default)
 * is 5 digits whose first two are a province, 01 to 52; any other country's
 * only letters, digits, spaces and hyphens. `campoPais` names the country's
 * field in the message.
 */
export function problemaCodigoPostal(cp: string, pais: string | null | undefined, campoPais = 'el país'): string | null {
  if (!pais || pais === 'ES') {
    if (!/^\d{5}$/.test(cp))
      return `Código postal español no válido: son 5 cifras (p. ej. 28001). Si la dirección no está en España, indique también ${campoPais === 'el país' ? campoPais : `«${campoPais}»`}`;
    const provincia = Number(cp.slice(0, 2));
    if (provincia < 1 || provincia > 52) return `Código postal español no válido: empieza por ${cp.slice(0, 2)} y las provincias van de 01 a 52`;
    return null;
  }
  if (!/^[A-Z0-9](?:[A-Z0-9 -]*[A-Z0-9])?$/i.test(cp)) return 'Código postal no válido: solo letras, cifras, espacios y guiones';
  return null;
}
