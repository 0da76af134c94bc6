import { type Kysely, sql } from 'kysely';
import { particionar, type TablaPorPeriodos } from './por-periodos';

/**
 * A DeCA and everything that hangs from it live in the partition of the
 * month it was created in, so a month whose retention has ended is let go by
 * dropping its partitions (server/db/particiones.ts), never by deleting rows.
 *
 * - `decas` is partitioned by range of `id`; an id carries its month: the
 *   database's month in Madrid (YYYYMM) in its upper bits, a sequence in the
 *   lower 32: `(202611 << 32) + n` = 870,213,…, under 2^53, a safe integer
 *   in JavaScript and JSON. Ids keep growing with time, so every keyset
 *   order by id stays what it was.
 * - `deca_versiones`, `deca_cambios`, `descargas` and `completar_borradores`
 *   are partitioned by range of `deca_id` with the same bounds: a month's
 *   DeCA, versions, history and download log are one set of partitions.
 *   Their keys carry `deca_id` (a primary key of a partitioned table must
 *   hold its partition key): `deca_cambios` and `descargas` are keyed by
 *   `(deca_id, id)`.
 * - The rows written before are not copied: each table, renamed
 *   `<tabla>_anteriores`, becomes the partition of every id below this
 *   month's first, and its indexes become the new table's where they are the
 *   same (no rebuild). It goes when the month of this migration does.
 * - A unique index of a partitioned table must hold its partition key, so
 *   `numero`, the public and completion tokens, `ref_externa` and the
 *   client key keep plain indexes: numbers come from one counter per account
 *   (or a device's reservation, itself unique), tokens are 144 random bits,
 *   and a `ref_externa` is held free by the command that writes it
 *   (domain/decas/ref-externa.ts), a client key by its idempotency claim.
 * - The reservation of an offline number keeps the id of the DeCA it became
 *   with no foreign key: that DeCA goes with its month.
 *
 * This month's partition and the next two are made here; the server makes
 * the following ones ahead of time (at start and every hour).
 */

const TABLAS: TablaPorPeriodos[] = [
  {
    nombre: 'decas',
    clave: 'id',
    pk: { nombre: 'decas_pkey', columnas: 'id' },
    indices: [
      ['decas_list_idx', '(account_id, entorno, id)'],
      ['decas_fecha_idx', '(account_id, entorno, fecha_transporte, id)'],
      ['decas_modificado_idx', '(account_id, entorno, modificado_at, id)'],
      ['decas_matricula_idx', '(account_id, entorno, matricula, id)'],
      ['decas_remolque_idx', '(account_id, entorno, matricula_remolque, id)'],
      ['decas_creado_por_user_idx', '(account_id, entorno, creado_por_user_id)'],
      ['decas_numero_idx', '(account_id, entorno, numero)'],
      ['decas_token_publico_idx', '(token_publico)'],
      ['decas_token_completar_idx', '(token_completar) where token_completar is not null'],
      ['decas_ref_externa_idx', '(account_id, entorno, ref_externa) where ref_externa is not null'],
      ['decas_clave_cliente_idx', '(account_id, entorno, clave_cliente) where clave_cliente is not null'],
    ],
    con: 'with (fillfactor = 80)',
    secuencia: (secuencia) => `((to_char(now() at time zone 'Europe/Madrid', 'YYYYMM')::bigint << 32) + nextval('${secuencia}'))`,
  },
  {
    nombre: 'deca_versiones',
    clave: 'deca_id',
    pk: { nombre: 'deca_versiones_pk', columnas: 'account_id, entorno, deca_id, version' },
    indices: [
      ['deca_versiones_deca_idx', '(deca_id)'],
      ['deca_versiones_sha256_idx', '(pdf_sha256)'],
    ],
  },
  {
    nombre: 'deca_cambios',
    clave: 'deca_id',
    pk: { nombre: 'deca_cambios_pkey', columnas: 'deca_id, id', nueva: true },
    indices: [['deca_cambios_deca_idx', '(account_id, entorno, deca_id, id)']],
    secuencia: true,
  },
  {
    nombre: 'descargas',
    clave: 'deca_id',
    pk: { nombre: 'descargas_pkey', columnas: 'deca_id, id', nueva: true },
    indices: [
      ['descargas_deca_idx', '(account_id, entorno, deca_id, id)'],
      ['descargas_repeticion_idx', '(deca_id, ip, created_at)'],
      ['descargas_ip_entera_idx', '(created_at) where ip_truncada = false'],
    ],
    secuencia: true,
  },
  {
    nombre: 'completar_borradores',
    clave: 'deca_id',
    pk: { nombre: 'completar_borradores_pk', columnas: 'account_id, entorno, deca_id' },
    indices: [['completar_borradores_deca_idx', '(deca_id)']],
  },
];

/** The month's first id: YYYYMM in the bits above the 32 of the sequence. */
const inicioDe = (mes: number): bigint => BigInt(mes) << 32n;
const siguienteMes = (mes: number): number => (mes % 100 === 12 ? (Math.floor(mes / 100) + 1) * 100 + 1 : mes + 1);

/** Each change of a DeCA announced to every server process (migration 0005). */
const NOTIFICAR = `create trigger decas_notificar after update or delete on decas for each row execute function deca_notificar_cambio('deca_cambio_decas_')`;

