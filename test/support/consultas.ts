import type pg from 'pg';
import type { Database } from '../../server/db/open';

/** The statements the app's database received while `fn` ran, in order (BEGIN and COMMIT included). */
export interface Medida<T> {
  valor: T;
  consultas: string[];
}

export interface ContadorDeConsultas {
  medir<T>(fn: () => Promise<T>): Promise<Medida<T>>;
}

type Fn = (...args: unknown[]) => unknown;

/** First words of a statement, for a failure message that says which ones there were. */
function resumen(q: unknown): string {
  const texto = typeof q === 'string' ? q : q && typeof q === 'object' && 'text' in q ? String((q as { text: unknown }).text) : String(q);
  return texto.replace(/\s+/g, ' ').trim().slice(0, 120);
}

/**
 * Counts every statement the app's own database connection receives — each
 * one a round trip — at the driver, under Kysely: on PostgreSQL every
 * `query` of a pool client (BEGIN, COMMIT and the commit's own reads
 * included), on PGlite every query and exec of the instance and of its
 * transactions, with their BEGIN and COMMIT. (The PostgreSQL rate limiter's
 * counters go through a pool of their own, not this one.)
 */
export function contadorDeConsultas(database: Database): ContadorDeConsultas {
  let activas: string[] | null = null;
  const anotar = (q: unknown) => activas?.push(resumen(q));

  if (database.kind === 'postgres') {
    const contados = new WeakSet<pg.PoolClient>();
    database.pool.on('acquire', (client) => {
      if (contados.has(client)) return;
      contados.add(client);
      const cliente = client as unknown as { query: Fn };
      const query = cliente.query;
      cliente.query = function (this: unknown, ...args: unknown[]) {
        anotar(args[0]);
        return query.apply(this, args);
      };
    });
  } else {
    const p = database.pglite as unknown as { query: Fn; exec: Fn; transaction: Fn };
    const contar = (obj: { query: Fn; exec: Fn }): void => {
      const { query, exec } = obj;
      obj.query = (...args: unknown[]) => {
        anotar(args[0]);
        return query.apply(p, args);
      };
      obj.exec = (...args: unknown[]) => {
        anotar(args[0]);
        return exec.apply(p, args);
      };
    };
    const transaction = p.transaction.bind(p);
    contar(p);
    p.transaction = (cb: unknown) =>
      transaction(async (tx: { query: Fn; exec: Fn }) => {
        const { query, exec } = tx;
        // The transaction's own object underneath (its `closed`, `rollback`…), with query and exec counted.
        const contada = Object.create(tx) as { query: Fn; exec: Fn };
        contada.query = (...args: unknown[]) => {
          anotar(args[0]);
          return query.apply(tx, args);
        };
        contada.exec = (...args: unknown[]) => {
          anotar(args[0]);
          return exec.apply(tx, args);
        };
        anotar('BEGIN');
        try {
          const r = await (cb as (t: unknown) => Promise<unknown>)(contada);
          anotar('COMMIT');
          return r;
        } catch (err) {
          anotar('ROLLBACK');
          throw err;
        }
      });
  }

  return {
    async medir(fn) {
      const consultas: string[] = [];
      activas = consultas;
      try {
        return { valor: await fn(), consultas };
      } finally {
        activas = null;
      }
    },
  };
}
