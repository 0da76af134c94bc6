import { sinSello } from '../../shared/pdf/sin-sello';
import type { Api } from './api';
import { obtenerDocumentos } from './consultas';
import type { DecaDb } from './db';
import { sha256HexWeb } from './dispositivo';

/**
 * Once a DeCA issued here has reached the server: its PDF (kept for the
 * road, it is the one that counts) without the seal must be the one this
 * device rendered. The answer is kept on the issued copy; a mismatch is
 * shown on the DeCA's screen.
 */
export async function comprobarEmitidas(api: Api, db: DecaDb): Promise<void> {
  const porComprobar = await db.emitidas.filter((e) => e.coincide === undefined).toArray();
  for (const e of porComprobar) {
    const rec = await db.decas.get(e.clave);
    if (!rec?.deca) continue;
    const doc = await obtenerDocumentos(api, db, rec.deca);
    const servidor = sinSello(new Uint8Array(doc.pdf));
    const coincide = servidor !== null && (await sha256HexWeb(servidor)) === e.sha256;
    await db.emitidas.update(e.clave, { coincide });
  }
}
