import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';

/** What the holder of DATA_DIR writes into its lock file. */
export interface LockInfo {
  pid: number;
  /** 'server' or 'cli'. */
  owner: string;
  /** Admin socket of a running server, for the CLI to talk to. */
  socket: string | null;
  since: string;
}

/** Refusal to open DATA_DIR a second time, with the reason in Spanish. */
export class DataDirLockedError extends Error {
  override name = 'DataDirLockedError';
  constructor(
    readonly dataDir: string,
    readonly holder: LockInfo,
  ) {
    super(
      holder.owner === 'server'
        ? `El directorio de datos ${dataDir} ya lo usa otro servidor DeCA (PID ${holder.pid}, desde ${holder.since}). ` +
            'Pare ese servidor o use otro DATA_DIR: dos procesos sobre la misma base embebida la corromperían.'
        : `El directorio de datos ${dataDir} está en uso por una orden de administración (PID ${holder.pid}). Espere a que termine.`,
    );
  }
}

export function lockPath(dataDir: string): string {
  return path.join(dataDir, 'deca.lock');
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The live holder of DATA_DIR's lock, or null (a stale lock of a dead process counts as none). */
export function readLock(dataDir: string): LockInfo | null {
  try {
    const info = JSON.parse(readFileSync(lockPath(dataDir), 'utf8')) as LockInfo;
    return isAlive(info.pid) && info.pid !== process.pid ? info : null;
  } catch {
    return null;
  }
}

/**
 * Take DATA_DIR for this process (PGlite loses data silently when two
 * processes open one directory). Atomic with O_EXCL; a lock
 * left by a dead process is taken over. Returns the release function.
 */
export function acquireDataDirLock(dataDir: string, owner: string, socket: string | null = null): () => void {
  mkdirSync(dataDir, { recursive: true });
  const file = lockPath(dataDir);
  const info: LockInfo = { pid: process.pid, owner, socket, since: new Date().toISOString() };
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(file, 'wx', 0o600);
      writeSync(fd, JSON.stringify(info));
      closeSync(fd);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        try {
          const current = JSON.parse(readFileSync(file, 'utf8')) as LockInfo;
          if (current.pid === process.pid) rmSync(file, { force: true });
        } catch {
          /* already gone */
        }
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const holder = readLock(dataDir);
      if (holder) throw new DataDirLockedError(dataDir, holder);
      rmSync(file, { force: true }); // stale: its process is gone
    }
  }
  throw new Error(`No se pudo bloquear ${file}`);
}
