import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that take a minute or more, started first: vitest runs a group's
 * projects one after another by name (integration, meta, unit), so the
 * nested test runs of `meta/herramientas` (~95 s on two loaded cores) would
 * otherwise start once every integration file had, and end the group alone
 * on one core while the other waits.
 */
const PRIMERO = ['test/meta/herramientas.test.ts', 'test/integration/procesos.test.ts', 'test/integration/parada.test.ts', 'test/integration/cli.test.ts'];

export class Secuenciador extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const base = await super.sort(files);
    const peso = (f: TestSpecification) => f.project.config.sequence.groupOrder * 10 + (PRIMERO.some((p) => f.moduleId.endsWith(p)) ? 0 : 1);
    return base
      .map((f, i) => ({ f, i }))
      .sort((a, b) => peso(a.f) - peso(b.f) || a.i - b.i)
      .map((x) => x.f);
  }
}
