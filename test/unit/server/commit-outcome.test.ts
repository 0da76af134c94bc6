import { type CompiledQuery, type DatabaseConnection, type Driver, PostgresDialect, type QueryResult } from 'kysely';
import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { COLUMNA_XID, withCommitOutcome } from '../../../server/db/commit-outcome';
import { CommitIncierto, sinConexion } from '../../../server/db/errores';

/** What node-postgres says when the socket ends under a query. */
const cortada = () => new Error('Connection terminated unexpectedly');

/**
 * A driver whose COMMIT loses its connection, and a pool that answers
 * `txid_status` as told: what the wrapper makes of a COMMIT with no answer.
 */
function montar(opts: { xid: string | null; estado?: () => Promise<string | null> }) {
  const sentencias: string[] = [];
  const preguntados: unknown[] = [];
  const conexion: DatabaseConnection = {
    async executeQuery<R>(q: CompiledQuery): Promise<QueryResult<R>> {
      sentencias.push(q.sql);
      // A change's last statement reports its transaction's id; the driver's own read gets `xid`.
      return { rows: [q.sql.includes(COLUMNA_XID) ? { [COLUMNA_XID]: '9041' } : { xid: opts.xid }] as R[] };
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
    query: async (_: string, params: unknown[]) => {
      preguntados.push(params[0]);
      return { rows: [{ outcome: await (opts.estado ?? (async () => null))() }] };
    },
  } as unknown as pg.Pool;
  const base = new PostgresDialect({ pool });
  const dialect = withCommitOutcome(
    { ...base, createDriver: () => inner, createAdapter: () => base.createAdapter(), createQueryCompiler: () => base.createQueryCompiler(), createIntrospector: (db) => base.createIntrospector(db) },
    pool,
  );
  return { driver: dialect.createDriver(), conexion, sentencias, preguntados };
}

describe('a COMMIT whose answer is lost', () => {
  it('asks the server: committed is a success', async () => {
    const { driver, conexion, sentencias } = montar({ xid: '731', estado: async () => 'committed' });
    await expect(driver.commitTransaction(conexion)).resolves.toBeUndefined();
    expect(sentencias).toEqual(['select txid_current_if_assigned()::text as xid', 'commit']);
  });

  it('takes the id a statement of the transaction reported, with no read of its own, and asks about that one', async () => {
    const { driver, sentencias, preguntados } = montar({ xid: '731', estado: async () => 'committed' });
    const c = await driver.acquireConnection();
    await driver.beginTransaction(c, {});
    await c.executeQuery({ sql: `select 1 as ${COLUMNA_XID}`, parameters: [] } as unknown as CompiledQuery);
    await expect(driver.commitTransaction(c)).resolves.toBeUndefined();
    expect(sentencias).toEqual([`select 1 as ${COLUMNA_XID}`, 'commit']);
    expect(preguntados).toEqual(['9041']);
    // The next transaction on the same connection starts with no id: it reads its own.
    await driver.beginTransaction(c, {});
    await driver.commitTransaction(c);
    expect(sentencias.slice(2)).toEqual(['select txid_current_if_assigned()::text as xid', 'commit']);
    expect(preguntados).toEqual(['9041', '731']);
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
