import { describe, expect, it } from 'vitest';
import { direccionReenviada } from '../../../server/http/client-ip';

describe('direccionReenviada: the client address in X-Forwarded-For behind N proxies of ours', () => {
  it('with no proxy trusts nothing', () => {
    expect(direccionReenviada('203.0.113.7', 0)).toBeNull();
    expect(direccionReenviada('203.0.113.7, 10.0.0.1', 0)).toBeNull();
  });

  it('with one proxy takes the rightmost entry, the address that proxy saw, whatever the client wrote before it', () => {
    expect(direccionReenviada('203.0.113.7', 1)).toBe('203.0.113.7');
    expect(direccionReenviada('203.0.113.7, 127.0.0.1', 1)).toBe('127.0.0.1');
    expect(direccionReenviada('1.1.1.1,2.2.2.2,  198.51.100.4 ', 1)).toBe('198.51.100.4');
    expect(direccionReenviada('2001:db8::1, 2001:db8::2', 1)).toBe('2001:db8::2');
  });

  it('with N proxies takes the N-th entry from the right', () => {
    expect(direccionReenviada('6.6.6.6, 198.51.100.4, 10.0.0.1', 2)).toBe('198.51.100.4');
    expect(direccionReenviada('6.6.6.6, 198.51.100.4, 10.0.0.2, 10.0.0.1', 3)).toBe('198.51.100.4');
  });

  it('with fewer entries than proxies takes the leftmost, which one of ours wrote', () => {
    expect(direccionReenviada('198.51.100.4', 2)).toBe('198.51.100.4');
    expect(direccionReenviada('198.51.100.4, 10.0.0.1', 3)).toBe('198.51.100.4');
  });

  it('ignores empty entries and gives null for an empty header (the socket address is used)', () => {
    expect(direccionReenviada('', 1)).toBeNull();
    expect(direccionReenviada(' , ', 1)).toBeNull();
    expect(direccionReenviada('6.6.6.6,, 198.51.100.4,', 1)).toBe('198.51.100.4');
  });
});
