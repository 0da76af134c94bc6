import type Koa from 'koa';
import { motivoRobot } from '../../shared/rules/robots';
import type { Entorno } from '../../shared/schemas/cuenta';
import type { Actor, Visitante } from '../domain/actor';
import type { Logger } from '../log';
import { clientIp } from './client-ip';

/** What middleware leaves on `ctx.state` for the handlers after it. */
export interface AppState {
  requestId: string;
  log: Logger;
  /** Mount point's environment (`/api/v1` → produccion, `/demo/api/v1` → pruebas). */
  entorno?: Entorno;
  actor?: Actor;
  /** Parsed request body (JSON), set by the body middleware. */
  body?: unknown;
}

export type AppContext = Koa.ParameterizedContext<AppState>;
export type AppMiddleware = Koa.Middleware<AppState>;

/** The authenticated actor, or a programming error if auth did not run first. */
export function actorOf(ctx: AppContext): Actor {
  const actor = ctx.state.actor;
  if (!actor) throw new Error('auth middleware did not run before this handler');
  return actor;
}

/** The visitor of a public request: IP (TRUST_PROXY aware), browser, and whether it is a robot. */
export function visitanteOf(ctx: AppContext, trustProxy: number): Visitante {
  const navegador = ctx.get('user-agent');
  return {
    ip: clientIp(ctx, trustProxy),
    navegador,
    robot: motivoRobot({ method: ctx.method, userAgent: navegador, headers: (h) => ctx.get(h) }),
  };
}
