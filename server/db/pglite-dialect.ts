/**
 * Kysely dialect for the embedded PGlite.
 *
 * Why our own: kysely 0.29 ships a correct `PGliteDialect`, but it declares
 * Node >= 22 and the product runs on Node >= 20.19, so we stay on kysely 0.28,
 * which has none. The `kysely-pglite` package is no substitute (it pins kysely
 * 0.27, loses affected-row counts and commits rolled-back rows under
 * concurrent transactions).
 *
 * This is a port of kysely 0.29's MIT-licensed PGlite dialect
 * (src/dialect/pglite/*, Copyright (c) 2022 Sami Koskimäki) to 0.28's driver
 * interfaces, with two additions:
 *
 * - A connection mutex held from `acquireConnection` to `releaseConnection`.
 *   PGlite is one session; 0.29's core serialises access to it by itself
 *   (its adapter reports `supportsMultipleConnections: false`), 0.28's core
 *   does not, so the driver does, like 0.28's own SqliteDriver.
 * - Transaction settings (isolation level, access mode) are applied with
 *   `set transaction` instead of being ignored.
 *
 * Transactions run inside PGlite's own exclusive `pglite.transaction()`, never
 * as raw BEGIN/COMMIT: other code talks to the same instance directly
 * (`pglite.listen`, `pglite.query`), and PGlite holds those back until the
 * transaction ends instead of running them inside it.
 */
import type { PGliteInterface, Transaction as PGliteTransaction } from '@electric-sql/pglite';
import {
  AbortedTransactionError,
  type CompiledQuery,
  createQueryId,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type Dialect,
  type DialectAdapter,
  type Driver,
  IdentifierNode,
  type Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type QueryCompiler,
  type QueryResult,
  RawNode,
  type TransactionSettings,
} from 'kysely';

/** The part of a PGlite instance the dialect uses (any PGlite, whatever its extensions). */
export type PGliteInstance = Pick<PGliteInterface, 'close' | 'closed' | 'query' | 'ready' | 'transaction' | 'waitReady'>;

/** Configuration of {@link PGliteDialect}, as in kysely 0.29. */
export interface PGliteDialectConfig {
  /**
   * A PGlite instance, or a function returning one (called once, when the
   * first query runs). `Kysely.destroy()` closes the instance if it is open.
   */
  pglite: PGliteInstance | (() => PGliteInstance | Promise<PGliteInstance>);
  /** Called once, when the first query runs, with the (only) connection. */
  onCreateConnection?: (connection: DatabaseConnection) => Promise<void>;
}

/**
 * Kysely dialect on an embedded PGlite: PostgreSQL's SQL compiler and
 * introspector, a driver that gives out PGlite's single session to one user
 * at a time and runs transactions through `pglite.transaction()`.
 *
 * ```ts
 * new Kysely<DB>({ dialect: new PGliteDialect({ pglite: new PGlite() }) })
 * ```
 */
export class PGliteDialect implements Dialect {
  readonly #config: PGliteDialectConfig;

  constructor(config: PGliteDialectConfig) {
    this.#config = config;
  }

  createAdapter(): DialectAdapter {
    return new PGliteAdapter();
  }

  createDriver(): Driver {
    return new PGliteDriver(this.#config);
  }

  // Kysely<any>: the signature `Dialect` declares.
  createIntrospector(db: Kysely<any>): DatabaseIntrospector {
    return new PostgresIntrospector(db);
  }

  createQueryCompiler(): QueryCompiler {
    return new PostgresQueryCompiler();
  }
}

/** PostgreSQL's adapter without the advisory lock: the migrator already holds the only session throughout. */
class PGliteAdapter extends PostgresAdapter {
  override async acquireMigrationLock(): Promise<void> {
    // PGlite has one connection, reserved by the migrator from acquire to release.
  }

