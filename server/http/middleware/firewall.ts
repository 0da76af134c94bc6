import { AppError } from '../../../shared/errors';
import type { AppMiddleware } from '../context';

/**
 * Spec (Endpoints): "A POST without Content-Length is rejected by the server
 * firewall with 403". Chunked uploads cannot be size-checked up front.
 */
export function requireContentLength(): AppMiddleware {
  return async (ctx, next) => {
    if (ctx.method === 'POST' && ctx.get('content-length') === '') {
      throw new AppError('sin_longitud', 'Las peticiones POST deben llevar la cabecera Content-Length y un cuerpo (al menos {}).');
    }
    await next();
  };
}
