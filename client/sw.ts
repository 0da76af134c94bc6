/// <reference lib="webworker" />
import { clientsClaim, setCacheNameDetails } from 'workbox-core';
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: Array<{ url: string; revision: string | null }> };

// Versioned cache names: a change of scheme gets a fresh cache, and the old one is dropped below.
setCacheNameDetails({ prefix: 'deca', suffix: 'v1' });

// ── Caching: the app shell (HTML, JS, CSS of every screen) is precached, so the app starts with no network.
cleanupOutdatedCaches();
precacheAndRoute(self.__WB_MANIFEST);

// Client routes (deep links such as /decas/2026-000012) open offline: every navigation gets the shell,
// except the server's own pages and APIs (public DeCA pages, completion and e-mail confirmation links, API, MCP).
registerRoute(
  new NavigationRoute(createHandlerBoundToURL('/index.html'), {
    denylist: [/^\/(api|demo|app\/api|mcp|healthz|d|p|completar|confirmar)(\/|$)/],
  }),
);

// ── Lifecycle: a new version waits until the page accepts the «update available» prompt.
self.addEventListener('message', (event) => {
  if ((event.data as { type?: string } | null)?.type === 'SKIP_WAITING') void self.skipWaiting();
});
// The first install controls the open page at once (no reload needed to work offline).
clientsClaim();
