import { ZodError } from 'zod';
import type { ErrorBody } from '../../../shared/errors';
import { AppError, type Codigo, validationError } from '../../../shared/errors';
import { comoNoDisponible } from '../../db/errores';
import type { AppContext, AppMiddleware } from '../context';

const BY_STATUS: Record<number, [Codigo, string]> = {
  400: ['peticion_invalida', 'La petición no es válida.'],
  404: ['no_encontrado', 'No existe ese recurso.'],
  405: ['metodo_no_permitido', 'Ese método no se admite en esta ruta.'],
  413: ['demasiado_grande', 'El cuerpo de la petición es demasiado grande.'],
  415: ['json_invalido', 'El cuerpo debe ser JSON (application/json).'],
};

/** The documented error body of an AppError (spec: Errors), whatever front door answers it. */
export function errorBody(err: AppError, requestId: string): ErrorBody {
  return { error: { codigo: err.codigo, mensaje: err.message, campos: err.campos, avisos: err.avisos, request_id: requestId } };
}

/** An unexpected failure, as the user reads it: nothing of its cause, the request id to quote. */
export const errorInterno = (requestId: string) => new AppError('error_interno', `Error interno. Si se repite, escríbanos con el identificador ${requestId}.`);

/** Write an AppError as the documented error body (spec: Errors). */
export function writeError(ctx: AppContext, err: AppError): void {
  ctx.status = err.status;
  for (const [k, v] of Object.entries(err.headers)) ctx.set(k, v);
  ctx.body = errorBody(err, ctx.state.requestId);
}

function toAppError(err: unknown): AppError | null {
  if (err instanceof AppError) return err;
  if (err instanceof ZodError) return validationError(err.issues);
  const e = err as { status?: unknown; expose?: unknown; headers?: Record<string, string> };
  if (typeof e?.status === 'number' && e.status < 500 && e.expose) {
    const [codigo, mensaje] = BY_STATUS[e.status] ?? ['peticion_invalida', 'La petición no es válida.'];
    return new AppError(codigo, mensaje, { headers: e.headers ?? {} });
  }
  return null;
}

/**
 * Runs just inside request-id and catches everything, because Koa's default
 * handler would drop our headers and body. A database out of reach (a lost or
 * refused connection, db/errores.ts) is 503 `no_disponible` with
 * Retry-After, logged as a warning. Unknown errors become a generic 500,
 * logged once with the request id; nothing is classified by message text.
 */
export function withErrors(): AppMiddleware {
  return async (ctx, next) => {
    try {
      await next();
      if (ctx.status === 404 && ctx.body == null) {
        throw new AppError('no_encontrado', `No existe ${ctx.method} ${ctx.path}.`);
      }
    } catch (err) {
      const appErr = toAppError(err);
      if (appErr) {
        writeError(ctx, appErr);
        return;
      }
      const noDisponible = comoNoDisponible(err);
      if (noDisponible) {
        ctx.state.log.warn({ err }, 'database unavailable');
        writeError(ctx, noDisponible);
        return;
      }
      ctx.state.log.error({ err }, 'unhandled error');
      writeError(ctx, errorInterno(ctx.state.requestId));
    }
  };
}
