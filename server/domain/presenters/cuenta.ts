import { formatMadrid } from '../../../shared/rules/fechas';
import type { ClaveApi, Cuenta, Usuario } from '../../../shared/schemas/cuenta';
import type { AccountRow, ApiKeyRow, UserRow } from '../../db/schema';

/** Madrid wall time `YYYY-MM-DD HH:MM:SS`, or null. */
export function fechaHora(d: Date | null): string | null {
  return d ? formatMadrid(d) : null;
}

/** The account as the API shows it (whitelisted fields only). */
export function presentCuenta(row: AccountRow): Cuenta {
  return {
    id: row.id,
    nombre: row.nombre,
    nif: row.nif,
    domicilio: row.domicilio,
    rol: row.rol,
    plan: row.plan,
    created_at: formatMadrid(row.created_at),
    confirmada: row.confirmada_at !== null,
  };
}

/** An API key as listed: never its hash. */
export function presentClave(row: ApiKeyRow): ClaveApi {
  return {
    id: row.id,
    prefijo: row.prefijo,
    entorno: row.entorno,
    solo_lectura: row.solo_lectura,
    nombre: row.nombre,
    created_at: formatMadrid(row.created_at),
    last_used_at: fechaHora(row.last_used_at),
    revocada_at: fechaHora(row.revocada_at),
  };
}

export function presentUsuario(row: UserRow): Usuario {
  return { id: row.id, email: row.email, rol: row.rol, email_confirmado: row.email_confirmado_at !== null, matriculas: row.matriculas };
}
