import { isoMadrid } from '../../../shared/rules/fechas';
import type { Dispositivo, Reserva } from '../../../shared/schemas/dispositivo';
import type { DispositivoRow, ReservaRow } from '../../db/schema';
import { fichaUrl } from '../decas/urls';
import { fechaHora } from './cuenta';

/** A device that issues with no coverage, with the e-mail of its user: never its key, only its fingerprint. */
export function presentDispositivo(row: DispositivoRow & { email: string }): Dispositivo {
  return { id: row.id, nombre: row.nombre, usuario: row.email, huella: row.huella, created_at: fechaHora(row.created_at)!, revocado_at: fechaHora(row.revocado_at) };
}

/** A number reserved for a device, with the public page its QR will point to. */
export function presentReserva(siteUrl: string): (r: ReservaRow) => Reserva {
  return (r) => ({
    numero: r.numero,
    token: r.token_publico,
    ficha_url: fichaUrl(siteUrl, r.token_publico),
    reservada_at: isoMadrid(r.created_at),
    caduca_at: isoMadrid(r.caduca_at),
  });
}
