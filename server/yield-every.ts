import { setImmediate } from 'node:timers/promises';

/** How long a piece of CPU work may hold the event loop before it lets other requests in. */
export const SLICE_MS = 5;

/**
 * A pause point for long CPU work on the main thread (DESIGN.md «Faults»:
 * parsing and validating large inputs happen in chunks that yield). The
 * function it returns resolves at once while less than `ms` passed since the
 * last pause, and otherwise after one `setImmediate` turn, in which the
 * timers, sockets and database answers of every other request run. Called
 * between small steps (a record, a DeCA), it never lets one request hold the
 * loop much longer than `ms` plus one step.
 */
export function yieldEvery(ms = SLICE_MS): () => Promise<void> {
  let since = performance.now();
  return async () => {
    if (performance.now() - since < ms) return;
    await setImmediate();
    since = performance.now();
  };
}
