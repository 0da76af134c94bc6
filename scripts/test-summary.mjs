// Prints "N passed, N failed" as its last line (skipped tests on the line before) from vitest JSON reports; exits 1 when any
// test failed or a report is missing (a suite that did not run is a failure).
import { existsSync, readFileSync } from 'node:fs';

let passed = 0;
let failed = 0;
let skipped = 0;
for (const file of process.argv.slice(2)) {
  if (!existsSync(file)) {
    console.error(`missing test report: ${file}`);
    failed++;
    continue;
  }
  const r = JSON.parse(readFileSync(file, 'utf8'));
  passed += r.numPassedTests;
  failed += r.numFailedTests;
  skipped += r.numPendingTests + (r.numTodoTests ?? 0);
  // A file that failed to load has no test results but still fails the run.
  for (const s of r.testResults ?? []) if (s.status === 'failed' && !(s.assertionResults ?? []).some((a) => a.status === 'failed')) failed++;
}
if (skipped) console.log(`${skipped} skipped`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
