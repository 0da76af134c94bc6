import { createHash } from 'node:crypto';
import { AwsClient } from 'aws4fetch';
import type { ConfigS3 } from '../config';
import type { Logger } from '../log';
import { BlobError, type BlobListado, type BlobStore, claveDe, clavePdf, comprobarLeido, exigirHuella, SHA256 } from './almacen';

/** Each request to the store, retries included, ends within this. */
const PLAZO_MS = 30_000;
/** aws4fetch retries a 5xx or 429 this many times, with a growing random wait (its default, 10, could take a minute). */
const REINTENTOS = 2;

const mensaje = (err: unknown) => (err instanceof Error ? err.message : String(err));

/**
 * Blobs in a bucket of any S3-compatible service (BLOB_URL=s3://bucket/prefix):
 * requests signed with SigV4 by aws4fetch over Node's fetch. A PUT carries the
 * blob's SHA-256 as `x-amz-content-sha256`, so the service itself refuses
 * bytes that do not match their name, and Content-MD5 (which S3 requires
 * with object lock); with BLOB_RETENCION_DIAS each object is locked
 * (COMPLIANCE) for that many days from its write.
 */
export class AlmacenS3 implements BlobStore {
  readonly descripcion: string;
  private readonly cliente: AwsClient;

  constructor(
    private readonly c: ConfigS3,
    private readonly log: Logger,
  ) {
    this.descripcion = `s3://${c.bucket}/${c.prefijo}`;
    this.cliente = new AwsClient({
      accessKeyId: c.accessKeyId,
      secretAccessKey: c.secretAccessKey,
      ...(c.sessionToken ? { sessionToken: c.sessionToken } : {}),
      service: 's3',
      region: c.region,
      retries: REINTENTOS,
    });
  }

  /** The object's URL: `endpoint/bucket/prefix/key` (path style) or `bucket.endpoint/prefix/key`. Keys and prefixes are plain ASCII: nothing to encode. */
  url(clave: string): string {
    const u = new URL(this.c.endpoint);
    const base = u.pathname.replace(/\/+$/, '');
    if (this.c.pathStyle) u.pathname = `${base}/${this.c.bucket}/${this.c.prefijo}${clave}`;
    else {
      u.hostname = `${this.c.bucket}.${u.hostname}`;
      u.pathname = `${base}/${this.c.prefijo}${clave}`;
    }
    return u.toString();
  }

  /** The bucket's URL with a query (a listing), path style or by host as `url`. */
  private urlDelBucket(query: Record<string, string>): string {
    const u = new URL(this.url(''));
    // `/bucket` (path style, no trailing slash, as S3 documents it) or `/` on the bucket's host.
    u.pathname = this.c.pathStyle ? u.pathname.slice(0, u.pathname.length - this.c.prefijo.length).replace(/\/+$/, '') : '/';
    for (const [k, v] of Object.entries(query)) u.searchParams.set(k, v);
    return u.toString();
  }

  private async pedir(method: 'GET' | 'HEAD' | 'PUT' | 'DELETE', clave: string, init: { headers?: Record<string, string>; body?: Uint8Array } = {}, url: string = this.url(clave)): Promise<Response> {
    try {
      return await this.cliente.fetch(url, { method, ...init, signal: AbortSignal.timeout(PLAZO_MS) });
    } catch (err) {
      this.log.warn({ err, blob: clave, almacen: this.descripcion, method }, 'blob store out of reach');
      throw new BlobError('no_disponible', clave, `${this.descripcion} no responde (${method} ${clave}: ${mensaje(err)}).`, err);
    }
  }

  /** A refusal of the service, logged with its S3 error code, as a `no_disponible` error. */
  private async rechazo(res: Response, method: string, clave: string): Promise<BlobError> {
    const cuerpo = method === 'HEAD' ? '' : await res.text().catch(() => '');
    const codigo = /<Code>([^<]{1,100})<\/Code>/.exec(cuerpo)?.[1] ?? null;
    this.log.warn({ blob: clave, almacen: this.descripcion, method, status: res.status, codigo }, 'blob store refused a request');
    return new BlobError('no_disponible', clave, `${this.descripcion} respondió ${res.status}${codigo ? ` ${codigo}` : ''} a ${method} ${clave}.`);
  }

