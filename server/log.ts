import { type DestinationStream, type Logger, pino } from 'pino';

export type { Logger };

/** JSON logs on stdout (pino), or on `destino`; each request logs with its `req_` id. */
export function createLogger(level: string, destino?: DestinationStream): Logger {
  const opciones = {
    level,
    base: undefined,
    redact: {
      paths: ['req.headers.authorization', 'req.headers["x-api-key"]', 'req.headers.cookie', '*.password'],
      censor: '[oculto]',
    },
  };
  return destino ? pino(opciones, destino) : pino(opciones);
}
