import { type FileHandle, mkdir, open, readdir, readFile, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from '../log';
import { sha256Hex } from '../sha256';
import { BlobError, type BlobListado, type BlobStore, claveDe, comprobarLeido, exigirHuella, SHA256 } from './almacen';
import { escribirEntero } from './archivo';

/** Blobs are never rewritten: read-only for their owner and group. */
const MODO_BLOB = 0o440;
const MODO_CARPETA = 0o750;

const mensaje = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** `fsync` of a folder, so a new entry in it survives a power cut. Not every platform allows it (Windows): then nothing. */
async function sincronizarCarpeta(dir: string): Promise<void> {
  let fh: FileHandle | undefined;
  try {
    fh = await open(dir, 'r');
    await fh.sync();
  } catch {
    // EISDIR, EPERM, EINVAL where folders cannot be synced: the entry is still there.
  } finally {
    await fh?.close().catch(() => {});
  }
}

/**
 * Folder syncs shared by the writes that wait for them: a write waits for a
 * sync that starts after its entry was made, and every write that arrives
 * while one runs shares the next (group commit, as a database's log).
 */
class SyncsDeCarpeta {
  private readonly enCurso = new Map<string, { actual: Promise<void>; siguiente: Promise<void> | null }>();

  sincronizar(dir: string): Promise<void> {
    const estado = this.enCurso.get(dir);
    if (!estado) {
      const actual = sincronizarCarpeta(dir).finally(() => this.terminar(dir));
      this.enCurso.set(dir, { actual, siguiente: null });
      return actual;
    }
    estado.siguiente ??= estado.actual.then(() => sincronizarCarpeta(dir));
    return estado.siguiente;
  }

  /** The running sync ended: the one queued behind it (if any) becomes the running one. */
  private terminar(dir: string): void {
    const estado = this.enCurso.get(dir);
    if (!estado) return;
    if (!estado.siguiente) {
      this.enCurso.delete(dir);
      return;
    }
    const actual = estado.siguiente.finally(() => this.terminar(dir));
    this.enCurso.set(dir, { actual, siguiente: null });
  }
}

/**
 * Blobs as files under one folder (by default DATA_DIR/blobs). A new blob is
 * created under its final name (exclusive create), written, synced, and its
 * folder synced, before `guardar` returns — and so before any row names it:
 * a crash mid-write can only leave a partial file that no row refers to. A
 * blob found already there (the same bytes stored again, or such a partial
 * file) is read and hashed; if it is not whole it is replaced whole through a
 * temporary file and a rename. Folders are created on first use and
 * remembered by the process.
 */
export class AlmacenDisco implements BlobStore {
  readonly descripcion: string;
  private readonly carpetasHechas = new Set<string>();
  private readonly syncs = new SyncsDeCarpeta();

  constructor(
    private readonly dir: string,
    private readonly log: Logger,
  ) {
    this.descripcion = `disco ${dir}`;
  }

  /** The file of a key (`pdf/ab/<sha256>` → `<dir>/pdf/ab/<sha256>`). */
  ruta(clave: string): string {
    return path.join(this.dir, ...clave.split('/'));
  }

  async guardar(sha256: string, bytes: Uint8Array, claveDada?: string): Promise<string> {
    const clave = claveDe(sha256, claveDada);
    exigirHuella(sha256, bytes);
    const ruta = this.ruta(clave);
    const carpeta = path.dirname(ruta);
    try {
      await this.carpeta(carpeta);
      const creado = await this.crear(ruta, bytes).catch(async (err: unknown) => {
        // The folder went since this process made it (removed or restored by hand): made again, once.
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
        this.carpetasHechas.delete(carpeta);
        await this.carpeta(carpeta);
        return this.crear(ruta, bytes);
      });
      if (!creado) {
        if (await this.entero(sha256, clave, ruta)) return clave;
        await escribirEntero(ruta, [bytes], MODO_BLOB);
      }
      await this.syncs.sincronizar(carpeta);
    } catch (err) {
      if (err instanceof BlobError) throw err;
      this.log.error({ err, blob: clave, almacen: this.descripcion }, 'blob could not be written');
      throw new BlobError('no_disponible', clave, `No se ha podido escribir ${clave} en ${this.dir}: ${mensaje(err)}`, err);
    }
    return clave;
  }

  /** Make `carpeta` (and its parents) once per process; each folder made is synced into its parent. */
  private async carpeta(carpeta: string): Promise<void> {
    if (this.carpetasHechas.has(carpeta)) return;
    const creada = await mkdir(carpeta, { recursive: true, mode: MODO_CARPETA });
    if (creada) for (let d = carpeta; d !== path.dirname(creada); d = path.dirname(d)) await this.syncs.sincronizar(path.dirname(d));
    this.carpetasHechas.add(carpeta);
  }

  /** Create the blob's file, write and sync it; false if a file of that name is already there. */
  private async crear(ruta: string, bytes: Uint8Array): Promise<boolean> {
    let fh: FileHandle;
    try {
      fh = await open(ruta, 'wx', MODO_BLOB);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw err;
    }
    try {
      await fh.writeFile(bytes);
      await fh.sync();
    } catch (err) {
      // Left as it is: it names no row, and the next write of these bytes finds it not whole and replaces it.
      // (Removing it could remove a whole copy that a concurrent write of the same bytes put in its place.)
      await fh.close().catch(() => {});
      throw err;
    }
    await fh.close();
    return true;
  }

  /** Whether the blob already there is whole; one that is not (a damaged or partial copy) is rewritten by `guardar`. */
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

  async leer(sha256: string, claveDada?: string): Promise<Uint8Array> {
    const clave = claveDe(sha256, claveDada);
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

  async existe(sha256: string, claveDada?: string): Promise<boolean> {
    const clave = claveDe(sha256, claveDada);
    try {
      return (await stat(this.ruta(clave))).isFile();
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw new BlobError('no_disponible', clave, `No se puede consultar ${clave} en ${this.dir}: ${mensaje(err)}`, err);
    }
  }

  async listar({ despues, limite }: { despues: string | null; limite: number }): Promise<BlobListado[]> {
    const raiz = path.join(this.dir, 'pdf');
    const carpetas = (await this.entradas(raiz)).filter((c) => /^[0-9a-f]{2}$/.test(c) && (despues === null || c >= despues.slice(0, 2)));
    const out: BlobListado[] = [];
    for (const c of carpetas) {
      const nombres = (await this.entradas(path.join(raiz, c))).filter((n) => SHA256.test(n) && (despues === null || n > despues));
      for (const n of nombres) {
        try {
          const st = await stat(path.join(raiz, c, n));
          out.push({ sha256: n, bytes: st.size, escrito: st.mtime });
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw new BlobError('no_disponible', `pdf/${c}/${n}`, `No se puede consultar pdf/${c}/${n} en ${this.dir}: ${mensaje(err)}`, err);
        }
        if (out.length >= limite) return out;
      }
    }
    return out;
  }

  /** A folder's names in order; none if it does not exist (a store nothing was written to yet). */
  private async entradas(dir: string): Promise<string[]> {
    try {
      return (await readdir(dir)).sort();
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw new BlobError('no_disponible', dir, `No se puede leer la carpeta ${dir}: ${mensaje(err)}`, err);
    }
  }

  async borrar(sha256: string, claveDada?: string): Promise<void> {
    const clave = claveDe(sha256, claveDada);
    try {
      await unlink(this.ruta(clave));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw new BlobError('no_disponible', clave, `No se puede borrar ${clave} en ${this.dir}: ${mensaje(err)}`, err);
    }
  }
}
