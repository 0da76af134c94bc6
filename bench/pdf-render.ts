/**
 * DeCA PDF rendering figures: in-process time per document (median of 50)
 * and documents/s, PDF sizes, the seal's own time per document (apart from
 * the render), and throughput of the worker pool (render + seal, as the
 * server stores them) sized to the machine's cores over ~5 s. The machine's load average is printed with them,
 * since a busy machine slows every figure.
 *
 * The QR is drawn as vectors; the former way, a PNG placed as an image, is
 * kept below only to be measured against it in the same run (the two
 * alternate, so drift in the machine's load hits both alike).
 *
 * With BENCH_ANTES=<git revision> the renderer of that revision is timed in
 * the same runs (alternating), e.g. before PDF/A: BENCH_ANTES=c74cbe6.
 *
 * Run: npx tsx bench/pdf-render.ts  (or node --import tsx bench/pdf-render.ts)
 */
import os from 'node:os';
import { type QrDrawer, renderDecaPdf } from '../server/documents/deca-pdf';
import { createPdfPool } from '../server/documents/pdf-pool';
import { renderQrPng } from '../server/documents/qr';
import { crearSellador, generarSelloAutofirmado } from '../server/documents/sello';
import type { DecaPdfData, DecaPdfEnvio } from '../shared/pdf/deca-pdf-data';
import { checkout, median, revisionAnterior } from './lib';

const RUNS = 50;
const POOL_SECONDS = 5;

// ---------------------------------------------------------------------------
// FOR COMPARISON ONLY — the previous QR drawing, no longer used by the server:
// a 256 px PNG (6 px per module for a typical ficha URL, 2-module margin)
// placed in the 40 mm square with addImage, which makes jsPDF decode the PNG
// and re-compress its pixels on every render. The rest of the document is the
// current renderer's, so the difference between the two is the QR's alone.
const PNG_ANTERIOR_PX = 256;
const drawQrPngAnterior: QrDrawer = async (doc, url, x, y, size) => {
  const png = await renderQrPng(url, PNG_ANTERIOR_PX);
  doc.addImage(png, 'PNG', x, y, size, size, 'qr-ficha');
};
// ---------------------------------------------------------------------------

function buildEnvios(count: number): DecaPdfEnvio[] {
  return Array.from({ length: count }, (_, i) => ({
    origen: `Polígono Industrial El Señorío, nave ${i + 1}, Alcalá de Henares (Madrid)`,
    destino: `Mercazaragoza, puesto ${i + 1}, Zaragoza`,
    naturaleza: 'Frutos secos: piñones, almendras y ñoras en sacos de 25 kg',
    peso: 1000 + i * 1234.25,
    unidad: 'kg',
    nota: i % 3 === 0 ? 'Entregar antes de las 8:00 por el muelle norte; avisar al encargado de recepción' : null,
  }));
}

function buildDeca(envios: number, numero = '2025-000123'): DecaPdfData {
  return {
    entorno: 'produccion',
    numero,
    version: 2,
    estado: 'emitido',
    cargador_nombre: 'Transportes Peñalara, S.L.',
    cargador_nif: 'B12345678',
    cargador_domicilio: "Camí de l'Àngel 3, Lleida",
    transp_nombre: 'Logística Güeñes Ibérica, S.A.',
    transp_nif: 'A87654321',
    transp_domicilio: 'Avenida de Castilla 12, Burgos',
    fecha_transporte: '2025-11-21',
    tipo_vehiculo: 'articulado',
    matricula: '1234 BCD',
    matricula_remolque: 'R-5678-BBC',
    autorizacion_especial: null,
    conductor_nombre: 'José Núñez Öller',
    observaciones: '¿Frágil? ¡Sí! 3º piso, 15 €',
    referencia: 'Pedido 4711',
    envios: buildEnvios(envios),
    emitido_at: '2025-11-20 18:05:09',
    modificado_at: '2025-11-21 07:45:00',
    motivo_modificacion: 'Cambio de matrícula por avería',
    sustituye_a: null,
    ficha_url: 'https://deca.example.es/ficha/2025-000123?t=Zx81kPq0aB7cD9eF3gH5',
  };
}

interface Timing {
  medianMs: number;
  bytes: number;
}

// A self-signed RSA 2048 seal, as a deployment without SEAL_P12 has: the render leaves its exact room.
const sello = generarSelloAutofirmado('bench', new Date());
const sellador = crearSellador(sello);
const capacidadSello = sellador.capacidad;

