import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorBody } from '../../shared/errors';
import { decaCompleta } from '../support/decas';
import { postgresSchemaDeProceso, testDatabaseKind } from '../support/db';
import { runCli, startServerProcess, type ServerProcess } from '../support/processes';
import { roundRobin, type RoundRobin } from '../support/proxy';
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

/**
 * What a deployment with several processes behind a load balancer promises:
 * it behaves as one server. Every request here goes through a round-robin
 * proxy, so consecutive requests land on alternate processes.
 */
describe.runIf(testDatabaseKind() === 'postgres')('two server processes behind a round-robin proxy', () => {
  let db: { url: string; drop(): Promise<void> };
  let rx: Receptor;
  let proxy: RoundRobin;
  const servers: ServerProcess[] = [];
  let env: Record<string, string>;
  let cuentaId = 0;

  async function nuevaClave(): Promise<{ key: string; id: number }> {
    return JSON.parse((await runCli(['key:create', '--account', String(cuentaId), '--env', 'live'], env)).stdout) as { key: string; id: number };
  }
  const pedir = (key: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    fetch(`${proxy.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  beforeAll(async () => {
    db = await postgresSchemaDeProceso('balanceo');
    rx = await startReceptor();
    // The product's own limit of 120 requests a minute per key (no API_RATE_LIMIT).
    env = { DATABASE_URL: db.url, WEBHOOK_ALLOW_INSECURE: '1', TRUST_PROXY: '1' };
    servers.push(...(await Promise.all([startServerProcess(env), startServerProcess(env)])));
    proxy = await roundRobin(servers.map((s) => s.url));
    const cuenta = JSON.parse((await runCli(['account:create', '--company', 'Balanceo SL', '--nif', 'B12345674', '--plan', 'pro'], env)).stdout) as {
      cuenta: { id: number };
    };
    cuentaId = cuenta.cuenta.id;
  }, 120_000);

  afterAll(async () => {
    await proxy?.close();
    await Promise.all(servers.map((s) => s.stop()));
    await rx?.close();
    await db?.drop();
  });

  it('shares the rate limit: 120 requests a minute per key in total, whichever process answers', { timeout: 60_000 }, async () => {
    const { key } = await nuevaClave();
    const antes = [...proxy.repartidas];
    const estados: number[] = [];
    // 130 requests, five at a time: both processes count into one budget.
    for (let i = 0; i < 130; i += 5) {
      const tanda = await Promise.all(Array.from({ length: 5 }, () => pedir(key, 'GET', '/api/v1/cuenta')));
      for (const r of tanda) {
        estados.push(r.status);
        if (r.status === 429) {
          expect(ErrorBody.parse(await r.json()).error.codigo).toBe('demasiadas_peticiones');
          expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
        } else await r.arrayBuffer();
      }
    }
    expect(estados.filter((s) => s === 200)).toHaveLength(120);
    expect(estados.filter((s) => s === 429)).toHaveLength(10);
    expect(proxy.repartidas.map((n, i) => n - antes[i]!)).toEqual([65, 65]);
    // Another key of the same account has its own budget.
    expect((await pedir((await nuevaClave()).key, 'GET', '/api/v1/cuenta')).status).toBe(200);
  });

  it('holds an Idempotency-Key across processes: ten copies sent at once make one DeCA, and every copy that got an answer got that one', { timeout: 60_000 }, async () => {
    const { key } = await nuevaClave();
    const cuerpo = decaCompleta({ ref_externa: 'diez-copias' });
    const copia = () => pedir(key, 'POST', '/api/v1/decas', cuerpo, { 'idempotency-key': 'balanceo-1' });
    // A copy may lose its connection in the crush (a reset between the proxy and this client): it got
    // no answer, which is what a client sending it again is for. None may get another DeCA.
    const enviadas = await Promise.allSettled(Array.from({ length: 10 }, copia));
    const respuestas = enviadas.flatMap((e) => (e.status === 'fulfilled' ? [e.value] : []));
    for (const e of enviadas) if (e.status === 'rejected') expect(String(e.reason)).toMatch(/fetch failed/);
    expect(respuestas.length).toBeGreaterThan(0);
    const ids = new Set<number>();
    let creadas = 0;
    /** 201 for the one that made it, 200 replayed for a repeat after it, 409 en_curso while it runs. */
    const anotar = async (r: Response) => {
      const body = (await r.json()) as { deca?: { id: number } };
      if (r.status === 409) return expect(ErrorBody.parse(body).error.codigo).toBe('en_curso');
      if (r.status === 201) creadas++;
      else {
        expect(r.status).toBe(200);
        expect(r.headers.get('idempotent-replayed')).toBe('true');
      }
      ids.add(body.deca!.id);
    };
    for (const r of respuestas) await anotar(r);
    // Once the first has finished, a repeat through either process answers the same DeCA.
    for (let i = 0; i < 2; i++) {
      const r = await copia();
      expect(r.status).toBe(200);
      await anotar(r);
    }
    // The one that made it answered 201, unless it was the copy that lost its connection.
    if (respuestas.length === enviadas.length) expect(creadas).toBe(1);
    else expect(creadas).toBeLessThanOrEqual(1);
    expect(ids.size).toBe(1);
    const lista = (await (await pedir(key, 'GET', '/api/v1/decas?ref_externa=diez-copias')).json()) as { decas: unknown[] };
    expect(lista.decas).toHaveLength(1);
  });

  it('delivers each webhook event once, though both processes run the delivery worker', { timeout: 60_000 }, async () => {
    const { key } = await nuevaClave();
    expect((await pedir(key, 'POST', '/api/v1/webhooks', { url: `${rx.url}/balanceo`, eventos: ['deca.emitido'] })).status).toBe(201);
    const numeros: string[] = [];
    for (let i = 0; i < 8; i++) {
      const r = await pedir(key, 'POST', '/api/v1/decas', decaCompleta({ referencia: `B-${i}` }));
      expect(r.status).toBe(201);
      numeros.push(((await r.json()) as { deca: { numero: string } }).deca.numero);
    }
    await rx.esperar(8, 30_000);
    await new Promise((r) => setTimeout(r, 3_000)); // a second delivery would have arrived by now
    expect(rx.recibidos.map((r) => (r.body as { data: { deca: { numero: string } } }).data.deca.numero).sort()).toEqual(numeros.sort());
  });

  it('refuses a revoked key in both processes at once, though both had it cached', { timeout: 30_000 }, async () => {
    const { key, id } = await nuevaClave();
    for (let i = 0; i < 4; i++) expect((await pedir(key, 'GET', '/api/v1/cuenta')).status).toBe(200);
    expect(JSON.parse((await runCli(['key:revoke', '--id', String(id)], env)).stdout)).toEqual({ revocada: true });
    // Within a second, four requests in a row (two on each process) are all refused.
    const inicio = performance.now();
    let seguidas = 0;
    while (seguidas < 4 && performance.now() - inicio < 1_000) {
      seguidas = (await pedir(key, 'GET', '/api/v1/cuenta')).status === 401 ? seguidas + 1 : 0;
    }
    expect(seguidas).toBe(4);
    for (let i = 0; i < 4; i++) expect((await pedir(key, 'GET', '/api/v1/cuenta')).status).toBe(401);
  });
});
