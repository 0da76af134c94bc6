import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp } from '../../server/app';
import { ManualClock } from '../../server/clock';
import { loadConfig, type Config } from '../../server/config';
import type { Database } from '../../server/db/open';
import { createLogger } from '../../server/log';
import { createPdfPool, type PdfPool } from '../../server/documents/pdf-pool';
import type { Services } from '../../server/deps';
import { createServices } from '../../server/services';
import { openTestDatabase } from './db';
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
/** One PDF worker pool per test file (process), like the server has one per process. */
function sharedPdfPool(): PdfPool {
  pool ??= createPdfPool({ sello: selloDePrueba(), size: 2 });
  return pool;
}

/** The real app on a real database, listening on port 0. */
export async function startTestApp(opts: TestAppOptions = {}): Promise<TestApp> {
  const ownDatabase = !opts.database;
  const database = opts.database ?? (await openTestDatabase());
  const clock = opts.clock ?? new ManualClock();
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    DATA_DIR: '/nonexistent',
    ...(opts.apiPoints ? { API_RATE_LIMIT: String(opts.apiPoints) } : {}),
    ...opts.env,
  });
  const log = createLogger(process.env.TEST_LOG_LEVEL ?? 'silent');
  const services = await createServices({ config, database, clock, log, renderPdf: sharedPdfPool().render });
  const app = createApp({ config, services, clientDir: opts.clientDir ?? '/nonexistent' });
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
    const res = await fetch(url + path, { method, headers, body });
    const text = await res.text();
    let parsed: unknown = text;
    if ((res.headers.get('content-type') ?? '').includes('json')) parsed = JSON.parse(text);
    return { status: res.status, headers: res.headers, body: parsed as T, text };
  }

  return {
    url,
    database,
    clock,
    config,
    services,
    request,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await services.close();
      if (ownDatabase) await database.close();
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
    const req = http.request(
      { host: u.hostname, port: u.port, method: opts.method, path: opts.path, headers: opts.headers },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      },
    );
    req.on('error', reject);
    for (const c of opts.chunks ?? []) req.write(c);
    req.end();
  });
}
