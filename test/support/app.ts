import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createApp } from '../../server/app';
import { ManualClock } from '../../server/clock';
import { type Config, loadConfig } from '../../server/config';
import type { Database } from '../../server/db/open';
import type { Services } from '../../server/deps';
import { createPdfPool, type PdfPool } from '../../server/documents/pdf-pool';
import { createLogger } from '../../server/log';
import { createServices } from '../../server/services';
import { openTestDatabase } from './db';
import { PDF_WORKER_URL } from './processes';
import { selloDePrueba } from './sello';

export interface TestResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface RequestOptions {
  headers?: Record<string, string>;
  /** Sent as JSON unless it is a string. */
  body?: unknown;
  /** API key, sent as `Authorization: Bearer`. */
  key?: string;
  /** Cookie header value. */
  cookie?: string;
}

export interface TestApp {
  url: string;
  /**
   * A secret the file made or was given (an API key, a password): it may
   * never appear in a log line, nor in any answer. Secrets an answer creates
   * (a key, a webhook secret, a session) are noted by `request` itself.
   */
  secreto(valor: string): void;
  database: Database;
  clock: ManualClock;
  config: Config;
  services: Services;
  request<T = any>(method: string, path: string, opts?: RequestOptions): Promise<TestResponse<T>>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  clock?: ManualClock;
  env?: Record<string, string>;
  apiPoints?: number;
  clientDir?: string;
  database?: Database;
}

let pool: PdfPool | null = null;
/**
 * One PDF worker pool per test file (process), like the server has one per
 * process; its workers run the compiled worker, as the server's do.
 */
function sharedPdfPool(): PdfPool {
  pool ??= createPdfPool({ sello: selloDePrueba(), size: 2, workerUrl: PDF_WORKER_URL });
  return pool;
}

let blobs: string | null = null;
/**
 * The blob store of the apps of this test process (BLOB_URL=file://…): one
 * temporary folder, shared by every app (two apps on one database read each
 * other's PDFs; content addressing makes sharing safe), removed at exit.
 * DATA_DIR stays /nonexistent: nothing else may write there.
 */
function blobsDePrueba(): string {
  if (!blobs) {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'deca-blobs-'));
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    blobs = pathToFileURL(dir).href;
  }
  return blobs;
}

/**
 * Note the secrets an answer creates: an API key (`key`), a webhook's
 * `secreto`; and the token of a completion link, which the DeCA's own
 * representation carries by design but a log line never may.
 */
function anotarSecretos(v: unknown, secreto: (s: string) => void, soloRegistro: (s: string) => void): void {
  if (Array.isArray(v)) for (const x of v) anotarSecretos(x, secreto, soloRegistro);
  else if (v && typeof v === 'object') {
    for (const [k, x] of Object.entries(v)) {
      if ((k === 'key' || k === 'secreto') && typeof x === 'string') secreto(x);
      else if (k === 'completar' && typeof x === 'string') soloRegistro(x.split('/').pop() ?? '');
      else anotarSecretos(x, secreto, soloRegistro);
    }
  }
}

/** The real app on a real database, listening on port 0. */
export async function startTestApp(opts: TestAppOptions = {}): Promise<TestApp> {
  const ownDatabase = !opts.database;
  const database = opts.database ?? (await openTestDatabase());
  const clock = opts.clock ?? new ManualClock();
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    DATA_DIR: '/nonexistent',
    BLOB_URL: blobsDePrueba(),
    CLIENT_DIR: opts.clientDir ?? '/nonexistent',
    ...(opts.apiPoints ? { API_RATE_LIMIT: String(opts.apiPoints) } : {}),
    ...opts.env,
  });
  // Every log line the app writes is kept (and checked for secrets when the app closes).
  const lineas: string[] = [];
  const log = createLogger(process.env.TEST_LOG_LEVEL ?? 'info', { write: (l: string) => void lineas.push(l) });
  const secretos = new Set<string>();
  const deRegistro = new Set<string>();
  const fugas: string[] = [];
  const secreto = (v: string | null | undefined) => {
    if (v && v.length >= 12) secretos.add(v);
  };
  const services = await createServices({ config, database, clock, log, renderPdf: sharedPdfPool().render, capacidadSello: sharedPdfPool().capacidadSello });
  const app = createApp({ config, services });
  const server = http.createServer(app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  async function request<T>(method: string, path: string, o: RequestOptions = {}): Promise<TestResponse<T>> {
    const headers: Record<string, string> = { ...o.headers };
    if (o.key) headers.authorization = `Bearer ${o.key}`;
    if (o.cookie) headers.cookie = o.cookie;
    let body: string | undefined;
    if (o.body !== undefined) {
      body = typeof o.body === 'string' ? o.body : JSON.stringify(o.body);
      if (!Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) headers['content-type'] = 'application/json';
    } else if (method === 'POST') {
      body = '{}';
      headers['content-type'] ??= 'application/json';
    }
    if (o.key) secreto(o.key);
    if (o.body && typeof o.body === 'object') secreto((o.body as { password?: string }).password);
    const res = await fetch(url + path, { method, headers, body });
    const text = await res.text();
    for (const s of secretos) if (text.includes(s)) fugas.push(`${method} ${path} → ${res.status}: la respuesta lleva el secreto ${s.slice(0, 8)}…`);
    let parsed: unknown = text;
    if ((res.headers.get('content-type') ?? '').includes('json')) {
      parsed = JSON.parse(text);
      anotarSecretos(parsed, secreto, (t) => t.length >= 20 && deRegistro.add(t));
    }
    for (const c of res.headers.getSetCookie()) secreto(/^deca_sesion=([^;]+)/.exec(c)?.[1]);
    return { status: res.status, headers: res.headers, body: parsed as T, text };
  }

  /** No secret in any log line of the whole file (its passwords' hashes included), nor in an answer after the one that made it. */
  async function sinFugas(): Promise<void> {
    const hashes = await database.db
      .selectFrom('users')
      .select('password_hash')
      .execute()
      .catch(() => []);
    for (const h of hashes) secreto(h.password_hash);
    const enLog = [...secretos, ...deRegistro].filter((s) => lineas.some((l) => l.includes(s)));
    const todas = [...fugas, ...enLog.map((s) => `un registro del servidor lleva el secreto ${s.slice(0, 8)}…`)];
    if (todas.length) throw new Error(`Secretos a la vista:\n${todas.join('\n')}`);
  }

  return {
    url,
    database,
    clock,
    config,
    services,
    request,
    secreto,
    async close() {
      const fuga = await sinFugas().then(
        () => null,
        (e: Error) => e,
      );
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await services.close();
      if (ownDatabase) await database.close();
      if (fuga) throw fuga;
    },
  };
}

/** A raw HTTP request, for what fetch will not send (no Content-Length, chunked bodies). */
export function rawRequest(
  url: string,
  opts: { method: string; path: string; headers?: Record<string, string>; chunks?: string[] },
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const u = new URL(url);
    const req = http.request({ host: u.hostname, port: u.port, method: opts.method, path: opts.path, headers: opts.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    for (const c of opts.chunks ?? []) req.write(c);
    req.end();
  });
}
