import { AppError } from '../../shared/errors';
import type { AppDeps } from '../app';
import type { Actor } from '../domain/actor';
import type { AntesDeConfirmar } from '../domain/decas/escritura';
import { conIdempotencia, huella } from '../domain/decas/idempotencia';
import { obtenerDeca, type DecaConRefs } from '../domain/decas/queries';
import type { AppContext } from './context';

const KEY_RE = /^[\x21-\x7e]{1,255}$/;

/** The Idempotency-Key header (IETF draft), validated; null when absent. */
export function idempotencyKey(ctx: AppContext): string | null {
  const key = ctx.get('idempotency-key').trim();
  if (!key) return null;
  if (!KEY_RE.test(key)) {
    throw new AppError('validacion', 'Idempotency-Key debe tener de 1 a 255 caracteres visibles (p. ej. un UUID).', {
      campos: { 'Idempotency-Key': 'Formato no válido' },
    });
  }
  return key;
}

export function idempotenciaDistinta(): AppError {
  return new AppError('idempotencia_distinta', 'Esta Idempotency-Key ya se usó con otra petición distinta. Use una clave nueva para cada cambio.', {
    campos: { 'Idempotency-Key': 'Ya usada con otra petición' },
  });
}

/**
 * Run a DeCA change under the request's Idempotency-Key, if any: the first
 * request runs (its result recorded in the same transaction); a repeat gets
 * the DeCA as it stands now, marked `Idempotent-Replayed: true`. The offline
 * app replays its outbox with the same key, so a change is never applied twice.
 */
export async function runIdempotent(
  ctx: AppContext,
  deps: AppDeps,
  actor: Actor,
  run: (antesDeConfirmar?: AntesDeConfirmar) => Promise<DecaConRefs>,
): Promise<DecaConRefs> {
  const key = idempotencyKey(ctx);
  if (!key) return run();
  const r = await conIdempotencia(
    deps.database.db,
    deps.clock,
    actor,
    [{ clave: `hdr:${key}`, huella: huella(ctx.method, ctx.path.replace(/^\/demo/, ''), ctx.state.body ?? null) }],
    (completarTodas) => run((trx, decaId, status) => completarTodas(trx, { decaId, status })),
  );
  if ('hecho' in r) return r.hecho;
  if (r.repeticion.distinta) throw idempotenciaDistinta();
  ctx.set('Idempotent-Replayed', 'true');
  if (r.repeticion.decaId === null) throw new AppError('no_encontrado', 'La DeCA de esta petición ya no existe.');
  return obtenerDeca(deps.database.db, actor, String(r.repeticion.decaId));
}
