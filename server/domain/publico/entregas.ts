/**
 * What the public learns of a DeCA's deliveries (extension): the inspector's
 * page says «Entregada el …», and a receipt's QR leads to a page that
 * confirms it. Never the consignee's name, document, signature, photos or
 * position: those are the account's.
 */
import type { Kysely } from 'kysely';
import type { EntregaPublica, JustificantePublico } from '../../../shared/schemas/publico';
import type { DB } from '../../db/schema';
import { delAmbito } from '../ambito';
import { type DecaConRefs, selectDecasSinCuenta } from '../decas/queries';
import { fichaUrl } from '../decas/urls';

export async function entregasPublicas(db: Kysely<DB>, row: Pick<DecaConRefs, 'id' | 'account_id' | 'entorno'>): Promise<EntregaPublica[]> {
  return db
    .selectFrom('entregas')
    .select(['n', 'envio', 'resultado', 'registrada_at'])
    .where('deca_id', '=', row.id)
    .where(delAmbito({ accountId: row.account_id, entorno: row.entorno }))
    .orderBy('n')
    .execute();
}

async function justificante(db: Kysely<DB>, siteUrl: string, donde: { token: string } | { pdf_sha256: string }): Promise<JustificantePublico | null> {
  const q = db.selectFrom('entregas').select(['deca_id', 'account_id', 'entorno', 'n', 'envio', 'resultado', 'registrada_at', 'created_at', 'pdf_sha256']);
  const e = await ('token' in donde ? q.where('token', '=', donde.token) : q.where('pdf_sha256', '=', donde.pdf_sha256)).executeTakeFirst();
  if (!e) return null;
  const deca = (await selectDecasSinCuenta(db).where('d.id', '=', e.deca_id).executeTakeFirst()) as DecaConRefs | undefined;
  if (!deca || deca.account_id !== e.account_id) return null;
  return {
    n: e.n,
    envio: e.envio,
    resultado: e.resultado,
    registrada_at: e.registrada_at,
    recibida_at: e.created_at,
    numero: deca.numero,
    entorno: e.entorno,
    ficha: fichaUrl(siteUrl, deca.token_publico),
    pdf_sha256: e.pdf_sha256,
    envios: deca.envios.flatMap((v, indice) => (e.envio === null || e.envio === indice ? [{ indice, origen: v.origen, destino: v.destino }] : [])),
  };
}

/** The receipt behind its verification link's token, or null. */
export const justificantePorToken = (db: Kysely<DB>, siteUrl: string, token: string) => justificante(db, siteUrl, { token });

/** The receipt whose PDF has exactly this SHA-256, or null. */
export const justificantePorHuella = (db: Kysely<DB>, siteUrl: string, sha256: string) => justificante(db, siteUrl, { pdf_sha256: sha256 });