  override async releaseMigrationLock(): Promise<void> {
    // See acquireMigrationLock.
  }
}

class PGliteDriver implements Driver {
  readonly #config: PGliteDialectConfig;
  readonly #connectionMutex = new ConnectionMutex();
  #pglite: PGliteInstance | undefined;
  #connection: PGliteConnection | undefined;

  constructor(config: PGliteDialectConfig) {
    this.#config = { ...config };
  }

  async init(): Promise<void> {
    const { pglite } = this.#config;
    this.#pglite ??= typeof pglite === 'function' ? await pglite() : pglite;
    if (this.#pglite.closed) throw new Error('PGlite instance is already closed.');
    if (!this.#pglite.ready) await this.#pglite.waitReady;
    this.#connection = new PGliteConnection(this.#pglite);
    if (this.#config.onCreateConnection) await this.#config.onCreateConnection(this.#connection);
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    // One session: wait until whoever holds it (a transaction, a query) releases it.
    await this.#connectionMutex.lock();
    if (!this.#connection) {
      this.#connectionMutex.unlock();
      throw new Error('PGliteDriver: acquireConnection before init.');
    }
    return this.#connection;
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    await ours(connection).begin(settings);
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await ours(connection).commit();
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await ours(connection).rollback();
  }

  async savepoint(connection: DatabaseConnection, savepointName: string, compileQuery: QueryCompiler['compileQuery']): Promise<void> {
    await connection.executeQuery(compileQuery(savepointCommand('savepoint', savepointName), createQueryId()));
  }

  async rollbackToSavepoint(connection: DatabaseConnection, savepointName: string, compileQuery: QueryCompiler['compileQuery']): Promise<void> {
    await connection.executeQuery(compileQuery(savepointCommand('rollback to', savepointName), createQueryId()));
  }

  async releaseSavepoint(connection: DatabaseConnection, savepointName: string, compileQuery: QueryCompiler['compileQuery']): Promise<void> {
    await connection.executeQuery(compileQuery(savepointCommand('release', savepointName), createQueryId()));
  }

  async releaseConnection(): Promise<void> {
    this.#connectionMutex.unlock();
  }

  async destroy(): Promise<void> {
    if (this.#pglite && !this.#pglite.closed) await this.#pglite.close();
  }
}

/** The session's connection: queries go to the open PGlite transaction, if any, else to the instance. */
class PGliteConnection implements DatabaseConnection {
  readonly #pglite: PGliteInstance;
  #transaction: PGliteTransaction | undefined;
  #commitTransaction: (() => void) | undefined;
  #rollbackTransaction: ((reason: unknown) => void) | undefined;
  #transactionClosed: Promise<void> | undefined;

  constructor(pglite: PGliteInstance) {
    this.#pglite = pglite;
  }

  async executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    try {
      const { affectedRows, rows } = await (this.#transaction ?? this.#pglite).query<R>(compiledQuery.sql, compiledQuery.parameters as unknown[], {
        rowMode: 'object',
      });
      return {
        numAffectedRows: affectedRows != null ? BigInt(affectedRows) : undefined,
        rows: rows ?? [],
      };
    } catch (error) {
      throw extendStackTrace(error, new Error());
    }
  }

  /** PGlite returns whole results only. */
  // biome-ignore lint/correctness/useYield: Kysely's connection interface asks for a generator; this one can only refuse
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('Streaming is not supported by PGlite.');
  }

  /**
   * Open a PGlite exclusive transaction that stays open until commit() or
   * rollback() settles it: PGlite's callback waits on a deferred promise.
   */
  async begin(settings: TransactionSettings): Promise<void> {
    const settled = new Deferred<void>();
    const begun = new Deferred<void>();
    this.#commitTransaction = () => settled.resolve();
    this.#rollbackTransaction = (reason) => settled.reject(reason);
    const closed = this.#pglite.transaction(async (tx) => {
      const characteristics = [...(settings.isolationLevel ? [`isolation level ${settings.isolationLevel}`] : []), ...(settings.accessMode ? [settings.accessMode] : [])];
      // Values checked by Kysely against its fixed lists (validateTransactionSettings).
      if (characteristics.length > 0) await tx.query(`set transaction ${characteristics.join(', ')}`);
      this.#transaction = tx;
      begun.resolve();
      await settled.promise;
    });
    this.#transactionClosed = closed;
    try {
      // A transaction that fails to start (closed instance, bad settings) rejects `closed` without ever beginning.
      await Promise.race([begun.promise, closed]);
    } catch (error) {
      this.#reset();
      throw error;
    }
  }

