import { CompiledQuery, type DatabaseConnection, type Dialect, type Driver, type QueryCompiler, type QueryResult, type TransactionSettings } from 'kysely';
import type pg from 'pg';
import type { Logger } from '../log';
import { CommitIncierto, sinConexion } from './errores';

/** How long to keep asking about a transaction whose COMMIT got no answer (its backend may still be finishing it). */
const ASK_OUTCOME_MS = 2_000;

type Outcome = 'committed' | 'aborted' | 'in progress' | null;

/**
 * A statement of a transaction that reports the transaction's id in this
 * column (domain/sentencia.ts does, for a change's last statement) spares
 * the driver its own read of it before COMMIT: one round trip less.
 */
export const COLUMNA_XID = 'xid_de_la_transaccion';

/** A pooled connection that remembers the transaction id a statement of its current transaction reported. */
class ConexionConXid implements DatabaseConnection {
  readonly inner: DatabaseConnection;
  xid: string | null = null;

  constructor(inner: DatabaseConnection) {
    this.inner = inner;
  }

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const r = await this.inner.executeQuery<R>(query);
    const xid = (r.rows[0] as Record<string, unknown> | undefined)?.[COLUMNA_XID];
    if (typeof xid === 'string') this.xid = xid;
    return r;
  }

  streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    return this.inner.streamQuery<R>(query, chunkSize);
  }
}

const interna = (c: DatabaseConnection) => (c instanceof ConexionConXid ? c.inner : c);

/**
 * Ask the server, on another connection, what became of transaction `xid`
 * (`txid_status`, PostgreSQL ≥ 10: made for exactly this). Null when it cannot
 * be learnt in time (the database is out of reach, or the id is too old).
 */
async function askOutcome(pool: pg.Pool, xid: string): Promise<Outcome> {
  const until = Date.now() + ASK_OUTCOME_MS;
  for (;;) {
    try {
      const { rows } = await pool.query<{ outcome: Outcome }>('select txid_status($1::bigint) as outcome', [xid]);
      const outcome = rows[0]?.outcome ?? null;
      if (outcome !== 'in progress') return outcome;
    } catch (err) {
      if (!sinConexion(err)) return null;
    }
    if (Date.now() >= until) return null;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * The pg driver, with an honest COMMIT. When the connection is lost while a
 * COMMIT is on its way, the change may or may not have been saved; answering
 * «try again» could then make it twice, and «failed» would be a lie. So
 * before committing, the transaction's id is read (one round trip, and none
 * is assigned to a transaction that wrote nothing), and if the COMMIT gets
 * no answer the server is asked what became of it: committed → the commit
 * succeeded (the request answers as usual); aborted → a connection error (503,
 * nothing was saved); unknown → `CommitIncierto` (503 saying so). A
 * transaction that wrote nothing has nothing to lose: what it read stands.
 * When a statement of the transaction already reported its id (COLUMNA_XID),
 * that one is used and nothing is read.
 */
class CommitOutcomeDriver implements Driver {
  readonly #inner: Driver;
  readonly #pool: pg.Pool;
  readonly #log: Logger | undefined;
  /** Connections whose COMMIT got no answer: there is nothing to roll back on them, they are dead. */
  readonly #unanswered = new WeakSet<DatabaseConnection>();
  readonly savepoint?: Driver['savepoint'];
  readonly rollbackToSavepoint?: Driver['rollbackToSavepoint'];
  readonly releaseSavepoint?: Driver['releaseSavepoint'];

  constructor(inner: Driver, pool: pg.Pool, log: Logger | undefined) {
    this.#inner = inner;
    this.#pool = pool;
    this.#log = log;
    if (inner.savepoint) this.savepoint = (c: DatabaseConnection, n: string, q: QueryCompiler['compileQuery']) => inner.savepoint!(interna(c), n, q);
    if (inner.rollbackToSavepoint) this.rollbackToSavepoint = (c: DatabaseConnection, n: string, q: QueryCompiler['compileQuery']) => inner.rollbackToSavepoint!(interna(c), n, q);
    if (inner.releaseSavepoint) this.releaseSavepoint = (c: DatabaseConnection, n: string, q: QueryCompiler['compileQuery']) => inner.releaseSavepoint!(interna(c), n, q);
  }

  init(): Promise<void> {
    return this.#inner.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    return new ConexionConXid(await this.#inner.acquireConnection());
  }

  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    if (connection instanceof ConexionConXid) connection.xid = null;
    return this.#inner.beginTransaction(interna(connection), settings);
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    let xid = connection instanceof ConexionConXid ? connection.xid : null;
    if (xid === null) {
      const { rows } = await connection.executeQuery<{ xid: string | null }>(CompiledQuery.raw('select txid_current_if_assigned()::text as xid'));
      xid = rows[0]?.xid ?? null;
    }
    try {
      await this.#inner.commitTransaction(interna(connection));
    } catch (err) {
      if (!sinConexion(err)) throw err;
      this.#unanswered.add(connection);
      if (xid === null) return;
      const outcome = await askOutcome(this.#pool, xid);
      this.#log?.warn({ err, xid, outcome }, 'connection lost during COMMIT; outcome asked of the server');
      if (outcome === 'committed') return;
      if (outcome === 'aborted') throw err;
      throw new CommitIncierto(xid, err);
    }
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    if (this.#unanswered.delete(connection)) return;
    await this.#inner.rollbackTransaction(interna(connection));
  }

  releaseConnection(connection: DatabaseConnection): Promise<void> {
    this.#unanswered.delete(connection);
    return this.#inner.releaseConnection(interna(connection));
  }

  destroy(): Promise<void> {
    return this.#inner.destroy();
  }
}

/** `dialect` (pg) with a COMMIT whose lost answer is looked up rather than guessed: see CommitOutcomeDriver. */
export function withCommitOutcome(dialect: Dialect, pool: pg.Pool, log?: Logger): Dialect {
  return {
    createDriver: () => new CommitOutcomeDriver(dialect.createDriver(), pool, log),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createAdapter: () => dialect.createAdapter(),
    createIntrospector: (db) => dialect.createIntrospector(db),
  };
}
