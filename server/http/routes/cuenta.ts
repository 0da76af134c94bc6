import type Router from '@koa/router';
import { verCuenta } from '../../commands/cuenta';
import type { AppDeps } from '../../deps';
import type { AppState } from '../context';
import { correr } from '../run';

/** GET /cuenta: company, plan and the monthly quota of the request's environment. */
export function cuentaRoutes(router: Router<AppState>, { services }: AppDeps): void {
  router.get('/cuenta', async (ctx) => {
    ctx.body = await correr(ctx, services, verCuenta, {});
  });
}
