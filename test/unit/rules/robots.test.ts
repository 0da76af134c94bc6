import { describe, expect, it } from 'vitest';
import { motivoRobot } from '../../../shared/rules/robots';

const peticion = (userAgent: string, method = 'GET', cabeceras: Record<string, string> = {}) => ({
  method,
  userAgent,
  headers: (h: string) => cabeceras[h] ?? '',
});

const NAVEGADOR = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36';

describe('motivoRobot: an open with no person behind it', () => {
  it('a phone browser is a person', () => {
    expect(motivoRobot(peticion(NAVEGADOR))).toBeNull();
  });

  it('names why a request is a robot’s: HEAD, a prefetch or preview, no browser, a known bot', () => {
    expect(motivoRobot(peticion(NAVEGADOR, 'HEAD'))).toBe('petición HEAD');
    expect(motivoRobot(peticion(NAVEGADOR, 'GET', { 'sec-purpose': 'prefetch;prerender' }))).toBe('precarga del navegador');
    expect(motivoRobot(peticion(NAVEGADOR, 'GET', { purpose: 'preview' }))).toBe('precarga del navegador');
    expect(motivoRobot(peticion('   '))).toBe('sin navegador');
    expect(motivoRobot(peticion('WhatsApp/2.23.20.0'))).toBe('robot conocido (WhatsApp/2.23.20.0)');
    expect(motivoRobot(peticion('curl/8.5.0'))).toMatch(/^robot conocido/);
  });

  it('quotes at most 60 characters of the browser', () => {
    const ua = `facebookexternalhit/1.1 ${'x'.repeat(200)}`;
    expect(motivoRobot(peticion(ua))).toBe(`robot conocido (${ua.slice(0, 60)})`);
  });
});
