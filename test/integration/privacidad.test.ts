/**
 * Personal data let go: the /privacidad page says what is kept, why and for
 * how long (linked from every public page), and the hourly maintenance cuts
 * the download log's IPs to their network once they are 90 days old, in
 * bounded batches that never read a row cut before.
 */
import { describe, expect } from 'vitest';
import { ManualClock } from '../../server/clock';
import { truncarIpsAntiguas } from '../../server/domain/publico/truncar-ips';
import { runMaintenanceOnce } from '../../server/jobs/maintenance';
import { DescargasList } from '../../shared/schemas/deca';
import type { TestApp } from '../support/app';
import { decaCompleta } from '../support/decas';
import { crearDecaOk } from '../support/decas-helpers';
import { it, test } from '../support/fixtures';

const DIA = 86_400_000;
test.override('opcionesApp', { env: { TRUST_PROXY: '1' }, clock: new ManualClock('2026-11-27T10:00:00Z') });

const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36';

/** Open a DeCA's public page as a person behind our one proxy, from `ip`. */
async function abrirDesde(app: TestApp, ficha: string, ip: string): Promise<void> {
  const res = await fetch(`${app.url}${new URL(ficha).pathname}`, { headers: { 'user-agent': BROWSER, 'x-forwarded-for': ip } });
  expect(res.status).toBe(200);
  await res.arrayBuffer();
}

// First in the file: its counts are of the whole (per-file) database's download log.
describe('the download log lets go of whole IPs after 90 days', () => {
  it('cuts IPv4 to /24 and IPv6 to /48 in batches, only rows older than 90 days, once', async ({ app, cuentaNueva: c }) => {
    const { deca } = await crearDecaOk(app, c.live, decaCompleta());
    const antiguas = ['203.0.113.77', '2001:db8:85a3:8d3:1319:8a2e:370:7348', '::ffff:198.51.100.23', '198.51.100.200', '2001:db8:aaaa::1'];
    for (const ip of antiguas) await abrirDesde(app, deca.urls.ficha, ip);
    app.clock.advance(60 * DIA);
    await abrirDesde(app, deca.urls.ficha, '192.0.2.55');

    const deps = { db: app.database.db, clock: app.clock };
    // Nothing is 90 days old yet.
    expect(await truncarIpsAntiguas(deps, 2)).toBe(0);

    app.clock.advance(31 * DIA);
    // Batches of 2 (5,000 in the service): three statements for the five opens of 91 days ago; the one of 31 days ago stays whole.
    expect(await truncarIpsAntiguas(deps, 2)).toBe(5);
    const r = await app.request('GET', `/api/v1/decas/${deca.id}/descargas`, { key: c.live });
    expect(r.status).toBe(200);
    const ips = DescargasList.parse(r.body)
      .descargas.map((d) => d.ip)
      .sort();
    expect(ips).toEqual(['192.0.2.55', '198.51.100.0', '198.51.100.0', '2001:db8:85a3::', '2001:db8:aaaa::', '203.0.113.0'].sort());
    const filas = await app.database.db.selectFrom('descargas').select(['ip', 'ip_truncada', 'navegador']).where('deca_id', '=', deca.id).execute();
    expect(filas.filter((f) => f.ip_truncada)).toHaveLength(5);
    expect(filas.every((f) => f.navegador === BROWSER)).toBe(true);

    // Cut rows are never read again; the hourly maintenance runs it too, and the rest goes when its time comes.
    expect(await truncarIpsAntiguas(deps, 2)).toBe(0);
    app.clock.advance(60 * DIA);
    expect((await runMaintenanceOnce(deps)).ips).toBe(1);
    const ultima = await app.database.db.selectFrom('descargas').select('ip').where('deca_id', '=', deca.id).where('ip', 'like', '192.0.2.%').executeTakeFirstOrThrow();
    expect(ultima.ip).toBe('192.0.2.0');
  });
});

describe('/privacidad', () => {
  it('is served like every public page (CSP, no sniffing, no referrer, no framing) and says what is kept, why and how long', async ({ app }) => {
    const res = await app.request('GET', '/privacidad');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('script-src');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    for (const dicho of ['Orden FOM/2861/2012', 'conductor', 'DNI/NIE', 'IP', 'navegador', '90 días', 'Un año', 'Cerrar la cuenta', 'ZIP', 'CSV', '7 días', 'Sesiones']) {
      expect(res.text, dicho).toContain(dicho);
    }
  });

  it('is linked from the footer of the public pages', async ({ app, c }) => {
    const { deca } = await crearDecaOk(app, c.live, decaCompleta());
    for (const p of [new URL(deca.urls.ficha).pathname, new URL(deca.urls.conductor).pathname, '/verificar']) {
      const res = await app.request('GET', p);
      expect(res.status, p).toBe(200);
      expect(res.text, p).toMatch(/<footer>[\s\S]*<a href="\/privacidad">/);
    }
  });
});
