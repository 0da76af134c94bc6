import type Router from '@koa/router';
import type { DescargasList } from '../../../shared/schemas/deca';
import { z } from '../../../shared/schemas/zod';
import type { AppDeps } from '../../app';
import type { DomainContext } from '../../domain/context';
import { enviarDeca, pedirDatos } from '../../domain/correo/enviar';
import { listarDescargas } from '../../domain/publico/descargas';
import { accountOf, actorOf, type AppState } from '../context';
import { jsonBody } from '../middleware/body';
import { parse } from '../parse';

const email = z.email('Correo electrónico no válido').max(254);
const IdParam = z.object({ id: z.string() });

/** Asking the other party for data, sending a DeCA to the driver, and the public download log. */
export function decasEnvioRoutes(router: Router<AppState>, deps: AppDeps, domain: DomainContext): void {
  const body = jsonBody(16 * 1024);

  router.post('/decas/:id/pedir-datos', body, async (ctx) => {
    const input = parse(z.object({ email: email.optional() }), ctx.state.body);
    const { id } = parse(IdParam, ctx.params);
    ctx.body = await pedirDatos(domain, actorOf(ctx), accountOf(ctx), id, input.email ?? null);
    if (input.email) deps.onMailQueued?.();
  });

  router.post('/decas/:id/enviar', body, async (ctx) => {
    const input = parse(z.object({ email }), ctx.state.body);
    const { id } = parse(IdParam, ctx.params);
    ctx.body = await enviarDeca(domain, actorOf(ctx), accountOf(ctx), id, input.email);
    deps.onMailQueued?.();
  });

  router.get('/decas/:id/descargas', async (ctx) => {
    const { id } = parse(IdParam, ctx.params);
    const body: DescargasList = { descargas: await listarDescargas(deps.database.db, actorOf(ctx), id) };
    ctx.body = body;
  });
}
