import { randomBytes } from 'node:crypto';
import { type FileHandle, open, rename, rm } from 'node:fs/promises';

/** The temporary name `escribirEntero` writes beside a file: `<name>.<pid>.<12 hex>.tmp`. */
export const SUFIJO_TEMPORAL = /\.\d+\.[0-9a-f]{12}\.tmp$/;

/**
 * Write a file whole or not at all: the chunks go to a temporary file beside
 * it, which is synced and then renamed into place, so a crash leaves either
 * the whole file or none (a stray temporary file at most, which nothing
 * reads); a failure removes the temporary file. Returns the bytes written.
 */
export async function escribirEntero(ruta: string, trozos: Iterable<Uint8Array> | AsyncIterable<Uint8Array>, modo: number): Promise<number> {
  const tmp = `${ruta}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  let fh: FileHandle | undefined;
  let bytes = 0;
  try {
    fh = await open(tmp, 'wx', modo);
    // writeFile on a handle writes the whole chunk from the current position.
    for await (const t of trozos) {
      await fh.writeFile(t);
      bytes += t.byteLength;
    }
    await fh.sync();
    await fh.close();
    fh = undefined;
    await rename(tmp, ruta);
  } catch (err) {
    await fh?.close().catch(() => {});
    await rm(tmp, { force: true }).catch(() => {});
    throw err;
  }
  return bytes;
}
