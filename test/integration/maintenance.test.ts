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

  it('keeps events 30 days, then drops their whole week', async ({ app, cuentaNueva: c }) => {
    const res = await app.request('POST', '/api/v1/decas', { key: c.live, body: decaCompleta() });
    const eventos = () => app.database.db.selectFrom('eventos').select('id').where('deca_id', '=', res.body.deca.id).execute();
    expect(await eventos()).toHaveLength(2);
    // (Set from real time: the events' week is the database's.)
    app.clock.set(new Date(Date.now() + 29 * 86_400_000));
    expect((await runMaintenanceOnce({ db: app.database.db, clock: app.clock })).eventos).toBe(0);
    expect(await eventos()).toHaveLength(2);
    // 30 days after their week ended (at most 7 days after they were made), the week's partition goes.
    app.clock.set(new Date(Date.now() + 38 * 86_400_000));
    expect((await runMaintenanceOnce({ db: app.database.db, clock: app.clock })).eventos).toBeGreaterThanOrEqual(1);
    expect(await eventos()).toEqual([]);
    // This week's partition made again (a real clock never lets go of its own week): events go on being written.
    const otra = await app.request('POST', '/api/v1/decas', { key: c.live, body: decaCompleta() });
    expect(otra.status, otra.text).toBe(201);
    expect(await app.database.db.selectFrom('eventos').select('id').where('deca_id', '=', otra.body.deca.id).execute()).toHaveLength(2);
  });
});
