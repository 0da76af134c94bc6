import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { bareHost, checkAddress, DestinoNoPermitido, parseWebhookUrl, resolveTarget, type TargetPolicy } from './webhook-target';

/** What the delivery code gives the transport: always a POST with a finished body. */
export interface WebhookFetchInit {
  method: 'POST';
  headers: Record<string, string>;
  body: string;
  /** Aborts the whole attempt (resolution, connection, answer): the 10 s timeout. */
  signal: AbortSignal;
}

/**
 * The delivery transport: a fetch-shaped function that resolves with the
 * answer's status (the body is never kept). Tests may inject their own;
 * the server uses {@link createWebhookFetch}.
 */
export type WebhookFetch = (url: string, init: WebhookFetchInit) => Promise<{ status: number }>;

/** The SSRF-safe transport with its keep-alive connections, closable on shutdown. */
export interface SafeWebhookFetch extends WebhookFetch {
  close(): void;
}

/** At most this much of an answer is read (and then dropped); a receiver cannot make us buffer more. */
export const MAX_RESPUESTA_BYTES = 64 * 1024;

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | { address: string; family: number }[], family?: number) => void;

/** A `lookup` for net.connect that answers only with addresses already resolved and checked (no second DNS answer can swap them). */
function pinnedLookup(addrs: { address: string; family: 4 | 6 }[]) {
  return (_host: string, options: { family?: number | string; all?: boolean }, cb: LookupCallback): void => {
    const fam = options.family === 6 || options.family === 'IPv6' ? 6 : options.family === 4 || options.family === 'IPv4' ? 4 : 0;
    const usable = fam ? addrs.filter((a) => a.family === fam) : addrs;
    if (usable.length === 0) {
      cb(Object.assign(new Error('no address of the requested family'), { code: 'ENOTFOUND' }), '');
      return;
    }
    if (options.all)
      cb(
        null,
        usable.map((a) => ({ address: a.address, family: a.family })),
      );
    else cb(null, usable[0]!.address, usable[0]!.family);
  };
}

function abortable<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/**
 * POST a webhook with the target policy applied at delivery time: the URL's
 * scheme, then every address of its host (IP literal or DNS answer) checked
 * before any connection, and the connection pinned to those addresses.
 * Redirects are answers like any other (never followed). At most
 * `maxResponseBytes` of the answer are read.
 */
export function createWebhookFetch(policy: TargetPolicy & { maxResponseBytes?: number; keepAlive?: boolean }): SafeWebhookFetch {
  const maxBytes = policy.maxResponseBytes ?? MAX_RESPUESTA_BYTES;
  // The worker keeps connections to busy receivers open; one-off sends (probar, reenviar) do not.
  const keepAlive = policy.keepAlive ?? true;
  const agents = {
    'http:': new http.Agent({ keepAlive, maxSockets: 16, timeout: 30_000 }),
    'https:': new https.Agent({ keepAlive, maxSockets: 16, timeout: 30_000 }),
  };

  const send = async (raw: string, init: WebhookFetchInit): Promise<{ status: number }> => {
    const url = parseWebhookUrl(raw, policy);
    const host = bareHost(url);
    let lookup: ReturnType<typeof pinnedLookup> | undefined;
    if (net.isIP(host)) checkAddress(host, host, policy);
    else lookup = pinnedLookup(await abortable(resolveTarget(url, policy), init.signal));

    const mod = url.protocol === 'https:' ? https : http;
    return new Promise<{ status: number }>((resolve, reject) => {
      const req = mod.request(
        url,
        {
          method: init.method,
          headers: { ...init.headers, 'content-length': String(Buffer.byteLength(init.body)) },
          agent: agents[url.protocol as 'http:' | 'https:'],
          signal: init.signal,
          ...(lookup ? { lookup: lookup as unknown as net.LookupFunction } : {}),
        },
        (res) => {
          const status = res.statusCode ?? 0;
          // Read (and drop) a capped amount so the connection can be reused; never keep it.
          let seen = 0;
          res.on('data', (chunk: Buffer) => {
            seen += chunk.length;
            if (seen > maxBytes) res.destroy();
          });
          res.on('error', () => {});
          resolve({ status });
        },
      );
      req.on('error', reject);
      req.end(init.body);
    });
  };

  return Object.assign(send, {
    close() {
      agents['http:'].destroy();
      agents['https:'].destroy();
    },
  });
}

/** One delivery as the domain builds it: where, the signed headers, and the body sent byte for byte. */
export interface PeticionWebhook {
  url: string;
  headers: Record<string, string>;
  body: string;
}

/**
 * What became of one POST. `status` null: no answer (network error, timeout,
 * refused target), `error` then says why in Spanish. `cortada`: the caller's
 * `signal` (a stopping worker) ended it before any answer, not the timeout.
 */
export interface RespuestaWebhook {
  status: number | null;
  error: string | null;
  duracionMs: number;
  cortada: boolean;
}

/** Sends one delivery now: the worker's lane and the commands `probar`/`reenviar` get it passed in. */
export type EnviarWebhook = (p: PeticionWebhook, opts: { timeoutMs: number; signal?: AbortSignal }) => Promise<RespuestaWebhook>;

/**
 * A delivery sender over a transport (the SSRF-safe one in the server):
 * POST with the timeout (and the caller's signal), timed, every failure
 * turned into an answer-less result with its reason.
 */
export function enviadorWebhooks(send: WebhookFetch): EnviarWebhook {
  return async (p, { timeoutMs, signal: parada }) => {
    const signal = AbortSignal.timeout(timeoutMs);
    const started = performance.now();
    const duracion = () => Math.round(performance.now() - started);
    try {
      const res = await send(p.url, { method: 'POST', headers: p.headers, body: p.body, signal: parada ? AbortSignal.any([signal, parada]) : signal });
      return { status: res.status, error: null, duracionMs: duracion(), cortada: false };
    } catch (err) {
      const timedOut = signal.aborted && (signal.reason as { name?: string } | undefined)?.name === 'TimeoutError';
      return { status: null, error: describeNetworkError(err, timedOut, timeoutMs), duracionMs: duracion(), cortada: !timedOut && parada?.aborted === true };
    }
  };
}

/** A short Spanish description of why an attempt got no answer (for the attempt log). */
export function describeNetworkError(err: unknown, timedOut: boolean, timeoutMs: number): string {
  if (timedOut) return `Sin respuesta en ${timeoutMs >= 1000 && timeoutMs % 1000 === 0 ? `${timeoutMs / 1000} s` : `${timeoutMs} ms`} (tiempo agotado)`;
  if (err instanceof DestinoNoPermitido) return err.message;
  const code = (err as { code?: string }).code;
  switch (code) {
    case 'ECONNREFUSED':
      return 'Conexión rechazada (ECONNREFUSED)';
    case 'ECONNRESET':
      return 'El receptor cortó la conexión (ECONNRESET)';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `No se pudo resolver el nombre (${code})`;
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return `Receptor inalcanzable (${code})`;
    case 'ETIMEDOUT':
      return 'No se pudo conectar a tiempo (ETIMEDOUT)';
    default:
      break;
  }
  if (code && /CERT|TLS|SSL|SELF_SIGNED/i.test(code)) return `Error TLS (${code})`;
  const message = err instanceof Error ? err.message : String(err);
  return `Error de red${code ? ` (${code})` : ''}: ${message.slice(0, 200)}`;
}