export async function up(db: Kysely<any>): Promise<void> {
  const q = (texto: string) => sql.raw(texto).execute(db);
  const { rows } = await sql<{ mes: number }>`select to_char(now() at time zone 'Europe/Madrid', 'YYYYMM')::int as mes`.execute(db);
  const mes0 = rows[0]!.mes;
  // Only where the row is whole: made again below on the partitioned table, checked then.
  await q('alter table deca_versiones drop constraint if exists deca_versiones_pdf_guardado');
  // Made again on the partitioned table, which gives it to every partition.
  await q('drop trigger decas_notificar on decas');

  await particionar(
    db,
    TABLAS,
    { primeros: [mes0, siguienteMes(mes0), siguienteMes(siguienteMes(mes0))], siguiente: siguienteMes, inicio: inicioDe, nombre: (t, mes) => `${t}_p${mes}` },
    { antesDeAdjuntar: async (t) => void (t === 'decas' && (await q(NOTIFICAR))), conservar: ['deca_versiones_pdf_en_base_idx'] },
  );

  // The versions still holding their bytes, which blobs:migrate walks: an index of the partitioned table that
  // each partition gets as it is made (empty: new versions keep no bytes), built on those of now by
  // blobs:migrate (concurrently, never here), or taken from the rows of before if it built it already.
  await q('create index deca_versiones_pdf_en_base_idx on only deca_versiones (account_id, entorno, deca_id, version) where pdf is not null');
  const { rows: previo } = await sql<{ valido: boolean }>`
    select i.indisvalid as valido from pg_index i join pg_class c on c.oid = i.indexrelid
    where c.relname = 'deca_versiones_pdf_en_base_idx_ant' and c.relnamespace = current_schema()::regnamespace`.execute(db);
  if (previo[0]?.valido) await q('alter index deca_versiones_pdf_en_base_idx attach partition deca_versiones_pdf_en_base_idx_ant');
  else if (previo[0]) await q('drop index deca_versiones_pdf_en_base_idx_ant');
  await q('alter table deca_versiones add constraint deca_versiones_pdf_guardado check (pdf is not null or pdf_clave is not null)');
}

/** Before: one table each, the unique indexes and identities as they were. */
export async function down(db: Kysely<any>): Promise<void> {
  const q = (texto: string) => sql.raw(texto).execute(db);
  const { rows: claves } = await sql<{ tabla: string; nombre: string; def: string }>`
    select c.conrelid::regclass::text as tabla, c.conname as nombre, pg_get_constraintdef(c.oid) as def
    from pg_constraint c
    where c.contype = 'f' and c.connamespace = current_schema()::regnamespace and c.conparentid = 0
      and c.conrelid::regclass::text = any(${TABLAS.map((t) => t.nombre)}::text[])`.execute(db);
  for (const k of claves) await q(`alter table "${k.tabla}" drop constraint "${k.nombre}"`);

  for (const t of TABLAS) {
    const plana = `${t.nombre}_plana`;
    await q(`create table "${plana}" (like "${t.nombre}" including defaults including constraints including storage) ${t.con ?? ''}`);
    await q(`insert into "${plana}" select * from "${t.nombre}"`);
    await q(`drop table "${t.nombre}" cascade`);
    await q(`alter table "${plana}" rename to "${t.nombre}"`);
    if (t.secuencia) {
      const { rows: m } = await sql<{ n: string }>`select (coalesce(max(id), 0) + 1)::text as n from ${sql.table(t.nombre)}`.execute(db);
      await q(`alter table "${t.nombre}" alter column id drop default`);
      await q(`alter table "${t.nombre}" alter column id add generated by default as identity (start with ${m[0]!.n})`);
    }
  }
  await q(NOTIFICAR);
  await q('alter table decas add constraint decas_pkey primary key (id)');
  await q('alter table decas add constraint decas_token_publico_key unique (token_publico)');
  await q('alter table decas add constraint decas_token_completar_key unique (token_completar)');
  for (const [nombre, def] of TABLAS[0]!.indices.slice(0, 6)) await q(`create index "${nombre}" on decas ${def}`);
  await q('create unique index decas_numero_uq on decas (account_id, entorno, numero)');
  await q('create unique index decas_ref_externa_uq on decas (account_id, entorno, ref_externa) where ref_externa is not null');
  await q('create unique index decas_clave_cliente_uq on decas (account_id, entorno, clave_cliente) where clave_cliente is not null');
  await q('alter table deca_versiones add constraint deca_versiones_pk primary key (account_id, entorno, deca_id, version)');
  await q('create index deca_versiones_deca_idx on deca_versiones (deca_id)');
  await q('create index deca_versiones_sha256_idx on deca_versiones (pdf_sha256)');
  await q('alter table deca_cambios add constraint deca_cambios_pkey primary key (id)');
  await q('create index deca_cambios_deca_idx on deca_cambios (account_id, entorno, deca_id, id)');
  await q('create index deca_cambios_deca_fk_idx on deca_cambios (deca_id)');
  await q('alter table descargas add constraint descargas_pkey primary key (id)');
  await q('create index descargas_deca_idx on descargas (account_id, entorno, deca_id, id)');
  await q('create index descargas_deca_fk_idx on descargas (deca_id)');
  await q('create index descargas_repeticion_idx on descargas (deca_id, ip, created_at)');
  await q('create index descargas_ip_entera_idx on descargas (created_at) where ip_truncada = false');
  await q('alter table completar_borradores add constraint completar_borradores_pk primary key (account_id, entorno, deca_id)');
  await q('create index completar_borradores_deca_idx on completar_borradores (deca_id)');
  for (const k of claves) await q(`alter table "${k.tabla}" add constraint "${k.nombre}" ${k.def}`);
  await q('alter table reservas add constraint reservas_deca_id_fkey foreign key (deca_id) references decas(id) on delete set null');
}
