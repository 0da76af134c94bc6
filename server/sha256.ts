import { createHash } from 'node:crypto';

/** SHA-256 in hex: how API keys and session tokens are stored (never the secret itself), and the name of a PDF blob. */
export function sha256Hex(datos: string | Uint8Array): string {
  return createHash('sha256').update(datos).digest('hex');
}
