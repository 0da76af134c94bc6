import { type Kysely, sql } from 'kysely';

/**
 * DeCA, their stored PDF per version, change history, per-year numbering,
 * idempotency keys and the event outbox. Every table is keyed by
 * (account_id, entorno, …) so accounts and environments never mix.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('decas')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('entorno', 'text', (c) => c.notNull().check(sql`entorno in ('produccion', 'pruebas')`))
    .addColumn('numero', 'text', (c) => c.notNull())
    .addColumn('estado', 'text', (c) => c.notNull().check(sql`estado in ('pendiente', 'emitido', 'sustituido')`))
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('revision', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('ref_externa', 'text')
    .addColumn('emisor_rol', 'text', (c) => c.notNull().check(sql`emisor_rol in ('transportista', 'cargador')`))
    .addColumn('canal', 'text', (c) => c.notNull())
    .addColumn('cargador_nombre', 'text')
    .addColumn('cargador_nif', 'text')
    .addColumn('cargador_domicilio', 'text')
    .addColumn('transp_nombre', 'text')
    .addColumn('transp_nif', 'text')
    .addColumn('transp_domicilio', 'text')
    .addColumn('fecha_transporte', 'text')
    .addColumn('tipo_vehiculo', 'text')
    .addColumn('matricula', 'text')
    .addColumn('matricula_remolque', 'text')
    .addColumn('autorizacion_especial', 'text')
    .addColumn('conductor_nombre', 'text')
    .addColumn('conductor_tel', 'text')
    .addColumn('observaciones', 'text')
    .addColumn('referencia', 'text')
    .addColumn('envios', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('token_publico', 'text', (c) => c.notNull().unique())
    .addColumn('token_completar', 'text', (c) => c.unique())
    .addColumn('pdf_sha256', 'text')
    .addColumn('pdf_bytes', 'integer')
    .addColumn('emitido_at', 'timestamptz')
    .addColumn('modificado_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('fin_servicio_at', 'timestamptz')
    .addColumn('sustituye_a_id', 'bigint')
    .addColumn('sustituido_por_id', 'bigint')
    .addColumn('archivado', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('descargas', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('creado_por_key_id', 'bigint')
    .addColumn('creado_por_user_id', 'bigint')
    .execute();
  await db.schema.createIndex('decas_numero_uq').on('decas').columns(['account_id', 'entorno', 'numero']).unique().execute();
  await db.schema.createIndex('decas_ref_externa_uq').on('decas').columns(['account_id', 'entorno', 'ref_externa']).unique().where(sql.ref('ref_externa'), 'is not', null).execute();
  await db.schema.createIndex('decas_list_idx').on('decas').columns(['account_id', 'entorno', 'id']).execute();
  await db.schema.createIndex('decas_fecha_idx').on('decas').columns(['account_id', 'entorno', 'fecha_transporte']).execute();
  await db.schema.createIndex('decas_matricula_idx').on('decas').columns(['account_id', 'entorno', 'matricula']).execute();
  await db.schema.createIndex('decas_remolque_idx').on('decas').columns(['account_id', 'entorno', 'matricula_remolque']).execute();
  await db.schema.createIndex('decas_updated_idx').on('decas').columns(['account_id', 'entorno', 'updated_at']).execute();

  await db.schema
    .createTable('deca_versiones')
    .addColumn('account_id', 'bigint', (c) => c.notNull())
    .addColumn('entorno', 'text', (c) => c.notNull())
    .addColumn('deca_id', 'bigint', (c) => c.notNull().references('decas.id').onDelete('cascade'))
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('pdf', 'bytea', (c) => c.notNull())
    .addColumn('pdf_sha256', 'text', (c) => c.notNull())
    .addColumn('pdf_bytes', 'integer', (c) => c.notNull())
    .addColumn('datos_pdf', 'jsonb', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('deca_versiones_pk', ['account_id', 'entorno', 'deca_id', 'version'])
    .execute();

  await db.schema
    .createTable('deca_cambios')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('account_id', 'bigint', (c) => c.notNull())
    .addColumn('entorno', 'text', (c) => c.notNull())
    .addColumn('deca_id', 'bigint', (c) => c.notNull().references('decas.id').onDelete('cascade'))
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('tipo', 'text', (c) => c.notNull())
    .addColumn('motivo', 'text')
    .addColumn('autor_tipo', 'text', (c) => c.notNull())
    .addColumn('autor_id', 'bigint')
    .addColumn('autor_nombre', 'text', (c) => c.notNull())
    .addColumn('canal', 'text', (c) => c.notNull())
    .addColumn('campos', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('deca_cambios_deca_idx').on('deca_cambios').columns(['account_id', 'entorno', 'deca_id', 'id']).execute();

  await db.schema
    .createTable('numeradores')
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('entorno', 'text', (c) => c.notNull())
    .addColumn('anio', 'integer', (c) => c.notNull())
    .addColumn('ultimo', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('numeradores_pk', ['account_id', 'entorno', 'anio'])
    .execute();

  await db.schema
    .createTable('idempotencia')
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('entorno', 'text', (c) => c.notNull())
    .addColumn('clave', 'text', (c) => c.notNull())
    .addColumn('huella', 'text', (c) => c.notNull())
    .addColumn('estado', 'text', (c) => c.notNull().check(sql`estado in ('en_curso', 'completada')`))
    .addColumn('deca_id', 'bigint')
    .addColumn('status', 'integer')
    .addColumn('respuesta', 'jsonb')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('idempotencia_pk', ['account_id', 'entorno', 'clave'])
    .execute();
  await db.schema.createIndex('idempotencia_expires_idx').on('idempotencia').column('expires_at').execute();

  await db.schema
    .createTable('eventos')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('entorno', 'text', (c) => c.notNull())
    .addColumn('evento', 'text', (c) => c.notNull())
    .addColumn('deca_id', 'bigint')
    .addColumn('data', 'jsonb', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('eventos_account_idx').on('eventos').columns(['account_id', 'entorno', 'id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['eventos', 'idempotencia', 'numeradores', 'deca_cambios', 'deca_versiones', 'decas']) {
    await db.schema.dropTable(t).ifExists().execute();
  }
}
