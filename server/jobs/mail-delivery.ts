import { randomUUID } from 'node:crypto';
import { type Kysely, type Selectable, sql } from 'kysely';
import nodemailer from 'nodemailer';
import type { BlobStore } from '../blobs/almacen';
import type { Clock } from '../clock';
import { reintentarSinConexion, sinConexion } from '../db/errores';
import type { Listener } from '../db/notify';
import type { Database } from '../db/open';
import type { AdjuntoPdf, CorreosTable, DB } from '../db/schema';
import type { Logger } from '../log';
import { arrancarTrabajador, type Carril, CORTADO, pasarUnaVez, siguienteIntento, type Trabajador } from './outbox';

/** Minutes to wait after each failed attempt; after the last one the mail is marked failed. */
export const MAIL_BACKOFF_MIN = [1, 5, 15, 60, 180, 720, 1440, 2880];
const ESPERAS_MS = MAIL_BACKOFF_MIN.map((m) => m * 60_000);
const LEASE_MS = 120_000;
const BATCH = 10;

export interface MailTransport {
  sendMail(m: { from: string; to: string; subject: string; text: string; html: string; attachments: { filename: string; content: Buffer; contentType: string }[] }): Promise<unknown>;
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
  /** Where the attached PDFs are (a version written before the store keeps its bytes in its row). */
  blobs: BlobStore;
}

/** A mail claimed by one pass; `token` marks its lease (only the holder records the result). */
interface Reclamado {
  correo: Selectable<CorreosTable>;
  token: string;
}

/**
 * With no SMTP_URL nothing is claimed: each new mail is noted once in the
 * log (and stays pending, listed by `mail:list`). Returns how many.
 */
async function guardarSinSmtp(deps: MailDeps): Promise<number> {
  const nuevos = await deps.db.updateTable('correos').set({ registrado: true }).where('estado', '=', 'pendiente').where('registrado', '=', false).returning(['id', 'destinatario', 'asunto']).execute();
  for (const m of nuevos) deps.log.info({ correo: m.id, to: m.destinatario, subject: m.asunto }, 'mail kept (no SMTP_URL): see npm run cli -- mail:list');
  return nuevos.length;
}

/**
 * The mail lane of the outbox: due messages claimed in a batch (FOR UPDATE
 * SKIP LOCKED plus a lease judged by the database's clock, so several
 * processes can run it), handed to SMTP one by one, each result recorded.
 */
export function carrilCorreo(deps: MailDeps): Carril<Reclamado, { error: string | null }> {
  return {
    canal: 'correos',
    leaseMs: LEASE_MS,
    concurrencia: 1,
    lote: BATCH,
    tablas: ['correos'],
    textos: {
      campo: 'correos',
      reclamoFallido: 'mail worker pass failed',
      reclamoVuelve: 'mail worker works again',
      anotacionFallida: 'mail attempt could not be recorded; it goes again after its lease',
      sueltaFallida: 'mail lease could not be released; it ends by itself',
      liberadas: 'mails interrupted by the last stop will be sent again',
      cortadas: 'stopping: waiting for the mail being handed to SMTP',
      sinListen: 'mail LISTEN unavailable; polling instead',
      podadas: 'old mails pruned',
      podaFallida: 'mail prune failed',
      analisisFallido: 'mail tables analyze failed',
    },
    async reclamar(limite, leaseMs) {
      if (!deps.transport) {
        await guardarSinSmtp(deps);
        return [];
      }
      const now = deps.clock.now();
      const token = randomUUID();
      const rows = await deps.db.transaction().execute(async (trx) => {
        const due = await trx
          .selectFrom('correos')
          .selectAll()
          .where('estado', '=', 'pendiente')
          .where('proximo_intento_at', '<=', now)
          .where((eb) => eb.or([eb('bloqueado_hasta', 'is', null), eb('bloqueado_hasta', '<', sql<Date>`now()`)]))
          .orderBy('id')
          .limit(limite)
          .forUpdate()
          .skipLocked()
          .execute();
        if (due.length) {
          await trx
            .updateTable('correos')
            .set({ bloqueado_hasta: sql<Date>`now() + make_interval(secs => ${leaseMs / 1000})`, bloqueado_por: token })
            .where(
              'id',
              'in',
              due.map((r) => r.id),
            )
            .execute();
        }
        return due;
      });
      return rows.map((correo) => ({ correo, token }));
    },
    async entregar({ correo: m }) {
      const transport = deps.transport;
      if (!transport) throw new Error('the mail lane claims nothing without a transport');
      try {
        const attachments = await loadAttachments(deps, m.account_id, m.entorno, m.adjuntos);
        await transport.sendMail({ from: deps.from, to: m.destinatario, subject: m.asunto, text: m.texto, html: m.html, attachments });
        return { error: null };
      } catch (err) {
        // Its PDF could not be read: nothing was sent, and the database is out of reach. The runner
        // gives this mail and the rest of the batch back for the next pass, no attempt spent.
        if (sinConexion(err)) throw err;
        return { error: err instanceof Error ? err.message : String(err) };
      }
    },
    async reprogramar({ correo: m, token }, { error }) {
      // The notes of a send are retried while the lease lasts if the database is briefly out of reach:
      // a mail handed to SMTP whose note is lost would be sent again after the lease.
      const record = <T>(fn: () => Promise<T>) => reintentarSinConexion(fn, { hasta: Date.now() + LEASE_MS / 2 });
      const intentos = m.intentos + 1;
      if (error === null) {
        const hecho = await record(() =>
          deps.db
            .updateTable('correos')
            .set({ estado: 'enviado', enviado_at: deps.clock.now(), bloqueado_hasta: null, bloqueado_por: null, intentos, ultimo_error: null })
            .where('id', '=', m.id)
            .where('bloqueado_por', '=', token)
            .executeTakeFirst(),
        );
        if (Number(hecho.numUpdatedRows) === 0) deps.log.warn({ correo: m.id }, 'mail sent after its lease was taken over by another process');
        return;
      }
      const now = deps.clock.now();
      const proximo = siguienteIntento(ESPERAS_MS, intentos, now);
      await record(() =>
        deps.db
          .updateTable('correos')
          .set({
            intentos,
            ultimo_error: error.slice(0, 500),
            bloqueado_hasta: null,
            bloqueado_por: null,
            estado: proximo === null ? 'fallido' : 'pendiente',
            proximo_intento_at: proximo ?? now,
          })
          .where('id', '=', m.id)
          .where('bloqueado_por', '=', token)
          .execute(),
      );
      deps.log.warn({ correo: m.id, intentos, error }, proximo === null ? 'mail failed for good' : 'mail failed, will retry');
    },
    /** Mails of a batch not handed to SMTP (the worker stops, or the database went away mid-batch) go out on the next pass of any process, no attempt spent. */
    async soltar(items) {
      await deps.db
        .updateTable('correos')
        .set({ bloqueado_hasta: null, bloqueado_por: null })
        .where(
          'id',
          'in',
          items.map((i) => i.correo.id),
        )
        .where('bloqueado_por', 'in', [...new Set(items.map((i) => i.token))])
        .where('estado', '=', 'pendiente')
        .execute();
    },
    liberar: () => liberarCorreos(deps.db),
    etiqueta: ({ correo }) => ({ correo: correo.id }),
  };
}

