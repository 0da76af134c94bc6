/**
 * The blob store on an S3-compatible service (BLOB_URL=s3://bucket/prefix):
 * against s3rver (@20minutes/s3rver, a local S3 server from npm, which checks
 * SigV4 signatures: the original s3rver 3.7 takes any) on 127.0.0.1. Requests
 * signed with SigV4 (aws4fetch over Node's fetch); a version is written to the
 * bucket before its row and served back byte for byte; a damaged object is
 * refused; the service out of reach is a 503 (and nothing is issued);
 * old rows move to the bucket; the object lock is asked for only when
 * BLOB_RETENCION_DIAS is set.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import S3rver from '@20minutes/s3rver';
import { AwsClient } from 'aws4fetch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AlmacenS3 } from '../../server/blobs/s3';
import { type ConfigS3, loadConfig } from '../../server/config';
import { moverPdfsAlAlmacen } from '../../server/domain/decas/pdfs-al-almacen';
import { createLogger } from '../../server/log';
import type { Deca } from '../../shared/schemas/deca';
import { startTestApp, type TestApp } from '../support/app';
import { comprobarBarrido } from '../support/barrido';
import { decaCompleta } from '../support/decas';
import { crearDecaOk, expectApiError, getBytes } from '../support/decas-helpers';
import { buildCuenta, type CuentaDePrueba } from '../support/factories';
import { desParaS3rver } from '../support/s3rver-des';

const BUCKET = 'deca-pdf';
const PREFIJO = 'pruebas/v1';
// s3rver's own fixed credentials.
const CREDENCIALES = { AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER' };

const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
const claveDe = (sha: string) => `pdf/${sha.slice(0, 2)}/${sha}`;

desParaS3rver();
const dir = mkdtempSync(path.join(os.tmpdir(), 'deca-s3rver-'));
let s3: S3rver;
let puerto = 0;
const arrancarS3 = async (port: number) => {
  s3 = new S3rver({ address: '127.0.0.1', port, silent: true, directory: dir, configureBuckets: [{ name: BUCKET, configs: [] }] });
  puerto = (await s3.run()).port;
};
/** The bucket as another client sees it (to damage an object behind the store's back). */
const cliente = new AwsClient({ accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER', service: 's3', region: 'us-east-1', retries: 0 });
const objeto = (sha: string) => `http://127.0.0.1:${puerto}/${BUCKET}/${PREFIJO}/${claveDe(sha)}`;

let app: TestApp;
let c: CuentaDePrueba;

beforeAll(async () => {
  await arrancarS3(0);
  app = await startTestApp({
    // With a retention: every PUT carries the (signed) object-lock headers, and s3rver checks the signature.
    env: { BLOB_URL: `s3://${BUCKET}/${PREFIJO}`, BLOB_S3_ENDPOINT: `http://127.0.0.1:${puerto}`, BLOB_S3_PATH_STYLE: '1', BLOB_RETENCION_DIAS: '365', ...CREDENCIALES },
  });
  c = await buildCuenta(app);
}, 60_000);
afterAll(async () => {
  await app?.close();
  await s3?.close().catch(() => {});
  rmSync(dir, { recursive: true, force: true });
});

async function emitir(i: number): Promise<Deca> {
  return (await crearDecaOk(app, c.live, decaCompleta({ referencia: `S3-${i}` }))).deca;
}

async function pdfDe(id: number): Promise<Buffer> {
  const r = await getBytes(app, c.live, `/api/v1/decas/${id}/pdf`);
  expect(r.status, r.bytes.toString()).toBe(200);
  return r.bytes;
}

describe('BLOB_URL=s3://…', () => {
  it('writes a new version to the bucket, under the prefix, before its row; GET …/pdf serves it byte for byte', async () => {
    expect(app.services.blobs.descripcion).toBe(`s3://${BUCKET}/${PREFIJO}/`);
    const deca = await emitir(1);
    const fila = await app.database.db.selectFrom('deca_versiones').select(['pdf', 'pdf_clave', 'pdf_sha256']).where('deca_id', '=', deca.id).executeTakeFirstOrThrow();
    expect(fila).toEqual({ pdf: null, pdf_clave: claveDe(deca.pdf_sha256!), pdf_sha256: deca.pdf_sha256 });

    const enBucket = await cliente.fetch(objeto(deca.pdf_sha256!));
    expect(enBucket.status).toBe(200);
    const bytes = Buffer.from(await enBucket.arrayBuffer());
    expect(sha256(bytes)).toBe(deca.pdf_sha256);
    expect((await pdfDe(deca.id)).equals(bytes)).toBe(true);
    expect(await app.services.blobs.existe(deca.pdf_sha256!)).toBe(true);
    expect(await app.services.blobs.existe(sha256(new Uint8Array([7])))).toBe(false);
  });

  it('refuses an object changed or truncated behind its back, and one that is gone; served again once written whole', async () => {
    const deca = await emitir(2);
    const bueno = await pdfDe(deca.id);
    const cambiado = Buffer.from(bueno);
    cambiado[100] = cambiado[100]! ^ 0xff;
    for (const [como, malo] of [
      ['cambiado', cambiado],
      ['truncado', bueno.subarray(0, 1000)],
    ] as const) {
      expect((await cliente.fetch(objeto(deca.pdf_sha256!), { method: 'PUT', body: new Uint8Array(malo) })).status).toBe(200);
      const res = await app.request('GET', `/api/v1/decas/${deca.id}/pdf`, { key: c.live });
      expect(expectApiError(res, 500, 'error_interno').mensaje, como).toContain('dañada');
    }
    expect((await cliente.fetch(objeto(deca.pdf_sha256!), { method: 'DELETE' })).status).toBe(204);
    expect(expectApiError(await app.request('GET', `/api/v1/decas/${deca.id}/pdf`, { key: c.live }), 500, 'error_interno').mensaje).toContain('no se encuentra');

    await app.services.blobs.guardar(deca.pdf_sha256!, bueno);
    expect((await pdfDe(deca.id)).equals(bueno)).toBe(true);
  });

  it('out of reach: reading is a 503 with Retry-After, issuing is a 503 that leaves no DeCA behind; both work again when it is back', async () => {
    const deca = await emitir(3);
    const bueno = await pdfDe(deca.id);
    const cuantas = async () => (await app.database.db.selectFrom('decas').select('id').where('account_id', '=', c.account.id).execute()).length;
    const antes = await cuantas();
    await s3.close();
    try {
      const lectura = await app.request('GET', `/api/v1/decas/${deca.id}/pdf`, { key: c.live });
      expect(expectApiError(lectura, 503, 'no_disponible').mensaje).toContain(`El PDF de la DeCA ${deca.numero} (versión 1) está en el almacén de documentos, que no responde`);
      expect(lectura.headers.get('retry-after')).toBe('30');
      const emision = await app.request('POST', '/api/v1/decas', { key: c.live, body: decaCompleta({ referencia: 'S3-sin-almacen' }) });
      expect(expectApiError(emision, 503, 'no_disponible').mensaje).toMatch(/^No se ha podido guardar el PDF de la DeCA \d{4}-\d{6} en el almacén de documentos/);
      expect(await cuantas()).toBe(antes);
    } finally {
      await arrancarS3(puerto);
    }
    expect((await pdfDe(deca.id)).equals(bueno)).toBe(true);
    await emitir(4);
    expect(await cuantas()).toBe(antes + 1);
  });

  it('moves the versions written before the store into the bucket (blobs:migrate), served the same', async () => {
    const decas = [await emitir(5), await emitir(6), await emitir(7)];
    const antes = new Map<number, Buffer>();
    for (const d of decas) {
      const bytes = await pdfDe(d.id);
      antes.set(d.id, bytes);
      await app.database.db.updateTable('deca_versiones').set({ pdf: bytes, pdf_clave: null }).where('deca_id', '=', d.id).execute();
      expect((await cliente.fetch(objeto(d.pdf_sha256!), { method: 'DELETE' })).status).toBe(204);
    }
    let despues: string | null = null;
    let movidos = 0;
    do {
      const r = await moverPdfsAlAlmacen(app.services, { lote: 2, despues });
      movidos += r.movidos;
      despues = r.siguiente;
    } while (despues);
    expect(movidos).toBe(3);
    for (const d of decas) {
      expect((await cliente.fetch(objeto(d.pdf_sha256!), { method: 'HEAD' })).status).toBe(200);
      expect((await pdfDe(d.id)).equals(antes.get(d.id)!)).toBe(true);
    }
    const filas = await app.database.db.selectFrom('deca_versiones').select(['pdf', 'pdf_clave']).where('account_id', '=', c.account.id).execute();
    expect(filas.every((f) => f.pdf === null && f.pdf_clave !== null)).toBe(true);
  });
});

/** What the store sends, as a recording S3 stand-in sees it (HEAD: not there; PUT: stored). */
type Vista = http.IncomingHttpHeaders & { method: string; url: string };

async function peticionesDe(config: Partial<ConfigS3>): Promise<Vista[]> {
  const vistas: Vista[] = [];
  const servidor = http.createServer((req, res) => {
    vistas.push({ ...req.headers, method: req.method ?? '', url: req.url ?? '' });
    req.resume();
    req.on('end', () => res.writeHead(req.method === 'HEAD' ? 404 : 200).end());
  });
  await new Promise<void>((r) => servidor.listen(0, '127.0.0.1', () => r()));
  try {
    const base = loadConfig({ BLOB_URL: 's3://lock-bucket/deca', BLOB_S3_ENDPOINT: `http://127.0.0.1:${(servidor.address() as AddressInfo).port}`, BLOB_S3_PATH_STYLE: '1', ...CREDENCIALES })
      .blobs as ConfigS3;
    const almacen = new AlmacenS3({ ...base, ...config }, createLogger('silent'));
    const bytes = new TextEncoder().encode('%PDF-1.7 bloqueo');
    await almacen.guardar(sha256(bytes), bytes);
  } finally {
    servidor.close();
  }
  return vistas;
}

describe('blobs:gc on S3', () => {
  it('lists the bucket under the prefix page by page (ListObjectsV2), and deletes the PDFs no version names once older than a day', async () => {
    let i = 0;
    await comprobarBarrido(app, () => emitir(100 + i++));
  });
});

describe('the S3 requests', () => {
  it('are refused with a wrong secret, and the store says who refused what', async () => {
    const config = loadConfig({ BLOB_URL: `s3://${BUCKET}/${PREFIJO}`, BLOB_S3_ENDPOINT: `http://127.0.0.1:${puerto}`, BLOB_S3_PATH_STYLE: '1', ...CREDENCIALES, AWS_SECRET_ACCESS_KEY: 'otra-clave' })
      .blobs as ConfigS3;
    const almacen = new AlmacenS3(config, createLogger('silent'));
    const bytes = new TextEncoder().encode('%PDF-1.7 firma');
    await expect(almacen.guardar(sha256(bytes), bytes)).rejects.toMatchObject({
      name: 'BlobError',
      motivo: 'no_disponible',
      message: `s3://${BUCKET}/${PREFIJO}/ respondió 403 SignatureDoesNotMatch a PUT ${claveDe(sha256(bytes))}.`,
    });
  });

  it('sign with SigV4, carry the blob’s SHA-256 and Content-MD5, and ask for a COMPLIANCE lock only with BLOB_RETENCION_DIAS', async () => {
    const bytes = new TextEncoder().encode('%PDF-1.7 bloqueo');
    const sha = sha256(bytes);
    const sin = await peticionesDe({});
    expect(sin.map((p) => `${p.method} ${p.url}`)).toEqual([`HEAD /lock-bucket/deca/${claveDe(sha)}`, `PUT /lock-bucket/deca/${claveDe(sha)}`]);
    const put = sin[1]!;
    expect(put.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=S3RVER\/\d{8}\/us-east-1\/s3\/aws4_request, SignedHeaders=[a-z0-9;-]*x-amz-content-sha256[a-z0-9;-]*, Signature=[0-9a-f]{64}$/);
    expect(put['x-amz-content-sha256']).toBe(sha);
    expect(put['content-md5']).toBe(createHash('md5').update(bytes).digest('base64'));
    expect(put['content-type']).toBe('application/pdf');
    expect(put['x-amz-object-lock-mode']).toBeUndefined();
    expect(put['x-amz-object-lock-retain-until-date']).toBeUndefined();

    const con = (await peticionesDe({ retencionDias: 400 }))[1]!;
    expect(con['x-amz-object-lock-mode']).toBe('COMPLIANCE');
    const hasta = Date.parse(String(con['x-amz-object-lock-retain-until-date']));
    expect(Math.abs(hasta - (Date.now() + 400 * 86_400_000))).toBeLessThan(60_000);
    // The lock headers are signed: nothing on the way can drop them.
    expect(con.authorization).toContain('x-amz-object-lock-mode;x-amz-object-lock-retain-until-date');
  });

  it('address the bucket by host unless path style is asked for', () => {
    const config = loadConfig({ BLOB_URL: 's3://mi-bucket/a/b', AWS_REGION: 'eu-south-2', ...CREDENCIALES }).blobs as ConfigS3;
    expect(config).toMatchObject({ bucket: 'mi-bucket', prefijo: 'a/b/', endpoint: 'https://s3.eu-south-2.amazonaws.com', pathStyle: false, retencionDias: null });
    const almacen = new AlmacenS3(config, createLogger('silent'));
    expect(almacen.url('pdf/ab/cd/x')).toBe('https://mi-bucket.s3.eu-south-2.amazonaws.com/a/b/pdf/ab/cd/x');
    expect(new AlmacenS3({ ...config, endpoint: 'http://127.0.0.1:9000', pathStyle: true }, createLogger('silent')).url('pdf/ab/cd/x')).toBe('http://127.0.0.1:9000/mi-bucket/a/b/pdf/ab/cd/x');
  });
});
