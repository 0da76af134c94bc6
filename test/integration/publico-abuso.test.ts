import { sql } from 'kysely';
import { describe, expect } from 'vitest';
import { DescargasList } from '../../shared/schemas/deca';
import { testDatabaseKind } from '../support/db';
import { decaCompleta } from '../support/decas';
import { enLotes } from '../support/decas-http';
import { type Fx, it, type TestApp, test } from '../support/fixtures';
import { crearDeca, crearWebhookOk } from '../support/webhooks';

/**
 * Anyone with a DeCA's QR can open its public page: a flood from one client
 * must not flood the company's download log and webhook endpoint, and an
 * inspector must never be kept from the page.
 */
const NAVEGADOR = 'Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 Chrome/130.0 Mobile Safari/537.36';

// Each test opens pages from its own addresses (through a trusted proxy), so their per-IP budgets stay apart.
test.override('opcionesApp', { env: { TRUST_PROXY: '1', WEBHOOK_ALLOW_INSECURE: '1' } });

function abrir(app: TestApp, url: string, ip: string, ua = NAVEGADOR) {
  return fetch(`${app.url}${new URL(url).pathname}`, { headers: { 'user-agent': ua, 'x-forwarded-for': ip } });
}

async function descargas({ app, c }: Fx, id: number) {
  const res = await app.request('GET', `/api/v1/decas/${id}/descargas`, { key: c.live });
  return DescargasList.parse(res.body).descargas;
}

async function entregasDescargado(app: TestApp, id: number): Promise<number> {
  const rows = await app.database.db.selectFrom('webhook_entregas').select('id').where('deca_id', '=', id).where('evento', '=', 'deca.descargado').execute();
  return rows.length;
}

describe('public pages under a flood', () => {
  it('600 opens of one ficha from one client: every page served, one counted download, one log line, one deca.descargado', async ({ app, c }) => {
    await crearWebhookOk(app, c.live, { url: 'http://127.0.0.1:9/receptor', eventos: ['deca.descargado'] });
    const deca = await crearDeca(app, c.live, decaCompleta());
    const statuses = await enLotes(600, 50, async () => {
      const res = await abrir(app, deca.urls.ficha, '203.0.113.10');
      await res.arrayBuffer();
      return res.status;
    });
    expect(statuses.every((s) => s === 200)).toBe(true);
    expect((await app.request('GET', `/api/v1/decas/${deca.id}`, { key: c.live })).body.deca.descargas).toBe(1);
    expect(await descargas({ app, c }, deca.id)).toHaveLength(1);
    expect(await entregasDescargado(app, deca.id)).toBe(1);

    // Another inspector (another browser and address) is a new open; the PDF is another resource.
    const otro = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0) Safari/604.1';
    expect((await abrir(app, deca.urls.ficha, '198.51.100.20', otro)).status).toBe(200);
    expect((await abrir(app, deca.urls.pdf, '198.51.100.20', otro)).status).toBe(200);
    expect((await app.request('GET', `/api/v1/decas/${deca.id}`, { key: c.live })).body.deca.descargas).toBe(3);
    expect(await entregasDescargado(app, deca.id)).toBe(3);
  });

  it('counts a repeat again once the window has passed', async ({ app, c }) => {
    const deca = await crearDeca(app, c.live, decaCompleta());
    await abrir(app, deca.urls.ficha, '203.0.113.11');
    await abrir(app, deca.urls.ficha, '203.0.113.11');
    expect(await descargas({ app, c }, deca.id)).toHaveLength(1);
    app.clock.advance(11 * 60_000);
    await abrir(app, deca.urls.ficha, '203.0.113.11');
    expect(await descargas({ app, c }, deca.id)).toHaveLength(2);
  });

  it('stops writing opens from one address past its budget, while its pages are still served', async ({ app, c }) => {
    const decas = await enLotes(62, 8, () => crearDeca(app, c.live, decaCompleta()));
    const statuses = await enLotes(62, 8, async (i) => (await abrir(app, decas[i]!.urls.ficha, '203.0.113.12')).status);
    expect(statuses.every((s) => s === 200)).toBe(true);
    const contadas = await app.database.db.selectFrom('descargas').select('deca_id').where('ip', '=', '203.0.113.12').execute();
    expect(contadas).toHaveLength(60);
  });

  it('serves the ficha and the PDF when the download log cannot be written', async ({ app, c }) => {
    const deca = await crearDeca(app, c.live, decaCompleta());
    await sql`alter table descargas rename to descargas_fuera`.execute(app.database.db);
    try {
      const ficha = await abrir(app, deca.urls.ficha, '203.0.113.15');
      expect(ficha.status).toBe(200);
      expect(await ficha.text()).toContain(deca.numero);
      const pdf = await abrir(app, deca.urls.pdf, '203.0.113.15');
      expect(pdf.status).toBe(200);
      expect(
        Buffer.from(await pdf.arrayBuffer())
          .subarray(0, 5)
          .toString(),
      ).toBe('%PDF-');
    } finally {
      await sql`alter table descargas_fuera rename to descargas`.execute(app.database.db);
    }
  });

  // PGlite has one connection: a transaction holding the row would hold every statement of the page too.
  it.runIf(testDatabaseKind() === 'postgres')('serves the ficha while another transaction holds its DeCA locked, and logs the open once it lets go', async ({ app, c }) => {
    const deca = await crearDeca(app, c.live, decaCompleta());
    let tomada!: () => void;
    let soltar!: () => void;
    const bloqueada = new Promise<void>((r) => (tomada = r));
    const suelta = new Promise<void>((r) => (soltar = r));
    const bloqueo = app.database.db.transaction().execute(async (trx) => {
      await sql`select id from decas where id = ${deca.id} for update`.execute(trx);
      tomada();
      await suelta;
    });
    await bloqueada;
    // Answered while the row is still locked: the page does not wait for its open to be logged.
    const ficha = await abrir(app, deca.urls.ficha, '203.0.113.16');
    expect(ficha.status).toBe(200);
    expect(await ficha.text()).toContain(deca.numero);
    soltar();
    await bloqueo;
    const descargas = async () => (await sql<{ n: number }>`select count(*)::int as n from descargas where deca_id = ${deca.id}`.execute(app.database.db)).rows[0]!.n;
    await expect.poll(descargas, { timeout: 10_000 }).toBe(1);
  });

  it('answers 429 with Retry-After past 600 pages a minute from one address, and serves other addresses', async ({ app, c }) => {
    const deca = await crearDeca(app, c.live, decaCompleta());
    const statuses = await enLotes(601, 50, async () => {
      const res = await abrir(app, deca.urls.ficha, '203.0.113.13');
      await res.arrayBuffer();
      return { status: res.status, retry: res.headers.get('retry-after'), type: res.headers.get('content-type') };
    });
    const limitadas = statuses.filter((s) => s.status === 429);
    expect(limitadas).toHaveLength(1);
    expect(Number(limitadas[0]?.retry)).toBeGreaterThan(0);
    expect(limitadas[0]?.type).toContain('text/html');
    expect((await abrir(app, deca.urls.ficha, '203.0.113.14')).status).toBe(200);
  });
});
