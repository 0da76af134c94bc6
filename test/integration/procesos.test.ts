import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorBody } from '../../shared/errors';
import { decaCompleta } from '../support/decas';
import { postgresSchemaDeProceso, testDatabaseKind } from '../support/db';
import { runCli, startServerProcess, type ServerProcess } from '../support/processes';
import { huellaDelSello } from '../support/sello';
import { startSmtp, type TestSmtp } from '../support/smtp';
import { startReceptor, type Receptor } from '../support/webhook-receiver';

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

  it('seals with one certificate in every process: the self-signed seal the first start made and kept in the database', async () => {
    const huellas: string[] = [];
    for (const s of servers) {
      const created = await fetch(`${s.url}/api/v1/decas`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify(decaCompleta()),
      });
      expect(created.status).toBe(201);
      const id = ((await created.json()) as { deca: { id: number } }).deca.id;
      const pdf = new Uint8Array(await (await get(s, `/api/v1/decas/${id}/pdf`)).arrayBuffer());
      huellas.push(huellaDelSello(pdf));
    }
    expect(huellas[0]).toMatch(/^[0-9a-f]{64}$/);
    expect(huellas[1]).toBe(huellas[0]);
  });

  it('refuses a revoked key in every process within 1 s, though both had it cached', async () => {
    for (const s of servers) for (let i = 0; i < 3; i++) expect((await get(s, '/api/v1/cuenta')).status).toBe(200);
    const revoked = await runCli(['key:revoke', '--id', String(keyId)], { DATABASE_URL: db.url });
    expect(JSON.parse(revoked.stdout)).toEqual({ revocada: true });
    const tiempos = await Promise.all(servers.map((s) => tiempoHasta(async () => (await get(s, '/api/v1/cuenta')).status === 401)));
    for (const t of tiempos) expect(t).toBeLessThan(1000);
  });
});

/**
 * Two processes whose clocks disagree by three minutes share the outboxes and
 * the idempotency claims: leases and claims are judged by the database's
 * clock, so the one running ahead never takes over what the other holds.
 */
describe.runIf(testDatabaseKind() === 'postgres')('two server processes with clocks three minutes apart', () => {
  let db: { url: string; drop(): Promise<void> };
  let rx: Receptor;
  let smtp: TestSmtp;
  const servers: ServerProcess[] = [];
  let key = '';

  const post = (s: ServerProcess, path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${s.url}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });

  beforeAll(async () => {
    db = await postgresSchemaDeProceso('relojes');
    rx = await startReceptor();
    // Both the webhook receiver and the SMTP server answer late: deliveries stay in flight.
    rx.responder(() => ({ delayMs: 1_500 }));
    smtp = await startSmtp(0, { delayMs: 1_500 });
    const env = { DATABASE_URL: db.url, SMTP_URL: smtp.url, WEBHOOK_ALLOW_INSECURE: '1', API_RATE_LIMIT: '100000' };
    servers.push(await startServerProcess(env));
    servers.push(await startServerProcess({ ...env, FAKE_NOW: new Date(Date.now() + 3 * 60_000).toISOString() }));
    const cuenta = JSON.parse((await runCli(['account:create', '--company', 'Relojes SL', '--nif', 'B12345674', '--plan', 'pro'], env)).stdout) as {
      cuenta: { id: number };
    };
    key = (JSON.parse((await runCli(['key:create', '--account', String(cuenta.cuenta.id), '--env', 'live'], env)).stdout) as { key: string }).key;
  }, 120_000);

  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    await rx?.close();
    await smtp?.close();
    await db?.drop();
  });

  it('sends each webhook and each e-mail once, though both processes wake for every one', { timeout: 90_000 }, async () => {
    const [a, b] = servers as [ServerProcess, ServerProcess];
    expect((await post(a, '/api/v1/webhooks', { url: `${rx.url}/relojes`, eventos: ['*'] })).status).toBe(201);
    const numeros: string[] = [];
    for (let i = 0; i < 6; i++) {
      const s = i % 2 ? b : a;
      const res = await post(s, '/api/v1/decas', decaCompleta({ referencia: `R-${i}` }));
      expect(res.status).toBe(201);
      const { deca } = (await res.json()) as { deca: { id: number; numero: string } };
      numeros.push(deca.numero);
      expect((await post(s, `/api/v1/decas/${deca.id}/enviar`, { email: `conductor${i}@example.com` })).status).toBe(200);
      await new Promise((r) => setTimeout(r, 300)); // the next writes wake both processes while these are in flight
    }
    const eventos = 6 * 2;
    await expect.poll(() => new Set(rx.recibidos.map((r) => r.entrega)).size, { timeout: 60_000, interval: 100 }).toBe(eventos);
    await expect.poll(() => smtp.mails.length, { timeout: 60_000, interval: 100 }).toBe(6);
    await new Promise((r) => setTimeout(r, 4_000)); // a lease taken over early would send again by now

    expect(rx.recibidos).toHaveLength(eventos);
    expect(smtp.mails.map((m) => m.subject?.replace(/^DeCA (\S+) .*$/, '$1')).sort()).toEqual([...numeros].sort());
  });

  it('answers 409 en_curso to a repeat while the first request holds its claim, though the repeat’s clock runs ahead', { timeout: 30_000 }, async () => {
    const [a, b] = servers as [ServerProcess, ServerProcess];
    const cuerpo = decaCompleta({ referencia: 'clave en curso' });
    const first = await post(a, '/api/v1/decas', cuerpo, { 'idempotency-key': 'reloj-1' });
    expect(first.status).toBe(201);
    // As if the first request were still running in process A, its claim taken just now.
    const c = new pg.Client({ connectionString: db.url });
    await c.connect();
    try {
      const r = await c.query(`update idempotencia set estado = 'en_curso', dueno = 'proceso-a', reclamada_at = now() where clave = 'hdr:reloj-1'`);
      expect(r.rowCount).toBe(1);
      const repeat = await post(b, '/api/v1/decas', cuerpo, { 'idempotency-key': 'reloj-1' });
      expect(repeat.status).toBe(409);
      expect(ErrorBody.parse(await repeat.json()).error.codigo).toBe('en_curso');
      expect(repeat.headers.get('retry-after')).toBeTruthy();
      // Once the claim is a minute old by the database's clock, the repeat takes it over and answers the same DeCA.
      await c.query(`update idempotencia set reclamada_at = now() - interval '61 seconds' where clave = 'hdr:reloj-1'`);
      const relevo = await post(b, '/api/v1/decas', cuerpo, { 'idempotency-key': 'reloj-1' });
      expect(relevo.status).toBeLessThan(300);
      const total = await c.query(`select count(*)::int as n from decas where referencia = 'clave en curso'`);
      expect(total.rows[0].n).toBe(1);
    } finally {
      await c.end();
    }
  });
});
