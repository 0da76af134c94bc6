/**
 * Worker-thread entry of the PDF pool (see pdf-pool.ts): renders and seals
 * one `DocumentoPdfData` (a DeCA's version or a delivery's receipt) per message and hands the bytes back by transfer, not
 * copy. Rendering and sealing are CPU-bound (a few ms), so doing them here
 * keeps the HTTP thread free.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { crearSellador, type DocumentoPdfData, type MaterialSello, renderYSellar } from './sello';

/** What the pool starts each worker with. */
export interface PdfWorkerData {
  entry: string;
  tsxApi: string | null;
  sello: MaterialSello;
}

/** What the pool sends: one job at a time per worker. */
export interface PdfJobMessage {
  id: number;
  data: DocumentoPdfData;
}

/** What the worker answers; `ready` once, when its modules have loaded. */
export type PdfWorkerMessage = { kind: 'ready' } | { kind: 'done'; id: number; bytes: ArrayBuffer } | { kind: 'failed'; id: number; message: string; stack: string | undefined };

const port = parentPort;
if (!port) throw new Error('pdf-worker.ts runs only as a worker thread; use createPdfPool() from pdf-pool.ts');
// The key and certificates are parsed once, for every document this worker seals.
const sellador = crearSellador((workerData as PdfWorkerData).sello);

port.on('message', async ({ id, data }: PdfJobMessage) => {
  let reply: PdfWorkerMessage;
  let transfer: ArrayBuffer[] = [];
  try {
    const bytes = await renderYSellar(data, sellador);
    const whole = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
    const buffer = (whole ? bytes.buffer : bytes.slice().buffer) as ArrayBuffer;
    reply = { kind: 'done', id, bytes: buffer };
    transfer = [buffer];
  } catch (error) {
    // A bad DeCA fails its own job; the worker stays up for the next one.
    const err = error instanceof Error ? error : new Error(String(error));
    reply = { kind: 'failed', id, message: err.message, stack: err.stack };
  }
  port.postMessage(reply, transfer);
});

port.postMessage({ kind: 'ready' } satisfies PdfWorkerMessage);
