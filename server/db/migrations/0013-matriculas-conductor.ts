import { type Kysely, sql } from 'kysely';

/**
 * The plates an administrator assigns to a driver (normalized, `1234BCD`):
 * a driver sees the DeCAs they made and those whose `matricula` is one of
 * these (shared/rules/roles.ts `esDecaDelConductor`). Empty for everyone
 * else, and for drivers until assigned (they then see only their own).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table users add column matriculas jsonb not null default '[]'::jsonb`.execute(db);
  // A driver's list is filtered by who made the DeCA (the plate has its index since 0002).
  await db.schema.createIndex('decas_creado_por_user_idx').on('decas').columns(['account_id', 'entorno', 'creado_por_user_id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('decas_creado_por_user_idx').execute();
  await sql`alter table users drop column matriculas`.execute(db);
}
