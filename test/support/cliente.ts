import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * A stand-in for the built client (index.html, a hashed asset, optionally
 * the service worker) in a new temporary folder, made synchronously so a
 * file can pass it to `test.override('opcionesApp', { clientDir })`.
 */
export function clienteDePrueba(opts: { sw?: boolean } = {}): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'deca-client-'));
  mkdirSync(path.join(dir, 'assets'));
  writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>DeCA</title><div id="app"></div>');
  if (opts.sw) writeFileSync(path.join(dir, 'sw.js'), 'self.addEventListener("fetch", () => {});');
  writeFileSync(path.join(dir, 'assets', 'main-abc123.js'), 'console.log(1)');
  return dir;
}
