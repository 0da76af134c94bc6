import { expect } from 'vitest';
import { ErrorBody } from '../../shared/errors';
import { type Cambio, CambiosList, Deca, DecaCreada } from '../../shared/schemas/deca';
import type { TestApp, TestResponse } from './app';

/** Production and test-environment API roots (spec: `{base_url}`, `{demo_base_url}`). */
export const API = '/api/v1';
export const DEMO = '/demo/api/v1';

/** `YYYY-MM-DD HH:MM:SS`, the timestamp shape of the spec. */
export const FECHA_HORA = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

/** The header a web-session write must carry (CSRF). */
export const CSRF = { 'X-DeCA-CSRF': '1' };

/**
 * Check an error answer: status, `codigo`, the documented body shape and a
 * request id equal to the `X-Request-Id` header. Returns the parsed error.
 */
export function expectApiError(res: TestResponse, status: number, codigo: string): ErrorBody['error'] {
  expect(res.status, res.text).toBe(status);
  const { error } = ErrorBody.parse(res.body);
  expect(error.codigo).toBe(codigo);
  expect(error.request_id).toBe(res.headers.get('x-request-id'));
  expect(error.mensaje.length).toBeGreaterThan(10);
  return error;
}

/** POST /decas that must create (201); returns the parsed `{deca, avisos}`. */
export async function crearDecaOk(app: TestApp, key: string, body: unknown, base = API): Promise<DecaCreada> {
  const res = await app.request('POST', `${base}/decas`, { key, body });
  expect(res.status, res.text).toBe(201);
  return DecaCreada.parse(res.body);
}

/** A 200 answer carrying `{deca}`, parsed with the shared schema. */
export function decaOk(res: TestResponse): Deca {
  expect(res.status, res.text).toBe(200);
  return Deca.parse((res.body as { deca: unknown }).deca);
}

/** GET /decas/{ref} that must succeed. */
export async function leerDeca(app: TestApp, key: string, ref: string | number, base = API): Promise<Deca> {
  return decaOk(await app.request('GET', `${base}/decas/${ref}`, { key }));
}

/** GET /decas/{ref}/cambios that must succeed, parsed. */
export async function leerCambios(app: TestApp, auth: { key?: string; cookie?: string }, ref: string | number, base = API): Promise<Cambio[]> {
  const res = await app.request('GET', `${base}/decas/${ref}/cambios`, auth);
  expect(res.status, res.text).toBe(200);
  return CambiosList.parse(res.body).cambios;
}

/** Names of the events written to the outbox for one DeCA, oldest first. */
export async function eventosDe(app: TestApp, decaId: number): Promise<string[]> {
  const rows = await app.database.db.selectFrom('eventos').select('evento').where('deca_id', '=', decaId).orderBy('id', 'asc').execute();
  return rows.map((r) => r.evento);
}

/** Number of DeCA rows an account has (both environments). */
export async function contarDecas(app: TestApp, accountId: number): Promise<number> {
  const rows = await app.database.db.selectFrom('decas').select('id').where('account_id', '=', accountId).execute();
  return rows.length;
}

/** The `deca_sesion=…` pair of a Set-Cookie answer, ready for a Cookie header. */
export function sessionCookieOf(res: TestResponse): string {
  const set = res.headers.getSetCookie().find((c) => c.startsWith('deca_sesion='));
  if (!set) throw new Error(`no session cookie in ${res.status} ${res.text}`);
  return set.split(';')[0] ?? '';
}

/** Sign in to the web application; returns the session cookie. */
export async function iniciarSesion(app: TestApp, email: string, password: string): Promise<string> {
  const res = await app.request('POST', '/app/api/sesion', { headers: CSRF, body: { email, password } });
  expect(res.status, res.text).toBe(200);
  return sessionCookieOf(res);
}

/** Raw bytes of a GET (fetch; the text-based helper would mangle binary bodies). */
export async function getBytes(app: TestApp, key: string, path: string): Promise<{ status: number; type: string | null; bytes: Buffer }> {
  const res = await fetch(app.url + path, { headers: { authorization: `Bearer ${key}` } });
  return { status: res.status, type: res.headers.get('content-type'), bytes: Buffer.from(await res.arrayBuffer()) };
}
