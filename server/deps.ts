import type { Kysely } from 'kysely';
import type { BlobStore } from './blobs/almacen';
import type { AlmacenExportaciones } from './blobs/exportaciones';
import type { Clock } from './clock';
import type { Config, ConfigEfti } from './config';
import type { Listener } from './db/notify';
import type { Database } from './db/open';
import type { DB } from './db/schema';
import type { DecaPdfRenderer } from './documents/pdf-pool';
import type { Caches } from './domain/cache';
import type { RateLimits } from './limits';
import type { Logger } from './log';
import type { EnviarWebhook } from './net/webhook-request';
import type { TargetPolicy } from './net/webhook-target';
import type { LectorFotos } from './ocr/lector';
import type { Readiness } from './readiness';

/**
 * What the commands (and so every front door) need, built once per process
 * by `createServices` and passed in, never imported as singletons.
 */
export interface Services {
  db: Kysely<DB>;
  /** The database's kind and driver (the rate limiter and maintenance need it). */
  database: Database;
  clock: Clock;
  log: Logger;
  /** Public site root, for the URLs printed on documents and sent in mail. */
  siteUrl: string;
  /** SEDE_CONTROL_URL: where the PDF/A goes after a roadside check. */
  sedeControlUrl: string;
  /** EFTI_GATE_ID, EFTI_PLATFORM_ID: the gate and platform of every eFTI dataset's UIL. */
  efti: ConfigEfti;
  renderPdf: DecaPdfRenderer;
  /** BLOB_URL: where each issued version's PDF is written (before the version's row) and read back, checked against its SHA-256. */
  blobs: BlobStore;
  /** DATA_DIR/exportaciones: the ZIP of a closed account's data until its link expires. */
  exportaciones: AlmacenExportaciones;
  /** The room the renderer leaves for the seal: a device renders with it to match the server's unsealed bytes. */
  capacidadSello: number;
  /** OCR of delivery-note photos (POST /fotos): workers started on first use, one queue per process. */
  fotos: LectorFotos;
  limits: RateLimits;
  /** WEBHOOK_ALLOW_INSECURE, and the sender over the SSRF-safe transport that `probar` and `reenviar` pass to the domain. */
  webhookPolicy: TargetPolicy;
  enviarWebhook: EnviarWebhook;
  caches: Caches;
  /** The process's LISTEN connection (null when there is none). */
  listener: Listener | null;
  /** What GET /readyz answers: the database in reach, the workers running, not stopping. */
  readiness: Readiness;
}

/** Everything the HTTP app needs: the configuration, the services, and where the built client is. */
export interface AppDeps {
  config: Config;
  services: Services;
}
