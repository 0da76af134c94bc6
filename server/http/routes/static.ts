import { existsSync } from 'node:fs';
import path from 'node:path';
import send from 'koa-send';
import { esRutaDelServidor } from '../../../shared/rutas-servidor';
import type { AppMiddleware } from '../context';

/**
 * The app's Content-Security-Policy: everything it loads is its own, with no
 * inline script or style (the built index.html has none; Preact sets styles
 * through the CSSOM, which style-src does not govern), no eval (zod runs
 * jitless in the client), and no framing: a framed app could lure a tap on
 * «Revocar» or «Eliminar». `blob:` images are the stored QR codes shown
 * offline; `data:` covers small inline images; `frame-src blob:` is the
 * hidden frame that prints a DeCA's PDF. The service worker's own fetches
 * follow the policy of sw.js, served here too: connect-src 'self' is all the
 * precache needs. The service worker's cached index.html keeps these headers,
 * so the policy also holds offline.
 */
export const APP_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "worker-src 'self'",
  "manifest-src 'self'",
  "object-src 'none'",
  // «Imprimir» prints the DeCA's own PDF: the app's blob of it in a hidden frame, whose print() prints the document.
  // Only blob: URLs, which only this origin can make; nothing of another site can be framed.
  'frame-src blob:',
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * Serve the built PWA from `root`: hashed assets cached for a year, the shell
 * and service worker revalidated on every load, and client routes (deep
 * links) answered with index.html so a reload never 404s.
 */
export function serveClient(root: string): AppMiddleware {
  return async (ctx, next) => {
    // The server's own paths never get the shell: what no route there answers is a 404 (JSON errors for
    // the APIs; `/.well-known/` is probed by MCP clients that read the answer as OAuth metadata).
    if ((ctx.method !== 'GET' && ctx.method !== 'HEAD') || esRutaDelServidor(ctx.path)) return next();
    if (!existsSync(path.join(root, 'index.html'))) {
      if (path.extname(ctx.path)) return next();
      ctx.status = 503;
      ctx.type = 'text/plain; charset=utf-8';
      ctx.body = 'La aplicación web no está compilada: ejecute «npm run build» (npm start lo hace solo).';
      return;
    }
    const setHeaders = (res: import('node:http').ServerResponse, file: string): void => {
      if (file.includes(`${path.sep}assets${path.sep}`)) res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
      else res.setHeader('Cache-Control', 'no-cache');
      res.setHeader('Content-Security-Policy', APP_CSP);
      // frame-ancestors' counterpart for browsers that predate it.
      res.setHeader('X-Frame-Options', 'DENY');
    };
    try {
      const served = await send(ctx, ctx.path, { root, index: 'index.html', setHeaders, brotli: false, gzip: false });
      if (served) return;
    } catch (err) {
      const status = (err as { status?: number }).status;
      if (status !== 404 && status !== 400) throw err;
    }
    // A file-like path that does not exist is a real 404, not a client route.
    if (path.extname(ctx.path)) return next();
    await send(ctx, 'index.html', { root, setHeaders });
  };
}
