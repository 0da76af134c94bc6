import { describe, expect } from 'vitest';
import { ManualClock } from '../../server/clock';
import { cuotaConsumida } from '../../server/domain/accounts/cuota';
import type { Actor } from '../../server/domain/actor';
import { unaSentencia } from '../../server/domain/sentencia';
import { CuentaResponse } from '../../shared/schemas/cuenta';
import { startTestApp } from '../support/app';
import { buildCuenta } from '../support/factories';
import { it, test } from '../support/fixtures';

/** The month's count, as the creating transaction's last statement counts it. */
const consumirCuota = (trx: Parameters<typeof cuotaConsumida>[0], actor: Pick<Actor, 'cuenta' | 'entorno'>, now: Date) => unaSentencia(trx, [cuotaConsumida(trx, actor, now)]);

test.override('opcionesApp', { clock: new ManualClock('2027-03-15T10:00:00+01:00') });

describe('GET /cuenta', () => {
  it('shows company, plan and the quota of the environment of the request', async ({ app }) => {
    const c = await buildCuenta(app, { nombre: 'Frutas Ñoño, S.A.', nif: 'A58818501', domicilio: 'Camí Vell 3, Lleida' });
    for (let i = 0; i < 3; i++) {
      await app.database.db.transaction().execute((trx) => consumirCuota(trx, { cuenta: c.account, entorno: 'produccion' }, app.clock.now()));
    }
    await app.database.db.transaction().execute((trx) => consumirCuota(trx, { cuenta: c.account, entorno: 'pruebas' }, app.clock.now()));

    const live = CuentaResponse.parse((await app.request('GET', '/api/v1/cuenta', { key: c.live })).body);
    expect(live.cuenta).toMatchObject({ nombre: 'Frutas Ñoño, S.A.', nif: 'A58818501', domicilio: 'Camí Vell 3, Lleida', plan: 'free', rol: 'transportista' });
    expect(live.cuenta.cuota).toEqual({ periodo: '2027-03', limite: 100, usadas: 3, restantes: 97, reinicia: '2027-04-01', fotos: { limite: 20, usadas: 0, restantes: 20 } });

    const test = CuentaResponse.parse((await app.request('GET', '/demo/api/v1/cuenta', { key: c.test })).body);
    expect(test.cuenta.cuota).toEqual({ periodo: '2027-03', limite: null, usadas: 1, restantes: null, reinicia: '2027-04-01', fotos: { limite: null, usadas: 0, restantes: null } });
  });

  it('shows the free plan unlimited in 2026 and a Pro account unlimited', async ({ app }) => {
    const pro = await buildCuenta(app, { plan: 'pro' });
    const body = CuentaResponse.parse((await app.request('GET', '/api/v1/cuenta', { key: pro.live })).body);
    expect(body.cuenta.plan).toBe('pro');
    expect(body.cuenta.cuota.limite).toBeNull();

    const clock2026 = new ManualClock('2026-12-31T23:00:00+01:00');
    const app2 = await startTestApp({ clock: clock2026, database: app.database });
    try {
      const free = await buildCuenta(app2);
      const b = CuentaResponse.parse((await app2.request('GET', '/api/v1/cuenta', { key: free.live })).body);
      expect(b.cuenta.cuota).toMatchObject({ periodo: '2026-12', limite: null, reinicia: '2027-01-01' });
    } finally {
      await app2.close();
    }
  });

  it('refuses the 101st DeCA of a free month with limite_plan', async ({ app, cuentaNueva: c }) => {
    for (let i = 0; i < 100; i++) {
      await app.database.db.transaction().execute((trx) => consumirCuota(trx, { cuenta: c.account, entorno: 'produccion' }, app.clock.now()));
    }
    await expect(app.database.db.transaction().execute((trx) => consumirCuota(trx, { cuenta: c.account, entorno: 'produccion' }, app.clock.now()))).rejects.toMatchObject({
      codigo: 'limite_plan',
      status: 429,
    });
    // The refused one rolled back: still 100 used.
    const body = CuentaResponse.parse((await app.request('GET', '/api/v1/cuenta', { key: c.live })).body);
    expect(body.cuenta.cuota.usadas).toBe(100);
    expect(body.cuenta.cuota.restantes).toBe(0);
  });
});
