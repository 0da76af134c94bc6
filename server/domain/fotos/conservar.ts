/**
 * The photo of a delivery note stays with the DeCA it becomes: every photo
 * POST /fotos reads is kept as received, in the blob store, and its id
 * (`foto_id`) goes back with the reading; POST /decas with that `foto_id`
 * links it to the new DeCA (unir.ts). A photo that becomes no DeCA is deleted
 * 30 days after it was read (caducadas.ts).
 */
import { randomBytes } from 'node:crypto';
import { DIAS_FOTO_SIN_DECA } from '../../../shared/rules/privacidad';
import { type BlobStore, claveFoto, errorAlGuardar } from '../../blobs/almacen';
import type { Clock } from '../../clock';
import { sha256Hex } from '../../sha256';
import type { Actor } from '../actor';
import type { Plan, Trx } from '../context';
import type { FotoLeida } from './leer';

/** A reading with the id of the photo kept: what POST /fotos answers. */
export type FotoGuardada = FotoLeida & { foto_id: number };

/** `JFIF`, `PNG`… at the start of the bytes → the media type a browser shows (only the formats the reader takes). */
export function tipoDeFoto(b: Uint8Array): string {
  const ascii = (desde: number, hasta: number) => String.fromCharCode(...b.subarray(desde, hasta));
  if (b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'image/jpeg';
  if (ascii(0, 8) === '\x89PNG\r\n\x1a\n') return 'image/png';
  if (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'image/webp';
  if (ascii(4, 8) === 'ftyp') return ['avif', 'avis'].includes(ascii(8, 12)) ? 'image/avif' : 'image/heif';
  // Never a type of the sender's choosing: a browser does not run what it takes for bytes.
  return 'application/octet-stream';
}

/**
 * Keep `foto` (already read: `lectura` is its reading's plan) for the
 * account: its bytes written to the blob store now, outside any transaction
 * (like a version's PDF: a failure there changes nothing and spends no read),
 * its row in the reading's transaction, and its id added to the answer, which
 * is also what a repeat with the same Idempotency-Key gets.
 */
export async function conservarFoto(ctx: { blobs: BlobStore; clock: Clock }, actor: Actor, foto: Uint8Array, lectura: Plan<FotoLeida>): Promise<Plan<FotoGuardada>> {
  const sha256 = sha256Hex(foto);
  const clave = claveFoto(randomBytes(16).toString('hex'), sha256);
  await ctx.blobs.guardar(sha256, foto, clave).catch((err: unknown) => {
    throw errorAlGuardar(err, 'la foto');
  });
  const now = ctx.clock.now();
  const anotar = async (trx: Trx, leida: FotoLeida): Promise<FotoGuardada> => {
    const { id } = await trx
      .insertInto('fotos')
      .values({
        account_id: actor.accountId,
        entorno: actor.entorno,
        clave,
        sha256,
        bytes: foto.byteLength,
        tipo: tipoDeFoto(foto),
        created_at: now,
        caduca_at: new Date(now.getTime() + DIAS_FOTO_SIN_DECA * 86_400_000),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return { ...leida, foto_id: Number(id) };
  };
  // A transaction that fails (the read refused, the database gone) leaves no photo without its row.
  const siFalla = () => ctx.blobs.borrar(sha256, clave);
  if ('valor' in lectura) return { aplicar: async (trx) => ({ valor: await anotar(trx, lectura.valor) }), siFalla };
  return {
    aplicar: async (trx) => {
      const e = await lectura.aplicar(trx);
      return { ...e, valor: await anotar(trx, e.valor) };
    },
    siFalla,
  };
}
