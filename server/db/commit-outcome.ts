import { CompiledQuery, type DatabaseConnection, type Dialect, type Driver, type QueryCompiler, type TransactionSettings } from 'kysely';
import type pg from 'pg';
import type { Logger } from '../log';
import { CommitIncierto, sinConexion } from './errores';

/** How long to keep asking about a transaction whose COMMIT got no answer (its backend may still be finishing it). */
const ASK_OUTCOME_MS = 2_000;

type Outcome = 'committed' | 'aborted' | 'in progress' | null;

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
    if (inner.savepoint) this.savepoint = (c: DatabaseConnection, n: string, q: QueryCompiler['compileQuery']) => inner.savepoint!(c, n, q);
    if (inner.rollbackToSavepoint) this.rollbackToSavepoint = (c: DatabaseConnection, n: string, q: QueryCompiler['compileQuery']) => inner.rollbackToSavepoint!(c, n, q);
    if (inner.releaseSavepoint) this.releaseSavepoint = (c: DatabaseConnection, n: string, q: QueryCompiler['compileQuery']) => inner.releaseSavepoint!(c, n, q);
  }

  init(): Promise<void> {
    return this.#inner.init();
  }

  acquireConnection(): Promise<DatabaseConnection> {
    return this.#inner.acquireConnection();
  }

  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    return this.#inner.beginTransaction(connection, settings);
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    const { rows } = await connection.executeQuery<{ xid: string | null }>(CompiledQuery.raw('select txid_current_if_assigned()::text as xid'));
    const xid = rows[0]?.xid ?? null;
    try {
      await this.#inner.commitTransaction(connection);
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
    await this.#inner.rollbackTransaction(connection);
  }

  releaseConnection(connection: DatabaseConnection): Promise<void> {
    this.#unanswered.delete(connection);
    return this.#inner.releaseConnection(connection);
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
