import { Entorno } from './cuenta';
import { cadena } from './envio';
import { z } from './zod';

/** A coordinate of a P-256 public key: 32 bytes, base64url without padding. */
const coordenada = z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'Coordenada de clave P-256 no válida');

/**
 * The device's public key as WebCrypto exports it (JWK, ECDSA P-256). Only
 * the key itself is kept: `ext`, `key_ops` and the like are dropped.
 */
export const ClavePublica = z.object({ kty: z.literal('EC'), crv: z.literal('P-256'), x: coordenada, y: coordenada }).meta({ description: 'Clave pública ECDSA P-256 del dispositivo (JWK)' });
export type ClavePublica = z.infer<typeof ClavePublica>;

/** POST /app/api/dispositivos: a signed-in device registers its key. */
export const DispositivoInput = z.object({
  nombre: cadena({ imprimible: true }).trim().min(1, 'Obligatorio').max(80, 'Máximo 80 caracteres').meta({ description: 'Cómo se llama el dispositivo (p. ej. «Android · Chrome»)' }),
  clave_publica: ClavePublica,
});
export type DispositivoInput = z.input<typeof DispositivoInput>;

/** A device of the account, as the account screen lists it. */
export const Dispositivo = z.object({
  id: z.number().int(),
  nombre: z.string(),
  /** The user it was registered for. */
  usuario: z.string(),
  /** The first 16 hex digits of the SHA-256 of the key's coordinates: to tell devices apart at a glance. */
  huella: z.string(),
  created_at: z.string(),
  revocado_at: z.string().nullable(),
});
export type Dispositivo = z.infer<typeof Dispositivo>;

/** POST /app/api/dispositivos/{id}/reservas: the environment whose numbers the device holds. */
export const ReservasInput = z.object({ entorno: Entorno });

/** A number and public token held by a device for a DeCA issued with no coverage. */
export const Reserva = z.object({
  numero: z.string(),
  token: z.string(),
  /** The public ficha of the DeCA that will carry this number: what its QR points to. */
  ficha_url: z.string(),
  /** ISO 8601 with offset: when the server reserved it. A DeCA is never issued with it at an earlier time (the device's clock is wrong). */
  reservada_at: z.string(),
  /** ISO 8601 with offset: the device compares it with its own clock. */
  caduca_at: z.string(),
});
export type Reserva = z.infer<typeof Reserva>;

/** The numbers the device may use now (the usable ones it already held, and the refill), lowest first. */
export const ReservasRespuesta = z.object({
  entorno: Entorno,
  reservas: z.array(Reserva),
  /** The room the server's PDF leaves for its seal: the device renders with it, so its PDF is the server's unsealed one. */
  capacidad_sello: z.number().int().positive(),
});
export type ReservasRespuesta = z.infer<typeof ReservasRespuesta>;
