/**
 * One operation table, three doors: the REST routes the server mounts, the
 * OpenAPI document it serves and the MCP tools it lists are the table's, in
 * the same run and on the same server, and each table entry names a command
 * that exists under that name.
 */
import { describe, expect } from 'vitest';
import { routerApi } from '../../server/app';
import { COMANDOS_API, HERRAMIENTAS_API } from '../../server/commands/operaciones';
import { comandoDe, OPERACIONES, type Operacion } from '../../shared/api/operaciones';
import { type NombreOperacion, RUTAS, rutaCon, rutaKoa } from '../../shared/api/rutas';
import { it, type TestApp } from '../support/fixtures';

const NOMBRES = Object.keys(RUTAS) as NombreOperacion[];
const clave = (metodo: string, ruta: string) => `${metodo.toUpperCase()} ${ruta}`;

/** `tools/list` over JSON-RPC, as any MCP client sends it. */
async function herramientas(app: TestApp, key: string, ruta: string): Promise<string[]> {
  const res = await fetch(`${app.url}${ruta}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${key}` },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  });
  expect(res.status).toBe(200);
  const body = (await res.json()) as { result: { tools: { name: string }[] } };
  return body.result.tools.map((t) => t.name).sort();
}

describe('the operation table', () => {
  it('is what the REST router mounts, what the OpenAPI document describes and what MCP lists, in both environments', async ({ app, c }) => {
    const delTabla = NOMBRES.map((n) => clave(RUTAS[n][0], RUTAS[n][1])).sort();

    // REST: every route the API router registers, and no other.
    const router = routerApi({ config: app.config, services: app.services });
    const montadas = router.stack.flatMap((capa) => capa.methods.filter((m) => m !== 'HEAD').map((m) => `${m} ${capa.path}`)).sort();
    expect(montadas).toEqual(NOMBRES.map((n) => clave(RUTAS[n][0], rutaKoa(RUTAS[n][1]))).sort());

    const tools = HERRAMIENTAS_API.map((h) => h.comando.nombre).sort();
    const lectura = HERRAMIENTAS_API.filter((h) => h.lectura)
      .map((h) => h.comando.nombre)
      .sort();
    for (const [base, mcp, key, keyLectura] of [
      ['/api/v1', '/mcp', c.live, c.liveReadOnly],
      ['/demo/api/v1', '/demo/mcp', c.test, null],
    ] as const) {
      // OpenAPI: the same method + path pairs, each with the table's name as its operationId.
      const doc = (await app.request('GET', `${base}/openapi.json`)).body as { paths: Record<string, Record<string, { operationId: string }>> };
      const descritas = Object.entries(doc.paths).flatMap(([ruta, ops]) => Object.entries(ops).map(([m, op]) => [clave(m, ruta), op.operationId] as const));
      expect(descritas.map(([k]) => k).sort()).toEqual(delTabla);
      for (const [k, operationId] of descritas) {
        const [metodo, ruta] = RUTAS[operationId as NombreOperacion];
        expect(clave(metodo, ruta), operationId).toBe(k);
      }

      // MCP: the tools of the table's entries, each named as its command; a read-only key gets the read-only ones.
      expect(await herramientas(app, key, mcp)).toEqual(tools);
      if (keyLectura) expect(await herramientas(app, keyLectura, mcp)).toEqual(lectura);
    }
    expect(tools.length).toBeGreaterThan(10);
    expect(lectura.length).toBeGreaterThan(3);
  });

  it('names for every entry a command registered under that very name', () => {
    for (const [nombre, cmd] of Object.entries(COMANDOS_API)) expect(cmd.nombre).toBe(nombre);
    for (const n of NOMBRES) {
      expect(COMANDOS_API[comandoDe(n)], n).toBeDefined();
      for (const h of (OPERACIONES[n] as Operacion).herramientas ?? []) expect(COMANDOS_API[h.comando ?? comandoDe(n)], `${n}: ${h.titulo}`).toBeDefined();
    }
  });

  it('fills a path from a call’s input, encoding each parameter, and refuses a missing one', () => {
    expect(rutaCon(RUTAS.reenviar_entrega[1], { id: 3, entrega: 'ev_a/b', x: 1 })).toEqual(['/webhooks/3/entregas/ev_a%2Fb/reenviar', { x: 1 }]);
    expect(rutaCon(RUTAS.ver_deca[1], { id: '2026-000012' })).toEqual(['/decas/2026-000012', {}]);
    expect(() => rutaCon(RUTAS.emitir_deca[1], {})).toThrow(/id/);
  });
});
