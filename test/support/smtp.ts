import type net from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** A real SMTP server on loopback that keeps every message it receives, parsed. */
export interface TestSmtp {
  port: number;
  url: string;
  mails: ParsedMail[];
  close(): Promise<void>;
}

export { freePort } from './processes';

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
