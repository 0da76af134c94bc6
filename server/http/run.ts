import { AppError } from '../../shared/errors';
import { ClaveIdempotencia } from '../../shared/schemas/idempotencia';
import type { z } from '../../shared/schemas/zod';
import { type Acceso, autorizar, type Command, ejecutar, type Quien } from '../commands/command';
import type { Services } from '../deps';
import { type AppContext, actorOf } from './context';

/**
 * The Idempotency-Key header (IETF draft), checked with the rule MCP's
 * `clave_idempotencia` obeys too (shared/schemas/idempotencia.ts); null when
 * absent or empty.
 */
export function idempotencyKey(ctx: AppContext): string | null {
  const key = ctx.get('idempotency-key').trim();
  if (!key) return null;
  const r = ClaveIdempotencia.safeParse(key);
  if (!r.success) {
    throw new AppError('validacion', 'Idempotency-Key debe tener de 1 a 255 caracteres visibles (p. ej. un UUID).', {
      campos: { 'Idempotency-Key': r.error.issues[0]?.message ?? 'Formato no válido' },
    });
  }
  return r.data;
}

/**
 * Run a command for the request's authenticated actor with the request's
 * Idempotency-Key, and mark a repeat with `Idempotent-Replayed: true`. What
 * every REST and app handler does between parsing and answering.
 */
export async function correr<S extends z.ZodType, O, A extends 'lectura' | 'escritura' | 'admin'>(ctx: AppContext, services: Services, cmd: Command<S, O, A>, input: unknown): Promise<O> {
  const r = await ejecutar(services, cmd, actorOf(ctx) as Quien<A>, input, { idempotencyKey: idempotencyKey(ctx) });
  if (r.repetida) ctx.set('Idempotent-Replayed', 'true');
  return r.valor;
}

/**
 * Check that the request's actor may run `cmd` before an upload is read: a
 * read-only key or a role without the permission gets its 403 at once, and
 * nothing of a 2 MB body is read for it. The command checks again.
 */
export function autorizarAntes(ctx: AppContext, cmd: Command<z.ZodType, unknown, 'lectura' | 'escritura' | 'admin'>): void {
  autorizar(cmd.acceso, actorOf(ctx), cmd.permiso);
}

/**
 * The body merged with the path's parameters (which win): a command's whole
 * input. A body that is not a JSON object is passed as it is, so the
 * command's schema refuses it (422) instead of it being read as `{}`.
 */
export function entrada(ctx: AppContext & { params?: Record<string, string> }): unknown {
  const body = ctx.state.body ?? {};
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return body;
  return { ...(body as Record<string, unknown>), ...(ctx.params ?? {}) };
}

export type { Acceso };
