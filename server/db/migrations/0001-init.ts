import { type Kysely, sql } from 'kysely';

/**
 * Accounts, users, API keys, sessions, monthly usage and the rate-limit store.
 * Tenant tables carry account_id and entorno, and their keys start with them
 * so a sharded PostgreSQL (Citus) can distribute on account_id.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('accounts')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('nombre', 'text', (c) => c.notNull())
    .addColumn('nif', 'text', (c) => c.notNull())
    .addColumn('domicilio', 'text')
    .addColumn('rol', 'text', (c) => c.notNull().check(sql`rol in ('transportista', 'cargador')`))
    .addColumn('plan', 'text', (c) => c.notNull().defaultTo('free').check(sql`plan in ('free', 'pro')`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('users')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('rol', 'text', (c) => c.notNull().defaultTo('admin').check(sql`rol in ('admin', 'miembro')`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('users_account_idx').on('users').column('account_id').execute();

  await db.schema
    .createTable('api_keys')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('entorno', 'text', (c) => c.notNull().check(sql`entorno in ('produccion', 'pruebas')`))
    .addColumn('hash', 'text', (c) => c.notNull().unique())
    .addColumn('prefijo', 'text', (c) => c.notNull())
    .addColumn('nombre', 'text')
    .addColumn('solo_lectura', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('last_used_at', 'timestamptz')
    .addColumn('revocada_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('api_keys_account_idx').on('api_keys').columns(['account_id', 'entorno']).execute();

  await db.schema
    .createTable('sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('last_seen_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sessions_expires_idx').on('sessions').column('expires_at').execute();

  await db.schema
    .createTable('uso_mensual')
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('entorno', 'text', (c) => c.notNull())
    .addColumn('mes', 'text', (c) => c.notNull())
    .addColumn('decas', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('fotos', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('uso_mensual_pk', ['account_id', 'entorno', 'mes'])
    .execute();

  // The table rate-limiter-flexible's RateLimiterPostgres expects (tableCreated: true).
  await db.schema
    .createTable('rate_limits')
    .addColumn('key', 'varchar(255)', (c) => c.primaryKey())
    .addColumn('points', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('expire', 'bigint')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['rate_limits', 'uso_mensual', 'sessions', 'api_keys', 'users', 'accounts']) {
    await db.schema.dropTable(t).ifExists().execute();
  }
}
