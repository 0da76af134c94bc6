import { type Kysely, sql } from 'kysely';
import { truncarIp } from '../../../shared/rules/ip';
import { DIAS_IP_COMPLETA } from '../../../shared/rules/privacidad';
import type { Clock } from '../../clock';
import type { DB } from '../../db/schema';

/** Rows cut per statement: each batch is one short read and one short update, whatever the table's size. */
export const LOTE_IPS = 5_000;

/**
 * Cut the IP of every open of the public download log older than
 * DIAS_IP_COMPLETA days (90) to its network — IPv4 /24, IPv6 /48
 * (`truncarIp`) — and mark it cut. The whole IP tells the carrier who
 * opened its DeCA during a transport; months later only the network is
 * worth keeping. Batches of `lote` rows, oldest first, read through the
 * partial index of the rows still whole (migration 0017), so no batch
 * reads a row cut before, and repeated until a batch comes back short. Each
 * batch is its own statement (no transaction spans them): two processes
 * running it at once at worst cut a row twice, to the same value. Returns
 * how many rows were cut.
 */
export async function truncarIpsAntiguas(deps: { db: Kysely<DB>; clock: Clock }, lote = LOTE_IPS): Promise<number> {
  const corte = new Date(deps.clock.now().getTime() - DIAS_IP_COMPLETA * 86_400_000);
  let total = 0;
  for (;;) {
    const filas = await deps.db.selectFrom('descargas').select(['deca_id', 'id', 'ip']).where('ip_truncada', '=', false).where('created_at', '<', corte).orderBy('created_at').limit(lote).execute();
    if (filas.length === 0) return total;
    const valores = sql.join(filas.map((f) => sql`(${f.deca_id}::bigint, ${f.id}::bigint, ${truncarIp(f.ip)}::text)`));
    await sql`update descargas as d set ip = v.ip, ip_truncada = true from (values ${valores}) as v(deca_id, id, ip) where d.deca_id = v.deca_id and d.id = v.id`.execute(deps.db);
    total += filas.length;
    if (filas.length < lote) return total;
  }
}
