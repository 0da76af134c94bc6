import { describe, expect, it } from 'vitest';
import { isDireccionPublica, motivoDireccionProhibida } from '../../../server/net/ip-policy';
import { checkWebhookUrl, DestinoNoPermitido, parseWebhookUrl, type Resolver, resolveTarget } from '../../../server/net/webhook-target';

describe('webhook address policy', () => {
  it.each([
    ['127.0.0.1', /loopback/],
    ['127.255.255.254', /loopback/],
    ['0.0.0.0', /no especificada/],
    ['0.1.2.3', /no especificada/],
    ['10.0.0.1', /privada/],
    ['10.255.255.255', /privada/],
    ['172.16.0.1', /privada/],
    ['172.31.255.255', /privada/],
    ['192.168.0.1', /privada/],
    ['100.64.0.1', /CGNAT/],
    ['100.127.255.255', /CGNAT/],
    ['169.254.169.254', /metadatos/],
    ['169.254.1.1', /enlace local/],
    ['192.0.0.8', /reservada/],
    ['192.0.2.1', /documentación/],
    ['198.18.0.1', /reservada/],
    ['198.51.100.7', /documentación/],
    ['203.0.113.9', /documentación/],
    ['224.0.0.1', /multicast/],
    ['239.255.255.250', /multicast/],
    ['240.0.0.1', /reservada/],
    ['255.255.255.255', /reservada/],
    ['::', /no especificada/],
    ['::1', /loopback/],
    ['[::1]', /loopback/],
    ['::ffff:127.0.0.1', /IPv4 mapeada/],
    ['::ffff:8.8.8.8', /IPv4 mapeada/],
    ['::ffff:7f00:1', /IPv4 mapeada/],
    ['::127.0.0.1', /IPv4 compatible/],
    ['fc00::1', /ULA/],
    ['fdff:ffff::1', /ULA/],
    ['fd00:ec2::254', /ULA/],
    ['fe80::1', /enlace local/],
    ['fe80::1%eth0', /enlace local/],
    ['febf::1', /enlace local/],
    ['fec0::1', /sitio local/],
    ['ff02::1', /multicast/],
    ['100::1', /no es unicast global/],
    ['2001:db8::1', /documentación/],
    ['2001::1', /reservada/],
    ['2002:7f00:1::1', /6to4/],
    ['2002:c0a8:101::1', /6to4/],
    ['64:ff9b::10.0.0.1', /NAT64/],
    ['64:ff9b::a9fe:a9fe', /NAT64/],
    ['no-ip', /no válida/],
    ['1.2.3', /no válida/],
  ])('refuses %s', (ip, motivo) => {
    expect(motivoDireccionProhibida(ip)).toMatch(motivo);
    expect(isDireccionPublica(ip)).toBe(false);
  });

  it.each([
    '1.1.1.1',
    '8.8.8.8',
    '93.184.216.34',
    '100.63.255.255',
    '100.128.0.0',
    '172.15.255.255',
    '172.32.0.0',
    '169.253.255.255',
    '223.255.255.255',
    '2a00:1450:4003:80f::200e',
    '2606:4700:4700::1111',
    '2002:808:808::1',
    '64:ff9b::808:808',
    '2001:4860:4860::8888',
  ])('allows public %s', (ip) => {
    expect(motivoDireccionProhibida(ip)).toBeNull();
  });
});

describe('webhook URL checks', () => {
  const strict = { allowInsecure: false };

  it('wants https, a host and no credentials; http and loopback only with the insecure flag', () => {
    expect(() => parseWebhookUrl('http://ejemplo.es/x', strict)).toThrow(/https:\/\//);
    expect(() => parseWebhookUrl('https://u:p@ejemplo.es/x', strict)).toThrow(/usuario/);
    expect(() => parseWebhookUrl('ejemplo.es', strict)).toThrow(/no es válida/);
    expect(parseWebhookUrl('https://ejemplo.es/x?a=1', strict).toString()).toBe('https://ejemplo.es/x?a=1');
    expect(parseWebhookUrl('http://127.0.0.1:9/x', { allowInsecure: true }).hostname).toBe('127.0.0.1');
  });

  it('checks every resolved address (injected resolver: no network)', async () => {
    const resolve: Resolver = async (host) =>
      ({
        'publico.test': [{ address: '93.184.216.34', family: 4 as const }],
        'privado.test': [{ address: '10.0.0.7', family: 4 as const }],
        'mixto.test': [
          { address: '93.184.216.34', family: 4 as const },
          { address: 'fd00::7', family: 6 as const },
        ],
        'metadatos.test': [{ address: '169.254.169.254', family: 4 as const }],
      })[host] ?? Promise.reject(Object.assign(new Error('nope'), { code: 'ENOTFOUND' }));
    await expect(checkWebhookUrl('https://publico.test/h', { allowInsecure: false, resolve })).resolves.toBe('https://publico.test/h');
    await expect(checkWebhookUrl('https://privado.test/h', { allowInsecure: false, resolve })).rejects.toThrow(/privado\.test apunta a 10\.0\.0\.7/);
    await expect(checkWebhookUrl('https://mixto.test/h', { allowInsecure: false, resolve })).rejects.toThrow(/ULA/);
    await expect(checkWebhookUrl('https://metadatos.test/h', { allowInsecure: false, resolve })).rejects.toThrow(/metadatos/);
    await expect(checkWebhookUrl('https://nadie.test/h', { allowInsecure: false, resolve })).rejects.toThrow(/No se encuentra el nombre nadie\.test/);
    await expect(checkWebhookUrl('https://privado.test/h', { allowInsecure: true, resolve })).resolves.toBeTruthy();
    const lit = await resolveTarget(new URL('https://[2606:4700:4700::1111]/'), { allowInsecure: false, resolve });
    expect(lit).toEqual([{ address: '2606:4700:4700::1111', family: 6 }]);
    await expect(resolveTarget(new URL('https://[::1]/'), { allowInsecure: false, resolve })).rejects.toBeInstanceOf(DestinoNoPermitido);
  });
});
