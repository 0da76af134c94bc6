import { createServer, type ServerResponse } from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { adminSocketPath, startAdminSocket } from './admin/admin-socket';
import { createApp } from './app';
import { createClock } from './clock';
import { ConfigError, loadConfig } from './config';
import { acquireDataDirLock, DataDirLockedError } from './db/lock';
import { migrateToLatest, openDatabase } from './db/open';
import { createPdfPool } from './documents/pdf-pool';
import { cargarSelloDelServicio, SelloError } from './documents/sello-servicio';
import { smtpTransport, startMailWorker } from './jobs/mail-delivery';
import { startMaintenance } from './jobs/maintenance';
import { startWebhookWorker } from './jobs/webhook-delivery';
import { createLogger } from './log';
import { createServices } from './services';

/** After SIGTERM, how long requests in flight may take to finish before their connections are closed anyway. */
const SHUTDOWN_GRACE_MS = 10_000;
/** After SIGTERM, how long no request may have started before idle keep-alive connections are closed. */
const IDLE_QUIET_MS = 500;
/** The whole stop, workers and pools included; past it the process exits with status 1. */
const SHUTDOWN_HARD_MS = 25_000;

/** Read config, take DATA_DIR, open and migrate the database, serve HTTP; stop cleanly on SIGTERM/SIGINT. */
async function main(): Promise<void> {
  const startedAt = performance.now();
  const config = loadConfig();
  const log = createLogger(config.logLevel);
  const clock = createClock(config.fakeNow);

  const embedded = !config.databaseUrl;
  const socketPath = embedded ? adminSocketPath(config.dataDir) : null;
  const releaseLock = embedded ? acquireDataDirLock(config.dataDir, 'server', socketPath) : () => {};

  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, log });
  const applied = await migrateToLatest(database.db);
  if (applied.length) log.info({ migrations: applied }, 'migrations applied');

  const sello = await cargarSelloDelServicio({ db: database.db, config, ahora: clock.now(), log });
  const pdfPool = createPdfPool({ sello });
  const services = await createServices({ config, database, clock, log, renderPdf: pdfPool.render, capacidadSello: pdfPool.capacidadSello });
  const mail = await startMailWorker({
    database,
    db: database.db,
    clock,
    log,
    transport: config.smtpUrl ? smtpTransport(config.smtpUrl) : null,
    from: config.mailFrom,
    blobs: services.blobs,
    listener: services.listener ?? undefined,
  });
  const app = createApp({ config, services });
  const handle = app.callback();
  // Requests in flight, and what became of those answered after SIGTERM (logged when stopped).
  let stopping = false;
  const inflight = new Set<ServerResponse>();
  let lastActivity = performance.now();
  const drained = { answered: 0, cut: 0 };
  const server = createServer((req, res) => {
    inflight.add(res);
    lastActivity = performance.now();
    // While stopping, each answer closes its connection: the client knows not to send another on it.
    if (stopping) res.setHeader('Connection', 'close');
    res.once('close', () => {
      inflight.delete(res);
      lastActivity = performance.now();
      if (stopping) drained[res.writableFinished ? 'answered' : 'cut']++;
    });
    void handle(req, res);
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => resolve());
  });
  const stopMaintenance = startMaintenance({ db: database.db, clock, log, exportaciones: services.exportaciones, retencion: { blobs: services.blobs, meses: config.retencionMeses } });
  const webhooks = await startWebhookWorker({ database, clock, log, allowInsecure: config.webhookAllowInsecure, listener: services.listener ?? undefined });
  const closeAdmin = socketPath ? await startAdminSocket(socketPath, services, log) : async () => {};

  const port = (server.address() as AddressInfo).port;
  const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
  const accounts = await database.db
    .selectFrom('accounts')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirst();
  log.info({ url, database: database.kind, blobs: services.blobs.descripcion, ms: Math.round(performance.now() - startedAt) }, 'listening');
  process.stdout.write(
    `\nDeCA escuchando en ${url}  (sitio público: ${config.siteUrl}; base de datos: ${database.kind === 'pglite' ? `embebida en ${config.dataDir}` : 'PostgreSQL'}; PDF en ${services.blobs.descripcion})\n`,
  );
  if (Number(accounts?.n ?? 0) === 0) {
    process.stdout.write(
      `\nAún no hay cuentas. Cree la primera desde ${config.siteUrl}/ («Crear cuenta») o con:\n` +
        `  npm run --silent cli -- account:create --company "Mi Empresa SL" --nif B12345674 --email yo@example.com --password 'una-clave-larga'\n` +
        `  npm run --silent cli -- key:create --account 1 --env live\n\n`,
    );
  }

  services.readiness.watch('webhooks', webhooks.running);
  services.readiness.watch('correo', mail.running);

  /**
   * SIGTERM (a rolling restart): /readyz says 503 at once so the balancer
   * stops sending; no new connection is accepted; requests in flight finish
   * (up to SHUTDOWN_GRACE_MS), each answer closing its connection; idle
   * keep-alive connections are closed once no request has started for
   * IDLE_QUIET_MS. Meanwhile the workers stop claiming and give back what
   * they hold (webhook attempts still waiting are cut, their leases released;
   * mails not yet handed to SMTP go back). Then the pools are closed.
   */
  const shutdown = async (signal: string): Promise<void> => {
    if (stopping) return;
    stopping = true;
    services.readiness.stop();
    log.info({ signal, in_flight: inflight.size }, 'shutting down: no new connections, requests in flight finish');
    for (const res of inflight) if (!res.headersSent) res.setHeader('Connection', 'close');
    const hard = setTimeout(() => {
      log.error('shutdown did not finish in time; exiting');
      process.exit(1);
    }, SHUTDOWN_HARD_MS);
    hard.unref();
    // Only the listening socket is closed: http.Server#close would also drop every idle keep-alive
    // connection at once, and a client sending its next request on one at that instant would get a
    // reset for a request no one read. Its callback runs once every connection has ended.
    let closed = false;
    net.Server.prototype.close.call(server, () => (closed = true));
    const workers = Promise.all([mail.stop(), webhooks.stop()]);
    const startedAt = performance.now();
    let forced = false;
    while (!closed) {
      await new Promise((r) => setTimeout(r, 50));
      const now = performance.now();
      if (inflight.size === 0 && now - lastActivity >= IDLE_QUIET_MS) server.closeIdleConnections();
      if (!forced && now - startedAt >= SHUTDOWN_GRACE_MS) {
        forced = true;
        log.warn({ in_flight: inflight.size }, 'requests in flight did not finish in time; closing anyway');
        server.closeAllConnections();
      }
    }
    await workers;
    stopMaintenance();
    await closeAdmin();
    await pdfPool.close();
    await services.close();
    await database.close();
    releaseLock();
    log[drained.cut ? 'warn' : 'info'](drained, 'stopped');
    process.exit(0);
  };
  const stop = (signal: string) =>
    void shutdown(signal).catch((err: unknown) => {
      log.error({ err }, 'shutdown failed');
      process.exit(1);
    });
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('exit', releaseLock);
}

main().catch((err: unknown) => {
  if (err instanceof ConfigError || err instanceof DataDirLockedError || err instanceof SelloError) {
    process.stderr.write(`${err.message}\n`);
  } else {
    process.stderr.write(`No se pudo arrancar DeCA: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  }
  process.exit(1);
});
