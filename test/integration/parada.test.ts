import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { filasEn, postgresSchemaDeProceso, testDatabaseKind } from '../support/db';
import { decaCompleta } from '../support/decas';
import { runCli, type ServerProcess, startServerProcess } from '../support/processes';
import { roundRobin } from '../support/proxy';
import { startSmtp } from '../support/smtp';
import { type Receptor, startReceptor } from '../support/webhook-receiver';

/**
 * A stop as a rolling restart makes it (SIGTERM), with other processes on
 * the same PostgreSQL carrying on: the stopping process answers every
 * request it accepted, takes no new connection, and gives back the work it
 * holds so another process does it at once.
 */
describe.runIf(testDatabaseKind() === 'postgres')('graceful shutdown', () => {
  let db: { url: string; drop(): Promise<void> };
  let rx: Receptor;
  let env: Record<string, string>;
  let key = '';
  const servers: ServerProcess[] = [];

  const filas = <T>(text: string, params: unknown[] = []): Promise<T[]> => filasEn<T>(db.url, text, params);
  const headers = () => ({ authorization: `Bearer ${key}`, 'content-type': 'application/json' });
  const arrancar = async (extra: Record<string, string> = {}) => {
    const s = await startServerProcess({ ...env, ...extra });
    servers.push(s);
    return s;
  };

  beforeAll(async () => {
    db = await postgresSchemaDeProceso('parada');
    rx = await startReceptor();
    env = { DATABASE_URL: db.url, WEBHOOK_ALLOW_INSECURE: '1', API_RATE_LIMIT: '100000' };
    const cuenta = await runCli(['account:create', '--company', 'Parada SL', '--nif', 'B12345674', '--plan', 'pro'], env);
    expect(cuenta.code, cuenta.stderr).toBe(0);
    const id = (JSON.parse(cuenta.stdout) as { cuenta: { id: number } }).cuenta.id;
    key = (JSON.parse((await runCli(['key:create', '--account', String(id), '--env', 'live'], env)).stdout) as { key: string }).key;
  }, 60_000);

  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    await rx?.close();
    await db?.drop();
  });

  it('gives back the webhook lease it holds: the attempt still waiting is cut, and the next process sends it at once, not when the lease ends', { timeout: 90_000 }, async () => {
    const a = await arrancar();
    let primera = true;
    rx.responder((r) => {
      if (r.path !== '/retenida' || !primera) return 200;
      primera = false;
      return { hang: true };
    });
    const alta = await fetch(`${a.url}/api/v1/webhooks`, { method: 'POST', headers: headers(), body: JSON.stringify({ url: `${rx.url}/retenida`, eventos: ['deca.emitido'] }) });
    expect(alta.status).toBe(201);
    const webhookId = ((await alta.json()) as { webhook: { id: number } }).webhook.id;
    const creada = await fetch(`${a.url}/api/v1/decas`, { method: 'POST', headers: headers(), body: JSON.stringify(decaCompleta({ referencia: 'retenida' })) });
    expect(creada.status).toBe(201);
    // A's worker has sent it and waits on the receiver, holding the delivery's lease.
    await expect.poll(() => rx.recibidos.filter((r) => r.path === '/retenida').length, { timeout: 30_000 }).toBe(1);
    const [tomada] = await filas<{ id: string; hasta: Date }>('select id::text, en_curso_hasta as hasta from webhook_entregas where webhook_id = $1', [webhookId]);
    expect(tomada!.hasta).toBeInstanceOf(Date);

    expect(await a.stop()).toBe(0);
    // Given back: its lease ends no later than now, though A took it for a minute.
    expect(await filas('select en_curso_hasta <= now() as libre from webhook_entregas where id = $1', [tomada!.id])).toEqual([{ libre: true }]);

    const b = await arrancar();
    const estado = async () => (await filas<{ estado: string }>('select estado from webhook_entregas where id = $1', [tomada!.id]))[0]!.estado;
    await expect.poll(estado, { timeout: 30_000, interval: 200 }).toBe('entregada');
    const intentos = await filas<{ status: number | null; error: string | null; at: Date }>('select status, error, at from webhook_intentos where entrega_id = $1 order by id', [tomada!.id]);
    expect(intentos.map((i) => i.status)).toEqual([null, 200]);
    expect(intentos[0]!.error).toMatch(/Interrumpido/);
    // Sent again by B before A's lease would have ended.
    expect(intentos[1]!.at.getTime()).toBeLessThan(tomada!.hasta.getTime());
    expect(rx.recibidos.filter((r) => r.path === '/retenida').map((r) => r.entrega)).toEqual(Array.from({ length: 2 }, () => rx.recibidos.find((r) => r.path === '/retenida')!.entrega));
    expect(b.child.exitCode).toBeNull();
  });

  it('gives back the mails of its batch not yet handed to SMTP: the next process sends them at once, not when the lease ends', { timeout: 90_000 }, async () => {
    // Each message is held 3 s by the SMTP server: a pass that holds several is still sending the first when it is stopped.
    const smtp = await startSmtp(0, { delayMs: 3_000 });
    try {
      const a = await arrancar({ SMTP_URL: smtp.url });
      const creada = await fetch(`${a.url}/api/v1/decas`, { method: 'POST', headers: headers(), body: JSON.stringify(decaCompleta({ referencia: 'correo' })) });
      expect(creada.status).toBe(201);
      const { id } = ((await creada.json()) as { deca: { id: number } }).deca;
      for (const n of [1, 2, 3]) {
        const r = await fetch(`${a.url}/api/v1/decas/${id}/enviar`, { method: 'POST', headers: headers(), body: JSON.stringify({ email: `parada-${n}@example.com` }) });
        expect(r.status).toBe(200);
      }
      // A pass holds several of them: it sends one while the next waits, leased. That one is watched.
      const esperando = async () =>
        (
          await filas<{ id: string; hasta: Date }>(`
            select c.id::text, c.bloqueado_hasta as hasta from correos c
            where c.estado = 'pendiente' and c.bloqueado_por is not null
              and exists (select 1 from correos o where o.bloqueado_por = c.bloqueado_por and o.estado = 'pendiente' and o.id < c.id)
            order by c.id desc limit 1`)
        )[0];
      await expect.poll(esperando, { timeout: 30_000, interval: 50 }).toBeDefined();
      const retenido = (await esperando())!;
      const suyo = async () => (await filas<{ hasta: Date | null; enviado: boolean }>(`select bloqueado_hasta as hasta, estado = 'enviado' as enviado from correos where id = $1`, [retenido.id]))[0];

      expect(await a.stop()).toBe(0);
      // A finished the one it was sending and gave this one back, unsent.
      expect(await suyo()).toEqual({ hasta: null, enviado: false });
      await arrancar({ SMTP_URL: smtp.url });
      await expect.poll(async () => (await suyo())?.enviado, { timeout: 30_000, interval: 200 }).toBe(true);
      // The others of the batch may be behind it (the one watched need not be the last): all of them sent.
      const sinEnviar = async () => (await filas<{ n: number }>(`select count(*)::int as n from correos where estado <> 'enviado'`))[0]!.n;
      await expect.poll(sinEnviar, { timeout: 30_000, interval: 200 }).toBe(0);
      const correos = await filas<{ destinatario: string; intentos: number; enviado_at: Date }>('select destinatario, intentos, enviado_at from correos order by id');
      // Each sent once; the one given back, before A's lease on it would have ended.
      expect(correos.map((c) => [c.destinatario, c.intentos])).toEqual([1, 2, 3].map((n) => [`parada-${n}@example.com`, 1]));
      const [enviadoB] = await filas<{ enviado_at: Date }>('select enviado_at from correos where id = $1', [retenido.id]);
      expect(enviadoB!.enviado_at.getTime()).toBeLessThan(retenido.hasta.getTime());
      expect(smtp.mails.flatMap((m) => (Array.isArray(m.to) ? m.to : [m.to]).flatMap((t) => t?.value.map((v) => v.address) ?? [])).sort()).toEqual([1, 2, 3].map((n) => `parada-${n}@example.com`));
    } finally {
      await Promise.all(servers.map((s) => s.stop()));
      await smtp.close();
    }
  });

  it('a rolling restart under load: the stopping process answers every request it accepted, refuses new connections, and nothing acknowledged is lost', { timeout: 120_000 }, async ({ annotate }) => {
    const p = await arrancar({ LOG_LEVEL: 'info' });
    const q = await arrancar();
    const proxy = await roundRobin([p.url, q.url]);
    try {
      rx.responder((r) => (r.path === '/lenta' ? { delayMs: 3_000 } : 200));
      const alta = await fetch(`${q.url}/api/v1/webhooks`, { method: 'POST', headers: headers(), body: JSON.stringify({ url: `${rx.url}/lenta`, eventos: ['deca.fin_servicio'] }) });
      expect(alta.status).toBe(201);
      const webhookId = ((await alta.json()) as { webhook: { id: number } }).webhook.id;
      // The proxy keeps connections to both processes open (eight at once: four to each), as a balancer does.
      const cuenta = () => fetch(`${proxy.url}/api/v1/cuenta`, { headers: headers() }).then(async (r) => (await r.arrayBuffer(), r.status));
      expect(await Promise.all(Array.from({ length: 8 }, cuenta))).toEqual(Array.from({ length: 8 }, () => 200));

      // Four clients create and issue DeCAs through the proxy, and read the account, until told to stop.
      const creadas: { id: number; numero: string }[] = [];
      const estados: number[] = [];
      let sinRespuesta = 0;
      let vivo = true;
      const cliente = async () => {
        for (let i = 0; vivo; i++) {
          let res: Response;
          let texto: string;
          try {
            res =
              i % 2
                ? await fetch(`${proxy.url}/api/v1/cuenta`, { headers: headers() })
                : await fetch(`${proxy.url}/api/v1/decas`, { method: 'POST', headers: { ...headers(), 'idempotency-key': randomUUID() }, body: JSON.stringify(decaCompleta()) });
            texto = await res.text();
          } catch {
            sinRespuesta++; // no answer at all (the proxy always answers, so: a cut): none may happen
            continue;
          }
          estados.push(res.status);
          if (res.status === 201) {
            const { deca } = JSON.parse(texto) as { deca: { id: number; numero: string } };
            creadas.push({ id: deca.id, numero: deca.numero });
          }
        }
      };
      const clientes = Array.from({ length: 4 }, cliente);
      await expect.poll(() => creadas.length, { timeout: 60_000 }).toBeGreaterThanOrEqual(10);

      // A request in flight on P when it gets SIGTERM: a webhook test, waiting 3 s on its receiver.
      const prueba = fetch(`${p.url}/api/v1/webhooks/${webhookId}/probar`, { method: 'POST', headers: headers(), body: '{}' }).then(
        async (r) => ({ status: r.status, body: (await r.json()) as { ok?: boolean } }),
        (err: unknown) => ({ status: 0, body: { cortada: String(err) } }),
      );
      await expect.poll(() => rx.recibidos.filter((r) => r.path === '/lenta').length, { timeout: 30_000 }).toBe(1);
      expect(await p.stop()).toBe(0);
      // Q carries on alone.
      const tras = creadas.length;
      await expect.poll(() => creadas.length, { timeout: 60_000 }).toBeGreaterThanOrEqual(tras + 10);
      vivo = false;
      await Promise.all(clientes);

      // The request in flight got its whole answer.
      expect(await prueba).toEqual({ status: 200, body: expect.objectContaining({ ok: true }) });
      // Every request got an answer: its own, or the proxy's 502 for a connection P refused (it never reached P).
      expect(sinRespuesta).toBe(0);
      expect(estados.filter((s) => s !== 200 && s !== 201 && s !== 502)).toEqual([]);
      expect(proxy.fallos.filter((f) => f.upstream !== 0 || f.code !== 'ECONNREFUSED')).toEqual([]);
      expect(estados.filter((s) => s === 502)).toHaveLength(proxy.fallos.length);
      // P says it answered every request it had accepted after SIGTERM (the test's among them) and cut none.
      const linea = p
        .output()
        .split('\n')
        .find((l) => l.includes('"msg":"stopped"'));
      expect(linea, p.output().slice(-2000)).toBeDefined();
      const detenido = JSON.parse(linea!) as { answered: number; cut: number };
      const cuantos = estados.reduce<Record<number, number>>((a, e) => ((a[e] = (a[e] ?? 0) + 1), a), {});
      await annotate(JSON.stringify({ estados: cuantos, repartidas: proxy.repartidas, rechazadas: proxy.fallos.length, parada: detenido }));
      expect(detenido.cut).toBe(0);
      expect(detenido.answered).toBeGreaterThanOrEqual(1);

      // Nothing acknowledged is lost; no number given twice.
      const enBase = new Map((await filas<{ id: number; numero: string }>('select id::float8 as id, numero from decas')).map((d) => [d.id, d.numero]));
      for (const a of creadas) expect(enBase.get(a.id), `DeCA ${a.numero}`).toBe(a.numero);
      expect(new Set(enBase.values()).size).toBe(enBase.size);
      expect((await fetch(`${q.url}/readyz`)).status).toBe(200);
    } finally {
      await proxy.close();
    }
  });
});
