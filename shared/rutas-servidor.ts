/**
 * The paths the server answers itself, by their first segment: the API and
 * MCP (both environments), the app's own API, health, the API reference,
 * the public DeCA pages (`/d/…`, a delivery receipt's `/e/…`, the consignee's signing link `/f/…`, the completion form and its script under
 * `/p/`, a closed account's data under `/p/exportacion/`), e-mail
 * confirmation, the authenticity check, the privacy page, the eFTI gate's
 * door (`/efti/…`; `/demo/efti/…` is under `demo`), and `/.well-known/`
 * (never served: a 404, not the app). Every other path is the web app's
 * (`/`, `/decas/…`, `/restablecer/…`, …).
 *
 * One list for the three places that must agree: the server sends the app
 * shell for no path here (server/http/routes/static.ts), the service worker
 * never answers a navigation here from its cache (client/sw.ts), and the
 * app's router lets a link here load the server's page (client/app/router.ts).
 */
export const PREFIJOS_DEL_SERVIDOR = [
  'api',
  'demo',
  'app/api',
  'mcp',
  'healthz',
  'readyz',
  'docs',
  '.well-known',
  'd',
  'e',
  'f',
  'p',
  'completar',
  'confirmar',
  'verificar',
  'privacidad',
  'efti',
] as const;

const escapar = (s: string): string => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** A path (no query) the server answers, not the web app. */
export const RUTA_DEL_SERVIDOR = new RegExp(`^/(${PREFIJOS_DEL_SERVIDOR.map(escapar).join('|')})(/|$)`);

export function esRutaDelServidor(path: string): boolean {
  return RUTA_DEL_SERVIDOR.test(path);
}
