import type { AddressInfo } from 'node:net';
import { createServer } from 'node:http';
import { adminSocketPath, startAdminSocket } from './admin/admin-socket';
import { createApp } from './app';
import { createClock } from './clock';
import { ConfigError, loadConfig } from './config';
import { DataDirLockedError, acquireDataDirLock } from './db/lock';
import { migrateToLatest, openDatabase } from './db/open';
import { createPdfPool } from './documents/pdf-pool';
import { SelloError, cargarSelloDelServicio } from './documents/sello-servicio';
import { createLogger } from './log';
import { startWebhookWorker } from './jobs/webhook-delivery';
import { startMaintenance } from './jobs/maintenance';
import { liberarCorreos, smtpTransport, startMailWorker } from './jobs/mail-delivery';
import { createServices } from './services';

const SHUTDOWN_GRACE_MS = 10_000;

/** Read config, take DATA_DIR, open and migrate the database, serve HTTP; stop cleanly on SIGTERM/SIGINT. */
async function main(): Promise<void> {
  const startedAt = performance.now();
  const config = loadConfig();
  const log = createLogger(config.logLevel);
  const clock = createClock(config.fakeNow);

  const embedded = !config.databaseUrl;
  const socketPath = embedded ? adminSocketPath(config.dataDir) : null;
  const releaseLock = embedded ? acquireDataDirLock(config.dataDir, 'server', socketPath) : () => {};

  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  const applied = await migrateToLatest(database.db);
  if (applied.length) log.info({ migrations: applied }, 'migrations applied');

  const sello = await cargarSelloDelServicio({ db: database.db, config, ahora: clock.now(), log });
  const pdfPool = createPdfPool({ sello });
  const services = await createServices({ config, database, clock, log, renderPdf: pdfPool.render, capacidadSello: pdfPool.capacidadSello });
  if (embedded) {
    const n = await liberarCorreos(database.db);
    if (n) log.info({ correos: n }, 'mails interrupted by the last stop will be sent again');
  }
  const mail = startMailWorker({
    db: database.db,
    clock,
    log,
    transport: config.smtpUrl ? smtpTransport(config.smtpUrl) : null,
    from: config.mailFrom,
    listener: services.listener ?? undefined,
  });
  const app = createApp({ config, services });
  const server = createServer(app.callback());
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => resolve());
  });
  const stopMaintenance = startMaintenance({ db: database.db, clock, log });
  const webhooks = await startWebhookWorker({ database, clock, log, allowInsecure: config.webhookAllowInsecure, listener: services.listener ?? undefined });
  const closeAdmin = socketPath ? await startAdminSocket(socketPath, services, log) : async () => {};

  const port = (server.address() as AddressInfo).port;
  const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
  const accounts = await database.db.selectFrom('accounts').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
  log.info({ url, database: database.kind, ms: Math.round(performance.now() - startedAt) }, 'listening');
  process.stdout.write(`\nDeCA escuchando en ${url}  (sitio público: ${config.siteUrl}; base de datos: ${database.kind === 'pglite' ? `embebida en ${config.dataDir}` : 'PostgreSQL'})\n`);
  if (Number(accounts?.n ?? 0) === 0) {
    process.stdout.write(
      `\nAún no hay cuentas. Cree la primera desde ${config.siteUrl}/ («Crear cuenta») o con:\n` +
        `  npm run --silent cli -- account:create --company "Mi Empresa SL" --nif B12345674 --email yo@example.com --password 'una-clave-larga'\n` +
        `  npm run --silent cli -- key:create --account 1 --env live\n\n`,
    );
  }

  let stopping = false;
  const shutdown = async (signal: string): Promise<void> => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    const force = setTimeout(() => {
      log.warn('in-flight requests did not finish in time; closing anyway');
      server.closeAllConnections();
    }, SHUTDOWN_GRACE_MS);
    force.unref();
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeIdleConnections();
    });
    clearTimeout(force);
    stopMaintenance();
    await mail.stop();
    await webhooks.stop();
    await closeAdmin();
    await pdfPool.close();
    await services.close();
    await database.close();
    releaseLock();
    log.info('stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
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
