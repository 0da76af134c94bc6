import pg from 'pg';
import { sql } from 'kysely';
import type { Database } from '../db/open';
import { CANAL_ENTREGAS } from '../domain/webhooks/encolar';
import type { Logger } from '../log';

/** A LISTEN on the deliveries channel; `healthy()` is false while it is down (the worker then polls faster). */
export interface EntregasListener {
  healthy(): boolean;
  close(): Promise<void>;
}

const quoteIdent = (s: string) => `"${s.replace(/"/g, '""')}"`;

/**
 * Wake `onWake` whenever a transaction that wrote deliveries commits
 * (encolarEntregas NOTIFYs in it). PGlite delivers its own notifications
 * through `pglite.listen`; on PostgreSQL a pooled connection cannot hold a
 * LISTEN, so a dedicated pg.Client does, reconnecting with backoff (and
 * waking once on reconnect, for anything sent while it was down).
 */
export async function listenEntregas(database: Database, onWake: () => void, log?: Logger): Promise<EntregasListener> {
  const { rows } = await sql<{ s: string }>`select current_schema() as s`.execute(database.db);
  const channel = `${CANAL_ENTREGAS}${rows[0]?.s ?? 'public'}`;

  if (database.kind === 'pglite') {
    const unlisten = await database.pglite.listen(channel, () => onWake());
    let open = true;
    return {
      healthy: () => open,
      async close() {
        if (!open) return;
        open = false;
        if (!database.pglite.closed) await unlisten();
      },
    };
  }

  let client: pg.Client | null = null;
  let ok = false;
  let closed = false;
  let retryMs = 1000;
  let timer: NodeJS.Timeout | null = null;

  const reconnectLater = () => {
    ok = false;
    if (closed || timer) return;
    timer = setTimeout(() => {
      timer = null;
      void connect();
    }, retryMs);
    timer.unref();
    retryMs = Math.min(retryMs * 2, 30_000);
  };

  async function connect(): Promise<void> {
    const c = new pg.Client({
      connectionString: database.kind === 'postgres' ? database.connectionString : undefined,
      ...(database.kind === 'postgres' && database.schema ? { options: `-c search_path="${database.schema}"` } : {}),
    });
    c.on('error', (err) => {
      log?.warn({ err }, 'webhook LISTEN connection lost; polling until it is back');
      c.end().catch(() => {});
      if (client === c) client = null;
      reconnectLater();
    });
    c.on('end', () => {
      if (client === c) {
        client = null;
        reconnectLater();
      }
    });
    c.on('notification', () => onWake());
    try {
      await c.connect();
      await c.query(`LISTEN ${quoteIdent(channel)}`);
      if (closed) {
        await c.end();
        return;
      }
      client = c;
      ok = true;
      retryMs = 1000;
      onWake();
    } catch (err) {
      log?.warn({ err }, 'webhook LISTEN could not connect; polling meanwhile');
      c.end().catch(() => {});
      reconnectLater();
    }
  }

  await connect();
  return {
    healthy: () => ok,
    async close() {
      closed = true;
      ok = false;
      if (timer) clearTimeout(timer);
      const c = client;
      client = null;
      await c?.end().catch(() => {});
    },
  };
}
