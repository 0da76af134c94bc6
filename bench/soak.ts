/**
 * Soak: the real server (a child process, PGlite, or PostgreSQL with
 * BENCH_DATABASE_URL) under a steady mixed workload (mezcla.ts) for 10
 * minutes, with a webhook subscribed to every event so that the delivery
 * worker runs too. Inside the server a probe (sonda.mjs) samples memory,
 * libuv handles and requests, and open file descriptors every 10 s. Prints
 * the samples as a table, the growth after the warm-up (the first 2
 * minutes), and draws them in docs/soak.png (docs/soak-postgresql.png). Plain figures, no pass/fail.
 * Run: npx tsx bench/soak.ts (SOAK_SEGUNDOS, SOAK_RITMO requests/s).
 */

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import sharp from 'sharp';
import { ROOT } from '../test/support/processes';
import { fmt, postgresDatabaseUrl, runCliIn, startScript } from './lib';
import { prepararMezcla } from './mezcla';

const SEGUNDOS = Number(process.env.SOAK_SEGUNDOS ?? 600);
const RITMO = Number(process.env.SOAK_RITMO ?? 40);
const CADA_MS = 10_000;
const CALENTAMIENTO_S = Math.min(120, SEGUNDOS / 5);

interface Muestra {
  /** Seconds since the run started. */
  s: number;
  rss: number;
  heap: number;
  externa: number;
  recursos: Record<string, number>;
  fds: number;
}

const MB = (b: number) => b / 1024 / 1024;
const manejadores = (m: Muestra) => Object.values(m.recursos).reduce((a, b) => a + b, 0);

/** Least-squares slope of `y` over `x`, per unit of `x`. */
function pendiente(x: number[], y: number[]): number {
  const n = x.length;
  const mx = x.reduce((a, b) => a + b, 0) / n;
  const my = y.reduce((a, b) => a + b, 0) / n;
  let num = 0;
  let den = 0;
  for (let i = 0; i < n; i++) {
    num += (x[i]! - mx) * (y[i]! - my);
    den += (x[i]! - mx) ** 2;
  }
  return den === 0 ? 0 : num / den;
}

