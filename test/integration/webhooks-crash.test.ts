import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresSchemaUrl } from '../../bench/lib';
import { EntregaList } from '../../shared/schemas/webhook';
import { verifySignature } from '../../shared/webhook-signature';
import { filasEn, testDatabaseKind } from '../support/db';
import { decaCompleta } from '../support/decas';
import { runCli, type ServerProcess, startServerProcess } from '../support/processes';
import { type Receptor, startReceptor } from '../support/webhook-receiver';

/**
 * Durability: the real server as a child process, killed with SIGKILL while
 * deliveries are in flight, then restarted on the same data. Every event
 * must arrive; an X-Deca-Entrega may arrive twice only if its first copy was
 * in flight at the kill (its 2xx never recorded).
 */
let rx: Receptor;
let server: ServerProcess | null = null;
let env: Record<string, string>;
let cleanup: () => Promise<void> = async () => {};

beforeAll(async () => {
  rx = await startReceptor();
  if (testDatabaseKind() === 'postgres') {
    const s = await postgresSchemaUrl(process.env.TEST_DATABASE_URL!, 'crash');
    env = { DATABASE_URL: s.url };
    cleanup = () => s.drop();
  } else {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'deca-crash-'));
    env = { DATA_DIR: dataDir };
    cleanup = async () => rmSync(dataDir, { recursive: true, force: true });
  }
  env = { ...env, WEBHOOK_ALLOW_INSECURE: '1', API_RATE_LIMIT: '100000', LOG_LEVEL: 'error' };
});
afterAll(async () => {
  await server?.stop('SIGKILL');
  await rx?.close();
  await cleanup();
});

/** Rows of one query on the server's PostgreSQL (the embedded database is the server's alone). */
const filas = <T>(text: string, params: unknown[] = []): Promise<T[]> => filasEn<T>(env.DATABASE_URL!, text, params);

async function api(method: string, url: string, key: string, body?: unknown): Promise<any> {
  const res = await fetch(url, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: body === undefined ? (method === 'POST' ? '{}' : undefined) : JSON.stringify(body),
  });
  const json = await res.json();
  if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

