import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, createApi, esTransitorio, NetworkError } from '../../../client/data/api';

const json = (status: number, body: unknown, headers: Record<string, string> = {}) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } });

function apiQueResponde(res: () => Response) {
  return createApi('produccion', async () => res());
}

afterEach(() => {
  vi.doUnmock('../../../client/data/esquemas');
  vi.resetModules();
});

describe('error bodies, checked with the shared ErrorBody schema loaded on demand', () => {
  it('a documented error body becomes an ApiError with its campos, avisos and Retry-After', async () => {
    const api = apiQueResponde(() =>
      json(
        422,
        { error: { codigo: 'validacion', mensaje: 'Revise', campos: { 'envios[0].destino': 'Obligatorio' }, avisos: [{ campo: null, codigo: 'x', mensaje: 'y' }], request_id: 'req_1' } },
        { 'Retry-After': '7' },
      ),
    );
    const err = await api.llamar('crear_deca', {}).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 422, codigo: 'validacion', message: 'Revise', campos: { 'envios[0].destino': 'Obligatorio' }, retryAfterS: 7 });
    expect((err as ApiError).avisos).toEqual([{ campo: null, codigo: 'x', mensaje: 'y' }]);
  });

  it('a body that is not the documented shape is not trusted: its codigo and campos are ignored', async () => {
    for (const body of [
      { error: { codigo: 'validacion', mensaje: 'x', campos: { a: 1 }, avisos: [], request_id: 'req_1' } },
      { error: { codigo: 'validacion', mensaje: 'x', campos: {}, avisos: [], request_id: 'otro' } },
      { error: { codigo: 'validacion', mensaje: 'x', campos: {}, request_id: 'req_1' } },
      { error: { codigo: 'validacion', mensaje: 'x', campos: {}, avisos: [{ campo: 3, codigo: 'x', mensaje: 'y' }], request_id: 'req_1' } },
      '<html>proxy</html>',
    ]) {
      const err = await apiQueResponde(() => json(409, body))
        .llamar('ver_deca', { id: 1 })
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ApiError);
      expect(err).toMatchObject({ status: 409, codigo: 'desconocido', campos: {} });
    }
    const err = await apiQueResponde(() => json(502, 'Bad gateway'))
      .llamar('ver_deca', { id: 1 })
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 502, codigo: 'error_interno' });
  });

  it('an error whose schema chunk cannot be loaded (connection lost) is a NetworkError, retried later, not a refusal', async () => {
    vi.resetModules();
    vi.doMock('../../../client/data/esquemas', () => {
      throw new TypeError('Failed to fetch dynamically imported module');
    });
    const { createApi: crear, NetworkError: SinRed, esTransitorio: transitorio } = await import('../../../client/data/api');
    const err = await crear('produccion', async () => json(409, { error: { codigo: 'emitido', mensaje: 'x', campos: {}, avisos: [], request_id: 'req_1' } }))
      .llamar('emitir_deca', { id: 1 })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SinRed);
    expect(transitorio(err)).toBe(true);
  });

  it('no answer at all is a NetworkError', async () => {
    const err = await createApi('produccion', async () => {
      throw new TypeError('Failed to fetch');
    })
      .llamar('listar_decas', {})
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NetworkError);
    expect(esTransitorio(err)).toBe(true);
  });
});
