import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/processes';

/**
 * One name, one function: no two files of the product export a function of
 * the same name (a reader, or an import, would have to tell which layer's
 * `crearDeca` is meant). Migrations export `up` and `down` by contract.
 */
function fuentes(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : fuentes(p);
    return /\.(ts|tsx)$/.test(e.name) && !e.name.endsWith('.d.ts') ? [p] : [];
  });
}

describe('exported function names', () => {
  it('are unique across server, shared and client', () => {
    const donde = new Map<string, Set<string>>();
    for (const f of ['server', 'shared', 'client'].flatMap((d) => fuentes(path.join(ROOT, d)))) {
      const rel = path.relative(ROOT, f);
      if (rel.startsWith('server/db/migrations/')) continue;
      for (const m of readFileSync(f, 'utf8').matchAll(/^export (?:async )?function\*? ?([A-Za-z0-9_$]+)/gm)) {
        const nombre = m[1]!;
        donde.set(nombre, (donde.get(nombre) ?? new Set()).add(rel));
      }
    }
    expect(donde.size).toBeGreaterThan(100);
    const repetidos = [...donde].filter(([, archivos]) => archivos.size > 1).map(([n, archivos]) => `${n}: ${[...archivos].join(', ')}`);
    expect(repetidos).toEqual([]);
  });
});
