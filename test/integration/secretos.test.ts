import { describe, expect, it } from 'vitest';
import { startTestApp } from '../support/app';
import { buildCuenta } from '../support/factories';

/**
 * The check every integration file runs when its app closes (test/support/app.ts):
 * no secret in a log line of the whole file, nor in an answer after the one that
 * made it. Here it is shown to catch what it is there to catch.
 */
describe('the secrets check of the suite', () => {
  it('finds an API key written to the server log', async () => {
    const app = await startTestApp();
    const c = await buildCuenta(app);
    app.services.log.info({ clave: c.live }, 'una línea que no debería existir');
    await expect(app.close()).rejects.toThrow(/Secretos a la vista:\nun registro del servidor lleva el secreto dg_live_/);
  });

  it('finds a webhook secret that comes back in a later answer', async () => {
    const app = await startTestApp();
    const c = await buildCuenta(app);
    const creado = await app.request('POST', '/api/v1/webhooks', { key: c.live, body: { url: 'https://93.184.216.34/x', eventos: ['deca.emitido'] } });
    expect(creado.status).toBe(201);
    // Stored by someone as a place of the address book, it is then served back.
    await app.request('POST', '/api/v1/agenda/lugares', { key: c.live, body: { texto: creado.body.webhook.secreto } });
    await app.request('GET', '/api/v1/agenda/lugares', { key: c.live });
    await expect(app.close()).rejects.toThrow(/GET \/api\/v1\/agenda\/lugares → 200: la respuesta lleva el secreto whsec_/);
  });

  it('finds no completion token in the request log: its path is logged with the token hidden', async () => {
    const app = await startTestApp();
    const c = await buildCuenta(app);
    const d = await app.request('POST', '/api/v1/decas', { key: c.live, body: { emitir: false, matricula: '1234BCD' } });
    const camino = new URL(d.body.deca.urls.completar).pathname;
    expect((await app.request('GET', camino)).status).toBe(200);
    await app.close();
  });
});
