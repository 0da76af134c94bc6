/**
 * One list of the server's paths (shared/rutas-servidor.ts) decides where
 * the server sends the app shell, which navigations the service worker
 * answers from its cache and which links the app's router leaves to the
 * browser. Every route the server mounts must be in it, or a reload there
 * (online or offline) would show the app instead of the server's page; and
 * no screen of the app may be, or its deep link would never open offline.
 */
import { describe, expect } from 'vitest';
import { routerApi } from '../../server/app';
import { createAppApiRouter } from '../../server/http/routes/app-api';
import { createDocsRouter } from '../../server/http/routes/docs';
import { createEftiRouter } from '../../server/http/routes/efti';
import { createPublicRouter } from '../../server/http/routes/public';
import { esRutaDelServidor } from '../../shared/rutas-servidor';
import { clienteDePrueba } from '../support/cliente';
import { it, test } from '../support/fixtures';

test.override('opcionesApp', { clientDir: clienteDePrueba() });

/** A concrete path for a router's pattern (`/d/:token.pdf` → `/d/x.pdf`). */
const ejemplo = (patron: string): string => patron.replace(/:(\w+)/g, 'x');

describe("the one list of the server's paths", () => {
  it("holds every route the server mounts, and none of the app's screens", async ({ app }) => {
    const deps = { config: app.config, services: app.services };
    const rutas = [
      ...[routerApi(deps, '/api/v1'), routerApi(deps, '/demo/api/v1'), createPublicRouter(deps), createDocsRouter(), createAppApiRouter(deps), createEftiRouter(deps)].flatMap((r) =>
        r.stack.filter((l) => l.methods.length > 0).map((l) => String(l.path)),
      ),
      '/mcp',
      '/demo/mcp',
      '/healthz',
      '/readyz',
      '/.well-known/oauth-protected-resource',
    ];
    expect(rutas.length).toBeGreaterThan(60);
    expect(rutas.filter((r) => !esRutaDelServidor(ejemplo(r)))).toEqual([]);

    const pantallas = ['/', '/decas/2026-000012', '/decas/nueva', '/agenda', '/cuenta', '/usuarios', '/importar', '/olvido', '/restablecer/abc', '/invitacion/abc', '/entrar', '/registro'];
    expect(pantallas.filter(esRutaDelServidor)).toEqual([]);
    // The app's screens get the shell from the server (a reload of a deep link), the server's paths never do.
    for (const p of pantallas.slice(0, 3)) {
      const r = await app.request('GET', p);
      expect(r.status, p).toBe(200);
      expect(r.headers.get('content-type'), p).toMatch(/text\/html/);
    }
    for (const p of ['/.well-known/oauth-authorization-server', '/api/v1/no-existe', '/app/api/no-existe']) {
      const r = await app.request('GET', p);
      expect(r.status, p).toBeGreaterThanOrEqual(400);
      expect(r.headers.get('content-type'), p).toMatch(/application\/json/);
    }
  });
});
