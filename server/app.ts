import zlib from 'node:zlib';
import Router from '@koa/router';
import Koa from 'koa';
import compose from 'koa-compose';
import compress from 'koa-compress';
import type { Entorno } from '../shared/schemas/cuenta';
import type { AppDeps } from './deps';
import type { AppMiddleware, AppState } from './http/context';
import { mountMcp } from './http/mcp';
import { authenticate } from './http/middleware/auth';
import { conditionalGet } from './http/middleware/conditional';
import { withErrors } from './http/middleware/errors';
import { requireContentLength } from './http/middleware/firewall';
import { serializeJson } from './http/middleware/json';
import { withRequestId } from './http/middleware/request-id';
import { withSecurityHeaders } from './http/middleware/security-headers';
import { documentoOpenApi } from './http/openapi';
import { apiRoutes } from './http/routes/api';
import { createAppApiRouter } from './http/routes/app-api';
import { createDocsRouter } from './http/routes/docs';
import { createEftiRouter } from './http/routes/efti';
import { createPublicRouter } from './http/routes/public';
import { serveClient } from './http/routes/static';

export type { AppDeps } from './deps';

/** Every route of the API, under `prefix`: the operation table's (what the OpenAPI document describes, one for one). */
export function routerApi(deps: AppDeps, prefix = ''): Router<AppState> {
  const router = new Router<AppState>({ prefix });
  apiRoutes(router, deps);
  return router;
}

/**
 * One API mount point. Authentication and the rate limit run for every path
 * under the prefix (unknown ones too), so each answer carries the RateLimit
 * fields and no path reveals anything without a key.
 */
function mountApi(app: Koa<AppState>, deps: AppDeps, prefix: string, entorno: Entorno): void {
  const router = routerApi(deps, prefix);
  const guard = compose([
    authenticate(deps.services, { trustProxy: deps.config.trustProxy, secureCookies: deps.config.siteUrl.startsWith('https:') }, entorno),
    router.routes() as unknown as AppMiddleware,
    router.allowedMethods({ throw: true }) as unknown as AppMiddleware,
  ]);
  // The OpenAPI document needs no key: it is what a developer reads before having one.
  let documento: string | null = null;
  app.use(async (ctx, next) => {
    if (ctx.path === `${prefix}/openapi.json` && (ctx.method === 'GET' || ctx.method === 'HEAD')) {
      documento ??= JSON.stringify(documentoOpenApi(deps.config.siteUrl, entorno));
      ctx.type = 'application/json; charset=utf-8';
      ctx.set('Cache-Control', 'public, max-age=300');
      ctx.set('Access-Control-Allow-Origin', '*');
      ctx.body = documento;
      return;
    }
    if (ctx.path === prefix || ctx.path.startsWith(`${prefix}/`)) return guard(ctx, next);
    return next();
  });
}

/** Build the Koa application from its parts; it listens nowhere and starts no workers. */
export function createApp(deps: AppDeps): Koa<AppState> {
  const app = new Koa<AppState>({ proxy: deps.config.trustProxy > 0, maxIpsCount: deps.config.trustProxy });
  app.silent = true; // errors are logged once, by withErrors, with the request id

  app.use(withRequestId(deps.services.log));
  app.use(withErrors());
  app.use(withSecurityHeaders(deps.config));
  // Text answers (app shell, JSON, public pages) compressed; PDFs and PNGs are already.
  app.use(compress({ threshold: 1024, br: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } } }));
  app.use(serializeJson());
  app.use(conditionalGet());
  app.use(requireContentLength());

  // Liveness (an orchestrator restarts a process that stops answering it): the process answers,
  // nothing else is asked. Readiness (a load balancer sends traffic only while it is 200): the
  // database answers, the workers run, and the process is not stopping; else 503 no_disponible.
  const health = new Router<AppState>();
  health.get('/healthz', (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { ok: true };
  });
  health.get('/readyz', async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    await deps.services.readiness.check(deps.services.db);
    ctx.body = { ok: true };
  });
  app.use(health.routes());

  app.use(mountMcp(deps, '/mcp', 'produccion'));
  app.use(mountMcp(deps, '/demo/mcp', 'pruebas'));
  mountApi(app, deps, '/api/v1', 'produccion');
  mountApi(app, deps, '/demo/api/v1', 'pruebas');
  app.use(createEftiRouter(deps).routes());
  app.use(createPublicRouter(deps).routes());
  app.use(createDocsRouter().routes());

  const appApi = createAppApiRouter(deps);
  app.use(appApi.routes());
  app.use(appApi.allowedMethods({ throw: true }));

  app.use(serveClient(deps.config.clientDir));
  return app;
}
