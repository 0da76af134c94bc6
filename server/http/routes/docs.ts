import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import Router from '@koa/router';
import type { AppState } from '../context';

const dist = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

const JS = 'application/javascript; charset=utf-8';

/**
 * Swagger UI's files, served from here (no CDN): the page works wherever the
 * service does. Read at the first request for one (2 MB nobody may ask for
 * is not read at every start), then kept.
 */
const ARCHIVOS: Record<string, { tipo: string; cuerpo: Buffer | string | (() => Buffer) }> = {
  'swagger-ui-bundle.js': { tipo: JS, cuerpo: () => readFileSync(path.join(dist, 'swagger-ui-bundle.js')) },
  'swagger-ui-standalone-preset.js': { tipo: JS, cuerpo: () => readFileSync(path.join(dist, 'swagger-ui-standalone-preset.js')) },
  'swagger-ui.css': { tipo: 'text/css; charset=utf-8', cuerpo: () => readFileSync(path.join(dist, 'swagger-ui.css')) },
  // Our own start-up script (the page has no inline script): both environments' documents, production first.
  'iniciar.js': {
    tipo: JS,
    cuerpo: `window.ui = SwaggerUIBundle({
  urls: [
    { url: '/api/v1/openapi.json', name: 'Producción' },
    { url: '/demo/api/v1/openapi.json', name: 'Pruebas' }
  ],
  dom_id: '#referencia',
  deepLinking: true,
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
  plugins: [SwaggerUIBundle.plugins.DownloadUrl],
  layout: 'StandaloneLayout'
});
`,
  },
};

const PAGINA = `<!doctype html>
<html lang="es"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Referencia de la API · DeCA</title>
<link rel="stylesheet" href="/docs/swagger-ui.css">
</head><body>
<div id="referencia"><noscript>La referencia necesita JavaScript. El documento OpenAPI está en <a href="/api/v1/openapi.json">/api/v1/openapi.json</a>.</noscript></div>
<script src="/docs/swagger-ui-bundle.js"></script>
<script src="/docs/swagger-ui-standalone-preset.js"></script>
<script src="/docs/iniciar.js"></script>
</body></html>
`;

/**
 * The API reference at /docs: Swagger UI (from npm, served here) over the
 * OpenAPI documents of both environments. Its own CSP: scripts only from
 * here, and inline styles, which the renderer sets on its elements.
 */
export function createDocsRouter(): Router<AppState> {
  const router = new Router<AppState>();
  const csp =
    "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; font-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
  router.get('/docs', (ctx) => {
    ctx.set('Content-Security-Policy', csp);
    ctx.set('Cache-Control', 'no-cache');
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = PAGINA;
  });
  router.get('/docs/:archivo', (ctx) => {
    const a = ARCHIVOS[ctx.params.archivo ?? ''];
    if (!a) return;
    if (typeof a.cuerpo === 'function') a.cuerpo = a.cuerpo();
    ctx.set('Cache-Control', 'public, max-age=3600');
    ctx.type = a.tipo;
    ctx.body = a.cuerpo;
  });
  return router;
}
