import path from 'node:path';
import { crearAlmacen } from './blobs/crear';
import { AlmacenExportaciones } from './blobs/exportaciones';
import type { Clock } from './clock';
import type { Config } from './config';
import { type Listener, startListener } from './db/notify';
import type { Database } from './db/open';
import type { Services } from './deps';
import type { DecaPdfRenderer } from './documents/pdf-pool';
import { createCaches } from './domain/cache';
import { createRateLimits } from './limits';
import type { Logger } from './log';
import { createWebhookFetch, enviadorWebhooks } from './net/webhook-request';
import { crearLectorFotos } from './ocr/lector';
import { createReadiness } from './readiness';

export interface ServicesOptions {
  config: Pick<Config, 'siteUrl' | 'sedeControlUrl' | 'efti' | 'webhookAllowInsecure' | 'apiRateLimit' | 'blobs' | 'dataDir'>;
  database: Database;
  clock: Clock;
  log: Logger;
  renderPdf: DecaPdfRenderer;
  capacidadSello: number;
  /**
   * The process's LISTEN connection. `true` (default) opens one (caches are
   * kept true through it); `false` opens none and caches nothing (a CLI run).
   */
  listener?: Listener | boolean;
}

/** The services of one process, and how to release what they hold (connections, the LISTEN). */
export async function createServices(opts: ServicesOptions): Promise<Services & { close(): Promise<void> }> {
  const { config, database, log } = opts;
  const own = opts.listener === undefined || opts.listener === true;
  let listener: Listener | null = null;
  if (typeof opts.listener === 'object') listener = opts.listener;
  else if (own) {
    try {
      listener = await startListener(database, log);
    } catch (err) {
      log.warn({ err }, 'LISTEN unavailable: nothing is cached and workers poll');
    }
  }
  const limits = createRateLimits(database, { apiPoints: config.apiRateLimit, log });
  const caches = createCaches(listener);
  const webhookFetch = createWebhookFetch({ allowInsecure: config.webhookAllowInsecure, keepAlive: false });
  const fotos = crearLectorFotos();
  return {
    db: database.db,
    database,
    clock: opts.clock,
    log,
    siteUrl: config.siteUrl,
    sedeControlUrl: config.sedeControlUrl,
    efti: config.efti,
    renderPdf: opts.renderPdf,
    blobs: crearAlmacen(config.blobs, log),
    exportaciones: new AlmacenExportaciones(path.join(config.dataDir, 'exportaciones')),
    capacidadSello: opts.capacidadSello,
    fotos,
    limits,
    webhookPolicy: { allowInsecure: config.webhookAllowInsecure },
    enviarWebhook: enviadorWebhooks(webhookFetch),
    caches,
    listener,
    readiness: createReadiness(),
    async close() {
      caches.close();
      webhookFetch.close();
      await fotos.cerrar();
      await limits.close();
      if (own) await listener?.close();
    },
  };
}
