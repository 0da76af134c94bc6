import { sql, type Transaction } from 'kysely';
import pg from 'pg';
import type { Logger } from '../log';
import { CONNECTION_TIMEOUT_MS, type Database } from './open';
import type { DB } from './schema';

/**
 * The NOTIFY channels of the service. The schema is appended to each, so
 * servers (or test files) sharing one PostgreSQL cluster in different
 * schemas never wake each other; writers and listeners both take it from
 * `current_schema()`.
 */
export const CANALES = {
  /** Webhook deliveries were written (encolarEntregas). */
  entregas: 'deca_webhooks_',
  /** Mail was queued (enqueueCorreo). */
  correos: 'deca_correos_',
  /** A DeCA row changed or was deleted; payload: its id (trigger, migration 0005), or `todas` when a month's partitions were dropped. */
  decas: 'deca_cambio_decas_',
  /** An API key changed (revoked, used); payload: its id. */
  claves: 'deca_cambio_claves_',
  /** An account changed (plan, confirmation); payload: its id. */
  cuentas: 'deca_cambio_cuentas_',
  /** A webhook was created, changed or deleted; payload: its id. */
  webhooks: 'deca_cambio_webhooks_',
} as const;
export type Canal = keyof typeof CANALES;

/** The payload on the DeCAs' channel that drops every DeCA cached: a month's partitions were dropped. */
export const TODAS = 'todas';

/** Send `canal` once this transaction commits (NOTIFY is transactional: a rollback sends nothing). */
export async function notificar(trx: Transaction<DB>, canal: Canal, payload = ''): Promise<void> {
  await sql`select pg_notify(${CANALES[canal]} || current_schema(), ${payload})`.execute(trx);
}

/** One LISTEN connection per process, shared by everything that wants to hear a channel. */
export interface Listener {
  /** Call `fn` with the payload of every notification on `canal`; returns the unsubscribe function. */
  on(canal: Canal, fn: (payload: string) => void): () => void;
  /** Called after the connection comes back (anything sent meanwhile was missed: drop caches, poll). */
  onReconnect(fn: () => void): () => void;
  /** False while the LISTEN connection is down: callers then poll, and caches are bypassed. */
  healthy(): boolean;
  close(): Promise<void>;
}

const quoteIdent = (s: string) => `"${s.replace(/"/g, '""')}"`;

/**
 * Waits between attempts to get the LISTEN connection back: from 0.5 s,
 * doubling, at most 5 s. While it is down caches are bypassed and workers
 * poll, so the service works, only slower; one attempt every few seconds
 * per process costs the database nothing, and a database that comes back
 * is heard again within seconds.
 */
const RETRY_FIRST_MS = 500;
const RETRY_MAX_MS = 5_000;

/**
 * Listen to every channel of CANALES. PGlite delivers its own notifications
 * through `pglite.listen`; on PostgreSQL a pooled connection cannot hold a
 * LISTEN, so a dedicated pg.Client does, reconnecting with backoff (and
 * telling `onReconnect` subscribers, for what was sent while it was down).
 */
export async function startListener(database: Database, log?: Logger): Promise<Listener> {
  const { rows } = await sql<{ s: string }>`select current_schema() as s`.execute(database.db);
  const schema = rows[0]?.s ?? 'public';
  const byChannel = new Map<string, Canal>(Object.entries(CANALES).map(([k, prefix]) => [prefix + schema, k as Canal]));
  const subs = new Map<Canal, Set<(payload: string) => void>>();
  const reconnectSubs = new Set<() => void>();
  const dispatch = (channel: string, payload: string) => {
    const canal = byChannel.get(channel);
    if (!canal) return;
    for (const fn of subs.get(canal) ?? []) {
      try {
        fn(payload);
      } catch (err) {
        log?.error({ err, canal }, 'notification handler failed');
      }
    }
  };
  const base = {
    on(canal: Canal, fn: (payload: string) => void) {
      let set = subs.get(canal);
      if (!set) subs.set(canal, (set = new Set()));
      set.add(fn);
      return () => set.delete(fn);
    },
    onReconnect(fn: () => void) {
      reconnectSubs.add(fn);
      return () => reconnectSubs.delete(fn);
    },
  };

  if (database.kind === 'pglite') {
    const unlisten: (() => Promise<void>)[] = [];
    for (const channel of byChannel.keys()) unlisten.push(await database.pglite.listen(channel, (payload) => dispatch(channel, payload)));
    let open = true;
    return {
      ...base,
      healthy: () => open,
      async close() {
        if (!open) return;
        open = false;
        if (!database.pglite.closed) await Promise.all(unlisten.map((u) => u()));
      },
    };
  }

  let client: pg.Client | null = null;
  let ok = false;
  let closed = false;
  let retryMs = RETRY_FIRST_MS;
  let timer: NodeJS.Timeout | null = null;
  let everConnected = false;

  const reconnectLater = () => {
    ok = false;
    if (closed || timer) return;
    timer = setTimeout(() => {
      timer = null;
      void connect();
    }, retryMs);
    timer.unref();
    retryMs = Math.min(retryMs * 2, RETRY_MAX_MS);
  };

  async function connect(): Promise<void> {
    const c = new pg.Client({
      connectionString: database.kind === 'postgres' ? database.connectionString : undefined,
      ...(database.kind === 'postgres' && database.schema ? { options: `-c search_path="${database.schema}"` } : {}),
      connectionTimeoutMillis: CONNECTION_TIMEOUT_MS,
      keepAlive: true,
    });
    c.on('error', (err) => {
      log?.warn({ err }, 'LISTEN connection lost; polling and bypassing caches until it is back');
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
    c.on('notification', (n) => dispatch(n.channel, n.payload ?? ''));
    try {
      await c.connect();
      await c.query([...byChannel.keys()].map((ch) => `LISTEN ${quoteIdent(ch)}`).join('; '));
      if (closed) {
        await c.end();
        return;
      }
      client = c;
      ok = true;
      retryMs = RETRY_FIRST_MS;
      if (everConnected) {
        for (const fn of reconnectSubs) fn();
      }
      everConnected = true;
    } catch (err) {
      log?.warn({ err }, 'LISTEN could not connect; polling meanwhile');
      c.end().catch(() => {});
      reconnectLater();
    }
  }

  await connect();
  return {
    ...base,
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
