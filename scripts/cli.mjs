// `npm run --silent cli -- COMMAND [--flags]`: the administration CLI, compiled
// first if missing or out of date (progress on stderr; stdout holds only the JSON).
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, ROOT } from './build.mjs';

try {
  await build({ client: false, ifStale: true });
} catch (err) {
  process.stderr.write(`${JSON.stringify({ error: { codigo: 'error_interno', mensaje: `No se pudo compilar la CLI: ${err instanceof Error ? err.message : String(err)}` } })}\n`);
  process.exit(1);
}
await import(pathToFileURL(path.join(ROOT, 'dist/server/cli.js')).href);
