/**
 * eFTI: an authority of the EU asks the national gate for a DeCA, the gate
 * asks this platform (a signed UIL query), and the account sees that access
 * in «Cuenta»: when, which gate, what it asked and which DeCA it was given.
 */
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/processes';
import { CHROMIUM, EFTI_SECRETO_E2E } from './browser';
import { archivoE2e, decaCompleta } from './flujos';

describe.skipIf(!CHROMIUM)('eFTI: an authority’s access, seen by the account', () => {
  const e2e = archivoE2e({ viewport: { width: 390, height: 844 }, politicas: true });

  it('a gate’s UIL query for an issued DeCA is answered and listed in «Cuenta» with the DeCA it returned', async () => {
    const { env } = e2e;
    const { page, api, cuenta } = await e2e.sesion({ clave: true });
    await page.goto(`${env.url}/cuenta`);
    await page.getByTestId('accesos-efti-vacio').waitFor();

    const { deca } = await api<{ deca: { id: number; numero: string } }>('POST', '/decas', decaCompleta());
    const dataset = await fetch(`${env.url}/api/v1/decas/${deca.id}/efti`, { headers: { authorization: `Bearer ${cuenta.clave}` } });
    expect(dataset.status).toBe(200);
    const uil = { gate: dataset.headers.get('efti-gate-id')!, plataforma: dataset.headers.get('efti-platform-id')!, id: dataset.headers.get('efti-dataset-id')! };
    const consulta = readFileSync(path.join(ROOT, 'server/efti/xsd/examples/uil-query.xml'), 'utf8')
      .replace('requestId="XXX"', `requestId="e2e-${Date.now()}"`)
      .replace('<gateId>FI1</gateId>', `<gateId>${uil.gate}</gateId>`)
      .replace('<platformId>xxx</platformId>', `<platformId>${uil.plataforma}</platformId>`)
      .replace('<datasetId>asdf</datasetId>', `<datasetId>${uil.id}</datasetId>`)
      .replace('<subsetId>FI</subsetId>', '<subsetId>ES01</subsetId>');
    const t = Math.floor(Date.now() / 1000);
    const firma = createHmac('sha256', EFTI_SECRETO_E2E).update(`${t}.${uil.gate}.POST /efti/consultas.`).update(consulta).digest('hex');
    const r = await fetch(`${env.url}/efti/consultas`, {
      method: 'POST',
      headers: { 'content-type': 'application/xml', 'efti-gate-id': uil.gate, 'efti-firma': `t=${t},v1=${firma}` },
      body: consulta,
    });
    expect(r.status, await r.clone().text()).toBe(200);
    expect(await r.text()).toContain(deca.numero);

    await page.reload();
    const lista = page.getByTestId('accesos-efti');
    await lista.waitFor();
    const texto = await lista.textContent();
    expect(texto).toContain(`pasarela ${uil.gate}`);
    expect(texto).toContain(`Consultó el documento por su identificador eFTI (ES01): DeCA ${deca.numero} (versión 1)`);
  });
});
