import { sql } from 'kysely';
import { describe, expect } from 'vitest';
import { type Database, openDatabase } from '../../server/db/open';
import { nuevoEntregaId } from '../../server/domain/webhooks/encolar';
import { reclamarEntregas } from '../../server/domain/webhooks/entregas';
import { startWebhookWorker, type WebhookWorker } from '../../server/jobs/webhook-delivery';
import { createLogger } from '../../server/log';
import { testDatabaseKind } from '../support/db';
import { decaCompleta } from '../support/decas';
import { buildCuenta } from '../support/factories';
import { test } from '../support/fixtures';
import { crearDeca, crearWebhookOk, leerEntregas } from '../support/webhooks';

const log = createLogger(process.env.TEST_LOG_LEVEL ?? 'silent');

test.override('opcionesApp', { env: { WEBHOOK_ALLOW_INSECURE: '1' } });

/** A second connection pool to the same database: another server process, as the worker sees it (PostgreSQL only). */
const it = test.extend('segunda', { scope: 'file' }, async ({ app }, { onCleanup }): Promise<Database> => {
  const db = app.database;
  if (db.kind !== 'postgres') throw new Error('postgres only');
  const segunda = await openDatabase({ databaseUrl: db.connectionString, schema: db.schema });
  onCleanup(() => segunda.close());
  return segunda;
});

/**
 * A webhook's deliveries: how many, and how many are not yet settled (not
 * delivered, leased, or with a claim whose attempt is not recorded yet:
 * `intentos` counts claims, webhook_intentos the attempts recorded, plus an
 * «Interrumpido» one for each claim that was taken over).
 */
async function sinAsentar(app: { database: Database }, webhookId: number): Promise<{ total: number; pendientes: number }> {
  const { rows } = await sql<{ total: number; pendientes: number }>`
    select count(*)::int as total,
           count(*) filter (where e.estado <> 'entregada' or e.en_curso_hasta is not null
                              or e.intentos > (select count(*) from webhook_intentos i where i.entrega_id = e.id))::int as pendientes
    from webhook_entregas e where e.webhook_id = ${webhookId}`.execute(app.database.db);
  return rows[0]!;
}

