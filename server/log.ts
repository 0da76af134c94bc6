import { pino, type Logger } from 'pino';

export type { Logger };

/** JSON logs on stdout (pino); each request logs with its `req_` id. */
export function createLogger(level: string): Logger {
  return pino({
    level,
    base: undefined,
    redact: {
      paths: ['req.headers.authorization', 'req.headers["x-api-key"]', 'req.headers.cookie', '*.password'],
      censor: '[oculto]',
    },
  });
}
