import { createHash, createHmac, randomBytes, randomInt } from 'node:crypto';
import { Webhook as StandardWebhook, WebhookVerificationError } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { cabecerasStandardWebhooks, firmaEntrega } from '../../../server/domain/webhooks/firma';
import { nuevoSecreto } from '../../../server/domain/webhooks/webhooks';
import { hmacSha256, sha256, toHex, utf8Bytes } from '../../../shared/rules/hmac-sha256';
import { parseSignatureHeader, signatureHeader, signWebhook, verifySignature } from '../../../shared/webhook-signature';

/** A random string mixing ASCII, Spanish letters, astral symbols and a lone surrogate now and then. */
function randomText(n: number): string {
  const pool = ['a', 'Z', '0', ' ', '"', '{', '}', 'ñ', 'Ñ', 'á', 'ü', '€', 'º', '¿', '中', '😀', '🚚', '\n', '\\'];
  let s = '';
  for (let i = 0; i < n; i++) s += pool[randomInt(pool.length)];
  return s;
}

describe('plain TypeScript SHA-256 and HMAC-SHA256 agree with node:crypto', () => {
  it('SHA-256 of every length from 0 to 300 bytes, and of 1 MB', () => {
    for (let n = 0; n <= 300; n++) {
      const data = randomBytes(n);
      expect(toHex(sha256(data))).toBe(createHash('sha256').update(data).digest('hex'));
    }
    const big = randomBytes(1024 * 1024 + 7);
    expect(toHex(sha256(big))).toBe(createHash('sha256').update(big).digest('hex'));
    expect(toHex(sha256(utf8Bytes('abc')))).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('UTF-8 like Buffer.from(s, "utf8"), lone surrogates included', () => {
    for (let i = 0; i < 300; i++) {
      const s = randomText(randomInt(0, 60)) + (i % 7 === 0 ? '\ud800x' : '') + (i % 11 === 0 ? '\udfff' : '');
      expect(Buffer.from(utf8Bytes(s)).equals(Buffer.from(s, 'utf8'))).toBe(true);
    }
  });

  it('HMAC-SHA256 on 1000 random keys (0–200 bytes, beyond the block size) and messages', () => {
    for (let i = 0; i < 1000; i++) {
      const key = randomBytes(randomInt(0, 201));
      const msg = randomBytes(randomInt(0, 2000));
      expect(toHex(hmacSha256(key, msg))).toBe(createHmac('sha256', key).update(msg).digest('hex'));
    }
  });
});

describe('webhook signature', () => {
  const secret = nuevoSecreto();

  it('signs exactly like the server (node:crypto) on 500 random bodies, as text or bytes', () => {
    for (let i = 0; i < 500; i++) {
      const body = JSON.stringify({ id: `ev_${i}`, texto: randomText(randomInt(0, 400)) });
      const t = 1_700_000_000 + randomInt(0, 100_000_000);
      const server = firmaEntrega(secret, t, body);
      expect(signatureHeader(secret, t, body)).toBe(server);
      expect(signWebhook(secret, t, Buffer.from(body))).toBe(createHmac('sha256', secret).update(`${t}.${body}`).digest('hex'));
      expect(verifySignature(secret, server, body, t * 1000)).toBe(true);
      expect(verifySignature(secret, server, new Uint8Array(Buffer.from(body)), new Date(t * 1000 + 299_000))).toBe(true);
    }
  });

  it('accepts up to 300 s either way and refuses beyond', () => {
    const body = '{"id":"ev_1"}';
    const t = 1_800_000_000;
    const h = signatureHeader(secret, t, body);
    expect(verifySignature(secret, h, body, (t + 300) * 1000)).toBe(true);
    expect(verifySignature(secret, h, body, (t - 300) * 1000)).toBe(true);
    expect(verifySignature(secret, h, body, (t + 301) * 1000)).toBe(false);
    expect(verifySignature(secret, h, body, (t - 301) * 1000)).toBe(false);
    expect(verifySignature(secret, h, body, (t + 600) * 1000, 600)).toBe(true);
    // Seconds passed by mistake instead of milliseconds: refused, not accepted.
    expect(verifySignature(secret, h, body, t)).toBe(false);
  });

  it('refuses a wrong secret, a changed body, a changed t and malformed headers', () => {
    const body = JSON.stringify({ id: 'ev_x', importe: 'ñ€' });
    const t = 1_800_000_000;
    const now = t * 1000;
    const h = signatureHeader(secret, t, body);
    const hex = h.split('v1=')[1]!;
    expect(verifySignature(`${secret}x`, h, body, now)).toBe(false);
    expect(verifySignature(secret, h, `${body} `, now)).toBe(false);
    expect(verifySignature(secret, h, body.replace('ñ', 'n'), now)).toBe(false);
    expect(verifySignature(secret, `t=${t + 1},v1=${hex}`, body, now)).toBe(false);
    expect(verifySignature(secret, `t=${t},v1=${hex.slice(0, 63)}0`, body, now)).toBe(hex.endsWith('0'));
    for (const bad of ['', 'v1=' + hex, `t=${t}`, `t=abc,v1=${hex}`, `t=${t},v1=${hex}zz`, `t=${t},v0=${hex}`, `t=-${t},v1=${hex}`, 'basura']) {
      expect(verifySignature(secret, bad, body, now), bad).toBe(false);
    }
    expect(verifySignature(secret, null, body, now)).toBe(false);
    expect(verifySignature(secret, undefined, body, now)).toBe(false);
    expect(verifySignature('', h, body, now)).toBe(false);
  });

  it('reads spaces, upper-case hex and several v1 values (secret rotation)', () => {
    const body = '{}';
    const t = 1_800_000_000;
    const good = signWebhook(secret, t, body);
    const other = signWebhook('whsec_viejo', t, body);
    expect(verifySignature(secret, ` t=${t} , v1=${good.toUpperCase()} `, body, t * 1000)).toBe(true);
    expect(verifySignature(secret, `t=${t},v1=${other},v1=${good}`, body, t * 1000)).toBe(true);
    expect(verifySignature(secret, `t=${t},v1=${other}`, body, t * 1000)).toBe(false);
    expect(parseSignatureHeader(`t=${t},v1=${good},v1=${other}`)).toEqual({ t, v1: [good, other] });
    expect(parseSignatureHeader('t=1')).toBeNull();
  });
});

describe('Standard Webhooks headers (standardwebhooks.com), next to X-Deca-Firma', () => {
  const ahora = () => Math.floor(Date.now() / 1000);

  it('a new secret is whsec_ + 32 random bytes in standard base64, the shape the library reads', () => {
    const secretos = Array.from({ length: 200 }, nuevoSecreto);
    for (const s of secretos) {
      expect(s).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      expect(Buffer.from(s.slice(6), 'base64')).toHaveLength(32);
      expect(() => new StandardWebhook(s)).not.toThrow();
    }
    expect(new Set(secretos).size).toBe(200);
    // Why not base64url, as before: the library refuses its `-` and `_`.
    expect(() => new StandardWebhook(`whsec_${'a-b_'.repeat(11)}`)).toThrow();
  });

  it('the library verifies what the server signs, with the very secret string, on random bodies', () => {
    for (let i = 0; i < 300; i++) {
      const secret = nuevoSecreto();
      const id = `ev_${randomBytes(18).toString('base64url')}`;
      const body = JSON.stringify({ id, texto: randomText(randomInt(0, 400)) });
      const t = ahora() - randomInt(0, 250);
      const h = cabecerasStandardWebhooks(secret, id, t, body);
      expect(Object.keys(h).sort()).toEqual(['webhook-id', 'webhook-signature', 'webhook-timestamp']);
      expect(h['webhook-id']).toBe(id);
      expect(h['webhook-timestamp']).toBe(String(t));
      expect(h['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
      const wh = new StandardWebhook(secret);
      expect(wh.sign(id, new Date(t * 1000), body)).toBe(h['webhook-signature']);
      expect(wh.verify(body, h)).toEqual(JSON.parse(body));
      expect(wh.verify(Buffer.from(body), h)).toEqual(JSON.parse(body));
    }
  });

  it('the library refuses another secret, a changed body, id or timestamp, and an old attempt', () => {
    const secret = nuevoSecreto();
    const id = 'ev_abc';
    const body = JSON.stringify({ id, importe: 'ñ€' });
    const t = ahora();
    const h = cabecerasStandardWebhooks(secret, id, t, body);
    const wh = new StandardWebhook(secret);
    const refused = (b: string, headers: Record<string, string>, w = wh) => expect(() => w.verify(b, headers)).toThrow(WebhookVerificationError);
    refused(body, h, new StandardWebhook(nuevoSecreto()));
    refused(`${body} `, h);
    refused(body.replace('ñ', 'n'), h);
    refused(body, { ...h, 'webhook-id': 'ev_abd' });
    refused(body, { ...h, 'webhook-timestamp': String(t + 1) });
    refused(body, { ...h, 'webhook-signature': `v1,${firmaEntrega(secret, t, body)}` });
    const { 'webhook-signature': _, ...sinFirma } = h;
    refused(body, sinFirma);
    const vieja = cabecerasStandardWebhooks(secret, id, t - 301, body);
    refused(body, vieja);
  });

  it('a secret made before (base64url) signs with the same bytes: its receivers read it with - → + and _ → /', () => {
    const bytes = randomBytes(32);
    bytes[0] = 0xfb; // `-` or `_` is sure to appear
    const antiguo = `whsec_${bytes.toString('base64url')}`;
    expect(antiguo.slice('whsec_'.length)).toMatch(/[-_]/);
    const comoEstandar = `whsec_${bytes.toString('base64')}`;
    const body = '{"id":"ev_1"}';
    const t = ahora();
    const h = cabecerasStandardWebhooks(antiguo, 'ev_1', t, body);
    expect(h).toEqual(cabecerasStandardWebhooks(comoEstandar, 'ev_1', t, body));
    const leido = `whsec_${antiguo.slice('whsec_'.length).replace(/-/g, '+').replace(/_/g, '/')}`;
    expect(new StandardWebhook(leido).verify(body, h)).toEqual({ id: 'ev_1' });
  });

  it('X-Deca-Firma is still keyed with the whole secret string, whatever its alphabet', () => {
    const secret = nuevoSecreto();
    const t = ahora();
    expect(firmaEntrega(secret, t, '{}')).toBe(`t=${t},v1=${createHmac('sha256', Buffer.from(secret, 'utf8')).update(`${t}.{}`).digest('hex')}`);
    expect(verifySignature(secret, firmaEntrega(secret, t, '{}'), '{}', t * 1000)).toBe(true);
  });
});
