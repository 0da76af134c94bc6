import { createHmac } from 'node:crypto';

/**
 * `X-Deca-Firma` for a body sent at `t` (unix seconds): hex HMAC-SHA256 keyed
 * with the whole secret over `t + "." + body`. Signed with node:crypto here;
 * receivers check it with shared/webhook-signature.ts (plain TypeScript), and
 * the tests hold the two to the same answer.
 */
export function firmaEntrega(secreto: string, t: number, cuerpo: string): string {
  return `t=${t},v1=${createHmac('sha256', secreto).update(`${t}.`).update(cuerpo).digest('hex')}`;
}
