import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cuenta } from '../../shared/schemas/cuenta';
import { testDatabaseKind } from '../support/db';
import { runCli, type ServerProcess, startServerProcess } from '../support/processes';

const embedded = testDatabaseKind() === 'pglite';

describe.runIf(embedded)('CLI and server on the embedded database', () => {
  let dataDir: string;
  let server: ServerProcess | null = null;
  beforeAll(() => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'deca-cli-'));
  });
  afterAll(async () => {
    await server?.stop('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('works with the server stopped, while it runs (through it), and after it stops', async () => {
    const env = { DATA_DIR: dataDir };
    const created = await runCli(
      [
        'account:create',
        '--company',
        'Transportes Peñalara, S.L.',
        '--nif',
        'B12345674',
        '--address',
        'Calle Real 2',
        '--role',
        'cargador',
        '--email',
        'jefa@example.com',
        '--password',
        'una-clave-larga',
      ],
      env,
    );
    expect(created.stderr).toBe('');
    expect(created.code).toBe(0);
    const { cuenta } = JSON.parse(created.stdout) as { cuenta: Cuenta };
    expect(Cuenta.parse(cuenta)).toMatchObject({ nombre: 'Transportes Peñalara, S.L.', nif: 'B12345674', rol: 'cargador', plan: 'free' });

    server = await startServerProcess(env);
    // The server holds DATA_DIR: a second one refuses with a clear message.
    const second = await startServerProcess(env).catch((e: { code: number; output: string }) => e);
    expect((second as { code: number }).code).toBe(1);
    expect((second as { output: string }).output).toMatch(/ya lo usa otro servidor DeCA/);

    const key = await runCli(['key:create', '--account', String(cuenta.id), '--env', 'live'], env);
    expect(key.code).toBe(0);
    const k = JSON.parse(key.stdout) as { key: string; id: number };
    expect(Object.keys(k).sort()).toEqual(['id', 'key']);
    expect(k.key).toMatch(/^dg_live_/);

    // The key made through the running server works on it at once.
    const res = await fetch(`${server.url}/api/v1/cuenta`, { headers: { authorization: `Bearer ${k.key}` } });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { cuenta: { id: number } }).cuenta.id).toBe(cuenta.id);

    const plan = await runCli(['plan:set', '--account', String(cuenta.id), '--plan', 'pro'], env);
    expect(JSON.parse(plan.stdout).cuenta.plan).toBe('pro');

    const revoked = await runCli(['key:revoke', '--id', String(k.id)], env);
    expect(JSON.parse(revoked.stdout)).toEqual({ revocada: true });
    const after = await fetch(`${server.url}/api/v1/cuenta`, { headers: { authorization: `Bearer ${k.key}` } });
    expect(after.status).toBe(401);

    // Graceful stop on SIGTERM, lock released: the CLI opens the data itself again and sees everything.
    expect(await server.stop()).toBe(0);
    server = null;
    const ro = await runCli(['key:create', '--account', String(cuenta.id), '--env', 'test', '--read-only'], env);
    expect(ro.code).toBe(0);
    expect(JSON.parse(ro.stdout).key).toMatch(/^dg_test_/);

    server = await startServerProcess(env);
    const test = await fetch(`${server.url}/demo/api/v1/cuenta`, { headers: { authorization: `Bearer ${JSON.parse(ro.stdout).key}` } });
    const body = (await test.json()) as { cuenta: { plan: string; entorno: string } };
    expect(body.cuenta).toMatchObject({ plan: 'pro', entorno: 'pruebas' });
  }, 120_000);

  it('prints a JSON error on stderr and exits non-zero for bad input', async () => {
    const r = await runCli(['key:create', '--account', '999999', '--env', 'prod'], { DATA_DIR: dataDir });
    expect(r.code).not.toBe(0);
    expect(r.stdout).toBe('');
    const err = JSON.parse(r.stderr) as { error: { codigo: string; campos: Record<string, string> } };
    expect(err.error.codigo).toBe('validacion');
    expect(err.error.campos).toHaveProperty('--env');
  }, 60_000);
});

