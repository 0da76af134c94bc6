/**
 * The PDFs out of the database (server/blobs, migration 0015): a version's
 * bytes go to the blob store before its row, the row keeps hash, size and
 * key, and GET …/pdf serves them back byte for byte; a damaged, truncated or
 * missing blob is refused, never served; versions written before the store
 * are served from their row and moved out by `blobs:migrate` (the domain
 * batch on both engines, the CLI on PostgreSQL), safe to interrupt and run
 * again.
 */
import { createHash, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, truncateSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { sql } from 'kysely';
import { afterAll, describe, expect, onTestFinished } from 'vitest';
import type { BlobStore } from '../../server/blobs/almacen';
import { migrateToLatest, openDatabase } from '../../server/db/open';
import { moverPdfsAlAlmacen } from '../../server/domain/decas/pdfs-al-almacen';
import { Deca } from '../../shared/schemas/deca';
import { startTestApp, type TestApp } from '../support/app';
import { comprobarBarrido } from '../support/barrido';
import { postgresSchemaDeProceso, testDatabaseKind } from '../support/db';
import { decaCompleta } from '../support/decas';
import { crearDecaOk, expectApiError, getBytes } from '../support/decas-helpers';
import { buildCuenta, type CuentaDePrueba } from '../support/factories';
import { it, test } from '../support/fixtures';
import { runCli } from '../support/processes';

const DIR = mkdtempSync(path.join(os.tmpdir(), 'deca-blobs-prueba-'));
afterAll(() => rmSync(DIR, { recursive: true, force: true }));
test.override('opcionesApp', { env: { BLOB_URL: pathToFileURL(DIR).href } });

const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
const claveDe = (sha: string) => `pdf/${sha.slice(0, 2)}/${sha}`;
const archivoEn = (dir: string, sha: string) => path.join(dir, ...claveDe(sha).split('/'));

async function emitir(app: TestApp, c: CuentaDePrueba, i: number): Promise<Deca> {
  return (await crearDecaOk(app, c.live, decaCompleta({ referencia: `BLOB-${i}` }))).deca;
}

async function pdfDe(app: TestApp, c: CuentaDePrueba, id: number): Promise<Buffer> {
  const r = await getBytes(app, c.live, `/api/v1/decas/${id}/pdf`);
  expect(r.status, r.bytes.toString()).toBe(200);
  expect(r.type).toBe('application/pdf');
  return r.bytes;
}

async function versiones(app: TestApp, accountId: number) {
  return app.database.db
    .selectFrom('deca_versiones')
    .select(['deca_id', 'version', 'pdf', 'pdf_sha256', 'pdf_bytes', 'pdf_clave'])
    .where('account_id', '=', accountId)
    .orderBy('deca_id')
    .orderBy('version')
    .execute();
}

/**
 * The account's versions as a server before migration 0015 left them: the
 * bytes in `pdf`, no key, no blob (deleted from `dir`, so the move must
 * write each one).
 */
async function comoAntes(app: TestApp, accountId: number, dir: string): Promise<void> {
  for (const v of await versiones(app, accountId)) {
    const bytes = await app.services.blobs.leer(v.pdf_sha256);
    await app.database.db
      .updateTable('deca_versiones')
      .set({ pdf: bytes, pdf_clave: null })
      .where('account_id', '=', accountId)
      .where('deca_id', '=', v.deca_id)
      .where('version', '=', v.version)
      .execute();
    rmSync(archivoEn(dir, v.pdf_sha256), { force: true });
  }
}

describe('a new version', () => {
  it('is written to the blob store before its row, which keeps hash, size and key; GET …/pdf serves it byte for byte', async ({ app, c }) => {
    const deca = await emitir(app, c, 1);
    const [v] = await versiones(app, c.account.id);
    expect(v).toMatchObject({ deca_id: deca.id, version: 1, pdf: null, pdf_sha256: deca.pdf_sha256, pdf_bytes: deca.pdf_bytes, pdf_clave: claveDe(deca.pdf_sha256!) });

    const archivo = archivoEn(DIR, deca.pdf_sha256!);
    const enDisco = readFileSync(archivo);
    expect(sha256(enDisco)).toBe(deca.pdf_sha256);
    // Written once, never rewritten: read-only; and no temporary file left beside it.
    expect(statSync(archivo).mode & 0o222).toBe(0);
    expect(readdirSync(path.dirname(archivo)).filter((f) => f.endsWith('.tmp'))).toEqual([]);

    const servido = await pdfDe(app, c, deca.id);
    expect(servido.equals(enDisco)).toBe(true);
    expect(servido.subarray(0, 5).toString()).toBe('%PDF-');

    // A method-1 change: version 2 is a blob of its own, version 1 stays.
    app.clock.advance(30 * 60_000);
    const patch = await app.request('PATCH', `/api/v1/decas/${deca.id}`, { key: c.live, body: { motivo: 'Cambio de tractora por avería', matricula: '5678 FGH' } });
    expect(patch.status, patch.text).toBe(200);
    const v2 = Deca.parse(patch.body.deca);
    expect(v2.version).toBe(2);
    expect(sha256(await pdfDe(app, c, deca.id))).toBe(v2.pdf_sha256);
    expect(existsSync(archivo)).toBe(true);
    expect((await versiones(app, c.account.id)).map((r) => [r.version, r.pdf, r.pdf_clave])).toEqual([
      [1, null, claveDe(deca.pdf_sha256!)],
      [2, null, claveDe(v2.pdf_sha256!)],
    ]);
  });

  it('the blob store refuses bytes that are not what their hash names, and keys that are not a SHA-256', async ({ app }) => {
    const bytes = new TextEncoder().encode('%PDF-1.7 prueba');
    await expect(app.services.blobs.guardar(sha256(new Uint8Array([1])), bytes)).rejects.toThrow(/no corresponden a su SHA-256/);
    await expect(app.services.blobs.guardar('../../etc/passwd', bytes)).rejects.toThrow(/no es un SHA-256/);
    await expect(app.services.blobs.leer('ABC')).rejects.toThrow(/no es un SHA-256/);
    const sha = sha256(bytes);
    expect(await app.services.blobs.existe(sha)).toBe(false);
    expect(await app.services.blobs.guardar(sha, bytes)).toBe(claveDe(sha));
    // Idempotent: a second write of the same bytes finds them there.
    expect(await app.services.blobs.guardar(sha, bytes)).toBe(claveDe(sha));
    expect(await app.services.blobs.existe(sha)).toBe(true);
    expect(Buffer.from(await app.services.blobs.leer(sha)).equals(Buffer.from(bytes))).toBe(true);
  });

  it('written at once many times over (the same bytes, and many blobs into one folder), every write ends whole, with no temporary file left', async ({ app }) => {
    const mismos = randomBytes(50_000);
    const sha = sha256(mismos);
    expect(new Set(await Promise.all(Array.from({ length: 12 }, () => app.services.blobs.guardar(sha, mismos))))).toEqual(new Set([claveDe(sha)]));
    expect(readFileSync(archivoEn(DIR, sha)).equals(mismos)).toBe(true);

    // Twelve blobs whose hashes share their first byte: one folder, its syncs shared by the writes in flight.
    const prefijo = sha.slice(0, 2);
    const otros: Buffer[] = [];
    while (otros.length < 12) {
      const b = randomBytes(20_000);
      if (sha256(b).startsWith(prefijo)) otros.push(b);
    }
    await Promise.all(otros.map((b) => app.services.blobs.guardar(sha256(b), b)));
    for (const b of otros) expect(Buffer.from(await app.services.blobs.leer(sha256(b))).equals(b)).toBe(true);
    expect(readdirSync(path.dirname(archivoEn(DIR, sha))).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('makes its folder again if it went since the process made it (removed or restored by hand)', async ({ app }) => {
    const primero = randomBytes(1_000);
    await app.services.blobs.guardar(sha256(primero), primero);
    const carpeta = path.dirname(archivoEn(DIR, sha256(primero)));
    rmSync(carpeta, { recursive: true, force: true });
    // Bytes whose blob goes in that same folder.
    let otro = randomBytes(1_000);
    while (!sha256(otro).startsWith(sha256(primero).slice(0, 2))) otro = randomBytes(1_000);
    expect(await app.services.blobs.guardar(sha256(otro), otro)).toBe(claveDe(sha256(otro)));
    expect(readFileSync(archivoEn(DIR, sha256(otro))).equals(otro)).toBe(true);
  });

  it('finds a partial file a crash left under its name (no row names it) and replaces it whole', async ({ app }) => {
    const bytes = randomBytes(30_000);
    const sha = sha256(bytes);
    const archivo = archivoEn(DIR, sha);
    mkdirSync(path.dirname(archivo), { recursive: true });
    writeFileSync(archivo, bytes.subarray(0, 4096), { mode: 0o440 });
    await expect(app.services.blobs.leer(sha)).rejects.toMatchObject({ motivo: 'danado' });
    expect(await app.services.blobs.guardar(sha, bytes)).toBe(claveDe(sha));
    expect(readFileSync(archivo).equals(bytes)).toBe(true);
    expect(statSync(archivo).mode & 0o777).toBe(0o440);
  });
});

describe('a damaged blob', () => {
  it('is refused, never served: a changed byte, a truncated file, a missing file; written again whole, it is served again', async ({ app, c }) => {
    const deca = await emitir(app, c, 2);
    const bueno = await pdfDe(app, c, deca.id);
    const archivo = archivoEn(DIR, deca.pdf_sha256!);
    chmodSync(archivo, 0o640);

    const rechazado = async (como: string) => {
      const r = await getBytes(app, c.live, `/api/v1/decas/${deca.id}/pdf`);
      expect(r.status, como).toBe(500);
      expect(r.type, como).toMatch(/^application\/json/);
      expect(r.bytes.includes('%PDF'), como).toBe(false);
      const res = await app.request('GET', `/api/v1/decas/${deca.id}/pdf`, { key: c.live });
      const error = expectApiError(res, 500, 'error_interno');
      expect(error.mensaje, como).toContain(`El PDF de la DeCA ${deca.numero} (versión 1) no se puede entregar`);
      return error.mensaje;
    };

    const cambiado = Buffer.from(bueno);
    cambiado[cambiado.length >> 1]! ^= 0x01;
    writeFileSync(archivo, cambiado);
    expect(await rechazado('un byte cambiado')).toContain('dañada');

    truncateSync(archivo, bueno.length >> 1);
    expect(await rechazado('truncado')).toContain('dañada');

    rmSync(archivo);
    expect(await rechazado('sin archivo')).toContain('no se encuentra');

    // Written again from the good bytes (as blobs:migrate would, or a restore from a backup).
    writeFileSync(archivo, cambiado);
    await app.services.blobs.guardar(deca.pdf_sha256!, bueno);
    expect((await pdfDe(app, c, deca.id)).equals(bueno)).toBe(true);
  });
});

describe('versions written before the blob store', () => {
  it('are served from their row, then moved out in batches by blobs:migrate and served the same; a second run finds nothing to move', async ({ app, cuentaNueva: c }) => {
    const decas = [];
    for (let i = 0; i < 5; i++) decas.push(await emitir(app, c, 10 + i));
    await comoAntes(app, c.account.id, DIR);
    const antes = new Map<number, Buffer>();
    for (const d of decas) antes.set(d.id, await pdfDe(app, c, d.id));
    for (const d of decas) expect(sha256(antes.get(d.id)!)).toBe(d.pdf_sha256);

    // Other accounts' versions may still be in their rows too: count this account's.
    const enBase = async () => (await versiones(app, c.account.id)).filter((v) => v.pdf !== null).length;
    expect(await enBase()).toBe(5);
    const lotes = [];
    let despues: string | null = null;
    do {
      const r = await moverPdfsAlAlmacen(app.services, { lote: 2, despues });
      lotes.push(r);
      despues = r.siguiente;
    } while (despues);
    expect(lotes.length).toBeGreaterThanOrEqual(3);
    expect(lotes.reduce((n, l) => n + l.movidos, 0)).toBeGreaterThanOrEqual(5);
    expect(lotes.at(-1)!.quedan).toBe(0);
    expect(lotes.flatMap((l) => l.omitidos)).toEqual([]);

    for (const v of await versiones(app, c.account.id)) {
      expect(v.pdf).toBeNull();
      expect(v.pdf_clave).toBe(claveDe(v.pdf_sha256));
      expect(existsSync(archivoEn(DIR, v.pdf_sha256))).toBe(true);
    }
    for (const d of decas) expect((await pdfDe(app, c, d.id)).equals(antes.get(d.id)!)).toBe(true);

    expect(await moverPdfsAlAlmacen(app.services, { lote: 2 })).toEqual({ movidos: 0, bytes: 0, omitidos: [], quedan: 0, siguiente: null });
  });

  it('have their index built by the first batch (the migration reads nothing), and built again if an interrupted build left it invalid', async ({ app }) => {
    const db = app.database.db;
    const indice = async () =>
      (
        await sql<{ valido: boolean }>`
          select i.indisvalid as valido from pg_index i join pg_class c on c.oid = i.indexrelid
          where c.relname = 'deca_versiones_pdf_en_base_idx' and c.relnamespace = current_schema()::regnamespace`.execute(db)
      ).rows[0]?.valido;
    await sql`drop index if exists deca_versiones_pdf_en_base_idx`.execute(db);
    expect(await indice()).toBeUndefined();
    await moverPdfsAlAlmacen(app.services, { lote: 1 });
    expect(await indice()).toBe(true);

    // What a CREATE INDEX CONCURRENTLY cut short on one partition leaves behind: the partitioned table's
    // index not valid yet, that partition's index invalid and not attached.
    const particion = (
      await sql<{ p: string }>`select c.relname as p from pg_inherits i join pg_class c on c.oid = i.inhrelid where i.inhparent = 'deca_versiones'::regclass order by c.relname limit 1`.execute(db)
    ).rows[0]!.p;
    await sql`drop index deca_versiones_pdf_en_base_idx`.execute(db);
    await sql`create index deca_versiones_pdf_en_base_idx on only deca_versiones (account_id, entorno, deca_id, version) where pdf is not null`.execute(db);
    await sql`create index ${sql.id(`${particion}_pdf_en_base_idx`)} on ${sql.table(particion)} (account_id, entorno, deca_id, version) where pdf is not null`.execute(db);
    await sql`update pg_index set indisvalid = false where indexrelid = ${`${particion}_pdf_en_base_idx`}::regclass`.execute(db);
    expect(await indice()).toBe(false);
    await moverPdfsAlAlmacen(app.services, { lote: 1 });
    expect(await indice()).toBe(true);
    // Every partition has its part of it, valid (a partition made later gets one as it is made).
    const partes = await sql<{ n: number; validos: number }>`
      select count(*)::int as n, count(*) filter (where x.indisvalid)::int as validos
      from pg_inherits h join pg_index x on x.indexrelid = h.inhrelid where h.inhparent = 'deca_versiones_pdf_en_base_idx'::regclass`.execute(db);
    const n = (await sql<{ n: number }>`select count(*)::int as n from pg_inherits where inhparent = 'deca_versiones'::regclass`.execute(db)).rows[0]!.n;
    expect(partes.rows[0]).toEqual({ n, validos: n });
  });

  it('interrupted (the store fails mid-batch), keeps every row that has no blob yet and moves the rest on the next run', async ({ app, cuentaNueva: c }) => {
    const decas = [];
    for (let i = 0; i < 4; i++) decas.push(await emitir(app, c, 20 + i));
    await comoAntes(app, c.account.id, DIR);
    const antes = new Map<number, Buffer>();
    for (const d of decas) antes.set(d.id, await pdfDe(app, c, d.id));

    let escritos = 0;
    const fragil: BlobStore = {
      descripcion: 'falla en la tercera escritura',
      existe: (s) => app.services.blobs.existe(s),
      leer: (s) => app.services.blobs.leer(s),
      listar: (o) => app.services.blobs.listar(o),
      borrar: (s) => app.services.blobs.borrar(s),
      guardar: async (s, b) => {
        if (++escritos === 3) throw new Error('disco lleno (simulado)');
        return app.services.blobs.guardar(s, b);
      },
    };
    await expect(moverPdfsAlAlmacen({ db: app.database.db, blobs: fragil }, { lote: 10 })).rejects.toThrow('disco lleno');
    const tras = await versiones(app, c.account.id);
    // Each row either still has its bytes, or its blob is whole on disk: never neither.
    for (const v of tras) {
      if (v.pdf === null) expect(sha256(readFileSync(archivoEn(DIR, v.pdf_sha256)))).toBe(v.pdf_sha256);
      else expect(sha256(v.pdf)).toBe(v.pdf_sha256);
    }
    expect(tras.filter((v) => v.pdf === null).length).toBe(3);
    for (const d of decas) expect((await pdfDe(app, c, d.id)).equals(antes.get(d.id)!)).toBe(true);

    const r = await moverPdfsAlAlmacen(app.services, { lote: 10 });
    expect(r).toMatchObject({ omitidos: [], quedan: 0, siguiente: null });
    expect(r.movidos).toBeGreaterThanOrEqual(1);
    expect((await versiones(app, c.account.id)).every((v) => v.pdf === null && v.pdf_clave === claveDe(v.pdf_sha256))).toBe(true);
    for (const d of decas) expect((await pdfDe(app, c, d.id)).equals(antes.get(d.id)!)).toBe(true);
  });

  it('never copies out bytes that are not what their row’s hash says: they stay in the row, reported', async ({ app, cuentaNueva: c }) => {
    const [a, b] = [await emitir(app, c, 30), await emitir(app, c, 31)];
    await comoAntes(app, c.account.id, DIR);
    await sql`update deca_versiones set pdf = ${new Uint8Array([0x25, 0x50, 0x44, 0x46])} where account_id = ${c.account.id} and deca_id = ${b.id}`.execute(app.database.db);

    let despues: string | null = null;
    const omitidos = [];
    do {
      const r = await moverPdfsAlAlmacen(app.services, { lote: 1, despues });
      omitidos.push(...r.omitidos);
      despues = r.siguiente;
    } while (despues);
    expect(omitidos).toContainEqual({ deca_id: b.id, version: 1 });
    const [va, vb] = await versiones(app, c.account.id);
    expect(va).toMatchObject({ deca_id: a.id, pdf: null, pdf_clave: claveDe(a.pdf_sha256!) });
    expect(vb).toMatchObject({ deca_id: b.id, pdf_clave: null });
    expect(vb!.pdf).not.toBeNull();
    expect(existsSync(archivoEn(DIR, b.pdf_sha256!))).toBe(false);
    expect(sha256(await pdfDe(app, c, a.id))).toBe(a.pdf_sha256);
  });

  it('refuses a bad position to start from, naming it', async ({ app }) => {
    await expect(moverPdfsAlAlmacen(app.services, { despues: 'x; drop table decas' })).rejects.toMatchObject({ codigo: 'validacion', campos: { despues: 'Posición no válida' } });
  });
});

describe.runIf(testDatabaseKind() === 'postgres')('npm run cli -- blobs:migrate, blobs:gc', () => {
  it('moves them batch by batch, a line of progress each, one JSON total; run again, it moves nothing', async () => {
    const esquema = await postgresSchemaDeProceso('blobs');
    const database = await openDatabase({ databaseUrl: esquema.url });
    const dir = mkdtempSync(path.join(os.tmpdir(), 'deca-blobs-cli-'));
    let app: TestApp | null = null;
    onTestFinished(async () => {
      await app?.close();
      await database.close();
      await esquema.drop();
      rmSync(dir, { recursive: true, force: true });
    });
    await migrateToLatest(database.db);
    const env = { DATABASE_URL: esquema.url, BLOB_URL: pathToFileURL(dir).href };
    app = await startTestApp({ database, env: { BLOB_URL: env.BLOB_URL } });
    const c = await buildCuenta(app);
    const decas = [];
    for (let i = 0; i < 5; i++) decas.push(await emitir(app, c, 40 + i));
    await comoAntes(app, c.account.id, dir);
    const antes = new Map<number, Buffer>();
    for (const d of decas) antes.set(d.id, await pdfDe(app, c, d.id));

    const r = await runCli(['blobs:migrate', '--lote', '2'], env);
    expect(r.code, r.stderr).toBe(0);
    const lineas = r.stderr.trim().split('\n');
    expect(lineas).toHaveLength(3);
    expect(lineas[0]).toMatch(/^blobs:migrate: 2 PDF movidos al almacén \(0\.\d MB\); quedan 3 en la base de datos$/);
    expect(lineas[2]).toMatch(/^blobs:migrate: 5 PDF movidos al almacén \(0\.\d MB\); quedan 0 en la base de datos$/);
    const total = JSON.parse(r.stdout) as { movidos: number; bytes: number; omitidos: unknown[]; quedan: number };
    expect(total).toEqual({ movidos: 5, bytes: decas.reduce((n, d) => n + d.pdf_bytes!, 0), omitidos: [], quedan: 0 });
    for (const d of decas) expect((await pdfDe(app, c, d.id)).equals(antes.get(d.id)!)).toBe(true);
    expect((await versiones(app, c.account.id)).every((v) => v.pdf === null)).toBe(true);

    const otra = await runCli(['blobs:migrate'], env);
    expect(otra.code, otra.stderr).toBe(0);
    expect(JSON.parse(otra.stdout)).toEqual({ movidos: 0, bytes: 0, omitidos: [], quedan: 0 });

    const mala = await runCli(['blobs:migrate', '--lote', '0'], env);
    expect(mala.code).not.toBe(0);
    expect(JSON.parse(mala.stderr).error).toMatchObject({ codigo: 'validacion', campos: { '--lote': 'Al menos 1' } });

    // An orphan (a change that failed after writing it), a day and a bit old: swept, page by page; the versions' PDFs stay.
    const huerfano = randomBytes(3_000);
    const rutaHuerfano = archivoEn(dir, sha256(huerfano));
    await app.services.blobs.guardar(sha256(huerfano), huerfano);
    const ayer = new Date(Date.now() - 25 * 3_600_000);
    utimesSync(rutaHuerfano, ayer, ayer);
    const gc = await runCli(['blobs:gc', '--lote', '2'], env);
    expect(gc.code, gc.stderr).toBe(0);
    const progreso = gc.stderr.trim().split('\n');
    // Three full pages of 2, then an empty one that ends the walk.
    expect(progreso).toHaveLength(4);
    expect(progreso[3]).toMatch(/^blobs:gc: 6 PDF revisados, 1 borrados \(0\.0 MB\)$/);
    expect(progreso[0]).toMatch(/^blobs:gc: 2 PDF revisados, [01] borrados \(0\.\d MB\); sigue tras [0-9a-f]{64}$/);
    expect(JSON.parse(gc.stdout)).toEqual({ revisados: 6, borrados: 1, bytes: 3_000 });
    expect(existsSync(rutaHuerfano)).toBe(false);
    for (const d of decas) expect((await pdfDe(app, c, d.id)).equals(antes.get(d.id)!)).toBe(true);
    const malGc = await runCli(['blobs:gc', '--despues', 'x'], env);
    expect(JSON.parse(malGc.stderr).error).toMatchObject({ codigo: 'validacion', campos: { '--despues': 'Use el valor «siguiente» del lote anterior' } });
  }, 120_000);
});

describe('blobs:gc', () => {
  // Last in this file: the orphans the tests above left in the folder are swept too.
  it('deletes the PDFs no version names once older than a day; keeps every version’s', async ({ app, c }) => {
    let i = 0;
    await comprobarBarrido(app, () => emitir(app, c, 60 + i++));
  });
});
