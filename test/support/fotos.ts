import { randomBytes } from 'node:crypto';
import { claveFoto } from '../../server/blobs/almacen';
import { tipoDeFoto } from '../../server/domain/fotos/conservar';
import { sha256Hex } from '../../server/sha256';
import { DIAS_FOTO_SIN_DECA } from '../../shared/rules/privacidad';
import type { Entorno } from '../../shared/schemas/cuenta';
import type { TestApp } from './app';

/**
 * A delivery-note photo kept for an account and environment as POST /fotos
 * keeps one, without reading it (the reading takes OCR, seconds): its blob
 * and its row, read at `leida`. Returns its id, the `foto_id` of POST /decas.
 */
export async function fotoGuardada(app: TestApp, accountId: number, entorno: Entorno, bytes: Uint8Array, leida = app.clock.now()): Promise<number> {
  const sha256 = sha256Hex(bytes);
  const clave = claveFoto(randomBytes(16).toString('hex'), sha256);
  await app.services.blobs.guardar(sha256, bytes, clave);
  const { id } = await app.database.db
    .insertInto('fotos')
    .values({
      account_id: accountId,
      entorno,
      clave,
      sha256,
      bytes: bytes.byteLength,
      tipo: tipoDeFoto(bytes),
      created_at: leida,
      caduca_at: new Date(leida.getTime() + DIAS_FOTO_SIN_DECA * 86_400_000),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(id);
}
