import { type Kysely, sql } from 'kysely';
import type { BlobStore } from '../blobs/almacen';
import type { AlmacenExportaciones } from '../blobs/exportaciones';
import type { Clock } from '../clock';
import { asegurarParticiones, type MesesSoltados, soltarMesesCaducados, soltarSemanasCaducadas } from '../db/particiones';
import type { DB } from '../db/schema';
import { borrarExportacionesCaducadas } from '../domain/accounts/exportacion';
import { borrarFotosCaducadas } from '../domain/fotos/caducadas';
import { purgarIdempotencia } from '../domain/idempotencia';
import { truncarIpsAntiguas } from '../domain/publico/truncar-ips';
import type { Logger } from '../log';

/** Events are kept 30 days, like the webhook deliveries made from them (which carry their own body). */
export const EVENTOS_DIAS = 30;

/** The tables the hot queries read; their planner statistics are refreshed by the maintenance job. */
const TABLAS_CALIENTES = ['decas', 'deca_cambios', 'deca_versiones', 'descargas', 'idempotencia', 'api_keys', 'accounts', 'uso_mensual', 'numeradores'];

/**
 * Make the DeCAs' partitions of the months ahead (server/db/particiones.ts),
 * let go the months whose retention ended (their PDFs, photos and partitions), drop
 * what has expired (idempotency keys past their window, expired
 * sessions, the weeks of events that ended 30 days ago, exports of closed accounts whose
 * link expired, delivery-note photos that became no DeCA), cut the download log's IPs older than 90 days to their
 * network (/privacidad says so), and refresh the planner's statistics of
 * the hot tables. PGlite has no autovacuum (and a server's may be off):
 * with no statistics a read by id was planned on a secondary index and
 * scanned every DeCA of the account.
 */
export async function runMaintenanceOnce(deps: {
  db: Kysely<DB>;
  clock: Clock;
  /** Where closed accounts' exports wait (DATA_DIR/exportaciones); without it their files are left alone. */
  exportaciones?: AlmacenExportaciones;
  /** The blob store and RETENCION_MESES: with them, the months whose retention ended are let go, and the photos whose time is over. */
  retencion?: { blobs: BlobStore; meses: number };
  log?: Logger;
}): Promise<{ particiones: number[]; soltados: MesesSoltados; claves: number; sesiones: number; eventos: number; ips: number; exportaciones: number; fotos: number }> {
  const now = deps.clock.now();
  const particiones = await asegurarParticiones(deps.db, deps.log);
  const soltados = deps.retencion ? await soltarMesesCaducados({ db: deps.db, blobs: deps.retencion.blobs, log: deps.log }, now, deps.retencion.meses) : { meses: [], correos: [] };
  const claves = await purgarIdempotencia(deps.db, now);
  const s = await deps.db.deleteFrom('sessions').where('expires_at', '<', now).executeTakeFirst();
  const eventos = (await soltarSemanasCaducadas(deps.db, 'eventos', now, EVENTOS_DIAS, deps.log)).length;
  const ips = await truncarIpsAntiguas(deps);
  const exportaciones = deps.exportaciones ? await borrarExportacionesCaducadas({ db: deps.db, exportaciones: deps.exportaciones }, now) : 0;
  const fotos = deps.retencion ? await borrarFotosCaducadas({ db: deps.db, blobs: deps.retencion.blobs, log: deps.log }, now) : 0;
  await sql`analyze ${sql.join(TABLAS_CALIENTES.map((t) => sql.table(t)))}`.execute(deps.db);
  return { particiones, soltados, claves, sesiones: Number(s.numDeletedRows), eventos, ips, exportaciones, fotos };
}

/** Run maintenance now and then every `everyMs`; returns a stop function. */
export function startMaintenance(
  deps: { db: Kysely<DB>; clock: Clock; log: Logger; exportaciones?: AlmacenExportaciones; retencion?: { blobs: BlobStore; meses: number } },
  everyMs = 60 * 60 * 1000,
): () => void {
  const tick = () =>
    runMaintenanceOnce(deps)
      .then((r) => deps.log.debug(r, 'maintenance'))
      .catch((err: unknown) => deps.log.error({ err }, 'maintenance failed'));
  void tick();
  const timer = setInterval(tick, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
