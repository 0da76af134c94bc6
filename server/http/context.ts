import type Koa from 'koa';
import type { Logger } from '../log';
import type { Actor } from '../domain/actor';
import type { AccountRow, UserRow } from '../db/schema';
import type { Entorno } from '../../shared/schemas/cuenta';

/** What middleware leaves on `ctx.state` for the handlers after it. */
export interface AppState {
  requestId: string;
  log: Logger;
  /** Mount point's environment (`/api/v1` → produccion, `/demo/api/v1` → pruebas). */
  entorno?: Entorno;
  actor?: Actor;
  account?: AccountRow;
  /** Signed-in user of a web session. */
  user?: UserRow;
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

/** The authenticated account (see actorOf). */
export function accountOf(ctx: AppContext): AccountRow {
  const account = ctx.state.account;
  if (!account) throw new Error('auth middleware did not run before this handler');
  return account;
}
