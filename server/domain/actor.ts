import type { Entorno } from '../../shared/schemas/cuenta';

/** Where a change came from (DESIGN.md: `canal`). */
export type Canal = 'api' | 'web' | 'mcp' | 'importacion';

/**
 * Who is acting, as the domain sees it: never the Koa context. Set by the
 * auth middleware (API key or web session), the MCP server or the importer.
 */
export interface Actor {
  accountId: number;
  entorno: Entorno;
  canal: Canal;
  /** API key used, or null for a web session. */
  keyId: number | null;
  /** Signed-in user, or null for an API key. */
  userId: number | null;
  soloLectura: boolean;
  /** How the actor is named in the change history: the key's prefix or the user's e-mail. */
  etiqueta: string;
}