type Render = (data: DecaPdfData) => Promise<Uint8Array>;
const WAYS: [string, Render][] = [
  ['current (PDF/A-2b, fonts cut to the document, QR as vectors)', (d) => renderDecaPdf(d, { capacidadSello })],
  ['QR as PNG image (previous QR, for comparison)', (d) => renderDecaPdf(d, { capacidadSello, drawQr: drawQrPngAnterior })],
];

// The renderer of an earlier revision, timed alternately with this one.
const rev = revisionAnterior();
const antes = rev ? checkout(rev) : null;
if (antes) {
  const mod = (await import(`${antes.root}/server/documents/deca-pdf.ts`)) as { renderDecaPdf: Render };
  WAYS.push([`renderer at ${rev} (before)`, (d) => mod.renderDecaPdf(d)]);
}

/** Median render time of each way, runs alternating between them (drift in the machine's load hits all alike). */
async function timeInProcess(data: DecaPdfData): Promise<Timing[]> {
  const bytes = WAYS.map(() => 0);
  const times: number[][] = WAYS.map(() => []);
  for (let i = 0; i < 5; i++) {
    // warm-up (JIT, font tables)
    for (const [w, [, render]] of WAYS.entries()) bytes[w] = (await render(data)).byteLength;
  }
  for (let i = 0; i < RUNS; i++) {
    for (const [w, [, render]] of WAYS.entries()) {
      const start = performance.now();
      await render(data);
      times[w]!.push(performance.now() - start);
    }
  }
  return WAYS.map((_, w) => ({ medianMs: median(times[w]!), bytes: bytes[w]! }));
}

const loadAverage = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
console.log(`load average (1, 5, 15 min) at start: ${loadAverage()}; ${os.availableParallelism()} cores`);
for (const envios of [1, 48]) {
  const timings = await timeInProcess(buildDeca(envios));
  timings.forEach(({ medianMs, bytes }, w) => {
    console.log(
      `render ${envios} envío${envios === 1 ? '' : 's'}, in-process, ${WAYS[w]![0]}: ` +
        `${medianMs.toFixed(2)} ms per document (median of ${RUNS}), ${(1000 / medianMs).toFixed(0)} documents/s, ${bytes} bytes`,
    );
  });
  const [vectors, png, anterior] = timings as [Timing, Timing, Timing | undefined];
  console.log(
    `  vectors vs PNG, ${envios} envío${envios === 1 ? '' : 's'}: ${(png.medianMs / vectors.medianMs).toFixed(1)}× faster, ${(png.medianMs - vectors.medianMs).toFixed(2)} ms less per document`,
  );
  if (anterior) {
    console.log(
      `  current vs ${rev}, ${envios} envío${envios === 1 ? '' : 's'}: ${(vectors.medianMs - anterior.medianMs).toFixed(2)} ms more per document (${((vectors.medianMs / anterior.medianMs - 1) * 100).toFixed(0)}%)`,
    );
  }
}

// The seal, timed apart from the render.
for (const envios of [1, 48]) {
  const pdf = await renderDecaPdf(buildDeca(envios), { capacidadSello });
  for (let i = 0; i < 20; i++) await sellador.sellar(pdf); // warm-up
  const times: number[] = [];
  for (let i = 0; i < RUNS * 4; i++) {
    const start = performance.now();
    await sellador.sellar(pdf);
    times.push(performance.now() - start);
  }
  console.log(`seal ${envios} envío${envios === 1 ? '' : 's'} (PAdES B-B, RSA 2048), in-process: ${median(times).toFixed(2)} ms per document (median of ${RUNS * 4}; target ≤ 3 ms)`);
}

const workers = os.availableParallelism();
const pool = createPdfPool({ sello, size: workers });
try {
  const data = buildDeca(1);
  await Promise.all(Array.from({ length: workers * 2 }, () => pool.render(data))); // workers started and warm
  let done = 0;
  const start = performance.now();
  const deadline = start + POOL_SECONDS * 1000;
  // Two jobs in flight per worker, so no worker waits for the main thread.
  await Promise.all(
    Array.from({ length: workers * 2 }, async (_, lane) => {
      while (performance.now() < deadline) {
        await pool.render({ ...data, numero: `2025-${String(lane * 100_000 + done).padStart(6, '0')}` });
        done++;
      }
    }),
  );
  const seconds = (performance.now() - start) / 1000;
  console.log(`pool of ${workers} workers, 1 envío, render + seal: ${(done / seconds).toFixed(1)} documents/s (${done} in ${seconds.toFixed(1)} s)`);
} finally {
  await pool.close();
}
antes?.remove();
console.log(`load average (1, 5, 15 min) at end: ${loadAverage()}`);
