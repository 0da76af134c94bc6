import { describe, expect } from 'vitest';
import { runMaintenanceOnce } from '../../server/jobs/maintenance';
import { decaCompleta } from '../support/decas';
import { it } from '../support/fixtures';

describe('maintenance', () => {
  it('keeps idempotency keys for 7 days and drops them after their 8-day window', async ({ app, cuentaNueva: c }) => {
    const headers = { 'Idempotency-Key': 'clave-mantenimiento-1' };
    const first = await app.request('POST', '/api/v1/decas', { key: c.live, headers, body: decaCompleta() });
    expect(first.status).toBe(201);

    app.clock.advance(7 * 86_400_000);
    expect((await runMaintenanceOnce({ db: app.database.db, clock: app.clock })).claves).toBe(0);
    const replay = await app.request('POST', '/api/v1/decas', { key: c.live, headers, body: decaCompleta() });
    expect(replay.status).toBe(200);
    expect(replay.body.deca.id).toBe(first.body.deca.id);

    app.clock.advance(2 * 86_400_000);
    expect((await runMaintenanceOnce({ db: app.database.db, clock: app.clock })).claves).toBeGreaterThanOrEqual(1);
    const rows = await app.database.db.selectFrom('idempotencia').select('clave').where('account_id', '=', c.account.id).execute();
    expect(rows).toEqual([]);
  });

  it('keeps events 30 days, then drops them', async ({ app, cuentaNueva: c }) => {
    const res = await app.request('POST', '/api/v1/decas', { key: c.live, body: decaCompleta() });
    const eventos = () => app.database.db.selectFrom('eventos').select('id').where('deca_id', '=', res.body.deca.id).execute();
    expect(await eventos()).toHaveLength(2);
    app.clock.advance(29 * 86_400_000);
    await runMaintenanceOnce({ db: app.database.db, clock: app.clock });
    expect(await eventos()).toHaveLength(2);
    app.clock.advance(2 * 86_400_000);
    expect((await runMaintenanceOnce({ db: app.database.db, clock: app.clock })).eventos).toBeGreaterThanOrEqual(2);
    expect(await eventos()).toEqual([]);
  });
});
