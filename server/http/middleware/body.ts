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

/** Deepest nesting of a JSON body: a DeCA has 3 levels, an MCP tool call 5, a batch of them 6. */
export const JSON_PROFUNDIDAD_MAXIMA = 32;
/**
 * Values, keys and containers a JSON body may hold: a DeCA of 48 shipments
 * has ~650, an MCP batch of 15 of them fits. Within the byte limits, JSON's
 * cost is in its count of things: 4 MB of `[{},{},…]` held the event loop
 * 340 ms (parse, then the MCP SDK's checks), an object of 350,000 keys 850 ms.
 */
export const JSON_ELEMENTOS_MAXIMOS = 10_000;

/**
 * Refuses, before `JSON.parse` and anything that walks the result, a JSON
 * text nested deeper or holding more elements than any request of this
 * service needs: 128,000 nested arrays in a 256 KB body made a 500 (a
 * recursion overflowed), 2 million in the MCP's 4 MB held the loop 900 ms.
 * A linear scan outside strings (4 MB in ~15 ms); malformed text is left to
 * `JSON.parse` to refuse.
 */
export function comprobarFormaJson(text: string): void {
  let profundidad = 0;
  let elementos = 0;
  let enCadena = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (enCadena) {
      if (c === 0x5c)
        i++; // \" and \\ do not end the string
      else if (c === 0x22) enCadena = false;
      continue;
    }
    if (c === 0x22) enCadena = true;
    else if (c === 0x7d || c === 0x5d) profundidad--;
    else if (c === 0x7b || c === 0x5b || c === 0x2c || c === 0x3a) {
      if (++elementos > JSON_ELEMENTOS_MAXIMOS) {
        throw new AppError(
          'demasiado_grande',
          `El JSON tiene más de ${JSON_ELEMENTOS_MAXIMOS.toLocaleString('es-ES')} valores: ninguna petición de este servicio necesita tantos; envíe los datos en varias peticiones.`,
        );
      }
      if ((c === 0x7b || c === 0x5b) && ++profundidad > JSON_PROFUNDIDAD_MAXIMA) {
        throw new AppError('demasiado_grande', `El JSON anida más de ${JSON_PROFUNDIDAD_MAXIMA} niveles de objetos o listas: ninguna petición de este servicio necesita tantos.`);
      }
    }
  }
}

/**
 * JSON body (default limit 256 KB: 48 shipments fit many times over). An empty
 * body counts as `{}`; anything that is not JSON is 400 `json_invalido`; JSON
 * nested too deep or with too many values, 413 (`comprobarFormaJson`).
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
      comprobarFormaJson(text);
      try {
        ctx.state.body = JSON.parse(text);
      } catch {
        throw new AppError('json_invalido', 'El cuerpo no es JSON válido. Envíe un objeto JSON en UTF-8, por ejemplo {}.');
      }
    }
    await next();
  };
}
