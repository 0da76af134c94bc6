import { webcrypto } from 'node:crypto';
import type { ClavePublica } from '../../shared/schemas/dispositivo';

/** A device's key pair as the app makes it (ECDSA P-256), its public half as JWK. */
export async function clavePublica(): Promise<ClavePublica> {
  const par = await webcrypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify']);
  const jwk = await webcrypto.subtle.exportKey('jwk', par.publicKey);
  return { kty: 'EC', crv: 'P-256', x: jwk.x!, y: jwk.y! };
}
