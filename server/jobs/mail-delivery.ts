import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import nodemailer from 'nodemailer';
import type { Clock } from '../clock';
import type { AdjuntoPdf, DB } from '../db/schema';
import type { Logger } from '../log';
import type { Listener } from '../db/notify';

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

  let enviados = 0;
  let fallidos = 0;
  for (const m of claimed) {
    try {
      const attachments = await loadAttachments(deps.db, m.account_id, m.entorno, m.adjuntos);
      await deps.transport.sendMail({ from: deps.from, to: m.destinatario, subject: m.asunto, text: m.texto, html: m.html, attachments });
      const hecho = await deps.db
        .updateTable('correos')
        .set({ estado: 'enviado', enviado_at: deps.clock.now(), bloqueado_hasta: null, bloqueado_por: null, intentos: m.intentos + 1, ultimo_error: null })
        .where('id', '=', m.id)
        .where('bloqueado_por', '=', token)
        .executeTakeFirst();
      if (Number(hecho.numUpdatedRows) === 0) deps.log.warn({ correo: m.id }, 'mail sent after its lease was taken over by another process');
      enviados++;
    } catch (err) {
      const intentos = m.intentos + 1;
      const wait = MAIL_BACKOFF_MIN[intentos - 1];
      const error = err instanceof Error ? err.message : String(err);
      await deps.db
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
        .execute();
      deps.log.warn({ correo: m.id, intentos, error }, wait === undefined ? 'mail failed for good' : 'mail failed, will retry');
      fallidos++;
    }
  }
  return { enviados, fallidos, guardados: 0 };
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
 * a fallback. Returns `wake` and `stop`.
 */
export function startMailWorker(deps: MailDeps & { listener?: Listener }, everyMs = 5_000): { wake(): void; stop(): Promise<void> } {
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = false;
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
          const r = await runMailOnce(deps);
          if (r.enviados + r.fallidos === BATCH) again = true;
        } catch (err) {
          deps.log.error({ err }, 'mail worker pass failed');
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
    async stop() {
      stopped = true;
      clearInterval(timer);
      for (const u of unsubscribe) u?.();
      await running;
    },
  };
}
