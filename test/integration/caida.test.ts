import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresSchemaUrl } from '../../bench/lib';
import { testDatabaseKind } from '../support/db';
import { decaCompleta } from '../support/decas';
import { runCli, type ServerProcess, startServerProcess } from '../support/processes';
import { startSmtp, type TestSmtp } from '../support/smtp';
import { type Receptor, startReceptor } from '../support/webhook-receiver';

/**
 * Crash safety: the real server as a child process, killed with SIGKILL in
 * the middle of a load of creations (and of e-mails being queued), then
 * started again on the same data. What it acknowledged must all be there.
 */
let rx: Receptor;
let smtp: TestSmtp;
let server: ServerProcess | null = null;
let env: Record<string, string>;
let cleanup: () => Promise<void> = async () => {};

beforeAll(async () => {
  rx = await startReceptor();
  smtp = await startSmtp();
  if (testDatabaseKind() === 'postgres') {
    const s = await postgresSchemaUrl(process.env.TEST_DATABASE_URL!, 'caida');
    env = { DATABASE_URL: s.url };
    cleanup = () => s.drop();
  } else {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'deca-caida-'));
    env = { DATA_DIR: dataDir };
    cleanup = async () => rmSync(dataDir, { recursive: true, force: true });
  }
  env = { ...env, WEBHOOK_ALLOW_INSECURE: '1', API_RATE_LIMIT: '100000', LOG_LEVEL: 'error', SMTP_URL: smtp.url };
});
afterAll(async () => {
  await server?.stop('SIGKILL');
  await rx?.close();
  await smtp?.close();
  await cleanup();
});

type Ack = { id: number; numero: string; pdf_sha256: string };

describe('a crash under load', () => {
  it('SIGKILL during a create load, restart: every acknowledged DeCA with its PDF, no number twice, every queued webhook and e-mail delivered', { timeout: 240_000 }, async () => {
    server = await startServerProcess(env);
    const cuenta = await runCli(['account:create', '--company', 'Caída SL', '--nif', 'B12345674', '--plan', 'pro'], env);
    expect(cuenta.code, cuenta.stderr).toBe(0);
    const accountId = JSON.parse(cuenta.stdout).cuenta.id as number;
    const key = JSON.parse((await runCli(['key:create', '--account', String(accountId), '--env', 'live'], env)).stdout).key as string;
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const hook = await fetch(`${server.url}/api/v1/webhooks`, { method: 'POST', headers, body: JSON.stringify({ url: `${rx.url}/caida`, eventos: ['deca.emitido'] }) });
    expect(hook.status).toBe(201);

    // Eight clients create and issue DeCAs, and e-mail every other one, until the server dies.
    const url = server.url;
    const acks: Ack[] = [];
    const correos: string[] = [];
    let vivo = true;
    let n = 0;
    const cliente = async () => {
      while (vivo) {
        const i = n++;
        try {
          const res = await fetch(`${url}/api/v1/decas`, { method: 'POST', headers, body: JSON.stringify(decaCompleta({ referencia: `Caída ${i}` })) });
          if (res.status !== 201) continue;
          const { deca } = (await res.json()) as { deca: Ack };
          acks.push({ id: deca.id, numero: deca.numero, pdf_sha256: deca.pdf_sha256 });
          if (i % 2 === 0) {
            const email = `destino-${i}@example.com`;
            const env2 = await fetch(`${url}/api/v1/decas/${deca.id}/enviar`, { method: 'POST', headers, body: JSON.stringify({ email }) });
            if (env2.status === 200) correos.push(email);
          }
        } catch {
          // the connection died with the server: nothing was acknowledged
        }
      }
    };
    const clientes = Array.from({ length: 8 }, cliente);
    await expect.poll(() => acks.length, { timeout: 60_000, interval: 50 }).toBeGreaterThanOrEqual(25);
    await server.stop('SIGKILL');
    server = null;
    vivo = false;
    await Promise.all(clientes);
    expect(acks.length).toBeGreaterThanOrEqual(25);

    server = await startServerProcess(env);
    if (testDatabaseKind() === 'postgres') {
      // The dead process's leases end by the database's clock (60 s): end them now instead of waiting.
      const c = new pg.Client({ connectionString: env.DATABASE_URL });
      await c.connect();
      try {
        await c.query(`update webhook_entregas set en_curso_hasta = now() - interval '1 second' where en_curso_hasta > now()`);
        await c.query(`update correos set bloqueado_hasta = now() - interval '1 second' where bloqueado_hasta > now()`);
      } finally {
        await c.end();
      }
    }

    // Every acknowledged DeCA is there, issued, with the PDF whose hash it answered.
    for (const a of acks) {
      const res = await fetch(`${server.url}/api/v1/decas/${a.id}`, { headers });
      expect(res.status, `DeCA ${a.numero}`).toBe(200);
      const { deca } = (await res.json()) as { deca: Ack & { estado: string } };
      expect(deca).toMatchObject({ numero: a.numero, estado: 'emitido', pdf_sha256: a.pdf_sha256 });
      const pdf = Buffer.from(await (await fetch(`${server.url}/api/v1/decas/${a.id}/pdf`, { headers })).arrayBuffer());
      expect(createHash('sha256').update(pdf).digest('hex'), `PDF de ${a.numero}`).toBe(a.pdf_sha256);
    }
    // No number given twice, among everything the database holds.
    const numeros: string[] = [];
    let despues: string | null = null;
    do {
      const res = await fetch(`${server.url}/api/v1/decas?limite=100${despues ? `&despues_de=${encodeURIComponent(despues)}` : ''}`, { headers });
      const page = (await res.json()) as { decas: { numero: string }[]; siguiente: string | null };
      numeros.push(...page.decas.map((d) => d.numero));
      despues = page.siguiente;
    } while (despues);
    expect(new Set(numeros).size).toBe(numeros.length);
    expect(numeros.length).toBeGreaterThanOrEqual(acks.length);

    // Every queued webhook event and e-mail still goes out.
    const emitidas = () => new Set(rx.recibidos.filter((r) => r.evento === 'deca.emitido').map((r) => r.body.data.deca.id as number));
    await expect.poll(() => acks.filter((a) => !emitidas().has(a.id)).length, { timeout: 90_000, interval: 200 }).toBe(0);
    const enviados = () => new Set(smtp.mails.flatMap((m) => (Array.isArray(m.to) ? m.to : [m.to]).flatMap((t) => t?.value.map((v) => v.address) ?? [])));
    await expect.poll(() => correos.filter((e) => !enviados().has(e)).length, { timeout: 90_000, interval: 200 }).toBe(0);
    expect(await server.stop()).toBe(0);
    server = null;
  });
});
