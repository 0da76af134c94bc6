import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import * as pkijs from 'pkijs';
import { type MaterialSello, materialDesdeP12 } from '../../server/documents/sello';

/** Where the test seal lives: a P12 as a certification authority delivers one (seal + its CA). */
export const P12_PRUEBA = new URL('../fixtures/sello/sello-prueba.p12', import.meta.url);
export const P12_PRUEBA_PASSWORD = 'prueba-sello';

let material: MaterialSello | null = null;
/** The seal test servers use (made with OpenSSL 3; see test/fixtures/sello/README.md). */
export function selloDePrueba(): MaterialSello {
  material ??= materialDesdeP12(readFileSync(P12_PRUEBA), P12_PRUEBA_PASSWORD);
  return material;
}

/** The CMS in a sealed PDF's `/Contents`, without the zero padding (its DER length is in its header). */
export function cmsDelPdf(pdf: Uint8Array): Buffer {
  const hex = /\/Contents <([0-9a-fA-F]+)>/.exec(Buffer.from(pdf).toString('latin1'))?.[1];
  if (!hex) throw new Error('the PDF has no signature /Contents');
  const der = Buffer.from(hex, 'hex');
  if (der[0] !== 0x30 || der[1]! < 0x81 || der[1]! > 0x83) throw new Error(`not a DER SEQUENCE: ${der.subarray(0, 4).toString('hex')}`);
  const n = der[1]! - 0x80;
  return der.subarray(0, 2 + n + der.readUIntBE(2, n));
}

/** SHA-256 (hex) of the first certificate the seal of a PDF carries: the seal's own. */
export function huellaDelSello(pdf: Uint8Array): string {
  const cms = cmsDelPdf(pdf);
  const info = pkijs.ContentInfo.fromBER(cms.buffer.slice(cms.byteOffset, cms.byteOffset + cms.byteLength) as ArrayBuffer);
  const firmado = new pkijs.SignedData({ schema: info.content });
  const propio = firmado.certificates?.[0];
  if (!(propio instanceof pkijs.Certificate)) throw new Error('the seal carries no certificate');
  return createHash('sha256').update(Buffer.from(propio.toSchema().toBER())).digest('hex');
}