  /** Let PGlite commit; PGlite's 25P02 (COMMIT answered with ROLLBACK) becomes Kysely's AbortedTransactionError. */
  async commit(): Promise<void> {
    const closed = this.#transactionClosed;
    this.#commitTransaction?.();
    try {
      await closed;
    } catch (error) {
      // https://github.com/electric-sql/pglite/blob/bac163ecc92e968adda68864b74b7e3d65a68e97/packages/pglite/src/errors.ts#L11-L17
      if (typeof error === 'object' && error !== null && 'code' in error && error.code === '25P02') {
        const aborted = new AbortedTransactionError();
        aborted.cause = error;
        throw aborted;
      }
      throw error;
    } finally {
      this.#reset();
    }
  }

  /** Make PGlite's callback throw, so PGlite rolls back; the rejection is expected and dropped. */
  async rollback(): Promise<void> {
    const closed = this.#transactionClosed;
    this.#rollbackTransaction?.(new Error('Kysely transaction rolled back'));
    await closed?.catch(() => {});
    this.#reset();
  }

  #reset(): void {
    this.#commitTransaction = undefined;
    this.#rollbackTransaction = undefined;
    this.#transaction = undefined;
    this.#transactionClosed = undefined;
  }
}

function ours(connection: DatabaseConnection): PGliteConnection {
  if (!(connection instanceof PGliteConnection)) throw new Error('PGliteDriver: not a PGlite connection.');
  return connection;
}

/** `savepoint x`, `rollback to x`, `release x`, with the name quoted as an identifier. */
function savepointCommand(command: 'savepoint' | 'rollback to' | 'release', savepointName: string): RawNode {
  return RawNode.createWithChildren([RawNode.createWithSql(`${command} `), IdentifierNode.create(savepointName)]);
}

/** Append the caller's stack to a database error's, so the trace points at the query's origin. */
function extendStackTrace(error: unknown, stackError: Error): unknown {
  if (error instanceof Error && typeof error.stack === 'string' && stackError.stack) {
    error.stack += `\n${stackError.stack.split('\n').slice(1).join('\n')}`;
  }
  return error;
}

/** A promise with its resolve and reject at hand (Promise.withResolvers needs Node 22). */
class Deferred<T> {
  readonly promise: Promise<T>;
  #resolve: ((value: T) => void) | undefined;
  #reject: ((reason: unknown) => void) | undefined;

  constructor() {
    this.promise = new Promise<T>((resolve, reject) => {
      this.#resolve = resolve;
      this.#reject = reject;
    });
  }

  resolve(value: T): void {
    this.#resolve?.(value);
    this.#resolve = this.#reject = undefined;
  }

  reject(reason: unknown): void {
    this.#reject?.(reason);
    this.#resolve = this.#reject = undefined;
  }
}

/** The one session, to one holder at a time (as kysely 0.28's SqliteDriver does). */
class ConnectionMutex {
  #promise: Promise<void> | undefined;
  #resolve: (() => void) | undefined;

  async lock(): Promise<void> {
    while (this.#promise) await this.#promise;
    this.#promise = new Promise<void>((resolve) => {
      this.#resolve = resolve;
    });
  }

  unlock(): void {
    const resolve = this.#resolve;
    this.#promise = undefined;
    this.#resolve = undefined;
    resolve?.();
  }
}
