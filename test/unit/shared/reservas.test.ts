import { describe, expect, it } from 'vitest';
import {
  ADELANTO_MAXIMO_MS,
  caducidadReserva,
  fueraDePlazo,
  numerosQueFaltan,
  RESERVA_TAMANO,
  type ReservaNumero,
  reservadaSegunCaducidad,
  reservaUsable,
  siguienteReserva,
} from '../../../shared/rules/reservas';

const AHORA = new Date('2026-06-10T10:00:00+02:00');
const dias = (n: number) => new Date(AHORA.getTime() + n * 86_400_000);
const reserva = (n: number, o: Partial<ReservaNumero> = {}): ReservaNumero => ({
  numero: `2026-${String(n).padStart(6, '0')}`,
  caduca_at: dias(30),
  usada_at: null,
  ...o,
});

describe('numbers reserved for issuing with no coverage', () => {
  it('gives the lowest usable number first, skipping used and expired ones', () => {
    const rs = [reserva(7), reserva(3, { usada_at: AHORA }), reserva(5, { caduca_at: dias(-1) }), reserva(6)];
    expect(siguienteReserva(rs, AHORA)?.numero).toBe('2026-000006');
    expect(siguienteReserva([reserva(3, { usada_at: AHORA })], AHORA)).toBeNull();
  });

  it('expires a number 30 days after it was reserved, to the millisecond', () => {
    const r = reserva(1, { caduca_at: caducidadReserva(AHORA) });
    expect(reservaUsable(r, dias(30 - 1e-8))).toBe(true);
    expect(reservaUsable(r, dias(30))).toBe(false);
  });

  it('never gives a number of last year, though it has not expired (its year would be wrong)', () => {
    const r = reserva(1, { numero: '2026-000001', caduca_at: new Date('2027-01-20T00:00:00+01:00') });
    expect(reservaUsable(r, new Date('2026-12-31T23:59:00+01:00'))).toBe(true);
    // Midnight in Madrid, though it is still 2026 in UTC.
    expect(reservaUsable(r, new Date('2026-12-31T23:30:00Z'))).toBe(false);
  });

  it('refills up to 10 only once fewer than 3 are usable', () => {
    expect(numerosQueFaltan([], AHORA)).toBe(RESERVA_TAMANO);
    expect(numerosQueFaltan([reserva(1), reserva(2), reserva(3)], AHORA)).toBe(0);
    expect(numerosQueFaltan([reserva(1), reserva(2), reserva(3, { usada_at: AHORA })], AHORA)).toBe(8);
    expect(numerosQueFaltan([reserva(1, { caduca_at: dias(-1) })], AHORA)).toBe(10);
  });
});

describe('the time a DeCA issued with no coverage may carry', () => {
  // Reserved at 10:00:00.400 (server's clock); received (or its QR opened) at 15:00.
  const reservada = new Date('2026-06-10T10:00:00.400+02:00');
  const ahora = new Date('2026-06-10T15:00:00+02:00');
  const en = (iso: string) => fueraDePlazo(new Date(iso), reservada, ahora);

  it('lies between the number’s reservation (in whole seconds, as the issue time) and now plus 10 minutes', () => {
    expect(ADELANTO_MAXIMO_MS).toBe(10 * 60_000);
    expect(en('2026-06-10T10:00:00+02:00')).toBeNull();
    expect(en('2026-06-10T12:34:56+02:00')).toBeNull();
    expect(en('2026-06-10T15:10:00+02:00')).toBeNull();
  });

  it('is never before the reservation: the device had no number yet', () => {
    expect(en('2026-06-10T09:59:59+02:00')).toBe('antes_de_la_reserva');
    expect(en('2026-01-02T09:00:00+01:00')).toBe('antes_de_la_reserva');
    expect(en('1970-01-02T00:00:00Z')).toBe('antes_de_la_reserva');
  });

  it('is never ahead of now by more than the clock allowance', () => {
    expect(en('2026-06-10T15:10:01+02:00')).toBe('adelantada');
    expect(en('2026-06-30T15:00:00+02:00')).toBe('adelantada');
  });

  it('is never a time that is not one', () => {
    expect(fueraDePlazo(new Date(Number.NaN), reservada, ahora)).not.toBeNull();
  });

  it('a number’s reservation is 30 days before its expiry', () => {
    expect(reservadaSegunCaducidad(caducidadReserva(reservada)).getTime()).toBe(reservada.getTime());
  });
});
