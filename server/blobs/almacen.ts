import { AppError } from '../../shared/errors';
import type { Logger } from '../log';
import { sha256Hex } from '../sha256';

/**
 * Where the bytes of every issued version's PDF live, out of the database:
 * content-addressed by their SHA-256 (the hash the version row keeps), so a
 * blob is written once and never changes. `leer` hashes what it reads and
 * refuses anything else: a damaged or truncated blob is never served.
 */
export interface BlobStore {
  /** For logs and the start line: `disco /srv/deca/data/blobs` or `s3://bucket/prefijo/`. */
  readonly descripcion: string;
  /**
   * Store `bytes` under their hash and return the key (`pdf/ab/<sha256>`, or
   * `clave` when given: a blob that is not a version's PDF, see `claveFoto`).
   * Idempotent: a blob already there whole is left as it is. Refuses bytes
   * whose hash is not `sha256`.
   */
  guardar(sha256: string, bytes: Uint8Array, clave?: string): Promise<string>;
  /** The bytes, checked against `sha256`; a `BlobError` if missing, damaged or out of reach. */
  leer(sha256: string, clave?: string): Promise<Uint8Array>;
  existe(sha256: string, clave?: string): Promise<boolean>;
  /**
   * Up to `limite` PDF blobs in key order after the one named `despues`
   * (its SHA-256): what a sweep of the whole store walks, page by page.
   */
  listar(opts: { despues: string | null; limite: number }): Promise<BlobListado[]>;
  /** Delete a blob; one already gone is no error. */
  borrar(sha256: string, clave?: string): Promise<void>;
}

/** One blob as the store lists it. */
export interface BlobListado {
  sha256: string;
  bytes: number;
  /** When it was written. */
  escrito: Date;
}

/** Why a blob could not be read or written. */
export type MotivoBlob = 'no_encontrado' | 'danado' | 'no_disponible';

/** A blob missing, damaged (its hash is not its name), or a store out of reach. */
export class BlobError extends Error {
  override name = 'BlobError';
  constructor(
    readonly motivo: MotivoBlob,
    readonly clave: string,
    mensaje: string,
    cause?: unknown,
  ) {
    super(mensaje, cause === undefined ? undefined : { cause });
  }
}

export const SHA256 = /^[0-9a-f]{64}$/;

/**
 * The key of a PDF blob: `pdf/ab/<sha256>`. One level of 256 folders, as git
 * keeps its objects: a year of a national service (~11 million PDFs) is
 * ~43,000 files a folder, which ext4 and XFS index by name; a second level
 * would only add 65,536 folders to create and sync on a young store.
 */
export function clavePdf(sha256: string): string {
  if (!SHA256.test(sha256)) throw new Error(`no es un SHA-256 en hexadecimal: «${sha256.slice(0, 80)}»`);
  return `pdf/${sha256.slice(0, 2)}/${sha256}`;
}

/**
 * The key of a delivery-note photo: `foto/ab/<token>.<sha256>`, `token` being
 * the photo's own random name. Not content-addressed as a PDF is: two photos
 * with the same bytes are two blobs, so deleting one (its 30 days over) can
 * never take the other's bytes from under it. Outside `pdf/`, so the sweep of
 * PDFs no version names (`blobs:gc`) never sees them.
 */
export function claveFoto(token: string, sha256: string): string {
  return claveValida(`foto/${token.slice(0, 2)}/${token}.${sha256}`, sha256);
}

const CLAVE_FOTO = /^foto\/([0-9a-f]{2})\/(\1[0-9a-f]{30})\.([0-9a-f]{64})$/;

/** The key of a blob: a version's PDF by its hash, or the key given, which must be a photo's key of these bytes (never a path of the caller's making). */
export function claveDe(sha256: string, clave: string | undefined): string {
  return clave === undefined ? clavePdf(sha256) : claveValida(clave, sha256);
}

function claveValida(clave: string, sha256: string): string {
  if (CLAVE_FOTO.exec(clave)?.[3] !== sha256) throw new Error(`no es la clave de una foto con SHA-256 ${sha256.slice(0, 80)}: «${clave.slice(0, 120)}»`);
  return clave;
}

/** Throws unless `bytes` hash to `sha256` (before a write: a caller's mistake). */
export function exigirHuella(sha256: string, bytes: Uint8Array): void {
  const real = sha256Hex(bytes);
  if (real !== sha256) throw new Error(`los bytes no corresponden a su SHA-256: se esperaba ${sha256} y es ${real}`);
}

/** What `leer` returns once read: the bytes if they hash to their name, else a logged `danado` error. */
export function comprobarLeido(sha256: string, clave: string, bytes: Uint8Array, donde: string, log: Logger): Uint8Array {
  const real = sha256Hex(bytes);
  if (real === sha256) return bytes;
  log.error({ blob: clave, almacen: donde, bytes: bytes.byteLength, sha256_leido: real }, 'blob damaged: its SHA-256 is not its name; refused');
  throw new BlobError('danado', clave, `El archivo ${clave} del almacén está dañado (${bytes.byteLength} bytes cuyo SHA-256 no es el suyo).`);
}

/** Seconds a client is told to wait when the store is out of reach. */
const REINTENTAR_EN_S = 30;

/**
 * A store's failure as the user reads it (`que`: what could not be read or
 * stored, e.g. «El PDF de la DeCA 2026-000001 (versión 2)»): out of reach →
 * 503 `no_disponible` with Retry-After; missing or damaged → 500, saying
 * so, never the bytes. Any other error is returned unchanged.
 */
export function errorDeBlob(err: unknown, que: string): unknown {
  if (!(err instanceof BlobError)) return err;
  if (err.motivo === 'no_disponible') {
    return new AppError('no_disponible', `${que} está en el almacén de documentos, que no responde ahora; vuelva a intentarlo en unos segundos.`, {
      headers: { 'Retry-After': String(REINTENTAR_EN_S) },
    });
  }
  const porque = err.motivo === 'danado' ? 'su copia guardada está dañada (no coincide con su huella SHA-256)' : 'su copia guardada no se encuentra';
  return new AppError('error_interno', `${que} no se puede entregar: ${porque}. No se sirve una copia distinta de la emitida; avísenos citando este mensaje.`);
}

/** A write that failed, as the user reads it: nothing was saved (the change's transaction had not begun); 503, try again. */
export function errorAlGuardar(err: unknown, que: string): unknown {
  if (!(err instanceof BlobError)) return err;
  return new AppError('no_disponible', `No se ha podido guardar ${que} en el almacén de documentos, así que no se ha hecho el cambio; vuelva a intentarlo en unos segundos.`, {
    headers: { 'Retry-After': String(REINTENTAR_EN_S) },
  });
}
