import type { RolUsuario } from '../../shared/rules/roles';
import type { Entorno } from '../../shared/schemas/cuenta';
import type { AccountRow } from '../db/schema';

/** Where a change came from (`canal` of a DeCA). */
export type Canal = 'api' | 'web' | 'mcp' | 'importacion';

/**
 * Who is acting for an account, as the domain sees it: never the Koa
 * context. Built by a front door from an API key (REST, MCP) or a web
 * session (the app), or by the importer and the completion link.
 */
export interface Actor {
  accountId: number;
  /** The account acted for, as read when the request was authenticated. */
  cuenta: AccountRow;
  entorno: Entorno;
  canal: Canal;
  /** API key used, or null for a web session. */
  keyId: number | null;
  /** Signed-in user, or null for an API key. */
  userId: number | null;
  /** The user's role in the account; null for an API key (keys are never administrators). */
  rol: RolUsuario | null;
  soloLectura: boolean;
  /** How the actor is named in the change history: the key's prefix or the user's e-mail. */
  etiqueta: string;
}

/** Someone with no account: the inspector opening a QR, the other party on a completion link. */
export interface Visitante {
  ip: string;
  /** The User-Agent as sent ('' when none). */
  navegador: string;
  /** Why this request is a robot's (link preview, prefetch, mail scanner), or null for a person. */
  robot: string | null;
}

/** The operator at the command line (administration commands). */
export interface Operador {
  operador: true;
}

/**
 * A national eFTI gate, authenticated by the signature of its request
 * (server/domain/efti/firma.ts): it acts for no account, and reads the
 * issued DeCAs of one environment only — the one its secret is for.
 */
export interface Pasarela {
  pasarela: true;
  gateId: string;
  entorno: Entorno;
  /** SHA-256 of the request's signature: recorded once, so the same signed request is never answered twice. */
  firmaSha256: string;
}
