import { ErrorBody } from '../../shared/errors';
import type { Entorno } from '../../shared/schemas/cuenta';
import type { DecaInput } from '../../shared/schemas/deca';
import type { TestApp, TestResponse } from './app';

/** Production or test-environment API root of a test app. */
export function apiBase(entorno: Entorno = 'produccion'): string {
  return entorno === 'pruebas' ? '/demo/api/v1' : '/api/v1';
}

/** POST /decas with a key and optional extra headers (e.g. `Idempotency-Key`). */
export function postDeca(app: TestApp, key: string, body: DecaInput | Record<string, unknown>, opts: { headers?: Record<string, string>; entorno?: Entorno } = {}): Promise<TestResponse> {
  return app.request('POST', `${apiBase(opts.entorno)}/decas`, { key, body, headers: opts.headers });
}

/** The smallest body that creates a DeCA: pending, one datum so each one differs. */
export function decaMinima(i: number, over: Partial<DecaInput> = {}): DecaInput {
  return { emitir: false, referencia: `R-${i}`, ...over };
}

/**
 * Run `fn(0..n-1)` in batches of `lote` requests in flight at once, in order
 * of index; results keep that order. Faster than one by one, without
 * opening hundreds of sockets at once.
 */
export async function enLotes<T>(n: number, lote: number, fn: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  for (let start = 0; start < n; start += lote) {
    const batch = Array.from({ length: Math.min(lote, n - start) }, (_, k) => fn(start + k));
    out.push(...(await Promise.all(batch)));
  }
  return out;
}

/** The parsed error body of a refused request (throws if it does not have the documented shape). */
export function errorDe(res: TestResponse): ErrorBody['error'] {
  return ErrorBody.parse(res.body).error;
}

/** Rows in `decas` for an account and environment, read straight from the database. */
export async function contarDecas(app: TestApp, accountId: number, entorno: Entorno = 'produccion'): Promise<number> {
  const r = await app.database.db
    .selectFrom('decas')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('account_id', '=', accountId)
    .where('entorno', '=', entorno)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/** Sum of `numeradores.ultimo` over every year of an account and environment (0 when none was taken). */
export async function numerosTomados(app: TestApp, accountId: number, entorno: Entorno = 'produccion'): Promise<number> {
  const rows = await app.database.db.selectFrom('numeradores').select('ultimo').where('account_id', '=', accountId).where('entorno', '=', entorno).execute();
  return rows.reduce((s, r) => s + r.ultimo, 0);
}

/** `uso_mensual.decas` of one Madrid month (`YYYY-MM`), 0 when there is no row. */
export async function usoDecas(app: TestApp, accountId: number, mes: string, entorno: Entorno = 'produccion'): Promise<number> {
  const r = await app.database.db.selectFrom('uso_mensual').select('decas').where('account_id', '=', accountId).where('entorno', '=', entorno).where('mes', '=', mes).executeTakeFirst();
  return r?.decas ?? 0;
}
