import { describe, expect, it } from 'vitest';
import { truncarIp } from '../../../shared/rules/ip';

describe('truncarIp: an IP cut to its network', () => {
  it.each([
    ['203.0.113.77', '203.0.113.0'],
    ['203.0.113.0', '203.0.113.0'],
    ['8.8.8.8', '8.8.8.0'],
    ['::ffff:198.51.100.23', '198.51.100.0'],
    ['2001:db8:85a3:8d3:1319:8a2e:370:7348', '2001:db8:85a3::'],
    ['2001:DB8:85A3::7348', '2001:db8:85a3::'],
    ['2001:db8::1', '2001:db8::'],
    ['2001:0db8:0000:0000:0000:ff00:0042:8329', '2001:db8::'],
    ['fe80::1%eth0', 'fe80::'],
    ['::1', '::'],
    ['0:5:0::1', '0:5::'],
  ])('%s → %s', (ip, red) => {
    expect(truncarIp(ip)).toBe(red);
  });

  it('cuts a cut address to itself', () => {
    for (const ip of ['203.0.113.77', '2001:db8:85a3:8d3::1', '::ffff:10.1.2.3', '2001:db8::1']) expect(truncarIp(truncarIp(ip))).toBe(truncarIp(ip));
  });

  it('keeps nothing of what is no address', () => {
    for (const x of ['desconocida', '', '999.1.1.1', '1.2.3', 'a:b:c:d:e:f:g:h', '1::2::3', '1:2:3:4:5:6:7:8:9', 'José Ángel <jose@example.com>']) expect(truncarIp(x)).toBe('desconocida');
  });
});
