import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decaCompleta } from '../support/decas';
import { postgresSchemaDeProceso, testDatabaseKind } from '../support/db';
import { runCli, startServerProcess, type ServerProcess } from '../support/processes';

/**
 * Several server processes on one PostgreSQL, each with its in-memory caches
 * (API keys, presented DeCAs), kept true by the database's NOTIFY.
 */
describe.runIf(testDatabaseKind() === 'postgres')('two server processes on one PostgreSQL', () => {
  let db: { url: string; drop(): Promise<void> };
  const servers: ServerProcess[] = [];
  let key = '';
  let keyId = 0;

  const get = (s: ServerProcess, path: string, k = key) => fetch(`${s.url}${path}`, { headers: { authorization: `Bearer ${k}` } });

  /** Milliseconds until `ok()` holds (polling every 20 ms), or Infinity after `max` ms. */
  async function tiempoHasta(ok: () => Promise<boolean>, max = 3000): Promise<number> {
    const start = performance.now();
    while (performance.now() - start < max) {
      if (await ok()) return performance.now() - start;
      await new Promise((r) => setTimeout(r, 20));
    }
    return Infinity;
  }

  beforeAll(async () => {
    db = await postgresSchemaDeProceso('procesos');
    const env = { DATABASE_URL: db.url };
    servers.push(await startServerProcess(env));
    servers.push(await startServerProcess(env));
    const cuenta = JSON.parse((await runCli(['account:create', '--company', 'Dos Procesos SL', '--nif', 'B12345674', '--plan', 'pro'], env)).stdout) as {
      cuenta: { id: number };
    };
    const k = JSON.parse((await runCli(['key:create', '--account', String(cuenta.cuenta.id), '--env', 'live'], env)).stdout) as { key: string; id: number };
    key = k.key;
    keyId = k.id;
  }, 120_000);

  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    await db?.drop();
  });

  it('shows a DeCA changed through one process at once in the other, though each had it cached', async () => {
    const [a, b] = servers as [ServerProcess, ServerProcess];
    const created = await fetch(`${a.url}/api/v1/decas`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ ...decaCompleta(), emitir: false }),
    });
    expect(created.status).toBe(201);
    const id = ((await created.json()) as { deca: { id: number } }).deca.id;
    // Both read it twice (the second from their cache).
    for (const s of [a, b]) for (let i = 0; i < 2; i++) expect((await get(s, `/api/v1/decas/${id}`)).status).toBe(200);

    const patch = await fetch(`${a.url}/api/v1/decas/${id}`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ referencia: 'cambiada en A' }),
    });
    expect(patch.status).toBe(200);
    // The writer reads its own write at once; the other process within a moment.
    expect(((await (await get(a, `/api/v1/decas/${id}`)).json()) as { deca: { referencia: string } }).deca.referencia).toBe('cambiada en A');
    const ms = await tiempoHasta(async () => ((await (await get(b, `/api/v1/decas/${id}`)).json()) as { deca: { referencia: string } }).deca.referencia === 'cambiada en A');
    expect(ms).toBeLessThan(1000);
  });

  it('refuses a revoked key in every process within 1 s, though both had it cached', async () => {
    for (const s of servers) for (let i = 0; i < 3; i++) expect((await get(s, '/api/v1/cuenta')).status).toBe(200);
    const revoked = await runCli(['key:revoke', '--id', String(keyId)], { DATABASE_URL: db.url });
    expect(JSON.parse(revoked.stdout)).toEqual({ revocada: true });
    const tiempos = await Promise.all(servers.map((s) => tiempoHasta(async () => (await get(s, '/api/v1/cuenta')).status === 401)));
    for (const t of tiempos) expect(t).toBeLessThan(1000);
  });
});
