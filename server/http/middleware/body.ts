import getRawBody from 'raw-body';
import { AppError } from '../../../shared/errors';
import type { AppMiddleware } from '../context';

export const KB = 1024;
export const MB = 1024 * KB;

function sizeText(bytes: number): string {
  return bytes >= MB ? `${Math.round(bytes / MB)} MB` : `${Math.round(bytes / KB)} KB`;
}

/** Read the raw body, refusing more than `limit` bytes with a clear 413 body. */
export async function readBody(req: import('node:http').IncomingMessage, limit: number): Promise<Buffer> {
  try {
    return await getRawBody(req, { length: req.headers['content-length'], limit });
  } catch (err) {
    const type = (err as { type?: string }).type;
    if (type === 'entity.too.large') {
      throw new AppError('demasiado_grande', `El cuerpo de la petición supera el máximo de ${sizeText(limit)} para esta ruta.`);
    }
    if (type === 'request.size.invalid' || type === 'request.aborted') {
      throw new AppError('json_invalido', 'El cuerpo llegó incompleto: no coincide con Content-Length.');
    }
    throw err;
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The body's bytes as text, refusing bytes that are not UTF-8 (never stored as U+FFFD). */
export function textoUtf8(raw: Buffer, que = 'El cuerpo'): string {
  try {
    return utf8.decode(raw);
  } catch {
    throw new AppError('json_invalido', `${que} no está en UTF-8 válido: envíe el texto codificado en UTF-8.`);
  }
}

/**
 * An application/x-www-form-urlencoded body as pairs, strictly: bytes and
 * percent-escapes that are not UTF-8 are refused (URLSearchParams would turn
 * them into U+FFFD without a word).
 */
export function formularioUtf8(raw: Buffer): [string, string][] {
  const pares: [string, string][] = [];
  const decodificar = (s: string) => decodeURIComponent(s.replace(/\+/g, ' '));
  try {
    for (const par of textoUtf8(raw, 'El formulario').split('&')) {
      if (!par) continue;
      const i = par.indexOf('=');
      pares.push(i < 0 ? [decodificar(par), ''] : [decodificar(par.slice(0, i)), decodificar(par.slice(i + 1))]);
    }
  } catch (err) {
    if (err instanceof URIError) throw new AppError('peticion_invalida', 'El formulario no está en UTF-8 válido: vuelva a enviarlo desde la página.');
    throw err;
  }
  return pares;
}

/**
 * JSON body (default limit 256 KB: 48 shipments fit many times over). An empty
 * body counts as `{}`; anything that is not JSON is 400 `json_invalido`.
 */
export function jsonBody(limit = 256 * KB): AppMiddleware {
  return async (ctx, next) => {
    if (ctx.method === 'GET' || ctx.method === 'HEAD' || ctx.method === 'OPTIONS') return next();
    const type = ctx.get('content-type');
    if (type && !/^application\/([\w.+-]*\+)?json\b/i.test(type) && !/^text\/plain\b/i.test(type)) {
      throw new AppError('json_invalido', `El cuerpo debe ser JSON (llegó ${type.split(';')[0]}): envíelo con Content-Type: application/json.`);
    }
    const raw = await readBody(ctx.req, limit);
    const text = textoUtf8(raw).replace(/^\uFEFF/, '');
    if (text.trim() === '') {
      ctx.state.body = {};
    } else {
      try {
        ctx.state.body = JSON.parse(text);
      } catch {
        throw new AppError('json_invalido', 'El cuerpo no es JSON válido. Envíe un objeto JSON en UTF-8, por ejemplo {}.');
      }
    }
    await next();
  };
}
