import Router from '@koa/router';
import Koa from 'koa';
import compress from 'koa-compress';
import zlib from 'node:zlib';
import compose from 'koa-compose';
import { sql } from 'kysely';
import path from 'node:path';
import type { Entorno } from '../shared/schemas/cuenta';
import type { Clock } from './clock';
import type { Config } from './config';
import type { Database } from './db/open';
import type { AppMiddleware, AppState } from './http/context';
import { authenticate, requireWriteAccess } from './http/middleware/auth';
import { withErrors } from './http/middleware/errors';
import { requireContentLength } from './http/middleware/firewall';
import { withRequestId } from './http/middleware/request-id';
import type { RateLimits } from './http/rate-limits';
import { createAppApiRouter } from './http/routes/app-api';
import { cuentaRoutes } from './http/routes/cuenta';
import { decasRoutes } from './http/routes/decas';
import { webhooksRoutes } from './http/routes/webhooks';
import { decasEnvioRoutes } from './http/routes/decas-envio';
import { createPublicRouter } from './http/routes/public';
import type { DomainContext } from './domain/context';
import type { DecaPdfRenderer } from './documents/pdf-pool';
import { serveClient } from './http/routes/static';
import type { Logger } from './log';

/** Everything the app needs, passed in (tests build apps freely). */
export interface AppDeps {
  config: Config;
  database: Database;
  clock: Clock;
  log: Logger;
  limits: RateLimits;
  /** Renders DeCA PDFs (the worker pool in the server). */
  renderPdf: DecaPdfRenderer;
  /** Called after a commit that queued mail, to wake the mail worker. */
  onMailQueued?: () => void;
  /** Built client (Vite output); defaults to dist/client. */
  clientDir?: string;
}

/**
 * One API mount point. Authentication, the rate limit and the read-only check
 * run for every path under the prefix (unknown ones too), so each answer
 * carries the RateLimit fields and no path reveals anything without a key.
 */
function mountApi(app: Koa<AppState>, deps: AppDeps, domain: DomainContext, prefix: string, entorno: Entorno): void {
  const router = new Router<AppState>({ prefix });
  cuentaRoutes(router, deps);
  decasRoutes(router, deps, domain);
  webhooksRoutes(router, deps);
  decasEnvioRoutes(router, deps, domain);
  const guard = compose([
    authenticate(
      {
        database: deps.database,
        clock: deps.clock,
        limits: deps.limits,
        trustProxy: deps.config.trustProxy,
        secureCookies: deps.config.siteUrl.startsWith('https:'),
      },
      entorno,
    ),
    requireWriteAccess(),
    router.routes() as unknown as AppMiddleware,
    router.allowedMethods({ throw: true }) as unknown as AppMiddleware,
  ]);
  app.use(async (ctx, next) => {
    if (ctx.path === prefix || ctx.path.startsWith(`${prefix}/`)) return guard(ctx, next);
    return next();
  });
}

/** Build the Koa application from its parts; it listens nowhere and starts no workers. */
export function createApp(deps: AppDeps): Koa<AppState> {
  const app = new Koa<AppState>({ proxy: deps.config.trustProxy });
  app.silent = true; // errors are logged once, by withErrors, with the request id

  app.use(withRequestId(deps.log));
  app.use(withErrors());
  // Text answers (app shell, JSON, public pages) compressed; PDFs and PNGs are already.
  app.use(compress({ threshold: 1024, br: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } } }));
  app.use(requireContentLength());

  const health = new Router<AppState>();
  health.get('/healthz', async (ctx) => {
    await sql`select 1`.execute(deps.database.db);
    ctx.body = { ok: true };
  });
  app.use(health.routes());

  const domain: DomainContext = { db: deps.database.db, clock: deps.clock, renderPdf: deps.renderPdf, siteUrl: deps.config.siteUrl };
  mountApi(app, deps, domain, '/api/v1', 'produccion');
  mountApi(app, deps, domain, '/demo/api/v1', 'pruebas');
  app.use(createPublicRouter(deps, domain).routes());

  const appApi = createAppApiRouter(deps);
  app.use(appApi.routes());
  app.use(appApi.allowedMethods({ throw: true }));

  app.use(serveClient(deps.clientDir ?? path.resolve('dist/client')));
  return app;
}
