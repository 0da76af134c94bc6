import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** One rule that failed, with where (selectors) and why, short enough to read in a test failure. */
export interface Infraccion {
  id: string;
  impacto: string | null;
  ayuda: string;
  donde: string[];
}

/**
 * Run axe-core on what the page shows now, against WCAG 2.0/2.1/2.2 A and AA.
 * The script is evaluated through the DevTools protocol, never added to the
 * page, so the app's Content-Security-Policy stays as strict as users get it.
 */
export async function auditarAccesibilidad(page: Page): Promise<Infraccion[]> {
  const cargado = await page.evaluate(() => typeof (globalThis as { axe?: unknown }).axe !== 'undefined');
  if (!cargado) await page.evaluate(`${AXE};0`);
  return page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run(ctx: unknown, opts: unknown): Promise<{ violations: { id: string; impact: string | null; help: string; nodes: { target: unknown[] }[] }[] }> } })
      .axe;
    const r = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] }, resultTypes: ['violations'] });
    return r.violations.map((v) => ({ id: v.id, impacto: v.impact, ayuda: v.help, donde: v.nodes.slice(0, 5).map((n) => String(n.target.join(' '))) }));
  });
}
