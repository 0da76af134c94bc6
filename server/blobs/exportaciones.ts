import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { escribirEntero, SUFIJO_TEMPORAL } from './archivo';

/** A file's name in the store: 128 random bits, never derived from the link's token. */
const NOMBRE = /^[0-9a-f]{32}\.zip$/;

/**
 * Where the ZIP of a closed account's data waits for its one download
 * (domain/accounts/exportacion.ts): files in DATA_DIR/exportaciones, readable
 * by the service's user only, each written whole or not at all (temporary
 * file, sync, rename) and deleted once its link expires (jobs/maintenance.ts).
 * Not the PDF blob store: those blobs are content-addressed and never deleted
 * (a bucket may even lock them), while an export must go within days.
 * With several servers on different machines, DATA_DIR/exportaciones must
 * be a folder they share, as DATA_DIR/blobs is with BLOB_URL=file://.
 */
export class AlmacenExportaciones {
  readonly descripcion: string;

  constructor(private readonly dir: string) {
    this.descripcion = `disco ${dir}`;
  }

  private ruta(archivo: string): string {
    if (!NOMBRE.test(archivo)) throw new Error(`nombre de exportación no válido: «${archivo.slice(0, 80)}»`);
    return path.join(this.dir, archivo);
  }

  /** Write a new file from `trozos`, in order; its name and size. Nothing is left behind if a chunk fails. */
  async escribir(trozos: AsyncIterable<Uint8Array>): Promise<{ archivo: string; bytes: number }> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    const archivo = `${randomBytes(16).toString('hex')}.zip`;
    const bytes = await escribirEntero(this.ruta(archivo), trozos, 0o600);
    return { archivo, bytes };
  }

  /** The file to send, or null when it is gone. */
  async abrir(archivo: string): Promise<{ flujo: Readable; bytes: number } | null> {
    const ruta = this.ruta(archivo);
    try {
      const { size } = await stat(ruta);
      return { flujo: createReadStream(ruta), bytes: size };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  async borrar(archivo: string): Promise<void> {
    await rm(this.ruta(archivo), { force: true });
  }

  /** The files (and stray temporary files) last written before `antes`: what a closure that did not commit left. */
  async anteriores(antes: Date): Promise<string[]> {
    let nombres: string[];
    try {
      nombres = await readdir(this.dir);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw err;
    }
    const viejos: string[] = [];
    for (const n of nombres) {
      const st = await stat(path.join(this.dir, n)).catch(() => null);
      if (st?.isFile() && st.mtime < antes) viejos.push(n);
    }
    return viejos;
  }

  /** Delete a file `anteriores` listed (a temporary one too). */
  async borrarSuelto(nombre: string): Promise<void> {
    if (!NOMBRE.test(nombre.replace(SUFIJO_TEMPORAL, ''))) return;
    await rm(path.join(this.dir, nombre), { force: true });
  }
}
