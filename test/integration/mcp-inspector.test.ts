/**
 * A real MCP client: the MCP inspector's CLI mode (no browser) lists the
 * tools of /mcp with an API key in a header, as the README tells users to.
 * The inspector needs Node ≥ 22.19; .ci/run installs both under .tmp/.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect } from 'vitest';
import { it } from '../support/fixtures';
import { herramienta } from '../support/herramientas';

const run = promisify(execFile);
const inspector = herramienta('mcp-inspector');
const node = inspector ? herramienta('node-22') : null;

describe.skipIf(!inspector || !node)('MCP inspector (CLI mode)', () => {
  it('lists the tools of /mcp with the key in a header, and calls one', { timeout: 120_000 }, async ({ app, c }) => {
    const base = [inspector!, '--cli', `${app.url}/mcp`, '--transport', 'http', '--header', `Authorization: Bearer ${c.liveReadOnly}`];
    const lista = await run(node!, [...base, '--method', 'tools/list'], { timeout: 100_000, env: { ...process.env, NO_COLOR: '1' } });
    const { tools } = JSON.parse(lista.stdout) as { tools: { name: string; annotations?: { readOnlyHint?: boolean } }[] };
    expect(tools.map((t) => t.name).sort()).toEqual(['buscar_agenda', 'descargas_deca', 'historial_deca', 'listar_decas', 'ver_cuenta', 'ver_deca', 'ver_entregas']);
    expect(tools.every((t) => t.annotations?.readOnlyHint === true)).toBe(true);
    const cuenta = await run(node!, [...base, '--method', 'tools/call', '--tool-name', 'ver_cuenta'], { timeout: 100_000 });
    expect(JSON.parse(cuenta.stdout)).toMatchObject({ structuredContent: { cuenta: { nif: c.account.nif } } });
  });
});
