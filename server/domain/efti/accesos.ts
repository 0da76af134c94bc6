import type { Kysely } from 'kysely';
import { formatMadrid } from '../../../shared/rules/fechas';
import type { AccesoEfti, AccesosEftiList, AccesosEftiQuery } from '../../../shared/schemas/efti';
import type { DB } from '../../db/schema';
import { type Ambito, delAmbito } from '../ambito';

/**
 * The account's log of authority accesses through an eFTI gate
 * (GET /efti/accesos): every query that returned one of its DeCAs, the most
 * recent first, a page at a time. A query that found nothing of the account
 * is not the account's (it stays in `efti_consultas`, the platform's log).
 */
export async function listarAccesosEfti(db: Kysely<DB>, ambito: Ambito, q: AccesosEftiQuery): Promise<AccesosEftiList> {
  let consulta = db
    .selectFrom('efti_accesos as a')
    .innerJoin('efti_consultas as c', 'c.id', 'a.consulta_id')
    .select(['a.id', 'a.created_at', 'a.decas', 'c.gate_id', 'c.request_id', 'c.tipo', 'c.dataset_id', 'c.identificador', 'c.tipos_identificador', 'c.pais', 'c.subsets'])
    .where(delAmbito(ambito, 'a'))
    .orderBy('a.id', 'desc')
    .limit(q.limite + 1);
  if (q.despues_de) consulta = consulta.where('a.id', '<', Number(q.despues_de));
  const filas = await consulta.execute();
  const pagina = filas.slice(0, q.limite);
  const accesos = pagina.map(
    (f): AccesoEfti => ({
      id: Number(f.id),
      fecha: formatMadrid(f.created_at),
      pasarela: f.gate_id,
      request_id: f.request_id,
      // Only answered queries return DeCAs: an unreadable one has no access rows.
      consulta: f.tipo === 'uil' ? 'uil' : 'identificador',
      dataset_id: f.dataset_id,
      identificador: f.identificador,
      tipos_identificador: f.tipos_identificador,
      pais: f.pais,
      subsets: f.subsets,
      decas: f.decas,
    }),
  );
  const ultima = pagina.at(-1);
  return { accesos, siguiente: filas.length > q.limite && ultima ? String(ultima.id) : null };
}
