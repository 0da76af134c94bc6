/**
 * JSON bodies whose cost is in their shape rather than their bytes: nested
 * too deep, or holding too many values. Refused with 413 before they are
 * parsed (128,000 nested arrays in a 256 KB body made a 500; 4 MB of them on
 * /mcp held the whole server for almost a second), on REST and MCP alike;
 * what is inside a string counts for nothing.
 */
import { describe, expect } from 'vitest';
import { JSON_ELEMENTOS_MAXIMOS, JSON_PROFUNDIDAD_MAXIMA } from '../../server/http/middleware/body';
import { it } from '../support/fixtures';

const anidado = (niveles: number) => `{"envios":${'['.repeat(niveles - 1)}${']'.repeat(niveles - 1)}}`;
/** `{"envios":[0,0,…]}`: n zeros make n + 2 elements (the object, its key, the list, a value per comma). */
const ceros = (n: number) => `{"envios":[${Array(n).fill('0').join(',')}]}`;

describe('JSON bodies', () => {
  it(`refuses more than ${JSON_PROFUNDIDAD_MAXIMA} levels of nesting with 413, and leaves ${JSON_PROFUNDIDAD_MAXIMA} to the schema`, async ({ app, c }) => {
    const hondo = await app.request('POST', '/api/v1/decas', { key: c.live, body: anidado(JSON_PROFUNDIDAD_MAXIMA + 1) });
    expect(hondo.status).toBe(413);
    expect(hondo.body.error).toMatchObject({
      codigo: 'demasiado_grande',
      mensaje: `El JSON anida más de ${JSON_PROFUNDIDAD_MAXIMA} niveles de objetos o listas: ninguna petición de este servicio necesita tantos.`,
    });
    const justo = await app.request('POST', '/api/v1/decas', { key: c.live, body: anidado(JSON_PROFUNDIDAD_MAXIMA) });
    expect(justo.status).toBe(422);
    // What made a 500 before: recursion over 128,000 levels.
    expect((await app.request('POST', '/api/v1/decas', { key: c.live, body: anidado(128_000) })).status).toBe(413);
  });

  it(`refuses more than ${JSON_ELEMENTOS_MAXIMOS.toLocaleString('en')} values with 413, on REST and on MCP`, async ({ app, c }) => {
    const muchos = await app.request('POST', '/api/v1/decas', { key: c.live, body: ceros(JSON_ELEMENTOS_MAXIMOS - 1) });
    expect(muchos.status).toBe(413);
    expect(muchos.body.error.mensaje).toBe('El JSON tiene más de 10.000 valores: ninguna petición de este servicio necesita tantos; envíe los datos en varias peticiones.');
    expect((await app.request('POST', '/api/v1/decas', { key: c.live, body: ceros(JSON_ELEMENTOS_MAXIMOS - 2) })).status).toBe(422);

    const lote = JSON.stringify(Array.from({ length: 3000 }, (_, id) => ({ jsonrpc: '2.0', id, method: 'tools/list' })));
    const mcp = await fetch(`${app.url}/mcp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${c.live}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: lote,
    });
    expect(mcp.status).toBe(413);
    expect(((await mcp.json()) as { error: { codigo: string } }).error.codigo).toBe('demasiado_grande');
  });

  it('counts nothing inside strings: a text full of brackets, commas, colons and escaped quotes is one value', async ({ app, c }) => {
    const texto = `\\"[{,:}]`.repeat(6000);
    const res = await app.request('POST', '/api/v1/decas', { key: c.live, body: `{"solo_validar":true,"observaciones":"${texto}","envios":[]}` });
    expect(res.status, res.text).not.toBe(413);
  });
});