/** A receiver for the webhook: answers 200 to everything, counts what it got. */
async function receptor(): Promise<{ url: string; recibidos: () => number; close(): Promise<void> }> {
  let n = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      n++;
      res.end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/soak`,
    recibidos: () => n,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

/** The top of an axis with four round steps (1, 2, 2.5 or 5 × 10ⁿ each) above `v`. */
function escala(v: number): number {
  const bruto = Math.max(v, 1) / 4;
  const base = 10 ** Math.floor(Math.log10(bruto));
  const paso = [1, 2, 2.5, 5, 10].map((k) => k * base).find((p) => p >= bruto)!;
  return paso * 4;
}

/** The samples drawn as two panels (memory in MB; handles and descriptors), minutes on the x axis. */
function svg(muestras: Muestra[], titulo: string): string {
  const W = 1200;
  const H = 700;
  const izq = 80;
  const der = 40;
  const paneles = [
    {
      y0: 60,
      alto: 280,
      unidad: 'MB',
      series: [
        { nombre: 'RSS', color: '#c0392b', v: muestras.map((m) => MB(m.rss)) },
        { nombre: 'heap usado', color: '#2471a3', v: muestras.map((m) => MB(m.heap)) },
        { nombre: 'externa + ArrayBuffer', color: '#7d3c98', v: muestras.map((m) => MB(m.externa)) },
      ],
    },
    {
      y0: 400,
      alto: 240,
      unidad: 'n.º',
      series: [
        { nombre: 'manejadores y peticiones activos', color: '#1e8449', v: muestras.map(manejadores) },
        { nombre: 'descriptores de archivo', color: '#b9770e', v: muestras.map((m) => m.fds) },
      ],
    },
  ];
  const tMax = Math.max(...muestras.map((m) => m.s), 1);
  const x = (s: number) => izq + ((W - izq - der) * s) / tMax;
  const partes: string[] = [`<rect width="${W}" height="${H}" fill="#fff"/>`, `<text x="${izq}" y="32" font-family="DejaVu Sans, sans-serif" font-size="20" fill="#111">${titulo}</text>`];
  for (const p of paneles) {
    const max = escala(Math.max(...p.series.flatMap((s) => s.v)));
    const y = (v: number) => p.y0 + p.alto - (p.alto * v) / max;
    partes.push(`<rect x="${izq}" y="${p.y0}" width="${W - izq - der}" height="${p.alto}" fill="none" stroke="#999"/>`);
    for (let k = 0; k <= 4; k++) {
      const v = (max * k) / 4;
      partes.push(
        `<line x1="${izq}" x2="${W - der}" y1="${y(v)}" y2="${y(v)}" stroke="#eee"/>`,
        `<text x="${izq - 8}" y="${y(v) + 5}" text-anchor="end" font-family="DejaVu Sans, sans-serif" font-size="13" fill="#444">${fmt(v, max < 10 ? 1 : 0)}</text>`,
      );
    }
    partes.push(
      `<text x="16" y="${p.y0 + p.alto / 2}" font-family="DejaVu Sans, sans-serif" font-size="14" fill="#444" transform="rotate(-90 16 ${p.y0 + p.alto / 2})" text-anchor="middle">${p.unidad}</text>`,
    );
    // The warm-up, shaded.
    partes.push(`<rect x="${izq}" y="${p.y0}" width="${x(CALENTAMIENTO_S) - izq}" height="${p.alto}" fill="#f4f4f4"/>`);
    p.series.forEach((s, i) => {
      const puntos = s.v.map((v, j) => `${x(muestras[j]!.s).toFixed(1)},${y(v).toFixed(1)}`).join(' ');
      partes.push(
        `<polyline points="${puntos}" fill="none" stroke="${s.color}" stroke-width="2.5"/>`,
        `<rect x="${izq + 12 + i * 300}" y="${p.y0 + 10}" width="14" height="14" fill="${s.color}"/>`,
        `<text x="${izq + 32 + i * 300}" y="${p.y0 + 22}" font-family="DejaVu Sans, sans-serif" font-size="14" fill="#222">${s.nombre}</text>`,
      );
    });
  }
  for (let m = 0; m <= tMax / 60; m++) {
    partes.push(`<text x="${x(m * 60)}" y="${H - 36}" text-anchor="middle" font-family="DejaVu Sans, sans-serif" font-size="13" fill="#444">${m}</text>`);
  }
  partes.push(`<text x="${(W + izq) / 2}" y="${H - 12}" text-anchor="middle" font-family="DejaVu Sans, sans-serif" font-size="14" fill="#444">minutos (sombreado: calentamiento)</text>`);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}">${partes.join('')}</svg>`;
}

