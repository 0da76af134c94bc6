import { Readable } from 'node:stream';
import type Router from '@koa/router';
import { exportarCsv, importarCsv } from '../../commands/importar';
import type { AppDeps } from '../../deps';
import type { AppState } from '../context';
import { leerCsvSubido } from '../middleware/subida';
import { autorizarAntes, correr } from '../run';

/** CSV import (spec: POST /importar) and the list's export in the same columns (GET /decas.csv). */
export function importarRoutes(router: Router<AppState>, { services }: AppDeps): void {
  router.post('/importar', async (ctx) => {
    autorizarAntes(ctx, importarCsv);
    const archivo = await leerCsvSubido(ctx.req);
    ctx.body = await correr(ctx, services, importarCsv, { ...ctx.query, archivo });
  });

  router.get('/decas.csv', async (ctx) => {
    const lineas = await correr(ctx, services, exportarCsv, ctx.query);
    ctx.type = 'text/csv; charset=utf-8';
    ctx.set('Content-Disposition', 'attachment; filename="decas.csv"');
    ctx.set('Cache-Control', 'no-store');
    ctx.body = Readable.from(lineas);
  });
}
