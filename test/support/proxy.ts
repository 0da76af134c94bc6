import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RoundRobin {
  url: string;
  /** How many requests each upstream got, in the order given. */
  repartidas: number[];
  /**
   * Requests an upstream did not answer in full: which upstream, and why —
   * the socket's error code (`ECONNREFUSED`: the connection was refused, the
   * request never reached it; `ECONNRESET`: cut) or `cortada` (the answer
   * stopped before its end). The client got a 502, or a cut answer.
   */
  fallos: { upstream: number; code: string }[];
  close(): Promise<void>;
}

/**
 * A small round-robin HTTP proxy on loopback, like the load balancer in front
 * of several server processes: each request goes to the next upstream in
 * turn, streamed both ways, with the client's address in X-Forwarded-For.
 */
export async function roundRobin(upstreams: string[]): Promise<RoundRobin> {
  const repartidas = upstreams.map(() => 0);
  const fallos: RoundRobin['fallos'] = [];
  let siguiente = 0;
  const agent = new http.Agent({ keepAlive: true });
  const server = http.createServer((req, res) => {
    const i = siguiente++ % upstreams.length;
    repartidas[i]!++;
    const destino = new URL(req.url ?? '/', upstreams[i]);
    const salida = http.request(destino, { method: req.method, agent, headers: { ...req.headers, host: destino.host, 'x-forwarded-for': req.socket.remoteAddress ?? '' } }, (r) => {
      res.writeHead(r.statusCode ?? 502, r.headers);
      r.on('close', () => {
        if (!r.complete) fallos.push({ upstream: i, code: 'cortada' });
      });
      r.pipe(res);
    });
    salida.on('error', (err: NodeJS.ErrnoException) => {
      fallos.push({ upstream: i, code: err.code ?? err.message });
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    req.pipe(salida);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    repartidas,
    fallos,
    close: async () => {
      agent.destroy();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
