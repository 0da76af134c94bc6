import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import busboy from 'busboy';
import { AppError } from '../../../shared/errors';
import { FOTO_MAXIMA } from '../../../shared/rules/fotos';
import { BASE64_MAXIMO } from '../../../shared/schemas/fotos';
import { MB, readBody } from './body';

/** What is kept of an uploaded file: its fingerprint and size, never its bytes. */
export interface ArchivoSubido {
  sha256: string;
  bytes: number;
  /** Starts with the PDF header (`%PDF-`). */
  esPdf: boolean;
}

export const SUBIDA_MAXIMA = 4 * MB;

const demasiado = () => new AppError('demasiado_grande', 'El archivo supera 4 MB: ningún PDF de DeCA es tan grande.');

/** Hash a stream of bytes as it arrives, refusing past `limite` (nothing is written anywhere). */
function huellaDe(stream: NodeJS.ReadableStream, limite: number): Promise<ArchivoSubido> {
  return new Promise((resolve, reject) => {
    const hash = createHash('sha256');
    let bytes = 0;
    let inicio = Buffer.alloc(0);
    stream.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > limite) {
        reject(demasiado());
        stream.removeAllListeners('data');
        stream.resume();
        return;
      }
      if (inicio.length < 5) inicio = Buffer.concat([inicio, chunk.subarray(0, 5 - inicio.length)]);
      hash.update(chunk);
    });
    stream.on('error', reject);
    stream.on('end', () => resolve({ sha256: hash.digest('hex'), bytes, esPdf: inicio.toString('latin1') === '%PDF-' }));
  });
}

/**
 * The one file of an upload: a browser form (`multipart/form-data`, no
 * JavaScript needed) or the PDF itself as the body (`application/pdf`, for
 * `curl --data-binary`). It is hashed while it arrives and never stored.
 */
export function leerArchivoSubido(req: IncomingMessage, limite = SUBIDA_MAXIMA): Promise<ArchivoSubido> {
  const tipo = req.headers['content-type'] ?? '';
  if (Number(req.headers['content-length'] ?? 0) > limite + 64 * 1024) return Promise.reject(demasiado());
  if (!tipo.startsWith('multipart/form-data')) return huellaDe(req, limite);
  return new Promise((resolve, reject) => {
    let bb: busboy.Busboy;
    try {
      bb = busboy({ headers: req.headers, limits: { files: 1, fileSize: limite + 1, fields: 10, fieldSize: 1024 } });
    } catch {
      reject(new AppError('peticion_invalida', 'El formulario no se pudo leer: vuelva a elegir el archivo y envíelo desde la página.'));
      return;
    }
    let archivo: Promise<ArchivoSubido> | null = null;
    bb.on('file', (_nombre, stream) => {
      if (archivo) return stream.resume();
      archivo = huellaDe(stream, limite);
      archivo.catch(() => {}); // reported when the form ends
    });
    bb.on('error', () => reject(new AppError('peticion_invalida', 'El formulario llegó incompleto: vuelva a enviarlo.')));
    bb.on('close', () => {
      if (!archivo) reject(new AppError('validacion', 'Elija el PDF de la DeCA que quiere comprobar.', { campos: { pdf: 'Elija un archivo PDF' } }));
      else archivo.then(resolve, reject);
    });
    req.pipe(bb);
  });
}

/** What one upload field is, for `campoDeFormulario`. */
interface CampoSubido {
  nombre: string;
  limite: number;
  /** The 413 when it is larger than `limite`. */
  grande: () => AppError;
  /** The 422 when the form lacks it. */
  falta: () => AppError;
  /** A text field of that name counts too (a CSV pasted into a form). */
  textoTambien?: boolean;
}

/** The body's bytes up to `limite`, with the field's own 413 past it. */
async function cuerpoHasta(req: IncomingMessage, limite: number, grande: () => AppError): Promise<Buffer> {
  try {
    return await readBody(req, limite);
  } catch (error) {
    throw error instanceof AppError && error.codigo === 'demasiado_grande' ? grande() : error;
  }
}

