import { type Kysely, sql } from 'kysely';
import { validarNif } from '../../../shared/rules/nif';

/**
 * An address-book entry with something to revise (a company whose NIF has a
 * wrong check character, learnt from a DeCA that was issued with that
 * warning) is marked `dudosa`: a search leaves it out by default, so it is
 * never offered as a suggestion until it is fixed or merged. Companies
 * already in the book are marked here, with the same rule the app and the
 * API apply (shared/rules/nif.ts); the rule is pure and fixed by the tax
 * agency's algorithm, so this migration gives the same result whenever it runs.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('agenda')
    .addColumn('dudosa', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();
  let despues = 0;
  for (;;) {
    const filas: { id: number | string; clave: string }[] = await db
      .selectFrom('agenda')
      .select(['id', 'clave'])
      .where('tipo', '=', 'empresas')
      .where('id', '>', despues)
      .orderBy('id')
      .limit(1000)
      .execute();
    if (filas.length === 0) break;
    const malas = filas.filter((f) => !validarNif(f.clave).valido).map((f) => Number(f.id));
    if (malas.length) await db.updateTable('agenda').set({ dudosa: sql`true` }).where('id', 'in', malas).execute();
    despues = Number(filas[filas.length - 1]!.id);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('agenda').dropColumn('dudosa').execute();
}
