import { type Kysely, sql } from 'kysely';

/**
 * Room in every page of `decas` for the next version of its rows: an
 * inspector's open raises the DeCA's download count, an update of no indexed
 * column, which PostgreSQL keeps on the same page (HOT, no new entry in any
 * of the table's indexes) only when the page has room. On full pages 59% of
 * those updates rewrote every index (test/integration/decas-hot.test.ts);
 * with 20% of each page free, none of 100 did. New pages follow it at
 * once; `VACUUM FULL decas` (or pg_repack) rewrites the existing ones.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table decas set (fillfactor = 80)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table decas reset (fillfactor)`.execute(db);
}
