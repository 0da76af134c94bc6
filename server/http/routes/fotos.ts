import type Router from '@koa/router';
import { leerAlbaran } from '../../commands/fotos';
import type { AppDeps } from '../../deps';
import type { AppState } from '../context';
import { leerFotoSubida } from '../middleware/subida';
import { autorizarAntes, correr } from '../run';

/** Reading a delivery note's photo (spec: POST /fotos). */
export function fotosRoutes(router: Router<AppState>, { services }: AppDeps): void {
  router.post('/fotos', async (ctx) => {
    autorizarAntes(ctx, leerAlbaran);
    const foto = await leerFotoSubida(ctx.req);
    ctx.body = await correr(ctx, services, leerAlbaran, { foto });
  });
}
