// Loaded into the server under test with `node --import` by bench/soak.ts
// (never by the product): every SONDA_MS it appends one JSON line to
// SONDA_ARCHIVO with the process's memory, its libuv handles and requests by
// kind (what keeps the main event loop alive) and its open file descriptors.
import { appendFileSync, readdirSync } from 'node:fs';
import { isMainThread } from 'node:worker_threads';

const archivo = process.env.SONDA_ARCHIVO;
const cada = Number(process.env.SONDA_MS ?? 10_000);
// `--import` runs in every worker thread too: the main thread alone samples (the RSS and descriptors are the whole process's).
if (archivo && isMainThread) {
  const muestra = () => {
    const m = process.memoryUsage();
    const recursos = {};
    for (const r of process.getActiveResourcesInfo()) recursos[r] = (recursos[r] ?? 0) + 1;
    appendFileSync(
      archivo,
      `${JSON.stringify({
        t: Date.now(),
        rss: m.rss,
        heap: m.heapUsed,
        externa: m.external + m.arrayBuffers,
        recursos,
        fds: readdirSync('/proc/self/fd').length,
      })}\n`,
    );
  };
  setInterval(muestra, cada).unref();
  muestra();
}
