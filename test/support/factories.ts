import type { AccountRow } from '../../server/db/schema';
import { crearClave } from '../../server/domain/accounts/api-keys';
import { crearCuenta, prepararCuenta } from '../../server/domain/accounts/cuentas';
import type { Plan, Rol } from '../../shared/schemas/cuenta';
import type { TestApp } from './app';

let seq = 0;

export interface CuentaDePrueba {
  account: AccountRow;
  email: string;
  password: string;
  /** Read-write production key. */
  live: string;
  /** Read-write test-environment key. */
  test: string;
  /** Read-only production key. */
  liveReadOnly: string;
  keyIds: { live: number; test: number; liveReadOnly: number };
}

/** An account with a user and three keys, created through the domain functions. */
/** What a test account may differ in; the rest has sensible defaults. */
export interface CuentaOptions {
  plan?: Plan;
  rol?: Rol;
  nombre?: string;
  nif?: string;
  domicilio?: string;
}

export async function buildCuenta(app: TestApp, opts: CuentaOptions = {}): Promise<CuentaDePrueba> {
  seq++;
  const email = `usuario${seq}-${Date.now()}@example.com`;
  const password = 'contraseña-de-prueba';
  const cuenta = await prepararCuenta(app.database.db, {
    nombre: opts.nombre ?? `Transportes Prueba ${seq}, S.L.`,
    nif: opts.nif ?? 'B12345674',
    domicilio: opts.domicilio ?? 'Calle Mayor 1, 28001 Madrid',
    rol: opts.rol ?? 'transportista',
    plan: opts.plan ?? 'free',
    email,
    password,
  });
  return app.database.db.transaction().execute(async (trx) => {
    const { account } = await crearCuenta(trx, cuenta);
    const live = await crearClave(trx, { accountId: account.id, entorno: 'produccion', soloLectura: false });
    const test = await crearClave(trx, { accountId: account.id, entorno: 'pruebas', soloLectura: false });
    const ro = await crearClave(trx, { accountId: account.id, entorno: 'produccion', soloLectura: true });
    for (const k of [live.key, test.key, ro.key, password]) app.secreto(k);
    return {
      account,
      email,
      password,
      live: live.key,
      test: test.key,
      liveReadOnly: ro.key,
      keyIds: { live: live.row.id, test: test.row.id, liveReadOnly: ro.row.id },
    };
  });
}
