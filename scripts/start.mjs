// `npm start`: build the web app and the server if missing or older than their
// sources, then run the compiled server in this same process.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, ROOT } from './build.mjs';

try {
  await build({ ifStale: true });
} catch (err) {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
}
await import(pathToFileURL(path.join(ROOT, 'dist/server/main.js')).href);
