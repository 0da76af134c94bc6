/**
 * DeCA PDF rendering figures: in-process latency (median of 50), PDF sizes,
 * and throughput of the worker pool sized to the machine's cores over ~5 s.
 * Run: npx tsx bench/pdf-render.ts  (or node --import tsx bench/pdf-render.ts)
 */
import os from 'node:os';
import { renderDecaPdf } from '../server/documents/deca-pdf';
import type { DecaPdfData, DecaPdfEnvio } from '../server/documents/deca-pdf-data';
import { createPdfPool } from '../server/documents/pdf-pool';

const RUNS = 50;
const POOL_SECONDS = 5;

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

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

async function timeInProcess(data: DecaPdfData): Promise<{ medianMs: number; bytes: number }> {
  let bytes = 0;
  for (let i = 0; i < 5; i++) bytes = (await renderDecaPdf(data)).byteLength; // warm-up (JIT, font tables)
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    await renderDecaPdf(data);
    times.push(performance.now() - start);
  }
  return { medianMs: median(times), bytes };
}

const one = await timeInProcess(buildDeca(1));
const many = await timeInProcess(buildDeca(48));
console.log(`render 1 envío, in-process, median of ${RUNS}: ${one.medianMs.toFixed(1)} ms`);
console.log(`render 48 envíos, in-process, median of ${RUNS}: ${many.medianMs.toFixed(1)} ms`);
console.log(`size 1 envío: ${one.bytes} bytes`);
console.log(`size 48 envíos: ${many.bytes} bytes`);

const workers = os.availableParallelism();
const pool = createPdfPool(workers);
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
  console.log(`pool of ${workers} workers, 1 envío: ${(done / seconds).toFixed(1)} renders/s (${done} in ${seconds.toFixed(1)} s)`);
} finally {
  await pool.close();
}
