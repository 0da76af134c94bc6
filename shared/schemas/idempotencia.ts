import { z } from './zod';

/** Longest idempotency key accepted (a UUID is 36). */
export const CLAVE_IDEMPOTENCIA_MAXIMA = 255;

/**
 * The key that makes a write happen once, whichever door it comes through:
 * REST's `Idempotency-Key` header (IETF draft) and MCP's `clave_idempotencia`
 * obey this one rule. 1 to 255 visible ASCII characters, no spaces: what a
 * header carries without encoding, so a key that works on one door works on
 * the other; never a NUL (PostgreSQL cannot store it), another control
 * character or a bidirectional one (it would be kept and shown in logs).
 * Surrounding spaces and tabs are dropped, as HTTP drops them from a header.
 */
export const ClaveIdempotencia = z
  .string()
  // Only what HTTP drops (spaces and tabs): String.trim would also drop U+FEFF and U+2028, and accept a key a header could not carry.
  .overwrite((s) => s.replace(/^[ \t]+|[ \t]+$/g, ''))
  .min(1, 'Obligatoria si se envía: de 1 a 255 caracteres')
  .max(CLAVE_IDEMPOTENCIA_MAXIMA, `Máximo ${CLAVE_IDEMPOTENCIA_MAXIMA} caracteres`)
  .regex(/^[\x21-\x7e]*$/, 'Solo caracteres ASCII visibles, sin espacios ni acentos (p. ej. un UUID)')
  .meta({ description: 'Clave única de este intento (p. ej. un UUID; de 1 a 255 caracteres ASCII visibles): una repetición con la misma clave devuelve el mismo resultado sin repetir la acción' });
export type ClaveIdempotencia = z.infer<typeof ClaveIdempotencia>;
