import { concatBytes, hmacSha256, toHex, utf8Bytes } from './rules/hmac-sha256';

/**
 * Webhook signatures (spec: Events, «Signature check»).
 *
 * Every delivery carries `X-Deca-Firma: t=<unix seconds>,v1=<hex>` where
 * `<hex>` is HMAC-SHA256 keyed with the webhook secret (the whole `whsec_…`
 * string, as UTF-8) over the text `t + "." + rawBody`. Receivers check it with
 * {@link verifySignature}. This file and rules/hmac-sha256.ts have no runtime
 * dependencies (no Node, no DOM): copy both into any JavaScript receiver.
 */

/** Header that carries the signature. */
export const FIRMA_HEADER = 'X-Deca-Firma';

/**
 * The Standard Webhooks headers (standardwebhooks.com) every delivery also
 * carries, for receivers that use its libraries: `webhook-id` is the
 * delivery's id (as X-Deca-Entrega, the same on every retry: the idempotency
 * key), `webhook-timestamp` the attempt's unix seconds (the `t` of
 * X-Deca-Firma), and `webhook-signature` `v1,<base64>`: HMAC-SHA256 over
 * `id + "." + timestamp + "." + rawBody`, keyed with the bytes that the text
 * after `whsec_` encodes in base64 — what `new Webhook(secret)` derives from
 * the very secret string. Check them with `new Webhook(secret).verify(rawBody, headers)`.
 */
export const STANDARD_WEBHOOKS = { id: 'webhook-id', timestamp: 'webhook-timestamp', firma: 'webhook-signature' } as const;

/** Maximum distance between `t` and the receiver's clock (spec: 300 s). */
export const FIRMA_TOLERANCIA_S = 300;

function bytesOf(body: string | Uint8Array): Uint8Array {
  return typeof body === 'string' ? utf8Bytes(body) : body;
}

/** Hex HMAC-SHA256 of `t + "." + rawBody` keyed with `secret`. */
export function signWebhook(secret: string, t: number, rawBody: string | Uint8Array): string {
  return toHex(hmacSha256(utf8Bytes(secret), concatBytes(utf8Bytes(`${t}.`), bytesOf(rawBody))));
}

/** The full `X-Deca-Firma` value for a body signed at `t` (unix seconds). */
export function signatureHeader(secret: string, t: number, rawBody: string | Uint8Array): string {
  return `t=${t},v1=${signWebhook(secret, t, rawBody)}`;
}

/**
 * Split `t=…,v1=…[,v1=…]` into its timestamp and every `v1` value (several
 * may come while a secret is being rotated). Null when the shape is wrong.
 */
export function parseSignatureHeader(header: string): { t: number; v1: string[] } | null {
  let t: number | null = null;
  const v1: string[] = [];
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const k = part.slice(0, eq).trim();
    const v = part.slice(eq + 1).trim();
    if (k === 't') {
      if (!/^\d{1,12}$/.test(v)) return null;
      t = Number(v);
    } else if (k === 'v1' && /^[0-9a-fA-F]{64}$/.test(v)) {
      v1.push(v.toLowerCase());
    }
  }
  return t === null || v1.length === 0 ? null : { t, v1 };
}

/** Compare two equal-length strings without stopping at the first difference (no timing leak). */
function constantTimeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/**
 * Check a delivery's `X-Deca-Firma` header: true only when one `v1` value is
 * the HMAC of this exact raw body at `t`, and `t` is within `toleranceS`
 * (300 s) of `now`. Pass the raw body bytes (or the exact text) as received,
 * before any JSON parsing: re-serialised JSON does not match.
 *
 * @param secret   the webhook secret (`whsec_…`), shown once at creation
 * @param header   the `X-Deca-Firma` header value (null/undefined → false)
 * @param rawBody  the request body exactly as received
 * @param now      the receiver's current time: a Date, or milliseconds as from `Date.now()`
 * @param toleranceS  accepted clock distance in seconds (default 300)
 *
 * @example
 *   if (!verifySignature(process.env.DECA_WEBHOOK_SECRET!, req.headers['x-deca-firma'], rawBody, Date.now())) {
 *     res.writeHead(400).end(); return;
 *   }
 */
export function verifySignature(secret: string, header: string | null | undefined, rawBody: string | Uint8Array, now: Date | number = Date.now(), toleranceS: number = FIRMA_TOLERANCIA_S): boolean {
  if (!secret || typeof header !== 'string') return false;
  const parsed = parseSignatureHeader(header);
  if (!parsed) return false;
  const nowS = Math.floor((typeof now === 'number' ? now : now.getTime()) / 1000);
  if (!Number.isFinite(nowS) || Math.abs(nowS - parsed.t) > toleranceS) return false;
  const expected = signWebhook(secret, parsed.t, rawBody);
  let ok = false;
  // Check every candidate (no early exit) so timing does not reveal which one matched.
  for (const candidate of parsed.v1) ok = constantTimeEqual(expected, candidate) || ok;
  return ok;
}
