/**
 * The layers of the server, checked on every build (`npm run typecheck`):
 * transports (server/http, MCP included, and server/admin) sit on the commands,
 * the commands on the domain, and nothing below a transport may reach up
 * into one. Transports take only types from below the commands, commands
 * never touch server/db, and the public pages see only shared views.
 * `shared/` is pure: no server, no client, no Node.
 * @type {import('dependency-cruiser').IConfiguration}
 */
module.exports = {
  forbidden: [
    {
      name: 'dominio-sin-transporte',
      comment: 'The domain never imports a transport (HTTP, CLI, MCP), Koa, or the command layer above it.',
      severity: 'error',
      from: { path: '^server/(domain|db|documents|jobs|net|ocr|blobs)/' },
      to: { path: ['^server/(http|admin|commands)/', '^server/(app|main|cli)\\.ts$', '^node_modules/(@types/)?(koa|@koa|koa__[\\w-]+|koa-[\\w-]+)/'] },
    },
    {
      name: 'comandos-sin-transporte',
      comment: 'Commands are what every front door calls: they never depend on one of them.',
      severity: 'error',
      from: { path: '^server/commands/' },
      to: { path: ['^server/(http|admin)/', '^server/(app|main|cli)\\.ts$', '^node_modules/(@types/)?(koa|@koa|koa__[\\w-]+|koa-[\\w-]+)/'] },
    },
    {
      name: 'comandos-sin-db',
      comment: 'Commands run no SQL: every query is a domain function, every row is presented there. They never import server/db, not even its types.',
      severity: 'error',
      from: { path: '^server/commands/' },
      to: { path: '^server/db/' },
    },
    {
      name: 'paginas-sin-filas',
      comment: 'The public pages render views presented by the commands (shared/schemas/publico.ts): they import shared/ and each other, nothing else of the server, so no row reaches them.',
      severity: 'error',
      from: { path: '^server/http/pages/' },
      to: { path: '^server/', pathNot: '^server/http/pages/' },
    },
    {
      name: 'transporte-dominio-solo-tipos',
      comment:
        'The doors (HTTP, MCP, the CLI socket) reach the domain through the commands: from the layers below they import types only. ' +
        'The one exception is server/db/errores.ts: `comoNoDisponible` recognises a database outage wherever it surfaces in a request ' +
        '(in a command, in the auth middleware, in a body being read) so the door answers 503 with Retry-After in its own format ' +
        '(JSON, JSON-RPC or an HTML page); it reads an error, never the database.',
      severity: 'error',
      from: { path: '^server/(http|admin)/' },
      to: { path: '^server/(domain|db|documents|jobs|net|ocr|blobs)/', pathNot: '^server/db/errores\\.ts$', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'shared-puro',
      comment: 'shared/ runs on the server and in the browser: it imports neither side, nor Node.',
      severity: 'error',
      from: { path: '^shared/' },
      to: { path: ['^server/', '^client/'] },
    },
    {
      name: 'shared-sin-node',
      severity: 'error',
      from: { path: '^shared/' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'cliente-sin-servidor',
      comment: 'The app never bundles server code.',
      severity: 'error',
      from: { path: '^client/' },
      to: { path: '^server/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    exclude: { path: ['^dist'] },
  },
};
