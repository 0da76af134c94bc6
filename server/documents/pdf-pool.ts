import os from 'node:os';
import { Worker } from 'node:worker_threads';
import type { PdfJobMessage, PdfWorkerData, PdfWorkerMessage } from './pdf-worker';
import { crearSellador, type DocumentoPdfData, type MaterialSello, renderYSellar } from './sello';

/** What the pool's `render` is: a DeCA's data (or a receipt's) → its PDF/A, sealed with the service's seal. */
export type DecaPdfRenderer = (data: DocumentoPdfData, options?: RenderOptions) => Promise<Uint8Array>;

export interface RenderOptions {
  /** Drops the job if it is still queued; a running job finishes but its result is discarded. */
  signal?: AbortSignal;
}

export interface PdfPool {
  render: DecaPdfRenderer;
  /** The room each document leaves for the seal (its CMS's bytes): what an app renders with to match the pool's unsealed bytes. */
  capacidadSello: number;
  /** Rejects queued and running jobs and terminates the workers. */
  close(): Promise<void>;
}

export interface PdfPoolOptions {
  /** The service's seal (sello-servicio.ts): every document leaves the pool sealed with it. */
  sello: MaterialSello;
  /** Workers; by default one per core. */
  size?: number;
  /** A job running longer than this is taken as a hung worker: it is terminated and replaced. */
  jobTimeoutMs?: number;
  /** Worker entry; tests point it at a worker that crashes on purpose. */
  workerUrl?: URL;
}

/**
 * The worker entry next to this module: `pdf-worker.js` beside the compiled
 * server (dist/server, where `npm start` runs it), `pdf-worker.ts` beside the
 * sources (`npm run dev`, and code run from source by the tests).
 */
const DEFAULT_WORKER_URL = new URL(/\.[cm]?ts$/.test(new URL(import.meta.url).pathname) ? './pdf-worker.ts' : './pdf-worker.js', import.meta.url);
const DEFAULT_JOB_TIMEOUT_MS = 30_000;

/**
 * Loads the worker entry, first registering tsx when the entry is TypeScript.
 *
 * The compiled server (dist/server) loads plain JavaScript and registers
 * nothing. Run from source (`npm run dev`, or under vitest, which does not
 * transform worker files), the worker has to compile TypeScript itself.
 * Passing `--import tsx` in the Worker's `execArgv` is not enough on Node 20:
 * loaders given that way do not apply to the worker's entry module
 * (nodejs/node#47747, ERR_UNKNOWN_FILE_EXTENSION), while `register()` from
 * `tsx/esm/api` inside the worker does, under node, tsx and vitest alike.
 */
const BOOTSTRAP = new URL(
  'data:text/javascript,' +
    encodeURIComponent(["import { workerData } from 'node:worker_threads';", 'if (workerData.tsxApi) (await import(workerData.tsxApi)).register();', 'await import(workerData.entry);'].join('\n')),
);

interface Job {
  id: number;
  data: DocumentoPdfData;
  resolve: (bytes: Uint8Array) => void;
  reject: (error: Error) => void;
  settled: boolean;
  cleanup: () => void;
}

interface Slot {
  worker: Worker;
  /** Set once the worker's modules loaded; only a worker that once worked is replaced eagerly. */
  ready: boolean;
  job: Job | null;
  timer: NodeJS.Timeout | null;
}

/**
 * A fixed pool of worker threads rendering and sealing DeCA PDFs, one job per
 * worker at a time, in FIFO order. A worker that crashes or hangs is replaced
 * and only its own job is rejected. Idle workers are unref'ed, so a forgotten
 * pool does not keep a script alive; the server still calls `close()` on shutdown.
 */