  async guardar(sha256: string, bytes: Uint8Array, claveDada?: string): Promise<string> {
    const clave = claveDe(sha256, claveDada);
    exigirHuella(sha256, bytes);
    // Already there whole: not written again (with object lock the bucket is versioned, and a PUT would add a version).
    const head = await this.pedir('HEAD', clave);
    await head.body?.cancel();
    if (head.ok && Number(head.headers.get('content-length')) === bytes.byteLength) return clave;
    const headers: Record<string, string> = {
      // The service serves every blob itself, with its own type: the bucket's is only for whoever browses it.
      'content-type': clave.startsWith('pdf/') ? 'application/pdf' : 'application/octet-stream',
      'content-md5': createHash('md5').update(bytes).digest('base64'),
      'x-amz-content-sha256': sha256,
    };
    if (this.c.retencionDias !== null) {
      headers['x-amz-object-lock-mode'] = 'COMPLIANCE';
      headers['x-amz-object-lock-retain-until-date'] = new Date(Date.now() + this.c.retencionDias * 86_400_000).toISOString();
    }
    const res = await this.pedir('PUT', clave, { headers, body: bytes });
    if (!res.ok) throw await this.rechazo(res, 'PUT', clave);
    await res.body?.cancel();
    return clave;
  }

  async leer(sha256: string, claveDada?: string): Promise<Uint8Array> {
    const clave = claveDe(sha256, claveDada);
    const res = await this.pedir('GET', clave);
    if (res.status === 404) {
      await res.body?.cancel();
      this.log.error({ blob: clave, almacen: this.descripcion }, 'blob missing');
      throw new BlobError('no_encontrado', clave, `No existe ${clave} en ${this.descripcion}.`);
    }
    if (!res.ok) throw await this.rechazo(res, 'GET', clave);
    let bytes: Uint8Array;
    try {
      bytes = new Uint8Array(await res.arrayBuffer());
    } catch (err) {
      throw new BlobError('no_disponible', clave, `${this.descripcion} cortó la lectura de ${clave}: ${mensaje(err)}`, err);
    }
    return comprobarLeido(sha256, clave, bytes, this.descripcion, this.log);
  }

  async existe(sha256: string, claveDada?: string): Promise<boolean> {
    const clave = claveDe(sha256, claveDada);
    const res = await this.pedir('HEAD', clave);
    await res.body?.cancel();
    if (res.status === 404) return false;
    if (!res.ok) throw await this.rechazo(res, 'HEAD', clave);
    return true;
  }

  /** ListObjectsV2 under `<prefix>pdf/`, from the key after `despues`. */
  async listar({ despues, limite }: { despues: string | null; limite: number }): Promise<BlobListado[]> {
    const prefijo = `${this.c.prefijo}pdf/`;
    const query: Record<string, string> = { 'list-type': '2', prefix: prefijo, 'max-keys': String(limite) };
    if (despues !== null) query['start-after'] = `${this.c.prefijo}${clavePdf(despues)}`;
    const res = await this.pedir('GET', prefijo, {}, this.urlDelBucket(query));
    if (!res.ok) throw await this.rechazo(res, 'GET (listado)', prefijo);
    const xml = await res.text();
    const out: BlobListado[] = [];
    for (const [, objeto] of xml.matchAll(/<Contents>([\s\S]*?)<\/Contents>/g)) {
      const nombre = /<Key>([^<]*)<\/Key>/.exec(objeto!)?.[1]?.split('/').at(-1) ?? '';
      if (!SHA256.test(nombre)) continue;
      out.push({
        sha256: nombre,
        bytes: Number(/<Size>(\d+)<\/Size>/.exec(objeto!)?.[1] ?? 0),
        escrito: new Date(/<LastModified>([^<]+)<\/LastModified>/.exec(objeto!)?.[1] ?? 0),
      });
    }
    return out;
  }

  /** DELETE of the object; on a versioned bucket (object lock) that adds a delete marker, and a locked version stays until its date. */
  async borrar(sha256: string, claveDada?: string): Promise<void> {
    const clave = claveDe(sha256, claveDada);
    const res = await this.pedir('DELETE', clave);
    await res.body?.cancel();
    if (!res.ok && res.status !== 404) throw await this.rechazo(res, 'DELETE', clave);
  }
}
