import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../support/processes';

const DEPCRUISE = path.join(ROOT, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');

function cruise(cwd: string): { status: number | null; out: string } {
  const r = spawnSync(process.execPath, [DEPCRUISE, 'server', 'shared', 'client', '--config', '.dependency-cruiser.cjs'], { cwd, encoding: 'utf8' });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

const tmp = mkdtempSync(path.join(os.tmpdir(), 'deca-capas-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** A tree with the project's rules and the given files. */
function arbol(nombre: string, files: Record<string, string>): string {
  const dir = path.join(tmp, nombre);
  for (const [f, text] of Object.entries({ 'server/domain/ok.ts': 'export const ok = 1;\n', 'shared/ok.ts': 'export const s = 1;\n', 'client/ok.ts': 'export const c = 1;\n', ...files })) {
    mkdirSync(path.dirname(path.join(dir, f)), { recursive: true });
    writeFileSync(path.join(dir, f), text);
  }
  copyFileSync(path.join(ROOT, '.dependency-cruiser.cjs'), path.join(dir, '.dependency-cruiser.cjs'));
  writeFileSync(path.join(dir, 'tsconfig.base.json'), JSON.stringify({ compilerOptions: { module: 'ESNext', moduleResolution: 'bundler' } }));
  return dir;
}

describe('layer boundaries (npm run typecheck runs the same check)', () => {
  // Each cruise is a Node process of its own: seconds of CPU, more on a loaded machine
  // (a cruise of the small trees below took over 5 s with the suites running beside it).
  it('the repository has no forbidden import', { timeout: 30_000 }, () => {
    const r = cruise(ROOT);
    expect(r.out).toContain('no dependency violations');
    expect(r.status).toBe(0);
  });

  it('fails on a domain → HTTP import', { timeout: 30_000 }, () => {
    const dir = arbol('dominio-http', {
      'server/http/context.ts': 'export type Ctx = { path: string };\n',
      'server/domain/decas/malo.ts': "import type { Ctx } from '../../http/context';\nexport const f = (c: Ctx) => c.path;\n",
    });
    const r = cruise(dir);
    expect(r.status).not.toBe(0);
    expect(r.out).toContain('dominio-sin-transporte: server/domain/decas/malo.ts → server/http/context.ts');
  });

  it('fails on a command → HTTP import, on shared/ importing Node or the server, and on the client importing the server', { timeout: 30_000 }, () => {
    const dir = arbol('comando-http', {
      'server/http/run.ts': 'export const run = 1;\n',
      'server/commands/malo.ts': "import { run } from '../http/run';\nexport const g = run;\n",
      'server/domain/x.ts': 'export const x = 1;\n',
      'shared/malo.ts': "import { createHash } from 'node:crypto';\nimport { x } from '../server/domain/x';\nexport const h = [createHash, x];\n",
      'client/malo.ts': "import { x } from '../server/domain/x';\nexport const c = x;\n",
    });
    const r = cruise(dir);
    expect(r.status).not.toBe(0);
    expect(r.out).toContain('comandos-sin-transporte: server/commands/malo.ts → server/http/run.ts');
    expect(r.out).toContain('shared-puro: shared/malo.ts → server/domain/x.ts');
    expect(r.out).toMatch(/shared-sin-node: shared\/malo\.ts → (node:)?crypto/);
    expect(r.out).toContain('cliente-sin-servidor: client/malo.ts → server/domain/x.ts');
  });

  it('fails on a command importing server/db, even a type', { timeout: 30_000 }, () => {
    const dir = arbol('comando-db', {
      'server/db/schema.ts': 'export interface DB { users: { id: number } }\n',
      'server/commands/malo.ts': "import type { DB } from '../db/schema';\nexport type Usuarios = DB['users'];\n",
    });
    const r = cruise(dir);
    expect(r.status).not.toBe(0);
    expect(r.out).toContain('comandos-sin-db: server/commands/malo.ts → server/db/schema.ts');
  });

  it('fails on a public page importing anything of the server but the pages, types included', { timeout: 30_000 }, () => {
    const dir = arbol('pagina-filas', {
      'server/domain/decas/queries.ts': 'export type DecaConRefs = { numero: string };\n',
      'server/http/pages/html.ts': 'export const html = (s: string) => s;\n',
      'server/http/pages/malo.ts': "import type { DecaConRefs } from '../../domain/decas/queries';\nimport { html } from './html';\nexport const f = (row: DecaConRefs) => html(row.numero);\n",
    });
    const r = cruise(dir);
    expect(r.status).not.toBe(0);
    expect(r.out).toContain('paginas-sin-filas: server/http/pages/malo.ts → server/domain/decas/queries.ts');
    expect(r.out).not.toContain('server/http/pages/malo.ts → server/http/pages/html.ts');
  });

  it('fails on a door importing a value of the domain or what lies beside it; types and the outage check pass', { timeout: 30_000 }, () => {
    const dir = arbol('transporte-valores', {
      'server/domain/accounts/sessions.ts': 'export type Sesion = { id: number };\nexport const leerSesion = (id: number): Sesion => ({ id });\n',
      'server/documents/qr.ts': 'export const qr = 1;\n',
      'server/db/errores.ts': 'export const comoNoDisponible = (e: unknown) => e;\n',
      'server/http/middleware/malo.ts': "import { leerSesion } from '../../domain/accounts/sessions';\nexport const s = leerSesion(1);\n",
      // A value import beside a type-only one from the same module is still a value import.
      'server/http/routes/mixto.ts':
        "import type { Sesion } from '../../domain/accounts/sessions';\nimport { leerSesion } from '../../domain/accounts/sessions';\nexport const s: Sesion = leerSesion(2);\n",
      'server/admin/malo.ts': "import { qr } from '../documents/qr';\nexport const a = qr;\n",
      'server/http/bien.ts': "import type { Sesion } from '../domain/accounts/sessions';\nimport { comoNoDisponible } from '../db/errores';\nexport const b = (s: Sesion) => comoNoDisponible(s);\n",
    });
    const r = cruise(dir);
    expect(r.status).not.toBe(0);
    expect(r.out).toContain('transporte-dominio-solo-tipos: server/http/middleware/malo.ts → server/domain/accounts/sessions.ts');
    expect(r.out).toContain('transporte-dominio-solo-tipos: server/http/routes/mixto.ts → server/domain/accounts/sessions.ts');
    expect(r.out).toContain('transporte-dominio-solo-tipos: server/admin/malo.ts → server/documents/qr.ts');
    expect(r.out).not.toContain('server/http/bien.ts');
  });
});
