import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One POST the receiver got: headers, the raw body bytes and the parsed JSON. */
export interface Recibido {
  headers: http.IncomingHttpHeaders;
  raw: Buffer;
  body: any;
  path: string;
  /** performance.now() when the body had arrived. */
  at: number;
  entrega: string;
  evento: string;
}

/** How to answer: a status, optionally late; `hang` never answers (until close); `stream` sends 200 and an endless body. */
export type Respuesta = number | { status?: number; delayMs?: number; hang?: boolean; stream?: boolean; headers?: Record<string, string> };

export interface Receptor {
  url: string;
  recibidos: Recibido[];
  /** Decide each answer; `n` counts requests from 0. Default: 200. */
  responder(fn: (r: Recibido, n: number) => Respuesta): void;
  /** Resolve once at least `n` requests have arrived (fails after `timeoutMs`). */
  esperar(n: number, timeoutMs?: number): Promise<Recibido[]>;
  /** Responses that were cut by the client before the body ended (body cap). */
  cortadas(): number;
  close(): Promise<void>;
}

/** A real HTTP receiver on 127.0.0.1, port 0 (tests never send traffic anywhere else). */
export async function startReceptor(): Promise<Receptor> {
  const recibidos: Recibido[] = [];
  let decide: (r: Recibido, n: number) => Respuesta = () => 200;
  let waiters: { n: number; resolve: () => void }[] = [];
  let cut = 0;
  const hanging = new Set<http.ServerResponse>();

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      let body: unknown = null;
      try {
        body = JSON.parse(raw.toString('utf8'));
      } catch {
        body = raw.toString('utf8');
      }
      const r: Recibido = {
        headers: req.headers,
        raw,
        body,
        path: req.url ?? '/',
        at: performance.now(),
        entrega: String(req.headers['x-deca-entrega'] ?? ''),
        evento: String(req.headers['x-deca-evento'] ?? ''),
      };
      const n = recibidos.length;
      recibidos.push(r);
      const spec = decide(r, n);
      waiters = waiters.filter((w) => {
        if (recibidos.length >= w.n) w.resolve();
        return recibidos.length < w.n;
      });
      const o = typeof spec === 'number' ? { status: spec } : spec;
      if (o.hang) {
        hanging.add(res);
        res.on('close', () => hanging.delete(res));
        return;
      }
      const answer = () => {
        if (o.stream) {
          res.writeHead(o.status ?? 200, { 'content-type': 'text/plain', ...o.headers });
          const chunk = Buffer.alloc(16 * 1024, 'x');
          const pump = () => {
            while (res.write(chunk)) {
              /* fill the socket until it pushes back */
            }
          };
          res.on('drain', pump);
          res.on('close', () => {
            if (!res.writableEnded) cut++;
          });
          pump();
          return;
        }
        res.writeHead(o.status ?? 200, { 'content-type': 'application/json', ...o.headers });
        res.end('{"recibido":true,"secreto_del_receptor":"no debe guardarse"}');
      };
      if (o.delayMs) setTimeout(answer, o.delayMs);
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}`,
    recibidos,
    responder(fn) {
      decide = fn;
    },
    esperar(n, timeoutMs = 10_000) {
      if (recibidos.length >= n) return Promise.resolve(recibidos.slice());
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`receiver got ${recibidos.length} of ${n} requests in ${timeoutMs} ms`)), timeoutMs);
        waiters.push({
          n,
          resolve: () => {
            clearTimeout(timer);
            resolve(recibidos.slice());
          },
        });
      });
    },
    cortadas: () => cut,
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
