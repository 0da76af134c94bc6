import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/processes';

/**
 * The command layer owns the transaction: a command prepares outside it and
 * returns a plan, `ejecutar` opens the one transaction its writes run in
 * (server/domain/plan.ts, `escribirPlan`). So no door, command or use case
 * opens one of its own; only the plan runner, the database layer, and the
 * background workers' claim-and-record steps, which no command runs.
 */
const PERMITIDOS: Record<string, string> = {
  'server/domain/plan.ts': 'the one transaction of every command (escribirPlan)',
  'server/domain/webhooks/entregas.ts': 'the webhook worker claims a batch, releases it and records an attempt (server/jobs)',
  'server/jobs/mail-delivery.ts': 'the mail worker claims a batch (server/jobs)',
};

function fuentes(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return fuentes(p);
    return /\.(ts|tsx)$/.test(e.name) ? [p] : [];
  });
}

describe('who opens a transaction', () => {
  it('only the plan runner, the database layer and the background workers: never a door, a command or a use case', () => {
    const abren = fuentes(path.join(ROOT, 'server'))
      .map((f) => path.relative(ROOT, f))
      .filter((f) => !f.startsWith('server/db/'))
      .filter((f) => /\.transaction\(\)/.test(readFileSync(path.join(ROOT, f), 'utf8')));
    expect(abren).toContain('server/domain/plan.ts');
    // A file named here opens a transaction of its own: its writes belong in a plan's `aplicar` (docs/ARCHITECTURE.md).
    expect(abren.filter((f) => !(f in PERMITIDOS))).toEqual([]);
  });
});
