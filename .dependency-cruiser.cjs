/**
 * The layers of the server, checked on every build (`npm run typecheck`):
 * transports (server/http, MCP included, and server/admin) sit on the commands,
 * the commands on the domain, and nothing below a transport may reach up
 * into one. `shared/` is pure: no server, no client, no Node.
 * @type {import('dependency-cruiser').IConfiguration}
 */
module.exports = {
  forbidden: [
    {
      name: 'dominio-sin-transporte',
      comment: 'The domain never imports a transport (HTTP, CLI, MCP), Koa, or the command layer above it.',
      severity: 'error',
      from: { path: '^server/(domain|db|documents|jobs|net|ocr)/' },
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
