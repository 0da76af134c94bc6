import { type Kysely, sql } from 'kysely';

/**
 * The platform side of the eFTI gate's messages (docs/efti.md):
 *
 * - `decas.efti_dataset_id`: the dataset part of the UIL, the same for every
 *   DeCA of a chain of replacements (a hash of the first one's public token,
 *   server/domain/efti/leer.ts `datasetIdDe`), stored so that a UIL query
 *   finds its DeCA by an index instead of hashing every token. Existing rows
 *   get it here, following each chain from its first DeCA.
 * - Two partial indexes for the identifier query, which searches every
 *   account of one environment by plate (or trailer plate) and transport
 *   date, issued DeCAs only: the plate indexes of 0002 lead with the account.
 * - `efti_consultas`: every authenticated gate request, once (its signature's
 *   digest is unique: a replayed request is refused), with what it asked and
 *   how many datasets it got. No account: a query may reach several or none.
 * - `efti_accesos`: per account, which of its DeCAs a query returned; what
 *   the account reads at GET /efti/accesos.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table decas add column efti_dataset_id text`.execute(db);
  await sql`
    with recursive cadena(id, primera) as (
      select id, token_publico from decas where sustituye_a_id is null
      union all
      select d.id, c.primera from decas d join cadena c on d.sustituye_a_id = c.id
    )
    update decas set efti_dataset_id = substr(encode(sha256(convert_to('deca-efti-dataset' || chr(10) || c.primera, 'UTF8')), 'hex'), 1, 32)
    from cadena c where decas.id = c.id`.execute(db);
  // A DeCA whose first one is gone with its month (replacements only link within a year, so none should be): its own.
  await sql`update decas set efti_dataset_id = substr(encode(sha256(convert_to('deca-efti-dataset' || chr(10) || token_publico, 'UTF8')), 'hex'), 1, 32)
    where efti_dataset_id is null`.execute(db);
  await sql`alter table decas alter column efti_dataset_id set not null`.execute(db);
  await sql`create index decas_efti_dataset_idx on decas (efti_dataset_id)`.execute(db);
  await sql`create index decas_efti_matricula_idx on decas (entorno, matricula, fecha_transporte) where estado = 'emitido'`.execute(db);
  await sql`create index decas_efti_remolque_idx on decas (entorno, matricula_remolque, fecha_transporte) where estado = 'emitido'`.execute(db);

  await db.schema
    .createTable('efti_consultas')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('entorno', 'text', (c) => c.notNull().check(sql`entorno in ('produccion', 'pruebas')`))
    .addColumn('gate_id', 'text', (c) => c.notNull())
    .addColumn('request_id', 'text')
    .addColumn('tipo', 'text', (c) => c.notNull().check(sql`tipo in ('uil', 'identificador', 'no_valida')`))
    .addColumn('dataset_id', 'text')
    .addColumn('identificador', 'text')
    .addColumn('tipos_identificador', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('pais', 'text')
    .addColumn('subsets', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('estado', 'integer', (c) => c.notNull())
    .addColumn('datasets', 'integer', (c) => c.notNull())
    .addColumn('firma_sha256', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('efti_consultas_firma_idx').on('efti_consultas').columns(['gate_id', 'firma_sha256']).unique().execute();

  await db.schema
    .createTable('efti_accesos')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('entorno', 'text', (c) => c.notNull().check(sql`entorno in ('produccion', 'pruebas')`))
    .addColumn('consulta_id', 'bigint', (c) => c.notNull().references('efti_consultas.id').onDelete('cascade'))
    .addColumn('decas', 'jsonb', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('efti_accesos_cuenta_idx').on('efti_accesos').columns(['account_id', 'entorno', 'id']).execute();
  await db.schema.createIndex('efti_accesos_consulta_idx').on('efti_accesos').column('consulta_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('efti_accesos').execute();
  await db.schema.dropTable('efti_consultas').execute();
  await sql`drop index decas_efti_remolque_idx`.execute(db);
  await sql`drop index decas_efti_matricula_idx`.execute(db);
  await sql`drop index decas_efti_dataset_idx`.execute(db);
  await sql`alter table decas drop column efti_dataset_id`.execute(db);
}
