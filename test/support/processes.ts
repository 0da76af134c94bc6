import { type ChildProcess, spawn } from 'node:child_process';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

export const ROOT = path.resolve(import.meta.dirname, '../..');

/**
 * The blob store of product processes started without a DATA_DIR (on
 * PostgreSQL): one folder for all of them, so several servers on one
 * database read each other's PDFs, as they would share a bucket (content
 * addressing makes sharing safe); never the working directory's ./data.
 */
const BLOBS_SIN_DATA_DIR = pathToFileURL(path.join(os.tmpdir(), 'deca-pruebas-blobs')).href;

/** Environment for a child process of the product: no inherited DB or blob store settings, quiet logs. */
export function childEnv(extra: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'warn', NODE_ENV: 'test' };
  delete env.DATABASE_URL;
  delete env.DATA_DIR;
  delete env.PORT;
  for (const k of Object.keys(env)) if (k.startsWith('BLOB_')) delete env[k];
  if (extra.DATA_DIR === undefined && extra.BLOB_URL === undefined) env.BLOB_URL = BLOBS_SIN_DATA_DIR;
  for (const [k, v] of Object.entries(extra)) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  return env;
}

/**
 * The compiled server, as `npm start` and `npm run cli` run it: the test run's
 * global setup (test/build-setup.ts) builds it when missing or out of date.
 */
export const SERVER_MAIN = path.join(ROOT, 'dist/server/main.js');
export const SERVER_CLI = path.join(ROOT, 'dist/server/cli.js');
/** The compiled PDF worker, for pools made by code that runs from source in the tests. */
export const PDF_WORKER_URL = pathToFileURL(path.join(ROOT, 'dist/server/pdf-worker.js'));

/** Run the CLI like `npm run --silent cli -- …` does; resolves with its output and exit code. */
export function runCli(args: string[], env: Record<string, string | undefined>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [SERVER_CLI, ...args], { cwd: ROOT, env: childEnv(env) });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  output(): string;
  /** SIGTERM and wait for the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Start the compiled server as a child process on a free port; resolves once it listens. */
export function startServerProcess(env: Record<string, string | undefined>, timeoutMs = 60_000): Promise<ServerProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [SERVER_MAIN], {
      cwd: ROOT,
      env: childEnv({ PORT: '0', ...env }),
    });
    let out = '';
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server did not start:\n${out}`));
    }, timeoutMs);
    const onData = (d: Buffer) => {
      out += d.toString();
      const m = /escuchando en (http:\/\/\S+)/.exec(out);
      if (m?.[1]) {
        clearTimeout(timer);
        resolve({
          child,
          url: m[1],
          output: () => out,
          stop: async (signal = 'SIGTERM') => {
            if (child.exitCode === null) child.kill(signal);
            return exited;
          },
        });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(Object.assign(new Error(`server exited with ${code}:\n${out}`), { code, output: out }));
    });
  });
}

/** A free TCP port on 127.0.0.1 (for a server that comes up later on a known port). */
export async function freePort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const port = (s.address() as net.AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}
