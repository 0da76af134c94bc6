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
import { CAMPOS_DATOS, Deca } from '../../shared/schemas/deca';
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
      }>`insert into decas (account_id, entorno, numero, estado, emisor_rol, canal, token_publico, efti_dataset_id, matricula, referencia, fecha_transporte, envios, created_at, updated_at, modificado_at)
        values (${cuenta!.id}, 'produccion', '2026-000001', 'pendiente', 'transportista', 'api', 'tok-previo-000000000001', '0123456789abcdef0123456789abcdef', '1234BCD', 'de antes', '2026-10-01',
                ${JSON.stringify([{ origen: 'Teruel', destino: 'Valencia', naturaleza: 'Madera', peso: 12, unidad: 't', nota: null }])}::jsonb, ${creada}, ${creada}, ${creada})
        returning id`.execute(db)
    ).rows;
    await sql`insert into deca_cambios (account_id, entorno, deca_id, version, tipo, autor_tipo, autor_nombre, canal, campos, created_at)
      values (${cuenta!.id}, 'produccion', ${deca!.id}, 1, 'creacion', 'clave', 'ERP', 'api', '[]'::jsonb, ${creada})`.execute(db);
    await sql`insert into eventos (account_id, entorno, evento, deca_id, data, created_at)
      values (${cuenta!.id}, 'produccion', 'deca.creado', ${deca!.id}, '{}'::jsonb, ${creada})`.execute(db);
    // The address book as 0023 left it: a company learnt with a NIF whose check character is wrong (marked), and the right one.
    for (const [nif, usos, dudosa] of [
      ['B96712341', 3, true],
      ['B96712344', 1, false],
    ] as const) {
      await sql`insert into agenda (account_id, entorno, tipo, clave, datos, busqueda, usos, ultimo_uso_at, dudosa)
        values (${cuenta!.id}, 'produccion', 'empresas', ${nif}, ${JSON.stringify({ nombre: 'Cítricos La Ribera SL', nif, domicilio: null, lado: 'cargador' })}::jsonb,
                ${`citricos la ribera sl ${nif.toLowerCase()}`}, ${usos}, ${creada}, ${dudosa})`.execute(db);
    }

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
    // The fields added since (0027's eFTI ones, the consignee in the shipments' jsonb) read as not given.
    expect(d).toMatchObject({ cargador_cp: null, transp_pais: null, matricula_pais: null, remolque_pais: null });
    expect(d.envios[0]).toMatchObject({ origen: 'Teruel', destinatario_nombre: null, destinatario_nif: null });
    const cambios = await app.request('GET', `/api/v1/decas/${deca!.id}/cambios`, { key });
    expect(cambios.status, cambios.text).toBe(200);
    // A DeCA from before deliveries were kept has none.
    const entregas = await app.request('GET', `/api/v1/decas/${deca!.id}/entregas`, { key });
    expect(entregas.status, entregas.text).toBe(200);
    expect(entregas.body).toEqual({ data: [] });
    // The company with the wrong NIF stays marked: not suggested, listed with its warning when asked for.
    const sugeridas = await app.request('GET', '/api/v1/agenda/empresas?q=ribera', { key });
    expect(sugeridas.body.entradas.map((e: { nif: string }) => e.nif)).toEqual(['B96712344']);
    const todas = await app.request('GET', '/api/v1/agenda/empresas?q=ribera&con_avisos=1', { key });
    expect(todas.body.entradas.map((e: { nif: string; usos: number; avisos: unknown[] }) => [e.nif, e.usos, e.avisos.length])).toEqual([
      ['B96712341', 3, 1],
      ['B96712344', 1, 0],
    ]);

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
        transp_cp: '44001',
      },
    });
    expect(emitida.status, emitida.text).toBe(200);
    expect(Deca.parse(emitida.body.deca)).toMatchObject({ estado: 'emitido', transp_cp: '44001' });
    // The old shipment, untouched by the change, still has no consignee.
    expect(Deca.parse(emitida.body.deca).envios[0]).toMatchObject({ destinatario_nombre: null, destinatario_nif: null });

    // A new DeCA carries this month in its id and lists first.
    const nueva = await app.request('POST', '/api/v1/decas', { key, body: { emitir: false, referencia: 'de después', ref_externa: 'de-despues' } });
    expect(nueva.status, nueva.text).toBe(201);
    expect(nueva.body.deca.id).toBeGreaterThan(2 ** 32);
    const lista = await app.request('GET', '/api/v1/decas', { key });
    expect(lista.body.decas.map((d: { id: number }) => d.id)).toEqual([nueva.body.deca.id, deca!.id]);
  });
});

/** Insert a row as an earlier version wrote it (raw SQL: no schema type of today's code); returns its id. */
async function insertar(db: Kysely<DB>, tabla: string, fila: Record<string, unknown>): Promise<number> {
  const columnas = Object.keys(fila);
  const { rows } = await sql<{ id: number }>`insert into ${sql.table(tabla)} (${sql.join(columnas.map((c) => sql.ref(c)))})
    values (${sql.join(columnas.map((c) => fila[c]))}) returning id`.execute(db);
  return rows[0]!.id;
}