describe.runIf(!embedded)('CLI on a PostgreSQL server', () => {
  const url = process.env.TEST_DATABASE_URL ?? '';
  const schema = `cli_${Date.now().toString(36)}`;
  let dbUrl = '';
  beforeAll(async () => {
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    await c.query(`create schema "${schema}"`);
    await c.end();
    const u = new URL(url);
    u.searchParams.set('options', `-c search_path=${schema}`);
    dbUrl = u.toString();
  });
  afterAll(async () => {
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    await c.query(`drop schema if exists "${schema}" cascade`);
    await c.end();
  });

  it('creates an account and a key with DATABASE_URL', async () => {
    const env = { DATABASE_URL: dbUrl, DATA_DIR: '/nonexistent' };
    const created = await runCli(['account:create', '--company', 'Cargas Norte', '--nif', 'A58818501'], env);
    expect(created.code).toBe(0);
    const { cuenta } = JSON.parse(created.stdout) as { cuenta: Cuenta };
    expect(cuenta.rol).toBe('transportista');
    const key = await runCli(['key:create', '--account', String(cuenta.id), '--env', 'test'], env);
    expect(JSON.parse(key.stdout).key).toMatch(/^dg_test_/);
    const server = await startServerProcess(env);
    try {
      const res = await fetch(`${server.url}/demo/api/v1/cuenta`, { headers: { 'x-api-key': JSON.parse(key.stdout).key } });
      expect(res.status).toBe(200);
    } finally {
      expect(await server.stop()).toBe(0);
    }
  }, 120_000);

  it("user:reset-password prints a one-time link and ends the user's sessions", async () => {
    const env = { DATABASE_URL: dbUrl, DATA_DIR: '/nonexistent' };
    const email = `olvido-${Date.now()}@example.com`;
    const created = await runCli(['account:create', '--company', 'Cargas Sur', '--nif', 'A58818501', '--email', email, '--password', 'la-clave-de-antes'], env);
    expect(created.code, created.stderr).toBe(0);
    // At `info`, so that every request is logged (the link's token must not be).
    const server = await startServerProcess({ ...env, LOG_LEVEL: 'info' });
    try {
      const app = (path: string, init: { method?: string; body?: unknown; cookie?: string } = {}) =>
        fetch(`${server.url}${path}`, {
          method: init.method ?? 'GET',
          headers: { 'content-type': 'application/json', 'x-deca-csrf': '1', ...(init.cookie ? { cookie: init.cookie } : {}) },
          ...(init.body ? { body: JSON.stringify(init.body) } : {}),
        });
      const entrada = await app('/app/api/sesion', { method: 'POST', body: { email, password: 'la-clave-de-antes' } });
      expect(entrada.status).toBe(200);
      const cookie = (entrada.headers.getSetCookie()[0] ?? '').split(';')[0]!;
      expect((await app('/app/api/sesion', { cookie })).status).toBe(200);

      const r = await runCli(['user:reset-password', '--email', email.toUpperCase()], env);
      expect(r.code, r.stderr).toBe(0);
      const out = JSON.parse(r.stdout) as { email: string; enlace: string; caduca_at: string; sesiones_cerradas: number };
      expect(out).toMatchObject({ email, sesiones_cerradas: 1 });
      expect(out.enlace).toMatch(/\/restablecer\/[\w-]{40,}$/);
      expect((await app('/app/api/sesion', { cookie })).status).toBe(401);

      const token = out.enlace.split('/').pop()!;
      expect((await app(`/app/api/contrasena/restablecer/${token}`)).status).toBe(200);
      const puesta = await app(`/app/api/contrasena/restablecer/${token}`, { method: 'POST', body: { password: 'la-clave-de-ahora' } });
      expect(puesta.status).toBe(200);
      expect((await app(`/app/api/contrasena/restablecer/${token}`, { method: 'POST', body: { password: 'otra-vez-no-vale' } })).status).toBe(404);
      expect((await app('/app/api/sesion', { method: 'POST', body: { email, password: 'la-clave-de-ahora' } })).status).toBe(200);
      // The token never reaches the server's log.
      expect(server.output()).toContain('/app/api/contrasena/restablecer/[oculto]');
      expect(server.output()).not.toContain(token);

      const nadie = await runCli(['user:reset-password', '--email', 'nadie@example.com'], env);
      expect(nadie.code).toBe(1);
      expect(JSON.parse(nadie.stderr).error.codigo).toBe('no_encontrado');
    } finally {
      expect(await server.stop()).toBe(0);
    }
  }, 120_000);
});
