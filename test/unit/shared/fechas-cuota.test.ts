import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { limiteMensual } from '../../../shared/rules/cuota';
import { diasEntre, fechaEs, fechaMadrid, formatMadrid, inicioDiaMadrid, instanteMadrid, isFechaValida, isoMadrid, mesMadrid, primerDiaMesSiguiente, sumarDias } from '../../../shared/rules/fechas';

describe('Madrid time', () => {
  it.each([
    ['2026-11-21T09:33:30Z', '2026-11-21 10:33:30', '+01:00'],
    ['2026-07-01T22:30:00Z', '2026-07-02 00:30:00', '+02:00'],
    ['2026-12-31T23:30:00Z', '2027-01-01 00:30:00', '+01:00'],
  ])('%s is %s in Madrid', (utc, madrid, offset) => {
    const d = new Date(utc);
    expect(formatMadrid(d)).toBe(madrid);
    expect(isoMadrid(d)).toBe(`${madrid.replace(' ', 'T')}${offset}`);
    expect(Date.parse(isoMadrid(d))).toBe(d.getTime());
  });

  it('puts the last hour of a UTC month into the next Madrid month', () => {
    const d = new Date('2026-12-31T23:30:00Z');
    expect(fechaMadrid(d)).toBe('2027-01-01');
    expect(mesMadrid(d)).toBe('2027-01');
  });

  it('finds Madrid midnight, also on the days the clocks change', () => {
    expect(inicioDiaMadrid('2026-11-21').toISOString()).toBe('2026-11-20T23:00:00.000Z');
    expect(inicioDiaMadrid('2026-07-15').toISOString()).toBe('2026-07-14T22:00:00.000Z');
    expect(inicioDiaMadrid('2026-03-29').toISOString()).toBe('2026-03-28T23:00:00.000Z');
    expect(inicioDiaMadrid('2026-10-25').toISOString()).toBe('2026-10-24T22:00:00.000Z');
  });

  it('reads Madrid wall times right on the days the clocks change', () => {
    expect(instanteMadrid('2027-03-28', 9, 30).toISOString()).toBe('2027-03-28T07:30:00.000Z');
    expect(instanteMadrid('2027-03-28', 1, 30).toISOString()).toBe('2027-03-28T00:30:00.000Z');
    expect(instanteMadrid('2026-10-25', 12, 0).toISOString()).toBe('2026-10-25T11:00:00.000Z');
    expect(formatMadrid(instanteMadrid('2026-07-15', 23, 59, 59))).toBe('2026-07-15 23:59:59');
  });

  it('validates calendar dates', () => {
    expect(isFechaValida('2028-02-29')).toBe(true);
    expect(isFechaValida('2026-02-29')).toBe(false);
    expect(isFechaValida('2026-13-01')).toBe(false);
    expect(isFechaValida('21/11/2026')).toBe(false);
    expect(diasEntre('2026-11-21', '2026-11-28')).toBe(7);
    expect(primerDiaMesSiguiente('2026-12')).toBe('2027-01-01');
    expect(primerDiaMesSiguiente('2026-11')).toBe('2026-12-01');
  });
});

describe('monthly quota', () => {
  it('free is unlimited until December 2026 and 100 a month afterwards', () => {
    expect(limiteMensual('free', 'produccion', '2026-12')).toBeNull();
    expect(limiteMensual('free', 'produccion', '2027-01')).toBe(100);
  });
  it('pro and the test environment are unlimited', () => {
    expect(limiteMensual('pro', 'produccion', '2027-01')).toBeNull();
    expect(limiteMensual('free', 'pruebas', '2027-01')).toBeNull();
  });
});

describe('Madrid time from the hourly offset cache', () => {
  const intl = new Intl.DateTimeFormat('en-CA', {
    timeZone: 'Europe/Madrid',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  });
  const desdeIntl = (d: Date) => intl.format(d).replace(', ', ' ');

  it('matches Intl for any instant from 1980 to 2100', () => {
    fc.assert(
      fc.property(fc.integer({ min: Date.UTC(1980, 0, 1), max: Date.UTC(2100, 0, 1) }), (ms) => {
        expect(formatMadrid(new Date(ms))).toBe(desdeIntl(new Date(ms)));
      }),
      { numRuns: 5_000 },
    );
  });

  it('matches Intl on each side of the clock changes', () => {
    for (const cambio of [Date.UTC(2026, 2, 29, 1), Date.UTC(2026, 9, 25, 1), Date.UTC(2027, 2, 28, 1), Date.UTC(2027, 9, 31, 1)]) {
      for (const d of [-3_600_001, -1_000, -1, 0, 1, 999, 1_000, 3_599_999]) {
        const t = new Date(cambio + d);
        expect(formatMadrid(t)).toBe(desdeIntl(t));
      }
    }
    expect(isoMadrid(new Date(Date.UTC(2026, 9, 25, 0, 59, 59)))).toBe('2026-10-25T02:59:59+02:00');
    expect(isoMadrid(new Date(Date.UTC(2026, 9, 25, 1)))).toBe('2026-10-25T02:00:00+01:00');
  });
});

describe('sumarDias', () => {
  it('moves across month and year ends, leap days and the clock changes', () => {
    expect(sumarDias('2026-11-21', -7)).toBe('2026-11-14');
    expect(sumarDias('2026-11-28', 7)).toBe('2026-12-05');
    expect(sumarDias('2026-12-29', 7)).toBe('2027-01-05');
    expect(sumarDias('2028-02-25', 4)).toBe('2028-02-29');
    expect(sumarDias('2027-03-28', 1)).toBe('2027-03-29'); // the spring change in Madrid
    expect(sumarDias('2026-10-25', -1)).toBe('2026-10-24'); // the autumn change
  });

  it('is the inverse of diasEntre for any day and offset', () => {
    fc.assert(
      fc.property(fc.date({ min: new Date('2000-01-01'), max: new Date('2099-12-31'), noInvalidDate: true }), fc.integer({ min: -400, max: 400 }), (d, n) => {
        const f = d.toISOString().slice(0, 10);
        expect(diasEntre(f, sumarDias(f, n))).toBe(n);
      }),
    );
  });
});

describe('fechaEs: one Spanish format everywhere', () => {
  it.each([
    ['2026-11-24', '24/11/2026'],
    ['2026-11-24 21:57:03', '24/11/2026 21:57'],
    ['2026-01-05T08:04:00+01:00', '05/01/2026 08:04'],
    ['', ''],
    [null, ''],
    ['mañana', 'mañana'],
  ])('%s → %s', (entrada, salida) => {
    expect(fechaEs(entrada)).toBe(salida);
  });
});
