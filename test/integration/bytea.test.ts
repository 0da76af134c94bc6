/**
 * Binary columns (a version's PDF, the seal's key and certificate) go in and
 * come out byte for byte, on PGlite (through our own hex codec) and on
 * PostgreSQL (node-postgres' binary parameters).
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/open';
import { openTestDatabase } from '../support/db';

describe('bytea', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase();
    await sql`create table prueba_bytea (id integer primary key, b bytea not null)`.execute(database.db);
  });
  afterAll(() => database.close());

  it('stores and reads back every byte value, an empty value and a large one exactly, as Buffers', async () => {
    const valores = [new Uint8Array(0), Uint8Array.from({ length: 256 }, (_, i) => i), new Uint8Array(randomBytes(300_000)), new Uint8Array(randomBytes(64)).subarray(7, 40)];
    for (const [id, b] of valores.entries()) await sql`insert into prueba_bytea (id, b) values (${id}, ${b})`.execute(database.db);
    const { rows } = await sql<{ id: number; b: Uint8Array }>`select id, b from prueba_bytea order by id`.execute(database.db);
    expect(rows.map((r) => Buffer.isBuffer(r.b))).toEqual(valores.map(() => true));
    for (const [id, b] of valores.entries()) expect(Buffer.from(rows[id]!.b).equals(Buffer.from(b)), `value ${id}`).toBe(true);
    const { rows: longitudes } = await sql<{ n: number }>`select length(b) as n from prueba_bytea order by id`.execute(database.db);
    expect(longitudes.map((r) => r.n)).toEqual(valores.map((b) => b.byteLength));
  });
});
