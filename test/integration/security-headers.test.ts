import { describe, expect } from 'vitest';
import { ErrorBody } from '../../shared/errors';
import { DecaCreada } from '../../shared/schemas/deca';
import { startTestApp, type TestApp } from '../support/app';
import { clienteDePrueba } from '../support/cliente';
import { decaCompleta } from '../support/decas';
import { test as base } from '../support/fixtures';

const clientDir = clienteDePrueba({ sw: true });
base.override('opcionesApp', { clientDir, env: { SITE_URL: 'https://deca.example' } });

/** One issued DeCA for the whole file: its PDF, QR and public pages. */
const it = base.extend('deca', { scope: 'file' }, async ({ app, c }) => {
  const res = await app.request('POST', '/api/v1/decas', { key: c.live, body: decaCompleta() });
  expect(res.status, res.text).toBe(201);
  const deca = DecaCreada.parse(res.body).deca;
  expect(deca.estado).toBe('emitido');
  return deca;
});

/** GET through fetch; binary bodies stay bytes. */
async function get(app: TestApp, p: string, headers: Record<string, string> = {}) {
  const res = await fetch(app.url + p, { headers });
  const bytes = Buffer.from(await res.arrayBuffer());
  return { status: res.status, headers: res.headers, bytes };
}

/** `a b; c d e` → { a: ['b'], c: ['d', 'e'] }. */
function directivas(csp: string | null): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const d of (csp ?? '').split(';')) {
    const [name, ...values] = d.trim().split(/\s+/);
    if (name) out[name] = values;
  }
  return out;
}

/** What every answer must carry, whatever produced it. */
function expectComunes(h: Headers): void {
  expect(h.get('x-content-type-options')).toBe('nosniff');
  expect(h.get('referrer-policy')).toBe('no-referrer');
  expect(h.get('strict-transport-security')).toBe('max-age=31536000');
  const permisos = (h.get('permissions-policy') ?? '').split(/,\s*/);
  expect(permisos).toContain('camera=(self)');
  // The position of a delivery, only when the driver adds it (client/views/entrega.tsx).
  expect(permisos).toContain('geolocation=(self)');
  for (const f of ['microphone', 'payment', 'usb']) expect(permisos).toContain(`${f}=()`);
  expect(permisos.filter((p) => !p.endsWith('=()'))).toEqual(['camera=(self)', 'geolocation=(self)', 'screen-wake-lock=(self)']);
}

const BEARER = (key: string) => ({ authorization: `Bearer ${key}` });

describe('the app shell', () => {
  it('/ , a deep link, the service worker and a hashed asset carry the strict CSP and refuse framing', async ({ app }) => {
    for (const p of ['/', '/decas/2026-000001', '/sw.js', '/assets/main-abc123.js']) {
      const res = await get(app, p);
      expect(res.status, p).toBe(200);
      expectComunes(res.headers);
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(directivas(res.headers.get('content-security-policy')), p).toEqual({
        'default-src': ["'none'"],
        'script-src': ["'self'"],
        'style-src': ["'self'"],
        'img-src': ["'self'", 'data:', 'blob:'],
        'connect-src': ["'self'"],
        'worker-src': ["'self'"],
        'manifest-src': ["'self'"],
        'object-src': ["'none'"],
        'frame-src': ['blob:'],
        'base-uri': ["'self'"],
        'form-action': ["'self'"],
        'frame-ancestors': ["'none'"],
      });
    }
  });
});

describe('API answers', () => {
  it('JSON, errors, the PDF and the QR are never sniffed', async ({ app, c, deca }) => {
    const ok = await get(app, '/api/v1/cuenta', BEARER(c.live));
    expect(ok.status).toBe(200);
    expectComunes(ok.headers);

    const sinClave = await get(app, '/api/v1/cuenta');
    expect(sinClave.status).toBe(401);
    expect(ErrorBody.parse(JSON.parse(sinClave.bytes.toString())).error.codigo).toBe('no_autenticado');
    expectComunes(sinClave.headers);

    const noExiste = await get(app, '/api/v1/no-existe', BEARER(c.live));
    expect(noExiste.status).toBe(404);
    expectComunes(noExiste.headers);

    const invalido = await app.request('POST', '/app/api/registro', { headers: { 'X-DeCA-CSRF': '1' }, body: { nombre: '' } });
    expect(invalido.status).toBe(422);
    expect(ErrorBody.parse(invalido.body).error.codigo).toBe('validacion');
    expectComunes(invalido.headers);

    const pdf = await get(app, `/api/v1/decas/${deca.id}/pdf`, BEARER(c.live));
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(pdf.bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expectComunes(pdf.headers);

    const qr = await get(app, `/api/v1/decas/${deca.id}/qr.png`, BEARER(c.live));
    expect(qr.status).toBe(200);
    expect(qr.headers.get('content-type')).toBe('image/png');
    expectComunes(qr.headers);
  });
});

describe('public pages', () => {
  it('the ficha and its PDF keep their own CSP and no-referrer, and carry the common headers', async ({ app, deca }) => {
    const ficha = await get(app, new URL(deca.urls.ficha).pathname);
    expect(ficha.status).toBe(200);
    expectComunes(ficha.headers);
    expect(ficha.headers.get('x-frame-options')).toBe('DENY');
    const csp = directivas(ficha.headers.get('content-security-policy'));
    expect(csp['default-src']).toEqual(["'none'"]);
    expect(csp['frame-ancestors']).toEqual(["'none'"]);

    const pdf = await get(app, new URL(deca.urls.pdf).pathname);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expectComunes(pdf.headers);

    const noEncontrada = await get(app, '/d/no-existe-este-token');
    expect(noEncontrada.status).toBe(404);
    expectComunes(noEncontrada.headers);
  });
});

describe('Strict-Transport-Security', () => {
  it('is not sent when SITE_URL is plain http (a development host must not be pinned to https)', async ({ app }) => {
    const http = await startTestApp({ database: app.database, clientDir, env: { SITE_URL: 'http://localhost:8080' } });
    try {
      for (const p of ['/', '/api/v1/cuenta']) {
        const res = await fetch(http.url + p);
        expect(res.headers.get('strict-transport-security'), p).toBeNull();
        expect(res.headers.get('x-content-type-options'), p).toBe('nosniff');
      }
    } finally {
      await http.close();
    }
  });
});
