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

  it('names the eFTI gate and platform of every dataset UIL: ES and the site host by default, refusing ids that are not tokens', () => {
    expect(loadConfig({ SITE_URL: 'https://deca.example.es/' }).efti).toMatchObject({ gateId: 'ES', platformId: 'deca.example.es' });
    expect(loadConfig({ EFTI_GATE_ID: 'ES1', EFTI_PLATFORM_ID: 'deca-01' }).efti).toMatchObject({ gateId: 'ES1', platformId: 'deca-01' });
    expect(() => loadConfig({ EFTI_PLATFORM_ID: 'con espacios' })).toThrow(/EFTI_PLATFORM_ID/);
    expect(() => loadConfig({ EFTI_GATE_ID: 'ES/1' })).toThrow(/EFTI_GATE_ID/);
  });

  it('takes a gate secret per environment, none by default, refusing short ones and the same secret for both', () => {
    expect(loadConfig({}).efti.secretos).toEqual({ produccion: null, pruebas: null });
    const real = 'a'.repeat(32);
    const prueba = 'b'.repeat(40);
    expect(loadConfig({ EFTI_GATE_SECRET: real, EFTI_TEST_GATE_SECRET: prueba }).efti.secretos).toEqual({ produccion: real, pruebas: prueba });
    expect(() => loadConfig({ EFTI_GATE_SECRET: 'corto' })).toThrow(/EFTI_GATE_SECRET/);
    expect(() => loadConfig({ EFTI_GATE_SECRET: real, EFTI_TEST_GATE_SECRET: real })).toThrow(/EFTI_TEST_GATE_SECRET/);
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

  it('keeps the PDFs in DATA_DIR/blobs by default (embedded or PostgreSQL alike), or in the folder of BLOB_URL=file://', () => {
    expect(loadConfig({}).blobs).toEqual({ tipo: 'disco', dir: path.resolve('data/blobs') });
    expect(loadConfig({ DATA_DIR: '/srv/deca', DATABASE_URL: 'postgres://db/deca' }).blobs).toEqual({ tipo: 'disco', dir: '/srv/deca/blobs' });
    expect(loadConfig({ BLOB_URL: 'file:///mnt/compartido/deca%20pdf' }).blobs).toEqual({ tipo: 'disco', dir: '/mnt/compartido/deca pdf' });
    // AWS_* set for other programs are not read, nor checked, without BLOB_URL=s3://.
    expect(loadConfig({ AWS_REGION: '¿?', AWS_ENDPOINT_URL: 'x' }).blobs.tipo).toBe('disco');
  });

  it('reads BLOB_URL=s3://bucket/prefix with its endpoint, region, credentials, path style and retention', () => {
    const claves = { AWS_ACCESS_KEY_ID: 'AKIAEJEMPLO', AWS_SECRET_ACCESS_KEY: 'secreto-de-ejemplo' };
    expect(loadConfig({ BLOB_URL: 's3://deca-pdf', ...claves }).blobs).toEqual({
      tipo: 's3',
      bucket: 'deca-pdf',
      prefijo: '',
      endpoint: 'https://s3.us-east-1.amazonaws.com',
      region: 'us-east-1',
      accessKeyId: 'AKIAEJEMPLO',
      secretAccessKey: 'secreto-de-ejemplo',
      sessionToken: null,
      pathStyle: false,
      retencionDias: null,
    });
    expect(
      loadConfig({
        BLOB_URL: 's3://deca-pdf/produccion/2027/',
        BLOB_S3_ENDPOINT: 'http://127.0.0.1:9000',
        AWS_ENDPOINT_URL: 'https://otro.example.com',
        AWS_REGION: 'eu-south-2',
        AWS_SESSION_TOKEN: 'tok',
        BLOB_S3_PATH_STYLE: '1',
        BLOB_RETENCION_DIAS: '400',
        ...claves,
      }).blobs,
    ).toMatchObject({ prefijo: 'produccion/2027/', endpoint: 'http://127.0.0.1:9000', region: 'eu-south-2', sessionToken: 'tok', pathStyle: true, retencionDias: 400 });
    expect(loadConfig({ BLOB_URL: 's3://deca-pdf', AWS_ENDPOINT_URL: 'https://minio.example.com', ...claves }).blobs).toMatchObject({ endpoint: 'https://minio.example.com' });
    expect(loadConfig({ BLOB_URL: 's3://deca-pdf', AWS_ENDPOINT_URL_S3: 'https://s3.example.com', AWS_ENDPOINT_URL: 'https://otro.example.com', ...claves }).blobs).toMatchObject({
      endpoint: 'https://s3.example.com',
    });
  });

  it('refuses a bad BLOB_URL, S3 without credentials, and a retention without S3, naming each variable', () => {
    for (const bad of ['s3://Mayusculas', 's3://a', 'http://bucket', 'file://relativo', 's3://deca/pre fijo'])
      expect(() => loadConfig({ BLOB_URL: bad }), bad).toThrow(/BLOB_URL: debe ser s3:\/\/bucket\/prefijo/);
    let err: unknown;
    try {
      loadConfig({ BLOB_URL: 's3://deca-pdf', AWS_REGION: 'Madrid', AWS_ENDPOINT_URL: 'minio:9000' });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    const msg = (err as Error).message;
    for (const v of ['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_REGION', 'AWS_ENDPOINT_URL']) expect(msg).toContain(`  ${v}: `);
    for (const dias of ['0', '1,5', '36501', 'un año']) {
      expect(() => loadConfig({ BLOB_URL: 's3://deca-pdf', AWS_ACCESS_KEY_ID: 'a', AWS_SECRET_ACCESS_KEY: 'b', BLOB_RETENCION_DIAS: dias }), dias).toThrow(
        /BLOB_RETENCION_DIAS: debe ser un número entero de días, de 1 a 36500/,
      );
    }
    expect(() => loadConfig({ BLOB_RETENCION_DIAS: '365' })).toThrow(/BLOB_RETENCION_DIAS: solo se aplica con BLOB_URL=s3:\/\//);
  });
});
