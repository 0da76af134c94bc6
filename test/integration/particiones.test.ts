/**
 * A year of DeCAs kept by month: each DeCA, its versions, history and
 * download log live in the partitions of the month it was created in; the
 * months ahead are made before they come, and a month whose retention ended
 * goes whole — its partitions dropped and its PDFs deleted from the blob
 * store — while every other month stays as it was. On PGlite and PostgreSQL.
 */
import { type Kysely, sql } from 'kysely';
import sharp from 'sharp';
import { describe, expect } from 'vitest';
import { asegurarParticiones, inicioDeMes, mesDeId, mesSiguiente, particionesDe, soltarMesesCaducados, soltarSemanasCaducadas } from '../../server/db/particiones';
import type { DB } from '../../server/db/schema';
import { runMaintenanceOnce } from '../../server/jobs/maintenance';
import { decaCompleta } from '../support/decas';
import { postDeca } from '../support/decas-http';
import { it } from '../support/fixtures';

async function mesDeLaBase(db: Kysely<DB>): Promise<number> {
  return (await sql<{ mes: number }>`select to_char(now() at time zone 'Europe/Madrid', 'YYYYMM')::int as mes`.execute(db)).rows[0]!.mes;
}

async function existe(db: Kysely<DB>, tabla: string): Promise<boolean> {
  return (await sql<{ r: string | null }>`select to_regclass(${tabla})::text as r`.execute(db)).rows[0]!.r !== null;
}

async function cuantas(db: Kysely<DB>, tabla: string, decaId: number): Promise<number> {
  const columna = tabla === 'decas' ? 'id' : 'deca_id';
  return (await sql<{ n: number }>`select count(*)::int as n from ${sql.table(tabla)} where ${sql.ref(columna)} = ${decaId}`.execute(db)).rows[0]!.n;
}

/** The public page of a DeCA, opened as a browser does. */
async function abrirFicha(app: { url: string }, ficha: string): Promise<number> {
  const res = await fetch(`${app.url}${new URL(ficha).pathname}`, { headers: { 'user-agent': 'Mozilla/5.0 (Linux; Android 14) Chrome/130.0 Mobile' } });
  await res.arrayBuffer();
  return res.status;
}

const HIJAS = ['deca_versiones', 'deca_cambios', 'descargas', 'completar_borradores'];
const meses = (desde: Date, n: number) => new Date(Date.UTC(desde.getUTCFullYear(), desde.getUTCMonth() + n, 15));

