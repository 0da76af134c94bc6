import type Router from '@koa/router';
import { TIPOS_AGENDA } from '../../../shared/schemas/agenda';
import { buscarAgenda, guardarAgenda } from '../../commands/agenda';
import type { AppDeps } from '../../deps';
import type { AppState } from '../context';
import { jsonBody, KB } from '../middleware/body';
import { correr } from '../run';

/** The address book (spec: Endpoints, agenda), on both environments like the DeCA routes. */
export function agendaRoutes(router: Router<AppState>, { services }: AppDeps): void {
  const body = jsonBody(8 * KB);
  for (const tipo of TIPOS_AGENDA) {
    router.get(`/agenda/${tipo}`, async (ctx) => {
      ctx.body = await correr(ctx, services, buscarAgenda, { ...ctx.query, tipo });
    });
    router.post(`/agenda/${tipo}`, body, async (ctx) => {
      const cuerpo = ctx.state.body;
      ctx.body = await correr(ctx, services, guardarAgenda, cuerpo && typeof cuerpo === 'object' && !Array.isArray(cuerpo) ? { ...cuerpo, tipo } : cuerpo);
    });
  }
}
