import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../server/config';

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const c = loadConfig({});
    expect(c.port).toBe(8080);
    expect(c.host).toBe('127.0.0.1');
    expect(c.siteUrl).toBe('http://localhost:8080');
    expect(c.dataDir).toMatch(/\/data$/);
    expect(c.clientDir).toBe(path.resolve('dist/client'));
    expect(c.databaseUrl).toBeNull();
    expect(c.smtpUrl).toBeNull();
    expect(c.webhookAllowInsecure).toBe(false);
    expect(c.fakeNow).toBeNull();
    expect(c.logLevel).toBe('info');
  });

  it('derives SITE_URL from PORT and strips a trailing slash from a given one', () => {
    expect(loadConfig({ PORT: '9000' }).siteUrl).toBe('http://localhost:9000');
    expect(loadConfig({ SITE_URL: 'https://deca.example.es/' }).siteUrl).toBe('https://deca.example.es');
  });

  it('serves the built app from CLIENT_DIR, resolved from the working directory', () => {
    expect(loadConfig({ CLIENT_DIR: '/srv/deca/cliente' }).clientDir).toBe('/srv/deca/cliente');
    expect(loadConfig({ CLIENT_DIR: 'otra/cliente' }).clientDir).toBe(path.resolve('otra/cliente'));
  });

  it('reads flags', () => {
    expect(loadConfig({ WEBHOOK_ALLOW_INSECURE: '1' })).toMatchObject({ webhookAllowInsecure: true });
  });

  it('reads TRUST_PROXY as the number of proxies in front: unset or 0 none, 1 (or true) one, N several', () => {
    expect(loadConfig({}).trustProxy).toBe(0);
    expect(loadConfig({ TRUST_PROXY: '' }).trustProxy).toBe(0);
    expect(loadConfig({ TRUST_PROXY: '0' }).trustProxy).toBe(0);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(0);
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    for (const bad of ['-1', 'sí', '1.5', '100']) expect(() => loadConfig({ TRUST_PROXY: bad }), bad).toThrow(/TRUST_PROXY: debe ser el número de proxies/);
  });

  it('refuses every bad value at once, naming each variable', () => {
    let err: unknown;
    try {
      loadConfig({ PORT: 'ochenta', DATABASE_URL: 'mysql://x', LOG_LEVEL: 'verbose', SITE_URL: 'ftp://x' });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    const msg = (err as Error).message;
    for (const v of ['PORT', 'DATABASE_URL', 'LOG_LEVEL', 'SITE_URL']) expect(msg).toContain(v);
  });

  it('refuses FAKE_NOW in production and accepts it otherwise', () => {
    expect(() => loadConfig({ FAKE_NOW: '2027-01-15T10:00:00+01:00', NODE_ENV: 'production' })).toThrow(/FAKE_NOW/);
    expect(loadConfig({ FAKE_NOW: '2027-01-15T10:00:00+01:00' }).fakeNow).toBe('2027-01-15T10:00:00+01:00');
    expect(() => loadConfig({ FAKE_NOW: 'mañana' })).toThrow(/FAKE_NOW/);
  });
});
