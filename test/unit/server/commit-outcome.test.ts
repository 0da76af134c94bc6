import { type CompiledQuery, type DatabaseConnection, type Driver, PostgresDialect, type QueryResult } from 'kysely';
import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { withCommitOutcome } from '../../../server/db/commit-outcome';
import { CommitIncierto, sinConexion } from '../../../server/db/errores';

/** What node-postgres says when the socket ends under a query. */
const cortada = () => new Error('Connection terminated unexpectedly');

/**
 * A driver whose COMMIT loses its connection, and a pool that answers
 * `txid_status` as told: what the wrapper makes of a COMMIT with no answer.
 */
function montar(opts: { xid: string | null; estado?: () => Promise<string | null> }) {
  const sentencias: string[] = [];
  const conexion: DatabaseConnection = {
    async executeQuery<R>(q: CompiledQuery): Promise<QueryResult<R>> {
      sentencias.push(q.sql);
      return { rows: [{ xid: opts.xid }] as R[] };
    },
    // biome-ignore lint/correctness/useYield: the connection interface asks for a generator; the test never streams
    async *streamQuery() {
      throw new Error('no');
    },
  };
  const inner: Driver = {
    init: async () => {},
    acquireConnection: async () => conexion,
    beginTransaction: async () => {},
    commitTransaction: async () => {
      sentencias.push('commit');
      throw cortada();
    },
    rollbackTransaction: async () => {
      sentencias.push('rollback');
      throw cortada();
    },
    releaseConnection: async () => {},
    destroy: async () => {},
  };
  const pool = {
    query: async () => ({ rows: [{ outcome: await (opts.estado ?? (async () => null))() }] }),
  } as unknown as pg.Pool;
  const base = new PostgresDialect({ pool });
  const dialect = withCommitOutcome(
    { ...base, createDriver: () => inner, createAdapter: () => base.createAdapter(), createQueryCompiler: () => base.createQueryCompiler(), createIntrospector: (db) => base.createIntrospector(db) },
    pool,
  );
  return { driver: dialect.createDriver(), conexion, sentencias };
}

describe('a COMMIT whose answer is lost', () => {
  it('asks the server: committed is a success', async () => {
    const { driver, conexion, sentencias } = montar({ xid: '731', estado: async () => 'committed' });
    await expect(driver.commitTransaction(conexion)).resolves.toBeUndefined();
    expect(sentencias).toEqual(['select txid_current_if_assigned()::text as xid', 'commit']);
  });

  it('aborted is the connection error itself (nothing saved: a retry is safe), with no rollback tried on the dead connection', async () => {
    const { driver, conexion, sentencias } = montar({ xid: '731', estado: async () => 'aborted' });
    const err = await driver.commitTransaction(conexion).catch((e: unknown) => e);
    expect(err).not.toBeInstanceOf(CommitIncierto);
    expect(sinConexion(err)).toBe(true);
    await driver.rollbackTransaction(conexion);
    expect(sentencias).not.toContain('rollback');
  });

  it('unknown (the server cannot say) is CommitIncierto', async () => {
    const { driver, conexion } = montar({ xid: '731', estado: async () => null });
    const err = await driver.commitTransaction(conexion).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CommitIncierto);
    expect(sinConexion(err)).toBe(true);
  });

  it('a transaction that wrote nothing (no id assigned) lost nothing: what it read stands', async () => {
    const { driver, conexion } = montar({ xid: null });
    await expect(driver.commitTransaction(conexion)).resolves.toBeUndefined();
  });
});
