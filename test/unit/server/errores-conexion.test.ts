import { describe, expect, it } from 'vitest';
import { CommitIncierto, comoNoDisponible, marcarAlConectar, reintentarSinConexion, sinConexion } from '../../../server/db/errores';

/** An error as node-postgres builds it from the server's ErrorResponse: a message and a SQLSTATE. */
const deServidor = (code: string, mensaje = 'algo') => Object.assign(new Error(mensaje), { code });
/** A socket error as Node reports it. */
const deRed = (code: string) => Object.assign(new Error(`connect ${code} 127.0.0.1:5432`), { code, errno: -1, syscall: 'connect' });

describe('a lost or refused database connection, told apart from everything else', () => {
  it('by SQLSTATE: class 08, the server shutting sessions down, too many connections, the database gone', () => {
    for (const code of ['08000', '08003', '08006', '08P01', '57P01', '57P02', '57P03', '57P04', '57P05', '25P03', '53300', '3D000']) {
      expect(sinConexion(deServidor(code)), code).toBe(true);
    }
  });

  it('by Node socket code', () => {
    for (const code of ['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND']) expect(sinConexion(deRed(code)), code).toBe(true);
  });

  it("by node-postgres' own messages only where it gives no code, compared whole", () => {
    for (const m of [
      'Connection terminated unexpectedly',
      'Connection terminated due to connection timeout',
      'timeout exceeded when trying to connect',
      'Client has encountered a connection error and is not queryable',
    ]) {
      expect(sinConexion(new Error(m)), m).toBe(true);
    }
    // The same words with a code, or inside a longer message, are something else.
    expect(sinConexion(Object.assign(new Error('Connection terminated unexpectedly'), { code: '23505' }))).toBe(false);
    expect(sinConexion(new Error('Connection terminated unexpectedly, or so the user typed'))).toBe(false);
  });

  it('whatever failed while a connection was being obtained (the database refusing connections says 55000, which other statements use too)', () => {
    const rechazo = deServidor('55000', 'database "x" is not currently accepting connections');
    expect(sinConexion(rechazo)).toBe(false);
    expect(sinConexion(marcarAlConectar(rechazo))).toBe(true);
  });

  it('through causes (pg-pool wraps a connect timeout)', () => {
    expect(sinConexion(new Error('envoltorio', { cause: deRed('ECONNREFUSED') }))).toBe(true);
  });

  it('never a constraint, a syntax error, a bug, or nothing', () => {
    for (const e of [deServidor('23505'), deServidor('42601'), deServidor('40001'), deServidor('55000'), new TypeError('x is undefined'), null, undefined, 'texto', 42]) {
      expect(sinConexion(e), String(e)).toBe(false);
    }
  });
});

describe('the answer to it', () => {
  it('503 no_disponible with Retry-After, saying what to do; null for anything else', () => {
    const e = comoNoDisponible(deServidor('57P01'));
    expect(e).toMatchObject({ codigo: 'no_disponible', status: 503 });
    expect(Number(e!.headers['Retry-After'])).toBeGreaterThan(0);
    expect(e!.message).toMatch(/vuelva a intentarlo/);
    expect(comoNoDisponible(deServidor('23505'))).toBeNull();
  });

  it('a COMMIT whose outcome is unknown says so, and how to learn it without doing the change twice', () => {
    const e = comoNoDisponible(new CommitIncierto('1234', deServidor('57P01')));
    expect(e).toMatchObject({ codigo: 'no_disponible', status: 503 });
    expect(e!.message).toMatch(/no se sabe si el cambio quedó hecho/);
    expect(e!.message).toMatch(/Idempotency-Key/);
  });
});

describe('the workers’ retry of their bookkeeping', () => {
  it('runs again while the database is out of reach, and stops at once on any other error', async () => {
    let n = 0;
    expect(
      await reintentarSinConexion(
        async () => {
          if (++n < 3) throw deRed('ECONNREFUSED');
          return 'anotado';
        },
        { hasta: Date.now() + 60_000 },
      ),
    ).toBe('anotado');
    expect(n).toBe(3);

    n = 0;
    const otro = deServidor('23505');
    await expect(
      reintentarSinConexion(
        async () => {
          n++;
          throw otro;
        },
        { hasta: Date.now() + 60_000 },
      ),
    ).rejects.toBe(otro);
    expect(n).toBe(1);
  });

  it('gives up with the last error when told to stop', async () => {
    const parada = new AbortController();
    const corte = deRed('ECONNRESET');
    const r = reintentarSinConexion(
      async () => {
        throw corte;
      },
      { hasta: Date.now() + 60_000, signal: parada.signal },
    );
    parada.abort();
    await expect(r).rejects.toBe(corte);
  });
});
