/**
 * A kept photo and its DeCA (migration 0022): linked when the DeCA is
 * created with its `foto_id`, served to the account's users by
 * GET /decas/{id}/foto, and let go when the DeCA goes before its time (a
 * pending one deleted): then it is deleted as a photo that became no DeCA.
 */
import { sql } from 'kysely';
import { AppError } from '../../../shared/errors';
import { errorDeBlob } from '../../blobs/almacen';
import type { Actor } from '../actor';
import { delAmbito } from '../ambito';
import type { DomainContext, Trx } from '../context';
import { obtenerDeca } from '../decas/queries';
import type { Parte } from '../sentencia';

const noEsta = (fotoId: number) =>
  new AppError(
    'validacion',
    `No hay ninguna foto con foto_id ${fotoId} en esta cuenta: puede que se borrara (a los 30 días, si no se hizo una DeCA con ella). Léala otra vez o cree la DeCA sin foto_id.`,
    {
      campos: { foto_id: 'No hay una foto con ese id en la cuenta' },
    },
  );

/**
 * Check, before the DeCA's number is taken, that `fotoId` is a photo of the
 * actor's account and environment that is still kept and is no other DeCA's
 * (else 422 on `foto_id`).
 */
export async function comprobarFotoLibre(ctx: Pick<DomainContext, 'db' | 'clock'>, actor: Actor, fotoId: number): Promise<void> {
  const f = await ctx.db
    .selectFrom('fotos')
    .leftJoin('decas', (j) => j.onRef('decas.id', '=', 'fotos.deca_id').on('decas.account_id', '=', actor.accountId))
    .select(['fotos.caduca_at', 'fotos.deca_id', 'decas.numero'])
    .where('fotos.id', '=', fotoId)
    .where(delAmbito(actor, 'fotos'))
    .executeTakeFirst();
  if (!f || (f.caduca_at !== null && f.caduca_at <= ctx.clock.now())) throw noEsta(fotoId);
  if (f.deca_id !== null) {
    const de = f.numero ? `la DeCA ${f.numero}` : 'otra DeCA';
    throw new AppError('validacion', `La foto ${fotoId} ya es de ${de}: cada foto acompaña a una sola DeCA. Cree esta sin foto_id, o lea la foto otra vez.`, {
      campos: { foto_id: `Ya es de ${de}` },
    });
  }
}

/**
 * The write that links the photo to the new DeCA `decaId`, as a part of the
 * create's last statement: checked there, so a photo deleted or taken by
 * another create since it was checked refuses the create (422), never links twice.
 */
export function unirFoto(trx: Trx, actor: Actor, fotoId: number, decaId: number, now: Date): Parte {
  return {
    nombre: 'foto_unida',
    sentencia: trx
      .updateTable('fotos')
      .set({ deca_id: decaId, caduca_at: null })
      .where('id', '=', fotoId)
      .where(delAmbito(actor))
      .where('deca_id', 'is', null)
      .where('caduca_at', '>', now)
      .returning('id'),
    valor: sql`(select count(*)::int from foto_unida)`,
    comprobar: (n) => {
      if (Number(n) !== 1) throw noEsta(fotoId);
    },
  };
}

/** A DeCA deleted before its time (pending): its photo is let go, deleted by the next hourly maintenance (a part of the delete's last statement). */
export function soltarFotoDe(trx: Trx, actor: Actor, decaId: number, now: Date): Parte {
  return { nombre: 'foto_soltada', sentencia: trx.updateTable('fotos').set({ deca_id: null, caduca_at: now }).where('deca_id', '=', decaId).where(delAmbito(actor)) };
}

/** What GET /decas/{id}/foto answers: the photo's bytes as received, and what they are. */
export interface FotoDeDeca {
  numero: string;
  tipo: string;
  sha256: string;
  foto: Uint8Array;
}

/**
 * The photo of a DeCA the actor may see (a driver, only theirs: else 404 as
 * for any DeCA not theirs), read from the blob store and checked against its
 * SHA-256; 404 when the DeCA was made with none.
 */
export async function leerFotoDeDeca(ctx: Pick<DomainContext, 'db' | 'blobs'>, actor: Actor, ref: string): Promise<FotoDeDeca> {
  const deca = await obtenerDeca(ctx.db, actor, ref);
  const f = await ctx.db.selectFrom('fotos').select(['clave', 'sha256', 'tipo']).where('deca_id', '=', deca.id).where(delAmbito(actor)).executeTakeFirst();
  if (!f) throw new AppError('no_encontrado', `La DeCA ${deca.numero} no tiene foto del albarán: no se creó a partir de una.`);
  const foto = await ctx.blobs.leer(f.sha256, f.clave).catch((err: unknown) => {
    throw errorDeBlob(err, `La foto del albarán de la DeCA ${deca.numero}`);
  });
  return { numero: deca.numero, tipo: f.tipo, sha256: f.sha256, foto };
}
