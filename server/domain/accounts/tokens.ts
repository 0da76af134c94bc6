import { createHash, randomBytes } from 'node:crypto';

/** sha256 hex: how API keys and session tokens are stored (never the secret itself). */
export function sha256Hex(s: string): string {
  return createHash('sha256').update(s).digest('hex');
}

/** 256 random bits, URL-safe. */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}
