import type { Kysely } from 'kysely';
import type { BlobStore } from '../../blobs/almacen';
import type { DB } from '../../db/schema';
import type { Logger } from '../../log';
import { porTurnos } from '../../por-turnos';

/** Photos deleted per round, and blobs at once (an S3 DELETE waits mostly on the network). */
const LOTE = 500;
const BORRADOS_A_LA_VEZ = 8;

/**
 * Delete the photos that became no DeCA and whose time is over (`caduca_at`:
 * 30 days after they were read, or at once when their pending DeCA was
 * deleted or their account closed). The rows go first, in one statement that
 * a create linking the same photo waits for (it then finds none: 422), never
 * the other way round; then their blobs. A blob that could not be deleted
 * (the store out of reach) gets its row back, due at once, so the next round
 * tries again and no blob is left that nothing names. Returns how many went.
 */
export async function borrarFotosCaducadas(deps: { db: Kysely<DB>; blobs: BlobStore; log?: Logger }, now: Date): Promise<number> {
  let total = 0;
  for (;;) {
    const filas = await deps.db
      .deleteFrom('fotos')
      .where('id', 'in', (eb) => eb.selectFrom('fotos').select('id').where('caduca_at', '<=', now).orderBy('caduca_at').limit(LOTE))
      .where('deca_id', 'is', null)
      .returningAll()
      .execute();
    const fallidas: typeof filas = [];
    await porTurnos(filas, BORRADOS_A_LA_VEZ, (f) =>
      deps.blobs.borrar(f.sha256, f.clave).catch((err: unknown) => {
        fallidas.push(f);
        deps.log?.warn({ err, blob: f.clave }, 'photo blob not deleted: its row is kept for the next round');
      }),
    );
    if (fallidas.length) await deps.db.insertInto('fotos').values(fallidas).execute();
    total += filas.length - fallidas.length;
    if (filas.length < LOTE || fallidas.length) return total;
  }
}
