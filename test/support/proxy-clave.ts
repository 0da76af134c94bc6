import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A reverse proxy on 127.0.0.1 that adds an API key to every request and
 * forwards everything else as it came (Host and Origin included): what an
 * MCP client's gateway does, for tools such as the MCP conformance suite
 * that cannot send a header of their own.
 */
export async function proxyConClave(destino: string, clave: string): Promise<{ url: string; close(): Promise<void> }> {
  const d = new URL(destino);
  const server = http.createServer((req, res) => {
    const headers = { ...req.headers };
    if (!headers.authorization) headers.authorization = `Bearer ${clave}`;
    const salida = http.request({ host: d.hostname, port: d.port, method: req.method, path: req.url, headers }, (r) => {
      res.writeHead(r.statusCode ?? 502, r.headers);
      r.pipe(res);
    });
    salida.on('error', () => {
      res.writeHead(502);
      res.end();
    });
    req.pipe(salida);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
