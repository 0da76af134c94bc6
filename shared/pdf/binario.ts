/**
 * jsPDF writes a document as a "binary string" (one char per byte). These
 * turn one into bytes and back, the same in Node and the browser.
 */

/** Bytes of a binary string (every char code is below 256). */
export function latin1Bytes(s: string): Uint8Array {
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}

/** A binary string of `bytes`, built in slices (one call per byte would be slow, one call for all would overflow the stack). */
export function bytesLatin1(bytes: Uint8Array): string {
  const TROZO = 0x8000;
  const partes: string[] = [];
  for (let i = 0; i < bytes.length; i += TROZO) partes.push(String.fromCharCode.apply(null, bytes.subarray(i, i + TROZO) as unknown as number[]));
  return partes.join('');
}
