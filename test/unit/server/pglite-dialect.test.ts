/**
 * Our PGlite dialect for kysely 0.28 (server/db/pglite-dialect.ts) on a real
 * in-memory PGlite: one session handed to one user at a time, transactions
 * through PGlite's exclusive `transaction()` (so direct `pglite.query` calls
 * by the rate limiter or LISTEN never run inside ours), affected-row counts,
 * savepoints, and a usable session after every kind of failure.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { PGlite } from '@electric-sql/pglite';
import { type Generated, isAbortedTransactionError, Kysely, sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PGliteDialect } from '../../../server/db/pglite-dialect';

interface DB {
  t: { id: Generated<number>; k: string };
}

let pglite: PGlite;
let db: Kysely<DB>;

/** The keys in the table, in insertion order. */
async function keys(): Promise<string[]> {
  const rows = await db.selectFrom('t').select('k').orderBy('id').execute();
  return rows.map((r) => r.k);
}

beforeAll(async () => {
  pglite = new PGlite();
  await pglite.waitReady;
  db = new Kysely<DB>({ dialect: new PGliteDialect({ pglite }) });
  await db.schema
    .createTable('t')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('k', 'text', (c) => c.notNull().unique())
    .execute();
}, 60_000);

afterAll(async () => {
  await db?.destroy();
  expect(pglite.closed).toBe(true);
});

beforeEach(async () => {
  await sql`truncate t restart identity`.execute(db);
});

