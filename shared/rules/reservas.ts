/**
 * Numbers reserved for a device, so that it can issue a DeCA with no
 * coverage: while online each signed-in device holds a few numbers and
 * public tokens of the account's series, per environment, taken from the
 * same counter as every other DeCA (so a number is never given twice). The
 * same rules decide on the server (what to refill, what a synced DeCA may
 * use) and on the device (which number «Emitir» takes).
 *
 * A reserved number that is never used leaves a gap in the series: the
 * order asks for the art. 6 data of each transport, not a gapless series.
 */
import { fechaMadrid } from './fechas';

/** How many usable numbers a device holds per environment after a refill. */
export const RESERVA_TAMANO = 10;
/** Below this many usable numbers, the device asks for more. */
export const RESERVA_MINIMO = 3;
/** Days a reserved number stays usable. */
export const RESERVA_DIAS = 30;

export interface ReservaNumero {
  /** `2026-000042`: the year is the one the number was reserved in. */
  numero: string;
  /** When it stops being usable. */
  caduca_at: Date;
  /** When a DeCA took it (on the device or on the server), or null. */
  usada_at: Date | null;
}

/**
 * Whether a reserved number can still be given to a DeCA issued at `ahora`:
 * unused, not expired, and of the current year in Madrid (a number of last
 * year would carry the wrong year).
 */
export function reservaUsable(r: ReservaNumero, ahora: Date): boolean {
  return r.usada_at === null && r.caduca_at.getTime() > ahora.getTime() && numeroDelAnio(r.numero, ahora);
}

/** Whether a number (`2026-000042`) is of the year a DeCA issued at `ahora` belongs to, in Madrid. */
export function numeroDelAnio(numero: string, ahora: Date): boolean {
  return numero.slice(0, 4) === fechaMadrid(ahora).slice(0, 4);
}

/** The usable reservations, lowest number first (the order in which they are given). */
export function reservasUsables<R extends ReservaNumero>(reservas: readonly R[], ahora: Date): R[] {
  return reservas.filter((r) => reservaUsable(r, ahora)).sort((a, b) => a.numero.localeCompare(b.numero));
}

/** The number the next DeCA issued with no coverage takes, or null when none is left. */
export function siguienteReserva<R extends ReservaNumero>(reservas: readonly R[], ahora: Date): R | null {
  return reservasUsables(reservas, ahora)[0] ?? null;
}

/** How many numbers a refill adds: none while at least RESERVA_MINIMO are usable, else up to RESERVA_TAMANO. */
export function numerosQueFaltan(reservas: readonly ReservaNumero[], ahora: Date): number {
  const usables = reservasUsables(reservas, ahora).length;
  return usables >= RESERVA_MINIMO ? 0 : RESERVA_TAMANO - usables;
}

/**
 * How far ahead of the server's clock a device's clock may run: an issue time
 * up to this much later than the server's (when it receives the DeCA, or when
 * the QR is read) is accepted.
 */
export const ADELANTO_MAXIMO_MS = 10 * 60_000;

/** Why an issue time cannot be a reserved number's: before the number was reserved, or ahead of the server's clock beyond the allowance. */
export type FueraDePlazo = 'antes_de_la_reserva' | 'adelantada';

/**
 * Whether a DeCA issued with no coverage at `emitidaAt` (the device's clock,
 * whole seconds) could have been issued with a number reserved at
 * `reservadaAt` (the server's clock), as seen at `ahora` (the server
 * receiving it, an inspector opening its QR, or the device about to issue):
 * not before the reservation, since the device had no number yet, nor more
 * than ADELANTO_MAXIMO_MS after `ahora`. Null when it could; otherwise which
 * bound it breaks. The reservation counts in whole seconds, as the issue time
 * does, and a time that is not one (NaN) is never in bounds.
 */
export function fueraDePlazo(emitidaAt: Date, reservadaAt: Date, ahora: Date): FueraDePlazo | null {
  const t = emitidaAt.getTime();
  if (!(t >= Math.floor(reservadaAt.getTime() / 1000) * 1000)) return 'antes_de_la_reserva';
  if (!(t <= ahora.getTime() + ADELANTO_MAXIMO_MS)) return 'adelantada';
  return null;
}

/** When a number reserved at `ahora` expires. */
export function caducidadReserva(ahora: Date): Date {
  return new Date(ahora.getTime() + RESERVA_DIAS * 24 * 60 * 60 * 1000);
}

/** When a number that expires at `caduca` was reserved (the inverse of caducidadReserva): for numbers a device kept from before the server said. */
export function reservadaSegunCaducidad(caduca: Date): Date {
  return new Date(caduca.getTime() - RESERVA_DIAS * 24 * 60 * 60 * 1000);
}
