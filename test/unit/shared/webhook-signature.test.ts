import { createHash, createHmac, randomBytes, randomInt } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hmacSha256, sha256, toHex, utf8Bytes } from '../../../shared/rules/hmac-sha256';
import { parseSignatureHeader, signatureHeader, signWebhook, verifySignature } from '../../../shared/webhook-signature';
import { firmaEntrega } from '../../../server/domain/webhooks/firma';

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
  const secret = `whsec_${randomBytes(32).toString('base64url')}`;

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