describe('PGliteDialect (kysely 0.28)', () => {
  it('runs two concurrent transactions one after the other; the one that throws leaves nothing, the other commits', async () => {
    const events: string[] = [];
    const failing = db.transaction().execute(async (trx) => {
      events.push('a:start');
      await trx.insertInto('t').values({ k: 'a1' }).execute();
      await delay(50);
      await trx.insertInto('t').values({ k: 'a2' }).execute();
      events.push('a:end');
      throw new Error('a fails');
    });
    const committing = db.transaction().execute(async (trx) => {
      events.push('b:start');
      await trx.insertInto('t').values({ k: 'b1' }).execute();
      await delay(10);
      await trx.insertInto('t').values({ k: 'b2' }).execute();
      events.push('b:end');
      return 'b';
    });
    const [a, b] = await Promise.allSettled([failing, committing]);
    expect(a).toMatchObject({ status: 'rejected', reason: { message: 'a fails' } });
    expect(b).toEqual({ status: 'fulfilled', value: 'b' });
    expect(events).toEqual(['a:start', 'a:end', 'b:start', 'b:end']);
    expect(await keys()).toEqual(['b1', 'b2']);
  });

  it('makes a Kysely query issued outside an open transaction wait for it, so it is not rolled back with it', async () => {
    let outside: Promise<unknown> | undefined;
    let seen: Promise<string[]> | undefined;
    const trx = db.transaction().execute(async (trx) => {
      await trx.insertInto('t').values({ k: 'inside' }).execute();
      seen = keys();
      outside = db.insertInto('t').values({ k: 'outside' }).execute();
      await delay(30);
      throw new Error('roll back');
    });
    await expect(trx).rejects.toThrow('roll back');
    await outside;
    // Read after the transaction ended: it never saw the rolled-back row.
    expect(await seen).not.toContain('inside');
    expect(await keys()).toEqual(['outside']);
  });

  it('keeps a direct pglite.query on the same instance out of an open Kysely transaction', async () => {
    const order: string[] = [];
    let direct: Promise<unknown> | undefined;
    const trx = db.transaction().execute(async (trx) => {
      await trx.insertInto('t').values({ k: 'kysely' }).execute();
      direct = pglite.query('insert into t (k) values ($1)', ['direct']).then(() => order.push('direct'));
      await delay(30);
      await trx.insertInto('t').values({ k: 'kysely2' }).execute();
      order.push('trx:end');
      throw new Error('roll back');
    });
    await expect(trx).rejects.toThrow('roll back');
    await direct;
    expect(order).toEqual(['trx:end', 'direct']);
    expect(await keys()).toEqual(['direct']);
  });

  it('reports affected-row counts of insert, update and delete', async () => {
    const inserted = await db
      .insertInto('t')
      .values([{ k: 'x1' }, { k: 'x2' }, { k: 'y1' }])
      .executeTakeFirstOrThrow();
    expect(inserted.numInsertedOrUpdatedRows).toBe(3n);
    const updated = await db.updateTable('t').set({ k: sql`k || '!'` }).where('k', 'like', 'x%').executeTakeFirstOrThrow();
    expect(updated.numUpdatedRows).toBe(2n);
    const none = await db.updateTable('t').set({ k: 'z' }).where('k', '=', 'nope').executeTakeFirstOrThrow();
    expect(none.numUpdatedRows).toBe(0n);
    const deleted = await db.deleteFrom('t').where('k', '=', 'y1').executeTakeFirstOrThrow();
    expect(deleted.numDeletedRows).toBe(1n);
    const inTrx = await db.transaction().execute((trx) => trx.deleteFrom('t').where('k', 'like', 'x%').executeTakeFirstOrThrow());
    expect(inTrx.numDeletedRows).toBe(2n);
    expect(await keys()).toEqual([]);
  });

  it('rolls back to a savepoint inside a transaction and keeps the rest', async () => {
    const trx = await db.startTransaction().execute();
    await trx.insertInto('t').values({ k: 'before' }).execute();
    const afterBefore = await trx.savepoint('sp "1"').execute();
    await afterBefore.insertInto('t').values({ k: 'dropped' }).execute();
    const back = await afterBefore.rollbackToSavepoint('sp "1"').execute();
    await back.insertInto('t').values({ k: 'after' }).execute();
    const kept = await back.savepoint('sp2').execute();
    await kept.insertInto('t').values({ k: 'released' }).execute();
    const released = await kept.releaseSavepoint('sp2').execute();
    await released.commit().execute();
    expect(await keys()).toEqual(['before', 'after', 'released']);
  });

  it('serves queries after a transaction that failed on a statement', async () => {
    await db.insertInto('t').values({ k: 'dup' }).execute();
    await expect(
      db.transaction().execute(async (trx) => {
        await trx.insertInto('t').values({ k: 'new' }).execute();
        await trx.insertInto('t').values({ k: 'dup' }).execute();
      }),
    ).rejects.toMatchObject({ code: '23505' });
    expect(await keys()).toEqual(['dup']);
    await db.transaction().execute((trx) => trx.insertInto('t').values({ k: 'next' }).execute());
    expect(await keys()).toEqual(['dup', 'next']);
  });

  it('reports a commit PostgreSQL answers with ROLLBACK as an aborted transaction, and goes on', async () => {
    await db.insertInto('t').values({ k: 'dup' }).execute();
    const failed = await db
      .transaction()
      .execute(async (trx) => {
        await trx.insertInto('t').values({ k: 'lost' }).execute();
        // Swallowed: the transaction is now aborted, and its COMMIT rolls back.
        await trx
          .insertInto('t')
          .values({ k: 'dup' })
          .execute()
          .catch(() => undefined);
      })
      .then(
        () => null,
        (error: unknown) => error,
      );
    expect(isAbortedTransactionError(failed)).toBe(true);
    expect(failed).toMatchObject({ cause: { code: '25P02' } });
    expect(await keys()).toEqual(['dup']);
  });

  it('applies transaction settings, and a transaction that cannot begin fails without blocking the session', async () => {
    await expect(
      db
        .transaction()
        .setAccessMode('read only')
        .execute((trx) => trx.insertInto('t').values({ k: 'ro' }).execute()),
    ).rejects.toMatchObject({ code: '25006' });
    const level = await db
      .transaction()
      .setIsolationLevel('serializable')
      .execute((trx) => sql<{ l: string }>`select current_setting('transaction_isolation') as l`.execute(trx));
    expect(level.rows[0]?.l).toBe('serializable');
    // PostgreSQL has no «snapshot» isolation level: BEGIN fails.
    await expect(
      db
        .transaction()
        .setIsolationLevel('snapshot')
        .execute(() => Promise.resolve()),
    ).rejects.toThrow();
    await db.insertInto('t').values({ k: 'still works' }).execute();
    expect(await keys()).toEqual(['still works']);
  });
});
