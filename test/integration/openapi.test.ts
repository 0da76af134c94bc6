import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect } from 'vitest';
import { CODIGO_STATUS } from '../../shared/errors';
import { DecaInput } from '../../shared/schemas/deca';
import { routerApi } from '../../server/app';
import { it } from '../support/fixtures';

type Operacion = { parameters?: { in: string; name: string }[]; responses: Record<string, { content?: Record<string, { example?: unknown }> }>; requestBody?: { content: Record<string, { example?: unknown }> }; operationId: string };
type Documento = { openapi: string; servers: { url: string }[]; paths: Record<string, Record<string, Operacion>>; webhooks: Record<string, unknown>; components: { securitySchemes: Record<string, unknown> } };

describe('the OpenAPI document', () => {
  it('is served with no key for each environment, and is valid OpenAPI 3.1', async ({ app }) => {
    for (const [ruta, base] of [
      ['/api/v1/openapi.json', '/api/v1'],
      ['/demo/api/v1/openapi.json', '/demo/api/v1'],
    ] as const) {
      const res = await app.request<Documento>('GET', ruta);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/application\/json/);
      const doc = res.body;
      expect(doc.openapi).toBe('3.1.0');
      expect(doc.servers.map((s) => s.url)).toEqual([`${app.config.siteUrl}${base}`]);
      const r = await new Validator().validate(structuredClone(doc) as unknown as Parameters<Validator['validate']>[0]);
      expect(r.errors ?? []).toEqual([]);
      expect(r.valid).toBe(true);
    }
  });

  it('documents every route the server registers under the API, and nothing it does not serve', async ({ app }) => {
    const router = routerApi({ config: app.config, services: app.services });
    const servidas = new Set(
      router.stack.flatMap((l) => l.methods.filter((m) => m !== 'HEAD').map((m) => `${m.toLowerCase()} ${String(l.path).replace(/:(\w+)/g, '{$1}')}`)),
    );
    const doc = (await app.request<Documento>('GET', '/api/v1/openapi.json')).body;
    const documentadas = new Set(Object.entries(doc.paths).flatMap(([ruta, ops]) => Object.keys(ops).map((m) => `${m} ${ruta}`)));
    expect([...servidas].filter((s) => !documentadas.has(s))).toEqual([]);
    expect([...documentadas].filter((d) => !servidas.has(d))).toEqual([]);
    expect(servidas.size).toBeGreaterThan(30);
  });

  it('gives every operation its answers: success, 401, 422, 429, and the rest where they apply, each with the error body', async ({ app, c }) => {
    const doc = (await app.request<Documento>('GET', '/api/v1/openapi.json')).body;
    const ids = new Set<string>();
    for (const [ruta, ops] of Object.entries(doc.paths)) {
      for (const [metodo, op] of Object.entries(ops)) {
        const donde = `${metodo} ${ruta}`;
        expect(ids.has(op.operationId), donde).toBe(false);
        ids.add(op.operationId);
        const estados = Object.keys(op.responses);
        expect(estados.some((e) => e === '200' || e === '201'), donde).toBe(true);
        for (const e of ['401', '422', '429']) expect(estados, donde).toContain(e);
        if (ruta.includes('{id}')) {
          expect(estados, donde).toContain('404');
          expect(op.parameters?.some((p) => p.in === 'path' && p.name === 'id'), donde).toBe(true);
        }
        if (metodo !== 'get') expect(estados, donde).toContain('403');
        for (const e of estados.filter((x) => Number(x) >= 400)) {
          const ejemplo = op.responses[e]?.content?.['application/json']?.example as { error: { codigo: keyof typeof CODIGO_STATUS } };
          expect(CODIGO_STATUS[ejemplo.error.codigo], `${donde} ${e}`).toBe(Number(e));
        }
      }
    }
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual(['apiKey', 'bearer']);
    expect(Object.keys(doc.webhooks)).toEqual(expect.arrayContaining(['deca.emitido', 'deca.modificado', 'ping']));
    // The example of a DeCA is one the API takes: issued as it is.
    const ejemplo = doc.paths['/decas']?.post?.requestBody?.content['application/json']?.example;
    expect(DecaInput.safeParse(ejemplo).success).toBe(true);
    const creada = await app.request('POST', '/demo/api/v1/decas', { key: c.test, body: ejemplo });
    expect(creada.status, creada.text).toBe(201);
    expect(creada.body.deca.estado).toBe('emitido');
  });

  it('serves the reference page and its renderer from this server, under a CSP of its own', async ({ app }) => {
    const pagina = await app.request('GET', '/docs');
    expect(pagina.status).toBe(200);
    expect(pagina.headers.get('content-security-policy')).toContain("script-src 'self'");
    for (const src of pagina.text.match(/(?:src|href)="(\/docs\/[^"]+)"/g)!.map((m) => m.split('"')[1]!)) {
      const r = await app.request('GET', src);
      expect(r.status, src).toBe(200);
      expect(r.text.length, src).toBeGreaterThan(100);
    }
    expect(pagina.text).not.toMatch(/https?:\/\//);
  });
});
