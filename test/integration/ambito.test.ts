/**
 * `delAmbito` (server/domain/ambito.ts) on the real database: rows of two
 * accounts in both environments, with the same keys, are read back through
 * the domain functions that filter with it (the address book, the monthly
 * quota), each scope seeing only its own; and the aliased form qualifies its
 * columns, so a query joining two scoped tables is not ambiguous.
 */
import { describe, expect } from 'vitest';
import type { AccountRow } from '../../server/db/schema';
import { gastarFoto, obtenerCuota } from '../../server/domain/accounts/cuota';
import { buscarAgenda, empresaPorNif, guardarEntrada } from '../../server/domain/agenda/agenda';
import { type Ambito, delAmbito } from '../../server/domain/ambito';
import type { Entorno } from '../../shared/schemas/cuenta';
import { buildCuenta } from '../support/factories';
import { it } from '../support/fixtures';

const AHORA = new Date('2026-03-10T10:00:00Z');
const NIF = 'A58818501';
const ENTORNOS: Entorno[] = ['produccion', 'pruebas'];

describe('delAmbito', () => {
  it('holds every read to its account and environment', async ({ app }) => {
    const db = app.database.db;
    const cuentas: AccountRow[] = [(await buildCuenta(app)).account, (await buildCuenta(app)).account];
    const ambitos = cuentas.flatMap((cuenta) => ENTORNOS.map((entorno): Ambito & { cuenta: AccountRow } => ({ accountId: cuenta.id, entorno, cuenta })));
    const nombre = (a: Ambito) => `Empresa ${a.accountId} ${a.entorno}`;

    // The same company (same NIF, so the same key) in each of the four scopes, under a name that says which.
    for (const a of ambitos) await guardarEntrada(db, a, 'empresas', { nombre: nombre(a), nif: NIF, domicilio: 'Calle Mayor 1', lado: 'cargador' }, AHORA);
    // Photo reads counted in three of them, a different number in each.
    const fotos = [2, 0, 1, 3];
    for (const [i, a] of ambitos.entries()) for (let n = 0; n < fotos[i]!; n++) await gastarFoto(db, a, AHORA);

    for (const [i, a] of ambitos.entries()) {
      expect((await empresaPorNif(db, a, NIF))?.nombre).toBe(nombre(a));
      const { filas } = await buscarAgenda(db, a, 'empresas', { q: 'empresa', limite: 50 });
      expect(filas.map((f) => (f.datos as { nombre: string }).nombre)).toEqual([nombre(a)]);
      expect((await obtenerCuota(db, a.cuenta, a.entorno, AHORA)).fotos.usadas).toBe(fotos[i]);
    }
    // A scope with nothing in it reads nothing.
    const vacio: Ambito = { accountId: Math.max(...cuentas.map((x) => x.id)) + 1000, entorno: 'produccion' };
    expect(await empresaPorNif(db, vacio, NIF)).toBeNull();
  });

  it('with an alias, qualifies both columns: a join of two scoped tables reads only its scope', async ({ app }) => {
    const db = app.database.db;
    const cuentas = [(await buildCuenta(app)).account, (await buildCuenta(app)).account];
    for (const cuenta of cuentas) {
      for (const entorno of ENTORNOS) {
        const a: Ambito = { accountId: cuenta.id, entorno };
        await guardarEntrada(db, a, 'lugares', { texto: `Muelle ${cuenta.id} ${entorno}` }, AHORA);
        await gastarFoto(db, { cuenta, entorno }, AHORA);
      }
    }
    const propio: Ambito = { accountId: cuentas[1]!.id, entorno: 'pruebas' };
    const filas = await db
      .selectFrom('agenda as a')
      .innerJoin('uso_mensual as u', (j) => j.onRef('u.account_id', '=', 'a.account_id').onRef('u.entorno', '=', 'a.entorno'))
      .select(['a.datos', 'u.fotos'])
      .where(delAmbito(propio, 'a'))
      .where('a.tipo', '=', 'lugares')
      .execute();
    expect(filas).toEqual([{ datos: { texto: `Muelle ${cuentas[1]!.id} pruebas` }, fotos: 1 }]);
  });
});