export function createPdfPool(options: PdfPoolOptions): PdfPool {
  const size = options.size ?? os.availableParallelism();
  if (!Number.isInteger(size) || size < 1) throw new RangeError(`PDF pool size must be a positive integer, got ${size}`);
  const workerUrl = options.workerUrl ?? DEFAULT_WORKER_URL;
  const jobTimeoutMs = options.jobTimeoutMs ?? DEFAULT_JOB_TIMEOUT_MS;
  const tsxApi = /\.[cm]?tsx?$/.test(workerUrl.pathname) ? import.meta.resolve('tsx/esm/api') : null;

  const capacidadSello = crearSellador(options.sello).capacidad;
  const slots = new Set<Slot>();
  const queue: Job[] = [];
  let nextId = 1;
  let closed = false;

  function spawn(): void {
    const worker = new Worker(BOOTSTRAP, {
      name: 'deca-pdf',
      workerData: { entry: workerUrl.href, tsxApi, sello: options.sello } satisfies PdfWorkerData,
      execArgv: workerExecArgv(process.execArgv),
    });
    const slot: Slot = { worker, ready: false, job: null, timer: null };
    slots.add(slot);
    worker.unref();
    worker.on('message', (message: PdfWorkerMessage) => onMessage(slot, message));
    worker.on('messageerror', (error) => finishJob(slot, (job) => fail(job, new Error('PDF worker sent an unreadable message', { cause: error }))));
    worker.on('error', (error) => retire(slot, new Error(`PDF worker crashed: ${error.message}`, { cause: error })));
    worker.on('exit', (code) => retire(slot, new Error(`PDF worker exited with code ${code}`)));
  }

  function onMessage(slot: Slot, message: PdfWorkerMessage): void {
    if (message.kind === 'ready') {
      slot.ready = true;
      return;
    }
    if (slot.job?.id !== message.id) return;
    finishJob(slot, (job) => {
      if (message.kind === 'done') succeed(job, new Uint8Array(message.bytes));
      else fail(job, workerError(message.message, message.stack));
    });
  }

  /** Frees a worker after its job ended normally and hands it the next one. */
  function finishJob(slot: Slot, settle: (job: Job) => void): void {
    const job = slot.job;
    if (!job) return;
    slot.job = null;
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = null;
    slot.worker.unref();
    settle(job);
    pump();
  }

  /** Takes a dead or hung worker out of the pool, rejects its job and replaces it. */
  function retire(slot: Slot, error: Error): void {
    if (!slots.delete(slot)) return; // 'error' is followed by 'exit'
    if (slot.timer) clearTimeout(slot.timer);
    if (slot.job) fail(slot.job, error);
    void slot.worker.terminate();
    // A worker that never got ready (a broken install) is only replaced when
    // there is work for it, so a start-up failure cannot spin forever.
    if (!closed && slot.ready) spawn();
    pump();
  }

  function pump(): void {
    while (!closed && queue.length > 0) {
      let idle: Slot | undefined;
      for (const slot of slots) {
        if (!slot.job) {
          idle = slot;
          break;
        }
      }
      if (!idle) {
        if (slots.size >= size) return;
        spawn();
        continue;
      }
      const job = queue.shift()!;
      if (job.settled) continue;
      dispatch(idle, job);
    }
  }

  function dispatch(slot: Slot, job: Job): void {
    try {
      slot.worker.postMessage({ id: job.id, data: job.data } satisfies PdfJobMessage);
    } catch (error) {
      fail(job, error instanceof Error ? error : new Error(String(error))); // data that cannot be cloned
      return;
    }
    slot.job = job;
    slot.worker.ref();
    slot.timer = setTimeout(() => retire(slot, new Error(`PDF render took longer than ${jobTimeoutMs} ms; worker replaced`)), jobTimeoutMs);
    slot.timer.unref();
  }

  function render(data: DocumentoPdfData, { signal }: RenderOptions = {}): Promise<Uint8Array> {
    if (closed) return Promise.reject(new Error('PDF pool is closed'));
    if (signal?.aborted) return Promise.reject(abortReason(signal));
    return new Promise<Uint8Array>((resolve, reject) => {
      const onAbort = () => {
        const index = queue.indexOf(job);
        if (index >= 0) queue.splice(index, 1);
        fail(job, abortReason(signal!));
      };
      const job: Job = {
        id: nextId++,
        data,
        resolve,
        reject,
        settled: false,
        cleanup: () => signal?.removeEventListener('abort', onAbort),
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      queue.push(job);
      pump();
    });
  }

  async function close(): Promise<void> {
    if (closed) return;
    closed = true;
    const error = new Error('PDF pool is closed');
    for (const job of queue.splice(0)) fail(job, error);
    const workers = [...slots];
    slots.clear();
    for (const slot of workers) {
      if (slot.timer) clearTimeout(slot.timer);
      if (slot.job) fail(slot.job, error);
    }
    await Promise.all(workers.map((slot) => slot.worker.terminate()));
  }

  for (let i = 0; i < size; i++) spawn();
  return { render, capacidadSello, close };
}

/**
 * The same contract as `createPdfPool`, rendering on the calling thread: for
 * tests and one-off scripts where starting workers costs more than it saves.
 */
export function createInProcessPdfPool(sello: MaterialSello): PdfPool {
  let closed = false;
  const sellador = crearSellador(sello);
  return {
    render: (data, { signal } = {}) => {
      if (closed) return Promise.reject(new Error('PDF pool is closed'));
      if (signal?.aborted) return Promise.reject(abortReason(signal));
      return renderYSellar(data, sellador);
    },
    capacidadSello: sellador.capacidad,
    close: async () => {
      closed = true;
    },
  };
}

function succeed(job: Job, bytes: Uint8Array): void {
  if (job.settled) return;
  job.settled = true;
  job.cleanup();
  job.resolve(bytes);
}

function fail(job: Job, error: Error): void {
  if (job.settled) return;
  job.settled = true;
  job.cleanup();
  job.reject(error);
}

/** Rebuilds the worker's error so the caller's logs show where rendering failed. */
function workerError(message: string, stack: string | undefined): Error {
  const error = new Error(message);
  if (stack) error.stack = stack;
  return error;
}

function abortReason(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new Error('PDF render aborted', { cause: signal.reason });
}

/**
 * The parent's Node flags minus its TypeScript loader (the bootstrap registers
 * tsx once, in the worker) and `--input-type`, which a worker refuses.
 */
export function workerExecArgv(parent: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < parent.length; i++) {
    const arg = parent[i]!;
    if (arg.startsWith('--input-type')) continue;
    const [flag, inlineValue] = arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    if (['--import', '--require', '-r', '--loader', '--experimental-loader'].includes(flag)) {
      const value = inlineValue ?? parent[i + 1] ?? '';
      if (inlineValue === undefined) i++;
      if (/(^|[\\/])tsx([\\/]|$)/.test(value)) continue;
      out.push(flag, value);
      continue;
    }
    out.push(arg);
  }
  return out;
}
