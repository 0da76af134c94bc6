import type net from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { type MailDeps, smtpTransport } from '../../server/jobs/mail-delivery';
import { createLogger } from '../../server/log';
import type { TestApp } from './app';

/** A real SMTP server on loopback that keeps every message it receives, parsed. */
export interface TestSmtp {
  port: number;
  url: string;
  mails: ParsedMail[];
  close(): Promise<void>;
}

export { freePort } from './processes';

/** What the mail worker needs to send the app's queued mail to `smtpUrl` (null: no SMTP server configured). */
export function mailDeps(app: TestApp, smtpUrl: string | null): MailDeps {
  return {
    db: app.database.db,
    clock: app.clock,
    log: createLogger('silent'),
    transport: smtpUrl ? smtpTransport(smtpUrl) : null,
    from: 'DeCA <no-responder@example.com>',
    blobs: app.services.blobs,
  };
}

/** `delayMs` holds each message before accepting it, so deliveries stay in flight a while. */
export async function startSmtp(port = 0, opts: { delayMs?: number } = {}): Promise<TestSmtp> {
  const mails: ParsedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, cb) {
      simpleParser(stream)
        .then(async (m) => {
          if (opts.delayMs) await new Promise((r) => setTimeout(r, opts.delayMs));
          mails.push(m);
          cb();
        })
        .catch(cb);
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const actual = (server.server.address() as net.AddressInfo).port;
  return {
    port: actual,
    url: `smtp://127.0.0.1:${actual}`,
    mails,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
