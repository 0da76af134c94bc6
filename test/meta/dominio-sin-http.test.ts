import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/processes';

/**
 * The domain builds and records outbound work (webhook deliveries, mail) but
 * never sends it: HTTP and SMTP live in server/net and server/jobs and are
 * passed in. dependency-cruiser sees imports, not a global like `fetch`, so
 * this reads the source.
 */
const DOMINIO = path.join(ROOT, 'server/domain');

/** What sends from the process: a call to `fetch`, or an import of a Node or npm network client. */
const ENVIA = [
  { que: 'fetch(', re: /\bfetch\s*\(/ },
  { que: 'an HTTP, socket or SMTP client import', re: /\bfrom\s+['"](node:)?(http|https|http2|net|tls|dgram|undici|nodemailer)['"]/ },
];

function fuentes(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return fuentes(p);
    return /\.(ts|tsx|mts|cts)$/.test(e.name) ? [p] : [];
  });
}

describe('the domain does no network I/O', () => {
  it('no file under server/domain calls fetch( or imports an HTTP, socket or SMTP client', () => {
    const archivos = fuentes(DOMINIO);
    expect(archivos.length).toBeGreaterThan(0);
    const hallazgos = archivos.flatMap((f) => {
      const texto = readFileSync(f, 'utf8');
      return ENVIA.filter((e) => e.re.test(texto)).map((e) => `${path.relative(ROOT, f)}: ${e.que}`);
    });
    // Each finding names its file: the sending belongs in server/net or server/jobs, passed in through Services.
    expect(hallazgos).toEqual([]);
  });
});
