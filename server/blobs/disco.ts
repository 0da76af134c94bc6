import { type FileHandle, mkdir, open, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from '../log';
import { sha256Hex } from '../sha256';
import { BlobError, type BlobStore, clavePdf, comprobarLeido, exigirHuella } from './almacen';
import { escribirEntero } from './archivo';

/** Blobs are never rewritten: read-only for their owner and group. */
const MODO_BLOB = 0o440;
const MODO_CARPETA = 0o750;

const mensaje = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** `fsync` of a folder, so a rename or a new entry in it survives a power cut. Not every platform allows it (Windows): then nothing. */
async function sincronizarCarpeta(dir: string): Promise<void> {
  let fh: FileHandle | undefined;
  try {
    fh = await open(dir, 'r');
    await fh.sync();
  } catch {
    // EISDIR, EPERM, EINVAL where folders cannot be synced: the rename is still atomic.
  } finally {
    await fh?.close().catch(() => {});
  }
}

/**
 * Blobs as files under one folder (by default DATA_DIR/blobs): each written
 * to a temporary file beside its place, synced, then renamed into it, so a
 * crash leaves either the whole blob or none (a stray `*.tmp` at most, which
 * nothing reads). The folder is created on the first write.
 */
export class AlmacenDisco implements BlobStore {
  readonly descripcion: string;

  constructor(
    private readonly dir: string,
    private readonly log: Logger,
  ) {
    this.descripcion = `disco ${dir}`;
  }

  /** The file of a key (`pdf/ab/cd/<sha256>` → `<dir>/pdf/ab/cd/<sha256>`). */
  ruta(clave: string): string {
    return path.join(this.dir, ...clave.split('/'));
  }

  async guardar(sha256: string, bytes: Uint8Array): Promise<string> {
    const clave = clavePdf(sha256);
    exigirHuella(sha256, bytes);
    const ruta = this.ruta(clave);
    if (await this.entero(sha256, clave, ruta)) return clave;
    const carpeta = path.dirname(ruta);
    try {
      const creada = await mkdir(carpeta, { recursive: true, mode: MODO_CARPETA });
      await escribirEntero(ruta, [bytes], MODO_BLOB);
      // The new entry, and each folder made for it, in its parent.
      await sincronizarCarpeta(carpeta);
      if (creada) for (let d = carpeta; d !== path.dirname(creada); d = path.dirname(d)) await sincronizarCarpeta(path.dirname(d));
    } catch (err) {
      this.log.error({ err, blob: clave, almacen: this.descripcion }, 'blob could not be written');
      throw new BlobError('no_disponible', clave, `No se ha podido escribir ${clave} en ${this.dir}: ${mensaje(err)}`, err);
    }
    return clave;
  }

  /** Whether the blob is already there whole; one that is not (a damaged copy) is rewritten by `guardar`. */
  private async entero(sha256: string, clave: string, ruta: string): Promise<boolean> {
    let bytes: Uint8Array;
    try {
      bytes = await readFile(ruta);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw new BlobError('no_disponible', clave, `No se puede leer ${ruta}: ${mensaje(err)}`, err);
    }
    if (sha256Hex(bytes) === sha256) return true;
    this.log.warn({ blob: clave, almacen: this.descripcion, bytes: bytes.byteLength }, 'blob on disk damaged: written again from the bytes being stored');
    return false;
  }

  async leer(sha256: string): Promise<Uint8Array> {
    const clave = clavePdf(sha256);
    let bytes: Uint8Array;
    try {
      bytes = await readFile(this.ruta(clave));
    } catch (err) {
      const falta = (err as NodeJS.ErrnoException).code === 'ENOENT';
      this.log.error({ err, blob: clave, almacen: this.descripcion }, falta ? 'blob missing' : 'blob could not be read');
      throw new BlobError(falta ? 'no_encontrado' : 'no_disponible', clave, falta ? `No existe ${clave} en ${this.dir}.` : `No se puede leer ${clave} en ${this.dir}: ${mensaje(err)}`, err);
    }
    return comprobarLeido(sha256, clave, bytes, this.descripcion, this.log);
  }

  async existe(sha256: string): Promise<boolean> {
    const clave = clavePdf(sha256);
    try {
      return (await stat(this.ruta(clave))).isFile();
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw new BlobError('no_disponible', clave, `No se puede consultar ${clave} en ${this.dir}: ${mensaje(err)}`, err);
    }
  }
}