describe('DeCAs by month', () => {
  it('carry their month in their id and live, with their versions, history and opens, in that month’s partitions', async ({ app, c }) => {
    const db = app.database.db;
    const creada = await postDeca(app, c.live, decaCompleta());
    expect(creada.status, creada.text).toBe(201);
    const { id, urls } = creada.body.deca as { id: number; urls: { ficha: string } };
    expect(Number.isSafeInteger(id)).toBe(true);
    const mes = await mesDeLaBase(db);
    expect(mesDeId(id)).toBe(mes);
    expect(await abrirFicha(app, urls.ficha)).toBe(200);

    for (const tabla of ['decas', ...HIJAS.filter((t) => t !== 'completar_borradores')]) {
      const columna = tabla === 'decas' ? 'id' : 'deca_id';
      const { rows } = await sql<{ particion: string }>`select distinct tableoid::regclass::text as particion from ${sql.table(tabla)} where ${sql.ref(columna)} = ${id}`.execute(db);
      expect(rows, tabla).toEqual([{ particion: `${tabla}_p${mes}` }]);
    }
    // Read back by its id and by its number, as any client does.
    expect((await app.request('GET', `/api/v1/decas/${id}`, { key: c.live })).status).toBe(200);
    expect((await app.request('GET', `/api/v1/decas/${creada.body.deca.numero}`, { key: c.live })).body.deca.id).toBe(id);
  });

  it('have this month’s partitions and the next two’s made ahead, again when one is missing, once', async ({ app }) => {
    const db = app.database.db;
    const mes = await mesDeLaBase(db);
    const tercero = mesSiguiente(mesSiguiente(mes));
    for (const m of [mes, mesSiguiente(mes), tercero]) for (const t of ['decas', ...HIJAS, 'correos']) expect(await existe(db, `${t}_p${m}`), `${t}_p${m}`).toBe(true);
    expect(await asegurarParticiones(db)).toEqual([]);

    for (const t of HIJAS) await sql`drop table ${sql.table(`${t}_p${tercero}`)}`.execute(db);
    await sql`alter table decas detach partition ${sql.table(`decas_p${tercero}`)}`.execute(db);
    await sql`drop table ${sql.table(`decas_p${tercero}`)}`.execute(db);
    expect(await asegurarParticiones(db)).toEqual([tercero]);
    for (const t of ['decas', ...HIJAS]) expect(await existe(db, `${t}_p${tercero}`)).toBe(true);
    // Two processes at once: one makes them, the other finds them made.
    expect(await Promise.all([asegurarParticiones(db), asegurarParticiones(db)])).toEqual([[], []]);
  });

  it('let a month go whole when its retention ends — its DeCAs, versions, history, opens and PDFs — and nothing of the next month', async ({ app, cuentaNueva: c }) => {
    const db = app.database.db;
    const blobs = app.services.blobs;
    const mes = await mesDeLaBase(db);
    const siguiente = mesSiguiente(mes);

    const a = await postDeca(app, c.live, decaCompleta({ ref_externa: 'particiones-a' }));
    expect(a.status, a.text).toBe(201);
    const idA = a.body.deca.id as number;
    expect(await abrirFicha(app, a.body.deca.urls.ficha)).toBe(200);
    const versionesA = await db.selectFrom('deca_versiones').select('pdf_sha256').where('deca_id', '=', idA).execute();
    expect(versionesA).toHaveLength(1);
    expect(await blobs.existe(versionesA[0]!.pdf_sha256)).toBe(true);
    // Its delivery, with a photo in the blob store.
    const jpeg = await sharp({ create: { width: 40, height: 30, channels: 3, background: { r: 90, g: 90, b: 90 } } })
      .jpeg()
      .toBuffer();
    const entregada = await app.request('POST', `/api/v1/decas/${idA}/entregas`, {
      key: c.live,
      body: {
        resultado: 'entregada',
        receptor_nombre: 'Ana Gil',
        firma: {
          proporcion: 2,
          trazos: [
            [
              [0.1, 0.1],
              [0.9, 0.9],
            ],
          ],
        },
        sin_reservas: true,
        fotos: [jpeg.toString('base64')],
        registrada_at: '2026-11-25T10:00:00+01:00',
      },
    });
    expect(entregada.status, entregada.text).toBe(200);
    const [fotoEntrega] = (await db.selectFrom('entregas').select('fotos').where('deca_id', '=', idA).executeTakeFirstOrThrow()).fotos;
    expect(await blobs.existe(fotoEntrega!.sha256, fotoEntrega!.clave)).toBe(true);
    const justificante = await db.selectFrom('entregas').select(['pdf_sha256', 'pdf_clave']).where('deca_id', '=', idA).executeTakeFirstOrThrow();
    expect(await blobs.existe(justificante.pdf_sha256, justificante.pdf_clave)).toBe(true);

    // A DeCA of next month (made now and moved there: its id carries next month).
    const b = await postDeca(app, c.live, { ...decaCompleta(), emitir: false });
    expect(b.status, b.text).toBe(201);
    const idB = (inicioDeMes(siguiente) + 7n).toString();
    await sql`delete from deca_cambios where deca_id = ${b.body.deca.id}`.execute(db);
    await sql`update decas set id = ${idB}::bigint where id = ${b.body.deca.id}`.execute(db);
    expect((await app.request('GET', `/api/v1/decas/${idB}`, { key: c.live })).status).toBe(200);

    // Mail written this month, and mail of next month (moved there as the DeCA above).
    const correo = () =>
      sql<{ id: number }>`insert into correos (account_id, entorno, tipo, destinatario, asunto, texto, html)
        values (${c.account.id}, 'produccion', 'deca', 'cargador@example.com', 'DeCA', 'texto', '<p>texto</p>') returning id`.execute(db);
    const correoDeEsteMes = (await correo()).rows[0]!.id;
    expect(mesDeId(correoDeEsteMes)).toBe(mes);
    const correoDelSiguiente = (inicioDeMes(siguiente) + 5n).toString();
    await sql`update correos set id = ${correoDelSiguiente}::bigint where id = ${(await correo()).rows[0]!.id}`.execute(db);

    const hoy = new Date();
    // An eFTI gate's query of this month with the account's access to it, kept while the DeCAs are.
    const consulta = (
      await sql<{ id: number }>`insert into efti_consultas (entorno, gate_id, tipo, estado, datasets, firma_sha256, created_at)
        values ('produccion', 'ES', 'uil', 200, 1, ${`f-${Date.now()}`}, now()) returning id`.execute(db)
    ).rows[0]!.id;
    await sql`insert into efti_accesos (account_id, entorno, consulta_id, decas, created_at) values (${c.account.id}, 'produccion', ${consulta}, '[]'::jsonb, now())`.execute(db);
    const consultasVivas = async () => (await sql<{ n: number }>`select count(*)::int as n from efti_accesos where consulta_id = ${consulta}`.execute(db)).rows[0]!.n;
    expect(await soltarMesesCaducados({ db, blobs }, meses(hoy, 11), 12)).toEqual({ meses: [], correos: [] });
    expect(await consultasVivas()).toBe(1);
    // Within its retention (12 months and one of grace): nothing goes.
    expect(await soltarMesesCaducados({ db, blobs }, meses(hoy, 13), 12)).toEqual({ meses: [], correos: [] });
    // But the eFTI query, 13 months old, is past its 12 (no month of grace: it is a log, not a partition): gone, and the account's access with it.
    expect(await consultasVivas()).toBe(0);
    expect((await sql<{ n: number }>`select count(*)::int as n from efti_consultas where id = ${consulta}`.execute(db)).rows[0]!.n).toBe(0);
    // Past it, but one DeCA of the month was changed within the last 12 months (issued late): the month waits.
    await sql`update decas set modificado_at = ${meses(hoy, 8)} where id = ${idA}`.execute(db);
    // (The rows from before partitions, none here, go with this month's first days, so its partition went.)
    expect(await soltarMesesCaducados({ db, blobs }, meses(hoy, 14), 12)).toEqual({
      meses: [{ particion: 'decas_anteriores', decas: 0, pdfs: 0, fotos: 0 }],
      correos: ['correos_anteriores'],
    });
    expect(await cuantas(db, 'decas', idA)).toBe(1);
    await sql`update decas set modificado_at = now() where id = ${idA}`.execute(db);

    // Through the hourly maintenance, 14 months on.
    const r = await runMaintenanceOnce({ db, clock: { now: () => meses(hoy, 14) }, retencion: { blobs, meses: 12 } });
    const soltadas = r.soltados.meses.map((s) => s.particion);
    expect(soltadas).toContain(`decas_p${mes}`);
    expect(soltadas).not.toContain(`decas_p${siguiente}`);
    expect(r.soltados.meses.find((s) => s.particion === `decas_p${mes}`)!.decas).toBeGreaterThanOrEqual(1);
    // The mail of that month went with it; next month's stayed.
    expect(r.soltados.correos).toEqual([`correos_p${mes}`]);
    expect(await db.selectFrom('correos').select('id').where('id', '=', correoDeEsteMes).execute()).toEqual([]);
    expect(await db.selectFrom('correos').select('id').where('id', '=', Number(correoDelSiguiente)).execute()).toHaveLength(1);
    // Its partitions went (and, as this test's clock is ahead of the database's, this month's were made again, empty).
    for (const t of ['decas', ...HIJAS]) expect(await cuantas(db, t, idA), t).toBe(0);
    expect((await sql<{ n: number }>`select count(*)::int as n from ${sql.table(`decas_p${mes}`)}`.execute(db)).rows[0]!.n).toBe(0);
    expect(await blobs.existe(versionesA[0]!.pdf_sha256)).toBe(false);
    // Its deliveries and their photos went with it.
    expect(await db.selectFrom('entregas').select('id').where('deca_id', '=', idA).execute()).toEqual([]);
    expect(await blobs.existe(fotoEntrega!.sha256, fotoEntrega!.clave)).toBe(false);
    expect(await blobs.existe(justificante.pdf_sha256, justificante.pdf_clave)).toBe(false);
    expect(r.soltados.meses.find((s) => s.particion === `decas_p${mes}`)!.fotos).toBe(1);
    expect((await app.request('GET', `/api/v1/decas/${idA}`, { key: c.live })).status).toBe(404);
    expect(await abrirFicha(app, a.body.deca.urls.ficha)).toBe(404);

    // Next month's DeCA, its partitions and the months made ahead are as they were.
    const b2 = await app.request('GET', `/api/v1/decas/${idB}`, { key: c.live });
    expect(b2.status, b2.text).toBe(200);
    expect(await existe(db, `decas_p${siguiente}`)).toBe(true);
    expect((await particionesDe(db)).every((p) => p.hasta > inicioDeMes(mes))).toBe(true);
    // The ref_externa of the DeCA let go is free again for a new one.
    expect(await asegurarParticiones(db)).toEqual([]);
    const otra = await postDeca(app, c.live, decaCompleta({ ref_externa: 'particiones-a' }));
    expect(otra.status, otra.text).toBe(201);
  });

  it('let the events and webhook deliveries of a week go 30 days after it ended, partitions and all', async ({ app, cuentaNueva: c }) => {
    const db = app.database.db;
    const creada = await postDeca(app, c.live, decaCompleta());
    expect(creada.status, creada.text).toBe(201);
    const id = creada.body.deca.id as number;
    const { rows } = await sql<{ s: number }>`select floor(extract(epoch from now()) / 604800)::int as s`.execute(db);
    const semana = rows[0]!.s;
    const eventos = await db.selectFrom('eventos').select(['id']).where('deca_id', '=', id).execute();
    expect(eventos).toHaveLength(2);
    for (const e of eventos) expect(mesDeId(e.id)).toBe(semana);
    for (const s of [semana, semana + 1, semana + 2]) for (const t of ['eventos', 'webhook_entregas', 'webhook_intentos']) expect(await existe(db, `${t}_s${s}`), `${t}_s${s}`).toBe(true);

    const dias = (n: number) => new Date(Date.now() + n * 86_400_000);
    expect(await soltarSemanasCaducadas(db, 'eventos', dias(29), 30)).toEqual([]);
    expect(await db.selectFrom('eventos').select('id').where('deca_id', '=', id).execute()).toHaveLength(2);
    const soltadas = await soltarSemanasCaducadas(db, 'eventos', dias(38), 30);
    expect(soltadas).toContain(`eventos_s${semana}`);
    expect(soltadas).not.toContain(`eventos_s${semana + 1}`);
    expect(await db.selectFrom('eventos').select('id').where('deca_id', '=', id).execute()).toEqual([]);
    // Made again for this week (the clock here is ahead of the database's); the deliveries untouched.
    expect(await existe(db, `eventos_s${semana}`)).toBe(true);
    expect(await existe(db, `webhook_entregas_s${semana}`)).toBe(true);
    expect((await soltarSemanasCaducadas(db, 'webhook_entregas', dias(38), 30)).map((n) => n.replace(/_s\d+$/, ''))).toContain('webhook_entregas');
  });
});