describe('the webhook worker loop', () => {
  it('is woken by the commit (LISTEN/NOTIFY): each delivery goes out with no poll that could have found it', async ({ app, rx }) => {
    const c = await buildCuenta(app);
    const w = await crearWebhookOk(app, c.live, { url: `${rx.url}/lat`, eventos: ['deca.creado'] });
    // Its fallback poll comes only after this test has ended, so only a wake-up can explain a delivery.
    // (How fast the wake-up is, commit to delivery, is bench/webhooks.ts's to measure.)
    const sinSondeo = 10 * 60_000;
    const worker = await startWebhookWorker({ database: app.database, clock: app.clock, log, allowInsecure: true, pollMs: sinSondeo, fastPollMs: sinSondeo });
    try {
      for (let i = 0; i < 15; i++) {
        const before = rx.recibidos.length;
        await crearDeca(app, c.live, { emitir: false, referencia: `lat-${i}` });
        await rx.esperar(before + 1, 20_000);
        // This attempt recorded before the next DeCA is made: the look the worker takes after each
        // attempt finds nothing due then, so each delivery is its own commit's wake-up.
        await expect.poll(() => sinAsentar(app, w.id), { timeout: 20_000, interval: 10 }).toEqual({ total: i + 1, pendientes: 0 });
      }
    } finally {
      await worker.stop();
    }
  });

  it('falls back to polling when no wake-up comes, and stops cleanly with attempts in flight', async ({ app, rx }) => {
    const c = await buildCuenta(app);
    const w = await crearWebhookOk(app, c.live, { url: `${rx.url}/poll`, eventos: ['deca.creado'] });
    const worker = await startWebhookWorker({ database: app.database, clock: app.clock, log, allowInsecure: true, pollMs: 200, fastPollMs: 200 });
    try {
      // A delivery written without NOTIFY (as if the wake-up were lost): only the poll can find it.
      const now = app.clock.now();
      await app.database.db
        .insertInto('webhook_entregas')
        .values({
          account_id: c.account.id,
          entorno: 'produccion',
          webhook_id: w.id,
          entrega_id: nuevoEntregaId(),
          evento: 'deca.creado',
          cuerpo: '{}',
          estado: 'pendiente',
          proximo_intento_at: now,
          created_at: now,
        })
        .execute();
      await expect.poll(() => rx.recibidos.filter((r) => r.path === '/poll').length, { timeout: 5_000 }).toBe(1);
      rx.responder(() => ({ delayMs: 300 }));
      await crearDeca(app, c.live, { emitir: false });
      await expect.poll(() => rx.recibidos.filter((r) => r.path === '/poll').length, { timeout: 5_000 }).toBe(2);
    } finally {
      await worker.stop(); // waits for the delayed answer to be recorded
      rx.responder(() => 200);
    }
    const entregas = await leerEntregas(app, c.live, w.id);
    expect(entregas.map((e) => e.estado)).toEqual(['entregada', 'entregada']);
  });

  describe.skipIf(testDatabaseKind() !== 'postgres')('several processes on one PostgreSQL', () => {
    it('claims never overlap (SKIP LOCKED)', async ({ app, rx, segunda }) => {
      const c = await buildCuenta(app);
      await crearWebhookOk(app, c.live, { url: `${rx.url}/claims`, eventos: ['deca.creado'] });
      for (let i = 0; i < 60; i++) await crearDeca(app, c.live, { emitir: false, referencia: `c-${i}` });
      const a: number[] = [];
      const b: number[] = [];
      // Both "processes" claim at once, repeatedly, until nothing is due.
      for (;;) {
        const [x, y] = await Promise.all([reclamarEntregas(app.database.db, app.clock, 7), reclamarEntregas(segunda.db, app.clock, 7)]);
        a.push(...x.map((r) => r.id));
        b.push(...y.map((r) => r.id));
        if (x.length === 0 && y.length === 0) break;
      }
      expect(a.length + b.length).toBe(60);
      expect(new Set([...a, ...b]).size).toBe(60);
      expect(a.length).toBeGreaterThan(0);
      expect(b.length).toBeGreaterThan(0);
      await app.database.db.updateTable('webhook_entregas').set({ estado: 'fallida', en_curso_hasta: null }).where('account_id', '=', c.account.id).execute();
    });

    it('two workers deliver every event exactly once, each DeCA in order', async ({ app, rx, segunda }) => {
      const c = await buildCuenta(app);
      const w = await crearWebhookOk(app, c.live, { url: `${rx.url}/dos`, eventos: ['*'] });
      const counts = [0, 0];
      const fetchOf = (i: 0 | 1) => async (url: string, init: Parameters<typeof fetch>[1] & { body: string }) => {
        counts[i]!++;
        const res = await fetch(url, init);
        await res.arrayBuffer();
        return { status: res.status };
      };
      rx.responder(() => ({ delayMs: Math.floor(Math.random() * 15) }));
      const workers: WebhookWorker[] = [
        await startWebhookWorker({ database: app.database, clock: app.clock, log, allowInsecure: true, concurrency: 4, fetch: fetchOf(0) }),
        await startWebhookWorker({ database: segunda, clock: app.clock, log, allowInsecure: true, concurrency: 4, fetch: fetchOf(1) }),
      ];
      try {
        const decas: number[] = [];
        for (let i = 0; i < 20; i++) {
          const d = await crearDeca(app, c.live, decaCompleta({ referencia: `par-${i}` })); // creado + emitido
          decas.push(d.id);
          if (i % 4 === 0) await app.request('POST', `/api/v1/decas/${d.id}/fin`, { key: c.live });
        }
        const total = 20 * 2 + 5;
        // Until every delivery is delivered, no lease held and every claim's attempt recorded: none can
        // be claimed again and no request is on its way, so what the receiver holds is final.
        await expect.poll(() => sinAsentar(app, w.id), { timeout: 20_000, interval: 50 }).toEqual({ total, pendientes: 0 });
        // Each claimed once, by one worker or the other.
        const claims = await app.database.db.selectFrom('webhook_entregas').select('intentos').where('webhook_id', '=', w.id).execute();
        expect(claims.map((e) => e.intentos)).toEqual(Array.from({ length: total }, () => 1));
        const got = rx.recibidos.filter((r) => r.path === '/dos');
        expect(got).toHaveLength(total);
        expect(new Set(got.map((r) => r.entrega)).size).toBe(total);
        for (const id of decas) {
          const seq = got.filter((r) => r.body.data.deca.id === id).map((r) => r.evento);
          expect(seq.slice(0, 2)).toEqual(['deca.creado', 'deca.emitido']);
          if (seq.length === 3) expect(seq[2]).toBe('deca.fin_servicio');
        }
        expect(counts[0]! + counts[1]!).toBe(total);
      } finally {
        rx.responder(() => 200);
        await Promise.all(workers.map((w) => w.stop()));
      }
    });
  });
});
