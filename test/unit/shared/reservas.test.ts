import { describe, expect, it } from 'vitest';
import { caducidadReserva, numerosQueFaltan, RESERVA_TAMANO, reservaUsable, siguienteReserva, type ReservaNumero } from '../../../shared/rules/reservas';

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
