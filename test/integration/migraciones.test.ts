/**
 * Upgrading a database that is in use: the previous schema with real rows in
 * it, migrated to the latest, keeps every row and serves them through the API.
 */
import { randomBytes } from 'node:crypto';
import { type Kysely, Migrator, sql } from 'kysely';
import pg from 'pg';
import { describe, expect, it, onTestFinished } from 'vitest';
import { migrationProvider, migrations } from '../../server/db/migrations/index';
import { type Database, migrateToLatest, openDatabase } from '../../server/db/open';
import type { DB } from '../../server/db/schema';
import { crearClave } from '../../server/domain/accounts/api-keys';
import { Deca } from '../../shared/schemas/deca';
import { startTestApp } from '../support/app';
import { testDatabaseKind } from '../support/db';

const nombres = Object.keys(migrations);
const ANTERIOR = nombres[nombres.length - 2]!;

/** An empty database of this project's kind (PGlite in memory, or a new PostgreSQL schema), not migrated. */
async function baseVacia(): Promise<Database> {
  if (testDatabaseKind() === 'pglite') return openDatabase({});
  const url = process.env.TEST_DATABASE_URL!;
  const schema = `mig_${randomBytes(6).toString('hex')}`;
  const database = await openDatabase({ databaseUrl: url, schema });
  const close = database.close;
  database.close = async () => {
    await close();
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    await c.query(`drop schema if exists "${schema}" cascade`).finally(() => c.end());
  };
  return database;
}

async function migrarHasta(db: Kysely<DB>, nombre: string): Promise<void> {
  const { rows } = await sql<{ s: string }>`select current_schema() as s`.execute(db);
  const { error } = await new Migrator({ db, provider: migrationProvider, migrationTableSchema: rows[0]?.s ?? 'public' }).migrateTo(nombre);
  if (error) throw error;
}

describe('upgrading from the previous schema', () => {
  it(`keeps the rows written under ${ANTERIOR} and serves them after migrating to the latest`, async () => {
    const database = await baseVacia();
    onTestFinished(() => database.close());
    const db = database.db;
    await migrarHasta(db, ANTERIOR);

    // Rows as the previous version wrote them (raw SQL: today's code expects today's schema).
    const [cuenta] = (
      await sql<{ id: number }>`insert into accounts (nombre, nif, domicilio, rol) values ('Transportes Previos, S.L.', 'B12345674', 'Calle Vieja 1, Teruel', 'transportista') returning id`.execute(db)
    ).rows;
    await sql`insert into users (account_id, email, password_hash) values (${cuenta!.id}, 'previo@example.com', 'x')`.execute(db);
    const creada = new Date('2026-10-01T08:00:00Z');
    const [deca] = (
      await sql<{
        id: number;
      }>`insert into decas (account_id, entorno, numero, estado, emisor_rol, canal, token_publico, matricula, referencia, fecha_transporte, envios, created_at, updated_at, modificado_at)
        values (${cuenta!.id}, 'produccion', '2026-000001', 'pendiente', 'transportista', 'api', 'tok-previo-000000000001', '1234BCD', 'de antes', '2026-10-01',
                ${JSON.stringify([{ origen: 'Teruel', destino: 'Valencia', naturaleza: 'Madera', peso: 12, unidad: 't', nota: null }])}::jsonb, ${creada}, ${creada}, ${creada})
        returning id`.execute(db)
    ).rows;
    await sql`insert into deca_cambios (account_id, entorno, deca_id, version, tipo, autor_tipo, autor_nombre, canal, campos, created_at)
      values (${cuenta!.id}, 'produccion', ${deca!.id}, 1, 'creacion', 'clave', 'ERP', 'api', '[]'::jsonb, ${creada})`.execute(db);
    await sql`insert into eventos (account_id, entorno, evento, deca_id, data, created_at)
      values (${cuenta!.id}, 'produccion', 'deca.creado', ${deca!.id}, '{}'::jsonb, ${creada})`.execute(db);

    const aplicadas = await migrateToLatest(db);
    expect(aplicadas).toEqual(nombres.slice(nombres.indexOf(ANTERIOR) + 1));

    // Served as before, through the API, with a key made after the upgrade.
    const app = await startTestApp({ database });
    onTestFinished(() => app.close());
    const { key } = await db.transaction().execute((trx) => crearClave(trx, { accountId: cuenta!.id, entorno: 'produccion', soloLectura: false }));
    const res = await app.request('GET', `/api/v1/decas/2026-000001`, { key });
    expect(res.status, res.text).toBe(200);
    const d = Deca.parse(res.body.deca);
    expect(d).toMatchObject({ id: deca!.id, estado: 'pendiente', matricula: '1234BCD', referencia: 'de antes', modificado_at: '2026-10-01 10:00:00' });
    expect(d.envios).toHaveLength(1);
    const cambios = await app.request('GET', `/api/v1/decas/${deca!.id}/cambios`, { key });
    expect(cambios.status, cambios.text).toBe(200);

    // It goes on working on the upgraded rows: issued, then numbered after them.
    const emitida = await app.request('PATCH', `/api/v1/decas/${deca!.id}`, {
      key,
      body: {
        emitir: true,
        cargador_nombre: 'Maderas Turolenses, S.A.',
        cargador_nif: 'A58818501',
        cargador_domicilio: 'Polígono 3, Teruel',
        transp_nombre: 'Transportes Previos, S.L.',
        transp_nif: 'B12345674',
        transp_domicilio: 'Calle Vieja 1, Teruel',
      },
    });
    expect(emitida.status, emitida.text).toBe(200);
    expect(Deca.parse(emitida.body.deca).estado).toBe('emitido');
  });
});

