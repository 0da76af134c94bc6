import { type Kysely, sql } from 'kysely';

/**
 * Password reset links. «¿Ha olvidado la contraseña?» (or the operator's
 * `user:reset-password`) makes a one-time link valid 30 minutes; only the
 * sha256 of its token is stored. Opening it and choosing a password spends
 * it (the row is deleted), together with every other open link of the user.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('restablecimientos')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('restablecimientos_user_idx').on('restablecimientos').column('user_id').execute();
  await db.schema.createIndex('restablecimientos_expires_idx').on('restablecimientos').column('expires_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('restablecimientos').execute();
}
