import { randomUUID } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { type CallToolResult, McpError } from '@modelcontextprotocol/sdk/types.js';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { postgresDatabaseUrl } from '../../bench/lib';
import { ErrorBody } from '../../shared/errors';
import { filasEn, testDatabaseKind } from '../support/db';
import { decaCompleta } from '../support/decas';
import { runCli, type ServerProcess, startServerProcess } from '../support/processes';
import { type Receptor, startReceptor } from '../support/webhook-receiver';

/**
 * Database faults, against the real server (a child process) on a
 * PostgreSQL database of its own: connections terminated by the server
 * (`pg_terminate_backend`, as an operator, a failover or a PgBouncer restart
 * does), while idle and in the middle of a request, and the database
 * refusing connections (`ALLOW_CONNECTIONS false`) then coming back. The
 * process must live through all of it, answer 503 `no_disponible` with
 * Retry-After while it cannot reach the database (never a 500, never a
 * reset), lose nothing it acknowledged, and recover by itself.
 */
describe.runIf(testDatabaseKind() === 'postgres')('database faults', () => {
  let db: { url: string; drop(): Promise<void> };
  let nombre = '';
  let admin: pg.Client;
  let server: ServerProcess;
  let rx: Receptor;
  let key = '';

  /** A statement on the cluster's `test` database (never on the server's own, whose connections are the ones cut). */
  const enCluster = async <T = Record<string, unknown>>(text: string, params: unknown[] = []) => (await admin.query(text, params)).rows as T[];
  /** Rows of one query on the server's database, on a connection of its own. */
  const filas = <T>(text: string, params: unknown[] = []): Promise<T[]> => filasEn<T>(db.url, text, params);
  /** Terminate every backend of the server's database; how many there were. */
  const terminar = async () =>
    (await enCluster<{ n: number }>(`select count(*)::int as n from (select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and backend_type = 'client backend') t`, [nombre]))[0]!
      .n;
  const permitirConexiones = (si: boolean) => enCluster(`alter database "${nombre}" allow_connections ${si}`);
  /** Connections the server has logged as lost (its pools' and its LISTEN's), one line each. */
  const perdidas = () => server.output().match(/"msg":"[^"]*connection lost/g)?.length ?? 0;
  /** Terminate the server's connections and wait until it has noticed every one of them. */
  async function terminarYEsperar(): Promise<number> {
    const antes = perdidas();
    const n = await terminar();
    await expect.poll(perdidas, { timeout: 15_000, interval: 50 }).toBe(antes + n);
    return n;
  }

  const headers = () => ({ authorization: `Bearer ${key}`, 'content-type': 'application/json' });
  const api = (method: string, path: string, body?: unknown, extra: Record<string, string> = {}) =>
    fetch(`${server.url}${path}`, { method, headers: { ...headers(), ...extra }, body: method === 'GET' ? undefined : JSON.stringify(body ?? {}) });
  async function crear(referencia: string): Promise<{ id: number; numero: string; urls: { ficha: string }; version: number }> {
    const res = await api('POST', '/api/v1/decas', decaCompleta({ referencia }), { 'idempotency-key': randomUUID() });
    expect(res.status, await res.clone().text()).toBe(201);
    return ((await res.json()) as { deca: { id: number; numero: string; urls: { ficha: string }; version: number } }).deca;
  }
  /** The documented 503: `no_disponible`, the error body, Retry-After. */
  async function esNoDisponible(res: Response): Promise<void> {
    expect(res.status).toBe(503);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    const body = ErrorBody.parse(await res.json());
    expect(body.error.codigo).toBe('no_disponible');
    expect(body.error.mensaje).toMatch(/base de datos/);
  }

  beforeAll(async () => {
    db = await postgresDatabaseUrl(process.env.TEST_DATABASE_URL!, 'caos');
    nombre = new URL(db.url).pathname.slice(1);
    admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    rx = await startReceptor();
    const env = { DATABASE_URL: db.url, WEBHOOK_ALLOW_INSECURE: '1', API_RATE_LIMIT: '100000', LOG_LEVEL: 'warn' };
    server = await startServerProcess(env);
    const cuenta = await runCli(['account:create', '--company', 'Caos SL', '--nif', 'B12345674', '--plan', 'pro'], env);
    expect(cuenta.code, cuenta.stderr).toBe(0);
    const id = (JSON.parse(cuenta.stdout) as { cuenta: { id: number } }).cuenta.id;
    key = (JSON.parse((await runCli(['key:create', '--account', String(id), '--env', 'live'], env)).stdout) as { key: string }).key;
  }, 120_000);

  afterEach(async () => {
    await permitirConexiones(true);
    expect(server.child.exitCode, server.output()).toBeNull();
  });

  afterAll(async () => {
    await server?.stop();
    await rx?.close();
    await admin?.end();
    await db?.drop();
  });

  it('connections terminated while idle: each is dropped and replaced, and the next requests are answered as usual', async () => {
    // Connections in every pool: the main one, the rate limiter's, the LISTEN.
    expect((await api('GET', '/api/v1/cuenta')).status).toBe(200);
    await crear('antes de cortar');
    expect(await terminarYEsperar()).toBeGreaterThanOrEqual(2);
    expect((await api('GET', '/api/v1/cuenta')).status).toBe(200);
    await crear('después de cortar');
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
  });

  it('a connection terminated in the middle of a request: 503 no_disponible (REST) or that error as the tool result (MCP), nothing saved, and the same request again succeeds', async () => {
    const deca = await crear('cortada a media petición');
    const mcp = new Client({ name: 'caos', version: '1.0.0' });
    await mcp.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } }));

    /**
     * Run `peticion` while the test holds a lock it needs (by default the DeCA's row), so it waits
     * in its query; then cut every connection of the server.
     */
    async function cortadaEnCurso<T>(peticion: () => Promise<T>, bloquear = `select id from decas where id = ${deca.id} for update`): Promise<T> {
      const bloqueo = new pg.Client({ connectionString: db.url });
      await bloqueo.connect();
      try {
        const suyo = (await bloqueo.query('select pg_backend_pid() as pid')).rows[0].pid as number;
        await bloqueo.query('begin');
        await bloqueo.query(bloquear);
        let respondida: unknown = null;
        const enCurso = peticion().then((r) => (respondida = r));
        // (Asked on another connection: inside a transaction, pg_stat_activity is a snapshot.)
        const esperando = async () => {
          if (respondida) throw new Error(`answered before it was cut: ${respondida instanceof Response ? `${respondida.status} ${await respondida.clone().text()}` : JSON.stringify(respondida)}`);
          return (await enCluster<{ n: number }>(`select count(*)::int as n from pg_stat_activity where datname = $1 and wait_event_type = 'Lock'`, [nombre]))[0]!.n;
        };
        await expect.poll(esperando, { timeout: 15_000, interval: 50 }).toBe(1);
        const antes = perdidas();
        const cortar = `select count(pg_terminate_backend(pid))::int as n from pg_stat_activity where datname = $1 and backend_type = 'client backend' and pid <> $2`;
        const n = (await enCluster<{ n: number }>(cortar, [nombre, suyo]))[0]!.n;
        const r = await enCurso;
        await expect.poll(perdidas, { timeout: 15_000, interval: 50 }).toBe(antes + n);
        return r;
      } finally {
        await bloqueo.query('rollback');
        await bloqueo.end();
      }
    }

    await esNoDisponible(await cortadaEnCurso(() => api('POST', `/api/v1/decas/${deca.id}/fin`)));
    const herramienta = (await cortadaEnCurso(() => mcp.callTool({ name: 'fin_servicio', arguments: { id: String(deca.id) } }))) as CallToolResult;
    expect(herramienta.isError).toBe(true);
    const texto = herramienta.content[0];
    expect(texto?.type).toBe('text');
    expect(ErrorBody.parse(JSON.parse(texto?.type === 'text' ? texto.text : '')).error.codigo).toBe('no_disponible');
    // A resource read has no tool result to carry it: a JSON-RPC error whose data says no_disponible and when to retry.
    const recurso = await cortadaEnCurso(
      () =>
        mcp.listResources().then(
          (r) => r,
          (e: unknown) => e,
        ),
      'lock table decas in access exclusive mode',
    );
    expect(recurso).toBeInstanceOf(McpError);
    expect((recurso as McpError).data).toEqual({ codigo: 'no_disponible', retry_after: expect.any(Number) });
    await mcp.close();

    // Neither was saved; the same request again is.
    expect(await filas('select fin_servicio_at from decas where id = $1', [deca.id])).toEqual([{ fin_servicio_at: null }]);
    const otra = await api('POST', `/api/v1/decas/${deca.id}/fin`);
    expect(otra.status, await otra.clone().text()).toBe(200);
    expect(((await otra.json()) as { deca: { fin_servicio_at: string | null } }).deca.fin_servicio_at).not.toBeNull();
  });

  it('while the database refuses connections: the API, the public pages and /readyz answer 503 with Retry-After, /healthz 200; then it is back with no restart', async () => {
    const deca = await crear('con la base cerrada');
    await permitirConexiones(false);
    await terminar();
    await esNoDisponible(await api('GET', '/api/v1/cuenta'));
    await esNoDisponible(await api('POST', '/api/v1/decas', decaCompleta(), { 'idempotency-key': randomUUID() }));
    await esNoDisponible(await api('GET', `/api/v1/decas/${deca.id}`));
    // The inspector's page says it as a page.
    const ficha = await fetch(`${server.url}${new URL(deca.urls.ficha).pathname}`);
    expect(ficha.status).toBe(503);
    expect(ficha.headers.get('content-type')).toMatch(/text\/html/);
    expect(Number(ficha.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await ficha.text()).toMatch(/base de datos no responde/);
    // Not ready (a load balancer sends nothing here), but alive (an orchestrator restarts nothing).
    const listo = await fetch(`${server.url}/readyz`);
    expect(listo.headers.get('retry-after')).toBeTruthy();
    expect(ErrorBody.parse(await listo.json()).error.codigo).toBe('no_disponible');
    expect(listo.status).toBe(503);
    const vivo = await fetch(`${server.url}/healthz`);
    expect([vivo.status, await vivo.json()]).toEqual([200, { ok: true }]);

    await permitirConexiones(true);
    await expect.poll(async () => (await fetch(`${server.url}/readyz`)).status, { timeout: 10_000, interval: 100 }).toBe(200);
    expect((await api('GET', `/api/v1/decas/${deca.id}`)).status).toBe(200);
    await crear('con la base abierta otra vez');
  });

  it('a mixed load through five cuts and a refusal: the process lives, every error is a 503 with Retry-After, nothing acknowledged is lost, no number twice, every webhook delivered', {
    timeout: 240_000,
  }, async ({ annotate }) => {
    const alta = await api('POST', '/api/v1/webhooks', { url: `${rx.url}/caos`, eventos: ['deca.emitido', 'deca.modificado'] });
    expect(alta.status).toBe(201);
    const webhookId = ((await alta.json()) as { webhook: { id: number } }).webhook.id;

    // Four clients, each in turn: read one of its DeCAs, list, read the account, create and issue, modify one of its DeCAs.
    type Error503 = { fase: string; que: string; status: number; retryAfter: string | null; codigo: string | null; ms: number };
    const creadas: { id: number; numero: string }[] = [];
    const modificadas: { id: number; version: number }[] = [];
    const errores: Error503[] = [];
    let sinRespuesta = 0;
    let respuestas = 0;
    let exitos = 0;
    let fase = 'antes';
    let vivo = true;
    const cliente = async (c: number) => {
      const mias: number[] = [];
      for (let i = 0; vivo; i++) {
        const paso = i % 5;
        const id = mias[i % Math.max(1, mias.length)];
        const [que, peticion] =
          paso === 3 || id === undefined
            ? (['crear', () => api('POST', '/api/v1/decas', decaCompleta({ referencia: `Caos ${c}-${i}` }), { 'idempotency-key': randomUUID() })] as const)
            : paso === 4
              ? (['modificar', () => api('PATCH', `/api/v1/decas/${id}`, { referencia: `Caos ${c}-${i} modificada`, motivo: 'Prueba de caos' })] as const)
              : paso === 0
                ? (['ver', () => api('GET', `/api/v1/decas/${id}`)] as const)
                : paso === 1
                  ? (['listar', () => api('GET', '/api/v1/decas?limite=5')] as const)
                  : (['cuenta', () => api('GET', '/api/v1/cuenta')] as const);
        const enFase = fase;
        const t0 = performance.now();
        let res: Response;
        let body: { deca?: { id: number; numero: string; version: number }; error?: { codigo: string } };
        try {
          res = await peticion();
          body = (await res.json()) as typeof body;
        } catch {
          sinRespuesta++; // a reset or a cut connection: none may happen
          continue;
        }
        respuestas++;
        if (!res.ok) {
          errores.push({ fase: enFase, que, status: res.status, retryAfter: res.headers.get('retry-after'), codigo: body.error?.codigo ?? null, ms: performance.now() - t0 });
          continue;
        }
        exitos++;
        if (que === 'crear' && res.status === 201) {
          creadas.push({ id: body.deca!.id, numero: body.deca!.numero });
          mias.push(body.deca!.id);
        } else if (que === 'modificar') modificadas.push({ id: body.deca!.id, version: body.deca!.version });
      }
    };
    const clientes = Array.from({ length: 4 }, (_, c) => cliente(c));
    const hasta = (cond: () => boolean) => expect.poll(cond, { timeout: 60_000, interval: 50 }).toBe(true);

    await hasta(() => creadas.length >= 8 && modificadas.length >= 2);
    // Five times: every connection of the server cut, under the load, which must come through each.
    for (let k = 1; k <= 5; k++) {
      fase = `corte ${k}`;
      const antes = exitos;
      expect(await terminar()).toBeGreaterThan(0);
      await hasta(() => exitos >= antes + 8);
    }
    // The database refuses connections until the load has met it and the LISTEN connection has
    // failed to come back three times (its waits grow: a few seconds), the workers polling meanwhile.
    fase = 'rechazo';
    await permitirConexiones(false);
    await terminar();
    const antesDelRechazo = errores.length;
    const desde = server.output().length;
    const reintentosListen = () =>
      server
        .output()
        .slice(desde)
        .match(/LISTEN could not connect/g)?.length ?? 0;
    await hasta(() => errores.length >= antesDelRechazo + 20 && reintentosListen() >= 3);
    // The balancer's check says it.
    const listoCerrado = await fetch(`${server.url}/readyz`);
    expect(listoCerrado.status).toBe(503);
    // Back: every kind of request answers within 10 s, with no restart.
    fase = 'vuelta';
    await permitirConexiones(true);
    const vuelta = performance.now();
    const estados = async () =>
      Promise.all(
        [`/api/v1/decas/${creadas[0]!.id}`, '/api/v1/decas?limite=1', '/api/v1/cuenta', '/readyz'].map(async (ruta) => {
          const r = await fetch(`${server.url}${ruta}`, { headers: headers() });
          await r.arrayBuffer();
          return r.status;
        }),
      );
    await expect.poll(estados, { timeout: 10_000, interval: 100 }).toEqual([200, 200, 200, 200]);
    const recuperacionMs = Math.round(performance.now() - vuelta);
    fase = 'después';
    const creadasAntes = creadas.length;
    const modificadasAntes = modificadas.length;
    await hasta(() => creadas.length >= creadasAntes + 4 && modificadas.length > modificadasAntes);
    vivo = false;
    await Promise.all(clientes);

    const porFase = errores.reduce<Record<string, number>>((a, e) => ((a[`${e.fase} ${e.status}`] = (a[`${e.fase} ${e.status}`] ?? 0) + 1), a), {});
    // Measured, not asserted (the machine's load decides them): how long a refused request took to get its 503, and the recovery.
    const rechazadas = errores
      .filter((e) => e.fase === 'rechazo')
      .map((e) => e.ms)
      .sort((a, b) => a - b);
    const ms503 = { mediana: Math.round(rechazadas[rechazadas.length >> 1] ?? 0), max: Math.round(rechazadas.at(-1) ?? 0) };
    await annotate(JSON.stringify({ respuestas, exitos, sinRespuesta, creadas: creadas.length, modificadas: modificadas.length, errores: porFase, ms503, recuperacionMs }));
    // The process lived through it; every failed request was told to come back, none was cut.
    expect(server.child.exitCode, server.output()).toBeNull();
    expect(sinRespuesta).toBe(0);
    expect(errores.filter((e) => e.status !== 503 || e.codigo !== 'no_disponible' || !(Number(e.retryAfter) > 0))).toEqual([]);
    expect(errores.filter((e) => e.fase === 'rechazo').length).toBeGreaterThanOrEqual(20);
    expect(respuestas).toBeGreaterThan(errores.length);

    // Everything acknowledged is there; no number was given twice.
    const enBase = await filas<{ id: number; numero: string; version: number }>('select id::float8 as id, numero, version from decas');
    const porId = new Map(enBase.map((d) => [d.id, d]));
    for (const a of creadas) expect(porId.get(a.id)?.numero, `DeCA ${a.numero}`).toBe(a.numero);
    for (const m of modificadas) expect(porId.get(m.id)!.version, `DeCA ${m.id}`).toBeGreaterThanOrEqual(m.version);
    expect(new Set(enBase.map((d) => d.numero)).size).toBe(enBase.length);

    // The webhook outbox delivers every event it holds, each issued DeCA's deca.emitido among them.
    const porEntregar = async () =>
      (await filas<{ n: number }>(`select count(*)::int as n from webhook_entregas where webhook_id = $1 and (estado <> 'entregada' or en_curso_hasta is not null)`, [webhookId]))[0]!.n;
    await expect.poll(porEntregar, { timeout: 120_000, interval: 250 }).toBe(0);
    const emitidas = new Set(rx.recibidos.filter((r) => r.evento === 'deca.emitido').map((r) => (r.body as { data: { deca: { id: number } } }).data.deca.id));
    expect(creadas.filter((a) => !emitidas.has(a.id))).toEqual([]);
    const entregas = await filas<{ n: number }>('select count(*)::int as n from webhook_entregas where webhook_id = $1', [webhookId]);
    expect(entregas[0]!.n).toBeGreaterThanOrEqual(creadas.length + modificadas.length);
  });
});
