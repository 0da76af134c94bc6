import { createHash } from 'node:crypto';
import { chmodSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { AppError } from '../../shared/errors';
import type { Services } from '../deps';
import type { Logger } from '../log';
import { type Flags, runAdminCommand } from './commands';

/** Unix socket paths are limited to ~107 bytes: fall back to a tmp path derived from DATA_DIR. */
export function adminSocketPath(dataDir: string): string {
  const inDir = path.join(dataDir, 'admin.sock');
  if (Buffer.byteLength(inDir) < 100) return inDir;
  const h = createHash('sha256').update(dataDir).digest('hex').slice(0, 16);
  return path.join(os.tmpdir(), `deca-admin-${h}.sock`);
}

interface AdminReply {
  ok: boolean;
  result?: unknown;
  error?: { codigo: string; mensaje: string; campos?: Record<string, string> };
}

/**
 * The running server's administration socket: the CLI sends its command here
 * instead of opening the embedded database a second time. Owner-only (0600).
 */
export async function startAdminSocket(socketPath: string, ctx: Services, log: Logger): Promise<() => Promise<void>> {
  rmSync(socketPath, { force: true });
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        let reply: AdminReply;
        try {
          const { command, flags } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { command: string; flags: Flags };
          reply = { ok: true, result: await runAdminCommand(ctx, command, flags) };
        } catch (err) {
          if (err instanceof AppError) {
            reply = { ok: false, error: { codigo: err.codigo, mensaje: err.message, campos: err.campos } };
          } else {
            log.error({ err }, 'admin command failed');
            reply = { ok: false, error: { codigo: 'error_interno', mensaje: String((err as Error).message ?? err) } };
          }
        }
        res.setHeader('Content-Type', 'application/json');
        res.end(JSON.stringify(reply));
      })();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => resolve());
  });
  chmodSync(socketPath, 0o600);
  return () =>
    new Promise<void>((resolve) => {
      server.close(() => {
        rmSync(socketPath, { force: true });
        resolve();
      });
    });
}

/** Send one command to a running server's admin socket. */
export function callAdminSocket(socketPath: string, command: string, flags: Flags): Promise<AdminReply> {
  return new Promise((resolve, reject) => {
    const body = JSON.stringify({ command, flags });
    const req = http.request({ socketPath, path: '/run', method: 'POST', headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        try {
          resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')) as AdminReply);
        } catch (err) {
          reject(err as Error);
        }
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}