describe('migrating next to other schemas', () => {
  it('sees only its own schema: its tables and columns, not another schema’s, and not the migrator’s own unless asked', async () => {
    const database = await baseVacia();
    onTestFinished(() => database.close());
    await migrateToLatest(database.db);
    const otra = await baseVacia();
    onTestFinished(() => otra.close());
    await sql`create table ajena (id bigint generated by default as identity primary key, nota text)`.execute(otra.db);

    const tablas = await database.db.introspection.getTables();
    const nombresDeTablas = tablas.map((t) => t.name);
    expect(nombresDeTablas).toContain('decas');
    expect(nombresDeTablas).not.toContain('ajena');
    expect(nombresDeTablas).not.toContain('kysely_migration');
    const id = tablas.find((t) => t.name === 'decas')?.columns.find((c) => c.name === 'id');
    expect(id).toMatchObject({ dataType: 'int8', isNullable: false, isAutoIncrementing: true });
    expect((await database.db.introspection.getTables({ withInternalKyselyTables: true })).map((t) => t.name)).toContain('kysely_migration');
    expect((await otra.db.introspection.getTables()).map((t) => t.name)).toEqual(['ajena']);
  });

  it.runIf(testDatabaseKind() === 'postgres')(
    'migrates while other installs on the server create and drop their schemas',
    async () => {
      const url = process.env.TEST_DATABASE_URL!;
      let parar = false;
      // Other installs (or test files) coming and going on the same server, as fast as it lets them.
      const vaivenes = Array.from({ length: 3 }, async () => {
        const c = new pg.Client({ connectionString: url });
        await c.connect();
        try {
          while (!parar) {
            const s = `vaiven_${randomBytes(6).toString('hex')}`;
            await c.query(`create schema ${s}; create table ${s}.reservas (id bigint generated by default as identity primary key, numero text, created_at timestamptz)`);
            await c.query(`drop schema ${s} cascade`);
          }
        } finally {
          await c.end();
        }
      });
      try {
        for (let ronda = 0; ronda < 3; ronda++) {
          const aplicadas = await Promise.all(
            Array.from({ length: 3 }, async () => {
              const database = await baseVacia();
              try {
                return await migrateToLatest(database.db);
              } finally {
                await database.close();
              }
            }),
          );
          for (const a of aplicadas) expect(a).toEqual(nombres);
        }
      } finally {
        parar = true;
        await Promise.all(vaivenes);
      }
    },
    120_000,
  );
});