async function soak(nombre: string, env: Record<string, string>): Promise<void> {
  const sondas = mkdtempSync(path.join(os.tmpdir(), 'deca-soak-sonda-'));
  const archivo = path.join(sondas, 'muestras.jsonl');
  const rx = await receptor();
  const cuenta = JSON.parse(await runCliIn(ROOT, ['account:create', '--company', 'Soak SL', '--nif', 'B12345674', '--plan', 'pro'], env)) as { cuenta: { id: number } };
  const key = (JSON.parse(await runCliIn(ROOT, ['key:create', '--account', String(cuenta.cuenta.id), '--env', 'live'], env)) as { key: string }).key;
  const server = await startScript(
    'server/main.ts',
    { ...env, PORT: '0', HOST: '127.0.0.1', API_RATE_LIMIT: '1000000', LOG_LEVEL: 'error', WEBHOOK_ALLOW_INSECURE: '1', SONDA_ARCHIVO: archivo, SONDA_MS: String(CADA_MS) },
    ['--import', pathToFileURL(path.join(ROOT, 'bench/sonda.mjs')).href],
  );
  try {
    const wh = await fetch(`${server.url}/api/v1/webhooks`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: rx.url, eventos: ['*'] }),
    });
    if (wh.status !== 201) throw new Error(`webhook: ${wh.status} ${await wh.text()}`);
    // Enough for the replace and end requests of the whole run (one in 20, half each).
    const previas = Math.ceil((SEGUNDOS * RITMO) / 40);
    console.log(`${nombre}: preparando ${previas * 3} DeCA emitidas…`);
    const { requests, porTipo } = await prepararMezcla(server.url, key, previas);
    // The samples of the run only: the probe's file starts again now.
    rmSync(archivo, { force: true });
    const inicio = Date.now();
    console.log(`${nombre}: ${SEGUNDOS} s a ${RITMO} peticiones/s…`);
    const r = await autocannon({ url: server.url, connections: 10, overallRate: RITMO, duration: SEGUNDOS, requests });
    await new Promise((res) => setTimeout(res, 1_000));
    const muestras = readFileSync(archivo, 'utf8')
      .trim()
      .split('\n')
      .map((l) => {
        const { t, ...m } = JSON.parse(l) as Omit<Muestra, 's'> & { t: number };
        return { s: Math.round((t - inicio) / 1000), ...m };
      });
    const carga = os
      .loadavg()
      .map((v) => v.toFixed(2))
      .join(' ');
    console.log(
      `\n${nombre}: ${fmt(r.requests.total)} peticiones (${fmt(r.requests.average)}/s), p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms, errores ${r.errors + r.timeouts}, no 2xx ${r.non2xx}; ${fmt(rx.recibidos())} webhooks entregados; carga de la máquina ${carga}`,
    );
    console.log(
      `mezcla: ${Object.entries(porTipo)
        .map(([t, k]) => `${t} ${k}`)
        .join(', ')}\n`,
    );
    console.log('   s   RSS MB  heap MB  ext. MB  manejadores  fds  (manejadores por tipo)');
    for (const m of muestras) {
      const tipos = Object.entries(m.recursos)
        .map(([t, k]) => `${t} ${k}`)
        .join(', ');
      console.log(
        `${String(m.s).padStart(4)}  ${fmt(MB(m.rss), 1).padStart(7)}  ${fmt(MB(m.heap), 1).padStart(7)}  ${fmt(MB(m.externa), 1).padStart(7)}  ${String(manejadores(m)).padStart(11)}  ${String(m.fds).padStart(3)}  (${tipos})`,
      );
    }
    const tras = muestras.filter((m) => m.s >= CALENTAMIENTO_S);
    if (tras.length >= 2) {
      const t = tras.map((m) => m.s / 60);
      const primera = tras[0]!;
      const ultima = tras.at(-1)!;
      const rango = (f: (m: Muestra) => number) => `${Math.min(...tras.map(f))}–${Math.max(...tras.map(f))}`;
      console.log(`\ntras el calentamiento (${CALENTAMIENTO_S} s, ${tras.length} muestras):`);
      console.log(
        `  RSS ${fmt(MB(primera.rss), 1)} → ${fmt(MB(ultima.rss), 1)} MB, tendencia ${fmt(
          MB(
            pendiente(
              t,
              tras.map((m) => m.rss),
            ),
          ),
          2,
        )} MB/min`,
      );
      console.log(
        `  heap ${fmt(MB(primera.heap), 1)} → ${fmt(MB(ultima.heap), 1)} MB, tendencia ${fmt(
          MB(
            pendiente(
              t,
              tras.map((m) => m.heap),
            ),
          ),
          2,
        )} MB/min`,
      );
      console.log(`  manejadores ${rango(manejadores)}, descriptores ${rango((m) => m.fds)}`);
    }
    const titulo = `DeCA · soak de ${fmt(SEGUNDOS / 60, 0)} min en ${nombre}: ${fmt(r.requests.total)} peticiones a ${RITMO}/s, ${r.errors + r.timeouts} errores`;
    const grafico = path.join(ROOT, env.DATABASE_URL ? 'docs/soak-postgresql.png' : 'docs/soak.png');
    await sharp(Buffer.from(svg(muestras, titulo)))
      .png()
      .toFile(grafico);
    console.log(`\ngráfico: ${path.relative(ROOT, grafico)}`);
  } finally {
    await server.stop();
    await rx.close();
    rmSync(sondas, { recursive: true, force: true });
  }
}

const pgUrl = process.env.BENCH_DATABASE_URL;
if (pgUrl) {
  const db = await postgresDatabaseUrl(pgUrl, 'deca_soak');
  try {
    await soak('PostgreSQL', { DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'deca-soak-pg-')), DATABASE_URL: db.url });
  } finally {
    await db.drop();
  }
} else {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'deca-soak-'));
  try {
    await soak('PGlite', { DATA_DIR: dataDir });
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
