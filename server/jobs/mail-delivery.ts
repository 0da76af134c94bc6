import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import nodemailer from 'nodemailer';
import type { Clock } from '../clock';
import type { AdjuntoPdf, DB } from '../db/schema';
import type { Logger } from '../log';
import type { Listener } from '../db/notify';
import { reintentarSinConexion, sinConexion } from '../db/errores';

/** Minutes to wait after each failed attempt; after the last one the mail is marked failed. */
export const MAIL_BACKOFF_MIN = [1, 5, 15, 60, 180, 720, 1440, 2880];
const LEASE_MS = 120_000;
const BATCH = 10;

export interface MailTransport {
  sendMail(m: {
    from: string;
    to: string;
    subject: string;
    text: string;
    html: string;
    attachments: { filename: string; content: Buffer; contentType: string }[];
  }): Promise<unknown>;
}

/** nodemailer over SMTP_URL. */
export function smtpTransport(smtpUrl: string): MailTransport {
  return nodemailer.createTransport(smtpUrl, { connectionTimeout: 15_000, greetingTimeout: 15_000, socketTimeout: 30_000 });
}

export interface MailDeps {
  db: Kysely<DB>;
  clock: Clock;
  log: Logger;
  /** null when SMTP_URL is unset: mail is kept and logged, never lost, and sent once a transport exists. */
  transport: MailTransport | null;
  from: string;
  /** The worker is stopping: mails of the batch not yet handed to SMTP are given back (their leases released). */
  signal?: AbortSignal;
}

/**
 * One pass of the mail outbox. Claims due messages in a short transaction
 * (FOR UPDATE SKIP LOCKED plus a lease, so several processes can run it),
 * sends them outside any transaction, then records each result.
 */
export async function runMailOnce(deps: MailDeps): Promise<{ enviados: number; fallidos: number; guardados: number }> {
  const now = deps.clock.now();
  if (!deps.transport) {
    const nuevos = await deps.db
      .updateTable('correos')
      .set({ registrado: true })
      .where('estado', '=', 'pendiente')
      .where('registrado', '=', false)
      .returning(['id', 'destinatario', 'asunto'])
      .execute();
    for (const m of nuevos) deps.log.info({ correo: m.id, to: m.destinatario, subject: m.asunto }, 'mail kept (no SMTP_URL): see npm run cli -- mail:list');
    return { enviados: 0, fallidos: 0, guardados: nuevos.length };
  }

  // The lease is judged by the database's clock (every process sees the same now()) and
  // carries this pass's token: only the holder records the result.
  const token = randomUUID();
  const claimed = await deps.db.transaction().execute(async (trx) => {
    const rows = await trx
      .selectFrom('correos')
      .selectAll()
      .where('estado', '=', 'pendiente')
      .where('proximo_intento_at', '<=', now)
      .where((eb) => eb.or([eb('bloqueado_hasta', 'is', null), eb('bloqueado_hasta', '<', sql<Date>`now()`)]))
      .orderBy('id')
      .limit(BATCH)
      .forUpdate()
      .skipLocked()
      .execute();
    if (rows.length) {
      await trx
        .updateTable('correos')
        .set({ bloqueado_hasta: sql<Date>`now() + make_interval(secs => ${LEASE_MS / 1000})`, bloqueado_por: token })
        .where(
          'id',
          'in',
          rows.map((r) => r.id),
        )
        .execute();
    }
    return rows;
  });

  // The notes of a send are retried while the lease lasts if the database is briefly out of reach:
  // a mail handed to SMTP whose note is lost would be sent again after the lease.
  const record = <T>(fn: () => Promise<T>) => reintentarSinConexion(fn, { hasta: Date.now() + LEASE_MS / 2 });
  let enviados = 0;
  let fallidos = 0;
  for (const m of claimed) {
    if (deps.signal?.aborted) {
      await soltarCorreos(deps.db, token);
      break;
    }
    let error: string | null = null;
    try {
      const attachments = await loadAttachments(deps.db, m.account_id, m.entorno, m.adjuntos);
      await deps.transport.sendMail({ from: deps.from, to: m.destinatario, subject: m.asunto, text: m.texto, html: m.html, attachments });
    } catch (err) {
      if (sinConexion(err)) {
        // Its PDF could not be read: nothing was sent, and the database is out of reach. This mail and
        // the rest of the batch go back (when it can be told) for the next pass, no attempt spent.
        await soltarCorreos(deps.db, token).catch(() => {});
        throw err;
      }
      error = err instanceof Error ? err.message : String(err);
    }
    if (error === null) {
      const hecho = await record(() =>
        deps.db
          .updateTable('correos')
          .set({ estado: 'enviado', enviado_at: deps.clock.now(), bloqueado_hasta: null, bloqueado_por: null, intentos: m.intentos + 1, ultimo_error: null })
          .where('id', '=', m.id)
          .where('bloqueado_por', '=', token)
          .executeTakeFirst(),
      );
      if (Number(hecho.numUpdatedRows) === 0) deps.log.warn({ correo: m.id }, 'mail sent after its lease was taken over by another process');
      enviados++;
    } else {
      const intentos = m.intentos + 1;
      const wait = MAIL_BACKOFF_MIN[intentos - 1];
      await record(() =>
        deps.db
          .updateTable('correos')
          .set({
            intentos,
            ultimo_error: error.slice(0, 500),
            bloqueado_hasta: null,
            bloqueado_por: null,
            estado: wait === undefined ? 'fallido' : 'pendiente',
            proximo_intento_at: new Date(deps.clock.now().getTime() + (wait ?? 0) * 60_000),
          })
          .where('id', '=', m.id)
          .where('bloqueado_por', '=', token)
          .execute(),
      );
      deps.log.warn({ correo: m.id, intentos, error }, wait === undefined ? 'mail failed for good' : 'mail failed, will retry');
      fallidos++;
    }
  }
  return { enviados, fallidos, guardados: 0 };
}