/** What a create stored before 0018: every document field given but the shipments, from nothing, in print order. */
function creacionEntera(datos: Record<string, unknown>): string {
  return JSON.stringify(CAMPOS_DATOS.filter((c) => c !== 'envios' && datos[c] !== undefined && datos[c] !== null).map((campo) => ({ campo, antes: null, despues: datos[campo] })));
}

/** The history rows as stored: id, DeCA, tipo and the jsonb's text (null when none). */
async function historiaGuardada(db: Kysely<DB>): Promise<{ id: number; deca_id: number; tipo: string; texto: string | null }[]> {
  return (await sql<{ id: number; deca_id: number; tipo: string; texto: string | null }>`select id, deca_id, tipo, campos::text as texto from deca_cambios order by id`.execute(db)).rows;
}

describe('0018: the create of an issued DeCA stores its fields once', () => {
  it('empties the fields of creates written whole before, only where the history rebuilds them, and answers every history as before; down puts them back', async () => {
    const database = await baseVacia();
    onTestFinished(() => database.close());
    const db = database.db;
    await migrarHasta(db, '0017-privacidad');

    const cuenta = await insertar(db, 'accounts', { nombre: 'Transportes Núñez, S.L.', nif: 'B12345674', domicilio: 'Avda. de la Ilustración 7, 50012 Zaragoza', rol: 'transportista' });
    const t = new Date('2026-11-20T08:00:00Z');
    const ambito = { account_id: cuenta, entorno: 'produccion' };
    const autor = { ...ambito, autor_tipo: 'clave', autor_id: null, autor_nombre: 'dg_live_previo…', canal: 'api', created_at: t };
    const cambio = (deca_id: number, version: number, tipo: string, campos: unknown, extra: Record<string, unknown> = {}) =>
      insertar(db, 'deca_cambios', { ...autor, deca_id, version, tipo, campos: typeof campos === 'string' ? campos : JSON.stringify(campos), ...extra });
    let n = 0;
    const deca = (estado: string, datos: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
      insertar(db, 'decas', {
        ...ambito,
        numero: `2026-00000${++n}`,
        estado,
        emisor_rol: 'transportista',
        canal: 'api',
        token_publico: `tok-previo-${String(n).padStart(12, '0')}`,
        ...datos,
        envios: JSON.stringify(datos.envios ?? []),
        created_at: t,
        updated_at: t,
        modificado_at: t,
        ...extra,
      });

    // A: issued at once, changed twice by method 1, then replaced by B.
    const envio = { origen: 'Lleida', destino: 'Málaga', naturaleza: 'Piñones y ñoras', peso: 24500.5, unidad: 'kg', nota: null };
    const creada = {
      cargador_nombre: 'Frutas Peñalara, S.A.',
      cargador_nif: 'A58818501',
      cargador_domicilio: 'Camí Vell 3, 25001 Lleida',
      transp_nombre: 'Transportes Núñez, S.L.',
      transp_nif: 'B12345674',
      transp_domicilio: 'Avda. de la Ilustración 7, 50012 Zaragoza',
      fecha_transporte: '2026-11-23',
      tipo_vehiculo: 'articulado',
      matricula: '1234BCD',
      matricula_remolque: 'R1234BBB',
      conductor_nombre: 'José Ángel Muñoz',
      conductor_tel: '+34 600 000 000',
      observaciones: 'Frágil',
      referencia: 'R-1',
      envios: [envio],
    };
    const ahoraA = { ...creada, matricula: '9999ZZZ', conductor_tel: '+34 611 111 111', observaciones: null, envios: [{ ...envio, naturaleza: 'Piñones', peso: 30000 }] };
    const a = await deca('sustituido', ahoraA, { version: 3, emitido_at: t });
    await cambio(a, 1, 'creacion', creacionEntera(creada));
    await cambio(a, 1, 'emision', []);
    await cambio(
      a,
      2,
      'modificacion',
      [
        { campo: 'matricula', antes: '1234BCD', despues: '5678FGH' },
        { campo: 'envios[0].naturaleza', antes: 'Piñones y ñoras', despues: 'Piñones' },
        { campo: 'envios[0].peso', antes: 24500.5, despues: 30000 },
      ],
      { motivo: 'Cambio de camión' },
    );
    await cambio(
      a,
      3,
      'modificacion',
      [
        { campo: 'matricula', antes: '5678FGH', despues: '9999ZZZ' },
        { campo: 'conductor_tel', antes: '+34 600 000 000', despues: '+34 611 111 111' },
        { campo: 'observaciones', antes: 'Frágil', despues: null },
      ],
      { motivo: 'Otro camión' },
    );
    const nuevoEnvio = { origen: 'D', destino: 'E', naturaleza: 'F', peso: 2, unidad: 'kg', nota: null };
    const sustitucion = JSON.stringify([
      { campo: 'cargador_nif', antes: 'A58818501', despues: 'B12345674' },
      { campo: 'envios[1]', antes: null, despues: nuevoEnvio },
    ]);
    await cambio(a, 3, 'sustitucion', sustitucion, { motivo: 'NIF' });
    // B, the replacement: its create stored the same fields as A's 'sustitucion' entry, and keeps them (A may be let
    // go before B). Its id far on: the migration's batches take the next ids that exist, not ranges of numbers.
    const b = await deca('emitido', { ...ahoraA, cargador_nif: 'B12345674', envios: [...ahoraA.envios, nuevoEnvio] }, { id: 25_001, sustituye_a_id: a, emitido_at: t });
    await sql`update decas set sustituido_por_id = ${b} where id = ${a}`.execute(db);
    await cambio(b, 1, 'creacion', sustitucion, { motivo: 'Sustituye a la DeCA 2026-000001: NIF' });
    await cambio(b, 1, 'emision', []);
    // P: pending, its create keeps its fields (issuing it may still fill its data from the account).
    const pendiente = { ...creada, cargador_domicilio: null };
    const p = await deca('pendiente', pendiente, { token_completar: 'completar-previo-0000000001' });
    await cambio(p, 1, 'creacion', creacionEntera(pendiente));
    // E: created pending, issued with its address filled from the account: the DeCA's data is not its create's.
    const e = await deca('emitido', creada, { emitido_at: t });
    await cambio(e, 1, 'creacion', creacionEntera(pendiente));
    await cambio(e, 1, 'emision', []);
    // D: issued at once, never changed: emptied, rebuilt from the DeCA as it is.
    const d = await deca('emitido', creada, { id: 40_000, emitido_at: t });
    await cambio(d, 1, 'creacion', creacionEntera(creada));
    await cambio(d, 1, 'emision', []);
    // C: issued at once, its create's fields in another order than the read gives (written otherwise): kept.
    const c = await deca('emitido', creada, { emitido_at: t });
    await cambio(c, 1, 'creacion', JSON.stringify(JSON.parse(creacionEntera(creada)).reverse()));
    await cambio(c, 1, 'emision', []);

    const antes = await historiaGuardada(db);
    expect(antes.every((r) => r.texto !== null)).toBe(true);

    const aplicadas = await migrateToLatest(db);
    expect(aplicadas).toContain('0018-creacion-sin-copia');
    // 0019: the rows stay where they were, the tables of before now the partitions of the ids below this month's.
    const particiones = await sql<{ p: string }>`
      select distinct tableoid::regclass::text as p from decas union select distinct tableoid::regclass::text from deca_cambios order by 1`.execute(db);
    expect(particiones.rows).toEqual([{ p: 'deca_cambios_anteriores' }, { p: 'decas_anteriores' }]);
    const despues = await historiaGuardada(db);
    const vaciadas = antes.filter((r) => r.tipo === 'creacion' && (r.deca_id === a || r.deca_id === d)).map((r) => r.id);
    expect(vaciadas).toHaveLength(2);
    expect(despues).toEqual(antes.map((r) => (vaciadas.includes(r.id) ? { ...r, texto: null } : r)));

    const app = await startTestApp({ database });
    onTestFinished(() => app.close());
    const { key } = await db.transaction().execute((trx) => crearClave(trx, { accountId: cuenta, entorno: 'produccion', soloLectura: false }));
    /** Each DeCA's history as the API answers it: the text of every entry's fields, oldest first. */
    const respuestas = async () => {
      const out: Record<number, string[]> = {};
      for (const id of [a, b, d, p, e, c]) {
        const res = await app.request('GET', `/api/v1/decas/${id}/cambios`, { key });
        expect(res.status, res.text).toBe(200);
        out[id] = (JSON.parse(res.text) as { cambios: { campos: unknown }[] }).cambios.map((x) => JSON.stringify(x.campos));
        // The answer is these texts as they are, byte for byte.
        for (const t of out[id]!) expect(res.text).toContain(`"campos":${t}}`);
      }
      return out;
    };
    // What an earlier version answered: the stored jsonb, as read.
    const porDeca: Record<number, string[]> = {};
    for (const r of antes) (porDeca[r.deca_id] ??= []).push(JSON.stringify(JSON.parse(r.texto!)));
    expect(await respuestas()).toEqual(porDeca);
    expect(porDeca[b]![0]).toBe(porDeca[a]![4]);

    // Down puts the fields back as they were; up again empties them again.
    await migrarHasta(db, '0017-privacidad');
    expect(await historiaGuardada(db)).toEqual(antes);
    const { rows } = await sql<{
      nula: string;
    }>`select is_nullable as nula from information_schema.columns where table_schema = current_schema() and table_name = 'deca_cambios' and column_name = 'campos'`.execute(db);
    expect(rows).toEqual([{ nula: 'NO' }]);
    await migrateToLatest(db);
    expect(await historiaGuardada(db)).toEqual(despues);
    expect(await respuestas()).toEqual(porDeca);
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
