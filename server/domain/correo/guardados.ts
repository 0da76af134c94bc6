import { type Kysely, sql } from 'kysely';
import type { DB } from '../../db/schema';

/** A stored mail (sent or not), as the operator lists it. */
export interface CorreoGuardado {
  destinatario: string;
  asunto: string;
  texto: string;
  created_at: Date;
}

/** The stored mail, oldest first; only that of one address (any case) when `destinatario` is given. */
export async function listarCorreosGuardados(db: Kysely<DB>, destinatario?: string): Promise<CorreoGuardado[]> {
  let q = db.selectFrom('correos').select(['destinatario', 'asunto', 'texto', 'created_at']).orderBy('id', 'asc');
  if (destinatario) q = q.where(sql<string>`lower(destinatario)`, '=', destinatario.trim().toLowerCase());
  return q.execute();
}
