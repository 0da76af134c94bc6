import { randomBytes } from 'node:crypto';

/** 256 random bits, URL-safe. */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/**
 * Whether a string from a link can be one of our tokens (URL-safe base64 of
 * 16 to 48 bytes): anything else is refused before it reaches a query.
 */
export function formaDeToken(token: string): boolean {
  return /^[\w-]{20,64}$/.test(token);
}
