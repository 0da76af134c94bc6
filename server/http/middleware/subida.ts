import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import busboy from 'busboy';
import { AppError } from '../../../shared/errors';
import { MB } from './body';

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
