import { AppError } from '../../shared/errors';
import { violacionUnica } from '../db/errores';

/** Unique indexes whose refusal has its own documented answer. */
const POR_INDICE: Record<string, () => AppError> = {
  // Two copies of one signed gate request raced past the replay check: the second is the replay.
  efti_consultas_firma_idx: () => new AppError('no_autenticado', 'Esta petición firmada ya se recibió: firme cada petición de nuevo, con su hora, al enviarla.'),
  users_email_key: () => new AppError('email_registrado', 'Ya existe una cuenta con ese correo. Inicie sesión o use otro correo.', { campos: { email: 'Ya registrado' } }),
};

/** The unique index a write was refused by (SQLSTATE 23505), or null when `err` is something else. */
export function indiceUnico(err: unknown): string | null {
  const v = violacionUnica(err);
  return v ? (v.constraint ?? '') : null;
}

/**
 * Two requests wrote the same unique value at once and this one lost: the
 * refusal the earlier check would have given, or a conflict to retry; never
 * a 500. Null when `err` is not a unique violation.
 */
export function errorDeUnico(err: unknown): AppError | null {
  const indice = indiceUnico(err);
  if (indice === null) return null;
  return POR_INDICE[indice]?.() ?? new AppError('conflicto', 'Otra petición ha cambiado lo mismo a la vez. Reintente en un momento.', { headers: { 'Retry-After': '1' } });
}
