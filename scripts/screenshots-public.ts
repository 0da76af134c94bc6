/**
 * Screenshots of the public pages at a phone's 390×844, for the README: the
 * officer's first screen as it opens from the QR with JavaScript off, of a
 * modified DeCA (docs/img/agente-ficha.png) and of one issued with no
 * coverage, before its phone syncs (docs/img/agente-sin-cobertura.png), and
 * the driver's page (docs/conductor.png).
 * Run: npx tsx scripts/screenshots-public.ts
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { buildIfStale } from '../test/e2e/global-setup';
import { qrSinCobertura } from '../test/support/dispositivos';
import { freePort, ROOT, runCli, startServerProcess } from '../test/support/processes';

buildIfStale();

/** A trip as it is on the road: a trailer, two shipments, a weight with decimals. */
const CUERPO = {
  cargador_nombre: 'Frutas Peñalara, S.A.',
  cargador_nif: 'A58818501',
  cargador_domicilio: 'Camí Vell 3, 25001 Lleida',
  fecha_transporte: '2026-11-23',
  matricula: '1234 BCD',
  matricula_remolque: 'R-5678-BBC',
  conductor_nombre: 'José Ángel Muñoz',
  envios: [
    { origen: 'Mercazaragoza, Zaragoza', destino: 'Mercamálaga, Málaga', naturaleza: 'Melocotón en cajas', peso: '18.500,5' },
    { origen: 'Lleida', destino: 'Córdoba', naturaleza: 'Peras conferencia', peso: '4,2 t' },
  ],
};

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'deca-shots-'));
const port = String(await freePort());
const env = { DATA_DIR: dataDir, PORT: port, SITE_URL: `http://127.0.0.1:${port}` };
try {
  const usuario = { email: 'trafico@example.com', password: 'una-clave-larga-de-capturas' };
  const cuenta = JSON.parse(
    (
      await runCli(
        [
          'account:create',
          '--company',
          'Transportes Núñez, S.L.',
          '--nif',
          'B12345674',
          '--address',
          'Avda. de la Ilustración 7, 50012 Zaragoza',
          '--email',
          usuario.email,
          '--password',
          usuario.password,
        ],
        env,
      )
    ).stdout,
  );
  const server = await startServerProcess(env);
  try {
    const key = JSON.parse((await runCli(['key:create', '--account', String(cuenta.cuenta.id), '--env', 'live'], env)).stdout).key as string;
    const res = await fetch(`${server.url}/api/v1/decas`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(CUERPO),
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
    // The officer's phone: JavaScript off, as the pages are made for.
    const agente = await browser.newPage({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, javaScriptEnabled: false });
    mkdirSync(path.join(ROOT, 'docs/img'), { recursive: true });
    await agente.goto(local(deca.urls.ficha));
    await agente.screenshot({ path: path.join(ROOT, 'docs/img/agente-ficha.png') });
    await agente.goto(await qrSinCobertura(server.url, usuario, { ...CUERPO, transp_nombre: 'Transportes Núñez, S.L.', transp_nif: 'B12345674' }));
    await agente.getByText('✓ Firma del dispositivo verificada').waitFor();
    await agente.screenshot({ path: path.join(ROOT, 'docs/img/agente-sin-cobertura.png') });
    const page = await browser.newPage({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2 });
    await page.goto(local(deca.urls.conductor));
    await page.screenshot({ path: path.join(ROOT, 'docs/conductor.png') });
    await browser.close();
    console.log('docs/img/agente-ficha.png, docs/img/agente-sin-cobertura.png, docs/conductor.png');
  } finally {
    await server.stop();
  }
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
