import Router from '@koa/router';
import type { Entorno } from '../../../shared/schemas/cuenta';
import { ejecutar } from '../../commands/command';
import { autenticarPasarela, consultaPasarelaCommand, exigirPasarelaConfigurada, LIMITE_MENSAJE_KB } from '../../commands/efti';
import type { AppDeps } from '../../deps';
import type { AppState } from '../context';
import { KB, readBody, textoUtf8 } from '../middleware/body';

/** Where a national eFTI gate sends its queries: real data, and the test environment's (with its own secret). */
export const RUTAS_PASARELA: readonly (readonly [string, Entorno])[] = [
  ['/efti/consultas', 'produccion'],
  ['/demo/efti/consultas', 'pruebas'],
];

/**
 * The platform's door for a national eFTI gate (docs/efti.md): the gate
 * POSTs a `uilQuery` or an `identifierQuery` (XML) signed with its secret,
 * and gets the response message back in the answer, with the response's
 * status as the HTTP status (200, 400, 404). 404 when no gate is configured
 * for the environment, 401 for a request not signed by it (or replayed);
 * both before the message is read. Parsing, the search and the log are the
 * command's.
 */
export function createEftiRouter({ services }: AppDeps): Router<AppState> {
  const router = new Router<AppState>();
  for (const [ruta, entorno] of RUTAS_PASARELA) {
    router.post(ruta, async (ctx) => {
      exigirPasarelaConfigurada(services, entorno);
      const cuerpo = await readBody(ctx.req, LIMITE_MENSAJE_KB * KB);
      const pasarela = autenticarPasarela(services, entorno, { gateId: ctx.get('efti-gate-id'), firma: ctx.get('efti-firma'), metodo: ctx.method, ruta: ctx.path, cuerpo });
      const r = (await ejecutar(services, consultaPasarelaCommand, pasarela, { xml: textoUtf8(cuerpo, 'El mensaje') })).valor;
      ctx.status = r.estado;
      ctx.set('Cache-Control', 'no-store');
      ctx.type = 'application/xml; charset=utf-8';
      ctx.body = r.xml;
    });
  }
  return router;
}