describe('webhook delivery survives a crash', () => {
  it('SIGKILL with deliveries in flight, restart: every event arrives, none lost', { timeout: 180_000 }, async () => {
    server = await startServerProcess(env);
    // With the embedded database the CLI goes through the running server (one opener of DATA_DIR).
    const cuenta = await runCli(['account:create', '--company', 'Crash SL', '--nif', 'B12345674'], env);
    expect(cuenta.code, cuenta.stderr).toBe(0);
    const accountId = JSON.parse(cuenta.stdout).cuenta.id as number;
    const key = JSON.parse((await runCli(['key:create', '--account', String(accountId), '--env', 'live'], env)).stdout).key as string;
    const { webhook } = await api('POST', `${server.url}/api/v1/webhooks`, key, { url: `${rx.url}/crash`, eventos: ['*'] });

    // Answers come late: attempts pile up in flight, none recorded yet.
    rx.responder(() => ({ delayMs: 3_000 }));
    const decas: number[] = [];
    for (let i = 0; i < 6; i++) decas.push((await api('POST', `${server.url}/api/v1/decas`, key, decaCompleta({ referencia: `C-${i}` }))).deca.id);
    for (let i = 0; i < 6; i++) decas.push((await api('POST', `${server.url}/api/v1/decas`, key, { emitir: false, referencia: `P-${i}` })).deca.id);
    let expected = 6 * 2 + 6;
    await rx.esperar(4, 10_000);

    await server.stop('SIGKILL');
    server = null;
    const enVuelo = new Set(rx.recibidos.map((r) => r.entrega));
    rx.responder(() => 200);

    // PGlite releases the dead process's leases at start. On PostgreSQL another process takes
    // them over when they end by the database's clock: a new process whose own clock runs
    // 2 min ahead must not take them early; then the 60 s pass (the leases are moved back).
    const postgres = testDatabaseKind() === 'postgres';
    /** The dead process's leases, live by the database's clock: who holds each (token) and how often it was claimed. */
    const vivas = () =>
      filas<{ id: string; intentos: number; en_curso_token: string }>(`select id, intentos, en_curso_token from webhook_entregas where estado = 'pendiente' and en_curso_hasta > now() order by id`);
    const arrendadas = postgres ? await vivas() : [];
    if (postgres) expect(arrendadas.length).toBeGreaterThan(0);
    server = await startServerProcess(postgres ? { ...env, FAKE_NOW: new Date(Date.now() + 2 * 60_000).toISOString() } : env);
    if (postgres) {
      // A new DeCA's delivery, due at once, delivered by the new process: proof that its worker has
      // claimed due deliveries since it started (each claim looks at every due one, leased or not),
      // with its clock past the end of those leases while the database's is not.
      const testigo = (await api('POST', `${server.url}/api/v1/decas`, key, { emitir: false, referencia: 'testigo' })).deca.id as number;
      decas.push(testigo);
      expected++;
      const estadoTestigo = async () => (await filas<{ estado: string }>(`select estado from webhook_entregas where deca_id = $1`, [testigo])).map((e) => e.estado);
      await expect.poll(estadoTestigo, { timeout: 30_000, interval: 100 }).toEqual(['entregada']);
      // The dead process's leases are untouched: still live, same holder, claimed no further, no interrupted attempt logged.
      expect(await vivas()).toEqual(arrendadas);
      expect(await filas(`select entrega_id from webhook_intentos where error like 'Interrumpido%'`)).toEqual([]);
      const reenviadas = rx.recibidos.filter((r) => enVuelo.has(r.entrega));
      expect(reenviadas).toHaveLength(enVuelo.size); // each in-flight one only once
      await filas(`update webhook_entregas set en_curso_hasta = now() - interval '1 second' where en_curso_hasta > now()`);
    }

    // Until every delivery is delivered and every claim of each has its attempt logged (`intento`
    // counts claims; a claim cut by the kill is logged as «Interrumpido» by the next): no request is
    // on its way any more and none can be claimed again, so what the receiver holds is final.
    const leer = async () => EntregaList.parse(await api('GET', `${server!.url}/api/v1/webhooks/${webhook.id}/entregas`, key)).entregas;
    await expect
      .poll(async () => (await leer()).map((e) => e.estado === 'entregada' && e.intentos.length >= e.intento), { timeout: 60_000, interval: 200 })
      .toEqual(Array.from({ length: expected }, () => true));

    const entregas = await leer();
    expect(entregas).toHaveLength(expected);
    expect(entregas.every((e) => e.estado === 'entregada')).toBe(true);
    expect(new Set(entregas.map((e) => e.id))).toEqual(new Set(rx.recibidos.map((r) => r.entrega)));

    const veces = new Map<string, number>();
    for (const r of rx.recibidos) veces.set(r.entrega, (veces.get(r.entrega) ?? 0) + 1);
    for (const [id, n] of veces) {
      expect(n).toBeLessThanOrEqual(2);
      if (n === 2) expect(enVuelo.has(id)).toBe(true); // a duplicate only when the 2xx was never recorded
    }
    // The interrupted attempts are in the log, and the re-sends carry a valid signature.
    const interrumpidas = entregas.filter((e) => e.intentos.some((i) => /Interrumpido/.test(i.error ?? '')));
    expect(interrumpidas.length).toBeGreaterThanOrEqual(enVuelo.size);
    const ahora = Date.now() + (testDatabaseKind() === 'postgres' ? 60_000 : 0); // between the two clocks on PostgreSQL
    for (const r of rx.recibidos) expect(verifySignature(webhook.secreto, String(r.headers['x-deca-firma']), r.raw, ahora)).toBe(true);

    // Every event of every DeCA, each DeCA's in order (first arrivals).
    const primeras = rx.recibidos.filter((r, i) => rx.recibidos.findIndex((x) => x.entrega === r.entrega) === i);
    for (const [i, id] of decas.entries()) {
      const seq = primeras.filter((r) => r.body.data.deca.id === id).map((r) => r.evento);
      expect(seq).toEqual(i < 6 ? ['deca.creado', 'deca.emitido'] : ['deca.creado']);
    }
    expect(await server.stop()).toBe(0);
    server = null;
  });
});