/** The one file (or text) field `c.nombre` of a `multipart/form-data` body, whole, refused past its limit. */
function campoDeFormulario(req: IncomingMessage, c: CampoSubido): Promise<Buffer> {
  if (Number(req.headers['content-length'] ?? 0) > c.limite + 64 * 1024) return Promise.reject(c.grande());
  return new Promise((resolve, reject) => {
    let bb: busboy.Busboy;
    try {
      bb = busboy({ headers: req.headers, limits: { files: 1, fileSize: c.limite, fields: 10, fieldSize: c.textoTambien ? c.limite : 1024 } });
    } catch {
      reject(new AppError('peticion_invalida', `El formulario no se pudo leer: envíe el archivo en el campo «${c.nombre}».`));
      return;
    }
    let leido: Promise<Buffer> | null = null;
    bb.on('file', (nombre, stream) => {
      if (nombre !== c.nombre || leido) return stream.resume();
      leido = new Promise<Buffer>((ok, mal) => {
        const partes: Buffer[] = [];
        stream.on('data', (trozo: Buffer) => partes.push(trozo));
        stream.on('limit', () => mal(c.grande()));
        stream.on('error', mal);
        stream.on('end', () => ok(Buffer.concat(partes)));
      });
      leido.catch(() => {}); // reported when the form ends
    });
    bb.on('field', (nombre, valor) => {
      if (c.textoTambien && nombre === c.nombre && !leido) leido = Promise.resolve(Buffer.from(valor, 'utf8'));
    });
    bb.on('error', () => reject(new AppError('peticion_invalida', 'El formulario llegó incompleto: vuelva a enviarlo.')));
    bb.on('close', () => {
      if (!leido) reject(c.falta());
      else leido.then(resolve, reject);
    });
    req.pipe(bb);
  });
}

const esFormulario = (req: IncomingMessage) => (req.headers['content-type'] ?? '').startsWith('multipart/form-data');

/** Spec: the CSV of an import, at most 5 MB. */
export const CSV_MAXIMO = 5 * MB;

/**
 * The CSV of an import, whole: the body itself (`text/csv`, or any type but
 * a form) or the file or text field `csv` of a `multipart/form-data` form.
 */
export function leerCsvSubido(req: IncomingMessage, limite = CSV_MAXIMO): Promise<Buffer> {
  const grande = () => new AppError('demasiado_grande', `El CSV supera ${limite / MB} MB: divídalo en varios archivos.`);
  if (!esFormulario(req)) return cuerpoHasta(req, limite, grande);
  return campoDeFormulario(req, {
    nombre: 'csv',
    limite,
    grande,
    falta: () => new AppError('validacion', 'Envíe el CSV en el campo «csv» del formulario.', { campos: { csv: 'Falta el archivo' } }),
    textoTambien: true,
  });
}

const fotoGrande = () => new AppError('demasiado_grande', 'La foto supera 2 MB: una de 1800 px de lado basta para leerla.');
const faltaFoto = () => new AppError('validacion', 'Envíe la foto en el campo «foto» del formulario, o como JSON {"imagen_base64": "…"}.', { campos: { foto: 'Falta la foto' } });

/**
 * The photo of POST /fotos: the file field `foto` of a form, or JSON
 * `{"imagen_base64": "…"}` with or without a `data:image/…;base64,` prefix.
 */
export async function leerFotoSubida(req: IncomingMessage): Promise<Buffer> {
  if (esFormulario(req)) {
    return campoDeFormulario(req, {
      nombre: 'foto',
      limite: FOTO_MAXIMA,
      grande: fotoGrande,
      falta: faltaFoto,
    });
  }
  const raw = await cuerpoHasta(req, BASE64_MAXIMO, fotoGrande);
  // An empty body is a form sent without its photo, not broken JSON.
  if (raw.toString('utf8').trim() === '') throw faltaFoto();
  let cuerpo: unknown;
  try {
    cuerpo = JSON.parse(raw.toString('utf8'));
  } catch {
    throw new AppError('json_invalido', 'Envíe la foto en un formulario (campo «foto») o como JSON {"imagen_base64": "…"}.');
  }
  return fotoDeBase64(cuerpo && typeof cuerpo === 'object' ? (cuerpo as Record<string, unknown>).imagen_base64 : undefined);
}

/** The bytes of `imagen_base64` (with or without a `data:image/…;base64,` prefix), at most 2 MB. */
export function fotoDeBase64(b64: unknown): Buffer {
  if (typeof b64 !== 'string' || b64.trim() === '') {
    throw new AppError('validacion', 'Falta la foto: envíe imagen_base64.', { campos: { imagen_base64: 'Obligatorio' } });
  }
  if (b64.length > BASE64_MAXIMO) throw fotoGrande();
  const datos = b64
    .trim()
    .replace(/^data:[\w/+.-]+;base64,/, '')
    .replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(datos)) throw new AppError('validacion', 'imagen_base64 no es base64.', { campos: { imagen_base64: 'No es base64' } });
  const bytes = Buffer.from(datos, 'base64');
  if (bytes.length > FOTO_MAXIMA) throw fotoGrande();
  return bytes;
}
