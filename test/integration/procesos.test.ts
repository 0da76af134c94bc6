import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorBody } from '../../shared/errors';
import { filasEn, postgresSchemaDeProceso, testDatabaseKind } from '../support/db';
import { decaCompleta } from '../support/decas';
import { runCli, type ServerProcess, startServerProcess } from '../support/processes';
import { type RoundRobin, roundRobin } from '../support/proxy';
import { huellaDelSello } from '../support/sello';
import { startSmtp, type TestSmtp } from '../support/smtp';
import { type Receptor, startReceptor } from '../support/webhook-receiver';

/** Rows of one query on the database the server processes share. */
const filas = filasEn;

/** One webhook's deliveries, each with its claims (`intentos`), whether a lease is held, and the status of every recorded attempt. */
const ENTREGAS_DE_WEBHOOK = `
  select e.entrega_id, e.estado, e.intentos, e.en_curso_hasta is not null as en_curso,
         coalesce(array_agg(i.status order by i.id) filter (where i.id is not null), '{}') as estados
  from webhook_entregas e left join webhook_intentos i on i.entrega_id = e.id
  where e.webhook_id = $1
  group by e.id order by e.id`;
interface EntregaEnBase {
  entrega_id: string;
  estado: string;
  intentos: number;
  en_curso: boolean;
  estados: (number | null)[];
}
/** Delivered once, its one attempt answered 200 and recorded, no lease held. */
const ENTREGADA_UNA_VEZ = { estado: 'entregada', intentos: 1, en_curso: false, estados: [200] };

/**
 * How long a process may keep a cached API key without any notification:
 * the entry is read again only after `marcarClaveUsada` rewrites the key's
 * `last_used_at`, which it does at most once a minute
 * (server/domain/accounts/api-keys.ts). The caches have no other expiry
 * (server/domain/cache.ts: entries go only on a NOTIFY, or all at once when
 * the LISTEN connection comes back).
 */
const CLAVE_SIN_AVISO_MS = 60_000;
/**
 * Waits that only the notification can meet: a sixth of that minute (and
 * cached DeCAs have no expiry at all). Looking every 250 ms keeps a failing
 * wait under a key's 120 requests a minute: it then shows the stale answer, not a 429.
 */
const ANTES_QUE_CADUQUE = { timeout: CLAVE_SIN_AVISO_MS / 6, interval: 250 };

/**
 * Several server processes on one PostgreSQL, each with its in-memory caches
 * (API keys, presented DeCAs), kept true by the database's NOTIFY.
 */
