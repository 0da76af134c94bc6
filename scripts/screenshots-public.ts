/**
 * Screenshots of the public pages (inspector's ficha, driver's page) at a
 * phone's 390×844, for the README. Run: npx tsx scripts/screenshots-public.ts
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { buildIfStale } from '../test/e2e/global-setup';
import { freePort, ROOT, runCli, startServerProcess } from '../test/support/processes';

buildIfStale();

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'deca-shots-'));
const port = String(await freePort());
const env = { DATA_DIR: dataDir, PORT: port, SITE_URL: `http://127.0.0.1:${port}` };
try {
  const cuenta = JSON.parse((await runCli(['account:create', '--company', 'Transportes Núñez, S.L.', '--nif', 'B12345674', '--address', 'Avda. de la Ilustración 7, 50012 Zaragoza'], env)).stdout);
  const server = await startServerProcess(env);
  try {
    const key = JSON.parse((await runCli(['key:create', '--account', String(cuenta.cuenta.id), '--env', 'live'], env)).stdout).key as string;
    const res = await fetch(`${server.url}/api/v1/decas`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        cargador_nombre: 'Frutas Peñalara, S.A.',
        cargador_nif: 'A58818501',
        cargador_domicilio: 'Camí Vell 3, 25001 Lleida',
        fecha_transporte: '2026-11-23',
        matricula: '1234 BCD',
        matricula_remolque: 'R-5678-BBC',
        conductor_nombre: 'José Ángel Muñoz',
        envios: [
          { origen: 'Lleida', destino: 'Mercamálaga, Málaga', naturaleza: 'Melocotón en cajas', peso: '18.500' },
          { origen: 'Lleida', destino: 'Córdoba', naturaleza: 'Peras conferencia', peso: '4,2 t' },
        ],
      }),
    });
    const { deca } = (await res.json()) as { deca: { id: number; urls: { ficha: string; conductor: string } } };
    // A method-1 change: the inspector's page says what changed and when.
    await fetch(`${server.url}/api/v1/decas/${deca.id}`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ matricula: '4321 BCF', motivo: 'Avería de la tractora en Fraga' }),
    });
    const local = (u: string) => `${server.url}${new URL(u).pathname}`;
    const browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--disable-dev-shm-usage',
      ],
    });
    const page = await browser.newPage({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2 });
    await page.goto(local(deca.urls.ficha));
    await page.screenshot({ path: path.join(ROOT, 'docs/ficha.png') });
    await page.goto(local(deca.urls.conductor));
    await page.screenshot({ path: path.join(ROOT, 'docs/conductor.png') });
    await browser.close();
    console.log('docs/ficha.png, docs/conductor.png');
  } finally {
    await server.stop();
  }
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