/**
 * One pass of the mail outbox: claims due messages (at most a batch), sends
 * them one by one outside any transaction, records each result. With no
 * transport, only notes the new mails as kept.
 */
export async function runMailOnce(deps: MailDeps): Promise<{ enviados: number; fallidos: number; guardados: number }> {
  if (!deps.transport) return { enviados: 0, fallidos: 0, guardados: await guardarSinSmtp(deps) };
  const hechos = await pasarUnaVez(carrilCorreo(deps));
  const sent = hechos.filter((h) => h.resultado !== CORTADO && h.resultado.error === null).length;
  return { enviados: sent, fallidos: hechos.filter((h) => h.resultado !== CORTADO).length - sent, guardados: 0 };
}

/** The PDFs a mail attaches, as stored: from the blob store (checked against their SHA-256), or from the row for an old version; a delivery's receipt from its own blob. */
async function loadAttachments(deps: Pick<MailDeps, 'db' | 'blobs'>, accountId: number, entorno: string, adjuntos: AdjuntoPdf[]) {
  const out: { filename: string; content: Buffer; contentType: string }[] = [];
  for (const a of adjuntos) {
    if ('entrega' in a) {
      const e = await deps.db
        .selectFrom('entregas')
        .select(['pdf_sha256', 'pdf_clave'])
        .where('account_id', '=', accountId)
        .where('entorno', '=', entorno as 'produccion' | 'pruebas')
        .where('deca_id', '=', a.deca_id)
        .where('n', '=', a.entrega)
        .executeTakeFirst();
      if (!e) throw new Error(`falta el justificante de la entrega ${a.entrega} de la DeCA ${a.deca_id}`);
      out.push({ filename: a.filename, content: Buffer.from(await deps.blobs.leer(e.pdf_sha256, e.pdf_clave)), contentType: 'application/pdf' });
      continue;
    }
    const v = await deps.db
      .selectFrom('deca_versiones')
      .select(['pdf', 'pdf_sha256'])
      .where('account_id', '=', accountId)
      .where('entorno', '=', entorno as 'produccion' | 'pruebas')
      .where('deca_id', '=', a.deca_id)
      .where('version', '=', a.version)
      .executeTakeFirst();
    if (!v) throw new Error(`falta el PDF de la DeCA ${a.deca_id} v${a.version}`);
    // A damaged or missing blob fails the attempt (and is retried): the mail never goes with other bytes.
    const pdf = v.pdf ?? (await deps.blobs.leer(v.pdf_sha256));
    out.push({ filename: a.filename, content: Buffer.from(pdf), contentType: 'application/pdf' });
  }
  return out;
}

/**
 * Release the leases of mails being sent when the process stopped. Only for
 * the embedded database (the runner calls it at start there): its one
 * process is this one, so every lease is a dead one, and an interrupted mail
 * goes again now instead of after LEASE_MS. (On PostgreSQL another process
 * may hold a live one.) Returns how many.
 */
export async function liberarCorreos(db: Kysely<DB>): Promise<number> {
  const r = await db.updateTable('correos').set({ bloqueado_hasta: null, bloqueado_por: null }).where('estado', '=', 'pendiente').where('bloqueado_hasta', '>', sql<Date>`now()`).executeTakeFirst();
  return Number(r.numUpdatedRows);
}

/**
 * The mail lane run by the outbox runner in this process (main.ts starts
 * it): woken when a commit that queued mail NOTIFYs (enqueueCorreo), polling
 * as a fallback. `stop()` gives back the mails of its batch not yet handed
 * to SMTP and lets the one being handed finish.
 */
export function startMailWorker(deps: MailDeps & { database: Database; listener?: Listener; pollMs?: number }): Promise<Trabajador> {
  return arrancarTrabajador(carrilCorreo(deps), { database: deps.database, log: deps.log, listener: deps.listener, pollMs: deps.pollMs });
}
