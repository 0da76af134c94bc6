/**
 * Bytes as text a QR code stores in its alphanumeric mode (5.5 bits a
 * character, against 8 in byte mode) and a URL's query carries as it is.
 *
 * Like Base45 (RFC 9285), two bytes become three characters (41³ = 68,921 ≥
 * 65,536) and a last odd byte two, least significant first; but out of the
 * QR's 45 alphanumeric characters it leaves the space, «%» and «+» (a URL
 * would have to escape them, and a query reads «+» as a space) and «.» (the
 * separator of the older summary format). 16 bits in 16.5: 97 % of the
 * mode's capacity, where base64url in byte mode uses 75 %.
 */

export const ALFABETO_BASE41 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ$*-/:';
const B = ALFABETO_BASE41.length;

export function base41(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 2) {
    if (i + 1 === bytes.length) {
      const n = bytes[i]!;
      out += ALFABETO_BASE41[n % B]! + ALFABETO_BASE41[Math.floor(n / B)]!;
    } else {
      let n = bytes[i]! * 256 + bytes[i + 1]!;
      for (let k = 0; k < 3; k++, n = Math.floor(n / B)) out += ALFABETO_BASE41[n % B]!;
    }
  }
  return out;
}

/** The bytes of a base41 text, or null when it is not one (a foreign character, a length or a group no encoding gives). */
export function desdeBase41(s: string): Uint8Array | null {
  if (s.length % 3 === 1) return null;
  const out = new Uint8Array(Math.floor(s.length / 3) * 2 + (s.length % 3 === 2 ? 1 : 0));
  let j = 0;
  for (let i = 0; i < s.length; i += 3) {
    const grupo = s.slice(i, i + 3);
    let n = 0;
    for (let k = grupo.length - 1; k >= 0; k--) {
      const v = ALFABETO_BASE41.indexOf(grupo[k]!);
      if (v < 0) return null;
      n = n * B + v;
    }
    if (grupo.length === 3) {
      if (n > 0xffff) return null;
      out[j++] = n >> 8;
      out[j++] = n & 0xff;
    } else {
      if (n > 0xff) return null;
      out[j++] = n;
    }
  }
  return out;
}
