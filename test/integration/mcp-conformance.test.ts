/**
 * The MCP conformance suite (@modelcontextprotocol/conformance 0.1.13, the
 * server scenarios) against the running server. The suite sends no header
 * of its own, so a local proxy adds the API key and forwards the rest as it
 * came. Scenarios that need the SDK's fixture tools, resources or prompts are
 * listed, each with its reason, in test/mcp/conformance-esperados.yml; any
 * other failure, or a listed scenario that starts to pass, fails this test.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect } from 'vitest';
import { it } from '../support/fixtures';
import { proxyConClave } from '../support/proxy-clave';

const run = promisify(execFile);
const BIN = path.resolve('node_modules/@modelcontextprotocol/conformance/dist/index.js');

describe('MCP conformance', () => {
  it('passes every server scenario that applies to this server', { timeout: 180_000 }, async ({ app, c }) => {
    const proxy = await proxyConClave(app.url, c.live);
    const salida = await mkdtemp(path.join(os.tmpdir(), 'deca-conformance-'));
    try {
      const r = await run(process.execPath, [BIN, 'server', '--url', `${proxy.url}/mcp`, '--expected-failures', path.resolve('test/mcp/conformance-esperados.yml'), '-o', salida], {
        timeout: 170_000,
        maxBuffer: 16 * 1024 * 1024,
      }).then(
        (x) => ({ code: 0, out: x.stdout + x.stderr }),
        (e: { code?: number; stdout?: string; stderr?: string }) => ({ code: e.code ?? 1, out: `${e.stdout ?? ''}${e.stderr ?? ''}` }),
      );
      expect(r.code, r.out).toBe(0);
      // The scenarios every server must pass did pass.
      const resultados = new Map<string, string[]>();
      for (const dir of await readdir(salida)) {
        const checks = JSON.parse(await readFile(path.join(salida, dir, 'checks.json'), 'utf8')) as { id: string; status: string }[];
        const escenario = /^server-(.+)-\d{4}-/.exec(dir)?.[1] ?? dir;
        resultados.set(
          escenario,
          checks.map((x) => x.status),
        );
      }
      for (const escenario of ['server-initialize', 'ping', 'tools-list', 'dns-rebinding-protection']) {
        const estados = [...resultados.entries()].find(([k]) => k.startsWith(escenario))?.[1];
        expect(estados, `${escenario}: ${r.out}`).toBeDefined();
        expect(
          estados!.every((s) => s === 'SUCCESS' || s === 'INFO'),
          `${escenario}: ${estados?.join(', ')}`,
        ).toBe(true);
      }
    } finally {
      await proxy.close();
      await rm(salida, { recursive: true, force: true });
    }
  });
});
