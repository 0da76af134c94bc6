import { type Kysely, sql } from 'kysely';

/**
 * Users of an account by role: administrator, office and driver (what each
 * may do: shared/rules/roles.ts). The former «miembro» did what an office
 * user does. Invitations: an administrator invites an address with a role;
 * the e-mailed link (only its hash is stored) lets that person choose a
 * password and join, once, before it expires.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table users drop constraint if exists users_rol_check`.execute(db);
  await db.updateTable('users').set({ rol: 'oficina' }).where('rol', '=', 'miembro').execute();
  await sql`alter table users add constraint users_rol_check check (rol in ('admin', 'oficina', 'conductor'))`.execute(db);

  await db.schema
    .createTable('invitaciones')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('rol', 'text', (c) => c.notNull().check(sql`rol in ('admin', 'oficina', 'conductor')`))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('invitada_por', 'bigint', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('aceptada_at', 'timestamptz')
    .execute();
  // One open invitation per address and account: inviting again replaces it (a new link).
  await sql`create unique index invitaciones_abierta_uq on invitaciones (account_id, email) where aceptada_at is null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('invitaciones').execute();
  await sql`alter table users drop constraint if exists users_rol_check`.execute(db);
  await db.updateTable('users').set({ rol: 'miembro' }).where('rol', '<>', 'admin').execute();
  await sql`alter table users add constraint users_rol_check check (rol in ('admin', 'miembro'))`.execute(db);
}