describe.runIf(testDatabaseKind() === 'postgres')('two server processes on one PostgreSQL', () => {
  let db: { url: string; drop(): Promise<void> };
  const servers: ServerProcess[] = [];
  let key = '';
  let cuentaId = 0;

  const get = (s: ServerProcess, path: string, k = key) => fetch(`${s.url}${path}`, { headers: { authorization: `Bearer ${k}` } });

  beforeAll(async () => {
    db = await postgresSchemaDeProceso('procesos');
    const env = { DATABASE_URL: db.url };
    servers.push(await startServerProcess(env));
    servers.push(await startServerProcess(env));
    const cuenta = JSON.parse((await runCli(['account:create', '--company', 'Dos Procesos SL', '--nif', 'B12345674', '--plan', 'pro'], env)).stdout) as {
      cuenta: { id: number };
    };
    cuentaId = cuenta.cuenta.id;
    key = (JSON.parse((await runCli(['key:create', '--account', String(cuentaId), '--env', 'live'], env)).stdout) as { key: string }).key;
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
    // The writer reads its own write at once; the other process as soon as the notification reaches it.
    const referencia = async (s: ServerProcess) => {
      const res = await get(s, `/api/v1/decas/${id}`);
      return res.status === 200 ? ((await res.json()) as { deca: { referencia: string } }).deca.referencia : res.status;
    };
    expect(await referencia(a)).toBe('cambiada en A');
    // B's cached copy has no expiry: only the change's NOTIFY can make B drop it, so B showing the
    // change at all (within a wait far shorter than any other way out of a cache) is that.
    await expect.poll(() => referencia(b), ANTES_QUE_CADUQUE).toBe('cambiada en A');
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

  it('refuses a revoked key in every process as soon as the revocation is announced, though both had it cached', async () => {
    // A key of its own, first used just now: its `last_used_at` is now, so neither process would
    // read it again without a notification for the next minute (CLAVE_SIN_AVISO_MS).
    const env = { DATABASE_URL: db.url };
    const nueva = JSON.parse((await runCli(['key:create', '--account', String(cuentaId), '--env', 'live'], env)).stdout) as { key: string; id: number };
    for (const s of servers) for (let i = 0; i < 3; i++) expect((await get(s, '/api/v1/cuenta', nueva.key)).status).toBe(200);
    const revoked = await runCli(['key:revoke', '--id', String(nueva.id)], env);
    expect(JSON.parse(revoked.stdout)).toEqual({ revocada: true });
    await Promise.all(servers.map((s) => expect.poll(async () => (await get(s, '/api/v1/cuenta', nueva.key)).status, ANTES_QUE_CADUQUE).toBe(401)));
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
    const alta = await post(a, '/api/v1/webhooks', { url: `${rx.url}/relojes`, eventos: ['*'] });
    expect(alta.status).toBe(201);
    const webhookId = ((await alta.json()) as { webhook: { id: number } }).webhook.id;
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
    // Wait until nothing is left to send: every delivery delivered and every mail sent, no lease
    // held by either process. Nothing can be claimed again after that, so what the receivers hold is final.
    const pendiente = async () =>
      (
        await filas<{ entregas: number; correos: number }>(
          db.url,
          `select (select count(*)::int from webhook_entregas where estado <> 'entregada' or en_curso_hasta is not null) as entregas,
                  (select count(*)::int from correos where estado <> 'enviado' or bloqueado_hasta is not null) as correos`,
        )
      )[0];
    await expect.poll(pendiente, { timeout: 60_000, interval: 200 }).toEqual({ entregas: 0, correos: 0 });

    // Each delivery was claimed once: B taking over one of A's live leases (its own clock three
    // minutes past their end) would have claimed it a second time (`intentos` 2, an «Interrumpido» attempt).
    const entregas = await filas<EntregaEnBase>(db.url, ENTREGAS_DE_WEBHOOK, [webhookId]);
    expect(entregas).toHaveLength(eventos);
    for (const e of entregas) expect(e, e.entrega_id).toMatchObject(ENTREGADA_UNA_VEZ);
    expect(rx.recibidos.map((r) => r.entrega).sort()).toEqual(entregas.map((e) => e.entrega_id).sort());
    // Each mail was sent once, by the holder of its lease. (A mail's row keeps no count of claims: a
    // process whose lease was taken over logs it when its send ends, and that send reaches the SMTP server.)
    const correos = await filas<{ intentos: number }>(db.url, `select intentos from correos`);
    expect(correos).toEqual(Array.from({ length: 6 }, () => ({ intentos: 1 })));
    for (const s of servers) expect(s.output()).not.toMatch(/lease was taken over/);
    expect(smtp.mails.map((m) => m.subject?.replace(/^DeCA (\S+) .*$/, '$1')).sort()).toEqual([...numeros].sort());
  });

  it('answers 409 en_curso to a repeat while the first request holds its claim, though the repeat’s clock runs ahead', { timeout: 30_000 }, async () => {
    const [a, b] = servers as [ServerProcess, ServerProcess];
    const cuerpo = decaCompleta({ referencia: 'clave en curso' });
    // A first create with the same body under another key: its record holds the body's fingerprint.
    expect((await post(a, '/api/v1/decas', cuerpo, { 'idempotency-key': 'reloj-0' })).status).toBe(201);
    const c = new pg.Client({ connectionString: db.url });
    await c.connect();
    try {
      // As if process A had just claimed 'reloj-1' and were still preparing its DeCA: the claim taken now, no DeCA yet
      // (a DeCA and its key's record are committed together, so a claim still running has none).
      const r = await c.query(
        `insert into idempotencia (account_id, entorno, clave, huella, estado, created_at, expires_at, dueno, reclamada_at)
         select account_id, entorno, 'hdr:reloj-1', huella, 'en_curso', now(), now() + interval '8 days', 'proceso-a', now()
         from idempotencia where clave = 'hdr:reloj-0'`,
      );
      expect(r.rowCount).toBe(1);
      const repeat = await post(b, '/api/v1/decas', cuerpo, { 'idempotency-key': 'reloj-1' });
      expect(repeat.status).toBe(409);
      expect(ErrorBody.parse(await repeat.json()).error.codigo).toBe('en_curso');
      expect(repeat.headers.get('retry-after')).toBeTruthy();
      // Once the claim is a minute old by the database's clock, the repeat takes it over and makes the one DeCA of that key.
      await c.query(`update idempotencia set reclamada_at = now() - interval '61 seconds' where clave = 'hdr:reloj-1'`);
      const relevo = await post(b, '/api/v1/decas', cuerpo, { 'idempotency-key': 'reloj-1' });
      expect(relevo.status).toBe(201);
      const otra = await post(a, '/api/v1/decas', cuerpo, { 'idempotency-key': 'reloj-1' });
      expect(otra.status).toBe(200);
      expect(otra.headers.get('idempotent-replayed')).toBe('true');
      const total = await c.query(`select count(*)::int as n from decas where referencia = 'clave en curso'`);
      expect(total.rows[0].n).toBe(2);
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
    const alta = await pedir(key, 'POST', '/api/v1/webhooks', { url: `${rx.url}/balanceo`, eventos: ['deca.emitido'] });
    expect(alta.status).toBe(201);
    const webhookId = ((await alta.json()) as { webhook: { id: number } }).webhook.id;
    const numeros: string[] = [];
    for (let i = 0; i < 8; i++) {
      const r = await pedir(key, 'POST', '/api/v1/decas', decaCompleta({ referencia: `B-${i}` }));
      expect(r.status).toBe(201);
      numeros.push(((await r.json()) as { deca: { numero: string } }).deca.numero);
    }
    // Until every delivery is delivered with no lease held: none can be claimed again, so what the receiver holds is final.
    const entregas = () => filas<EntregaEnBase>(db.url, ENTREGAS_DE_WEBHOOK, [webhookId]);
    await expect.poll(async () => (await entregas()).map((e) => e.estado === 'entregada' && !e.en_curso), { timeout: 30_000, interval: 200 }).toEqual(Array.from({ length: 8 }, () => true));
    // Each claimed by one process once, and sent once.
    for (const e of await entregas()) expect(e, e.entrega_id).toMatchObject(ENTREGADA_UNA_VEZ);
    expect(rx.recibidos.map((r) => (r.body as { data: { deca: { numero: string } } }).data.deca.numero).sort()).toEqual(numeros.sort());
  });

  it('refuses a revoked key in both processes at once, though both had it cached', { timeout: 30_000 }, async () => {
    const { key, id } = await nuevaClave();
    for (let i = 0; i < 4; i++) expect((await pedir(key, 'GET', '/api/v1/cuenta')).status).toBe(200);
    expect(JSON.parse((await runCli(['key:revoke', '--id', String(id)], env)).stdout)).toEqual({ revocada: true });
    // Four requests in a row (two on each process) all refused, long before either process would
    // read the key again on its own (its `last_used_at` is from this test: CLAVE_SIN_AVISO_MS).
    const cuatro = async () => {
      const estados: number[] = [];
      for (let i = 0; i < 4; i++) estados.push((await pedir(key, 'GET', '/api/v1/cuenta')).status);
      return estados;
    };
    await expect.poll(cuatro, { ...ANTES_QUE_CADUQUE, interval: 500 }).toEqual([401, 401, 401, 401]);
    for (let i = 0; i < 4; i++) expect((await pedir(key, 'GET', '/api/v1/cuenta')).status).toBe(401);
  });
});
