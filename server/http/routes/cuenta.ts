import type Router from '@koa/router';
import type { CuentaResponse } from '../../../shared/schemas/cuenta';
import { obtenerCuota } from '../../domain/accounts/cuota';
import type { AppDeps } from '../../app';
import { accountOf, actorOf, type AppState } from '../context';
import { presentCuenta } from '../presenters/cuenta';

/** GET /cuenta: company, plan and the monthly quota of the request's environment. */
export function cuentaRoutes(router: Router<AppState>, deps: AppDeps): void {
  router.get('/cuenta', async (ctx) => {
    const actor = actorOf(ctx);
    const account = accountOf(ctx);
    const cuota = await obtenerCuota(deps.database.db, account, actor.entorno, deps.clock.now());
    const body: CuentaResponse = { cuenta: { ...presentCuenta(account), entorno: actor.entorno, cuota } };
    ctx.body = body;
  });
}
