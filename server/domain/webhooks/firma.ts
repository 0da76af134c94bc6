import { createHmac } from 'node:crypto';
import { STANDARD_WEBHOOKS } from '../../../shared/webhook-signature';

/**
 * `X-Deca-Firma` for a body sent at `t` (unix seconds): hex HMAC-SHA256 keyed
 * with the whole secret over `t + "." + body`. Signed with node:crypto here;
 * receivers check it with shared/webhook-signature.ts (plain TypeScript), and
 * the tests hold the two to the same answer.
 */
export function firmaEntrega(secreto: string, t: number, cuerpo: string): string {
  return `t=${t},v1=${createHmac('sha256', secreto).update(`${t}.`).update(cuerpo).digest('hex')}`;
}

/**
 * The Standard Webhooks headers of one attempt (shared/webhook-signature.ts):
 * the delivery's id, the attempt's `t`, and `v1,<base64 HMAC-SHA256>` over
 * `id.t.body` keyed with the bytes the text after `whsec_` encodes in base64 —
 * standard base64 in today's secrets, base64url in older ones (the same bytes:
 * Node reads both alphabets, so their receivers get a key from the secret
 * with `-`→`+` and `_`→`/`).
 */
export function cabecerasStandardWebhooks(secreto: string, id: string, t: number, cuerpo: string): Record<string, string> {
  const clave = Buffer.from(secreto.startsWith('whsec_') ? secreto.slice('whsec_'.length) : secreto, 'base64');
  const firma = createHmac('sha256', clave).update(`${id}.${t}.`).update(cuerpo).digest('base64');
  return { [STANDARD_WEBHOOKS.id]: id, [STANDARD_WEBHOOKS.timestamp]: String(t), [STANDARD_WEBHOOKS.firma]: `v1,${firma}` };
}