/**
 * Give back the leases of a pass's mails that were not handed to SMTP (the
 * worker stops, or the database went away mid-batch): they go out on the
 * next pass of any process, with no attempt spent.
 */
async function soltarCorreos(db: Kysely<DB>, token: string): Promise<void> {
  await db.updateTable('correos').set({ bloqueado_hasta: null, bloqueado_por: null }).where('bloqueado_por', '=', token).where('estado', '=', 'pendiente').execute();
}

async function loadAttachments(db: Kysely<DB>, accountId: number, entorno: string, adjuntos: AdjuntoPdf[]) {
  const out: { filename: string; content: Buffer; contentType: string }[] = [];
  for (const a of adjuntos) {
    const v = await db
      .selectFrom('deca_versiones')
      .select('pdf')
      .where('account_id', '=', accountId)
      .where('entorno', '=', entorno as 'produccion' | 'pruebas')
      .where('deca_id', '=', a.deca_id)
      .where('version', '=', a.version)
      .executeTakeFirst();
    if (!v) throw new Error(`falta el PDF de la DeCA ${a.deca_id} v${a.version}`);
    out.push({ filename: a.filename, content: Buffer.from(v.pdf), contentType: 'application/pdf' });
  }
  return out;
}

/**
 * Release the leases of mails being sent when the process stopped. Only for
 * the embedded database: its one process is this one, so at start every
 * lease is a dead one, and an interrupted mail goes again now instead of
 * after LEASE_MS. (On PostgreSQL another process may hold a live one.) Returns how many.
 */
export async function liberarCorreos(db: Kysely<DB>): Promise<number> {
  const r = await db
    .updateTable('correos')
    .set({ bloqueado_hasta: null, bloqueado_por: null })
    .where('estado', '=', 'pendiente')
    .where('bloqueado_hasta', '>', sql<Date>`now()`)
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}

/**
 * The mail worker of a server process: runs when a commit that queued mail
 * NOTIFYs (enqueueCorreo), like the webhook worker, and every few seconds as
 * a fallback. A pass that fails (the database out of reach) is logged once
 * until one works again. `stop()` lets the mail being handed to SMTP finish
 * and gives back the rest of its batch.
 */
export function startMailWorker(
  deps: MailDeps & { listener?: Listener },
  everyMs = 5_000,
): { wake(): void; running(): boolean; stop(): Promise<void> } {
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = false;
  let failures = 0;
  const stopping = new AbortController();
  const passDeps: MailDeps = { ...deps, signal: stopping.signal };
  const run = (): void => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = (async () => {
      do {
        again = false;
        try {
          const r = await runMailOnce(passDeps);
          if (r.enviados + r.fallidos === BATCH) again = true;
          if (failures) deps.log.info({ failures }, 'mail worker works again');
          failures = 0;
        } catch (err) {
          failures++;
          deps.log[failures > 1 ? 'debug' : sinConexion(err) ? 'warn' : 'error']({ err, failures }, 'mail worker pass failed');
        }
      } while (again && !stopped);
    })().finally(() => {
      running = null;
    });
  };
  const timer = setInterval(run, everyMs);
  timer.unref();
  const unsubscribe = [deps.listener?.on('correos', run), deps.listener?.onReconnect(run)];
  run();
  return {
    wake: run,
    running: () => !stopped,
    async stop() {
      stopped = true;
      stopping.abort();
      clearInterval(timer);
      for (const u of unsubscribe) u?.();
      await running;
    },
  };
}
