/**
 * Which integration files run where (vite.config.ts builds the vitest projects
 * from these lists; .ci/run says which runtime runs which suite).
 *
 * Without TEST_DATABASE_URL (a newcomer's `npm test`) every integration file
 * runs on the embedded PGlite, the only database there is. With it, every
 * file runs on PostgreSQL, the production database, and these run on PGlite
 * as well.
 */

/**
 * The files whose behaviour depends on the engine underneath. The rule: a
 * file belongs here when it exercises something PGlite does differently from
 * PostgreSQL, which is
 * - the driver: our own PGlite dialect (one session, every transaction
 *   through `pglite.transaction`, a connection mutex) and type codecs (int8,
 *   numeric and bytea are parsed by our own code on PGlite);
 * - concurrency: PGlite is one session, so claims, counters, leases and
 *   `FOR UPDATE SKIP LOCKED` are serialised there and contended on PostgreSQL;
 * - the process model: the embedded database is locked to one process, the
 *   CLI goes through the running server's admin socket, leases of a killed
 *   process are released at start, LISTEN/NOTIFY and the rate limiter's
 *   store are different code;
 * - the SQL engine itself: PGlite is PostgreSQL 18 in wasm, production is 15
 *   (migrations, keyset pagination and filters, planner-dependent ordering).
 * A file that only goes through HTTP, validation, rendering or OCR on top of
 * the same commands is not here: what it checks is the same on both.
 */
export const PGLITE_TAMBIEN = [
  'test/integration/migraciones.test.ts', // migrations on PostgreSQL 18 (wasm) as on 15
  'test/integration/bytea.test.ts', // our bytea codec for PGlite
  'test/integration/decas-lifecycle.test.ts', // every state change, through the dialect's transactions
  'test/integration/decas-list.test.ts', // keyset pagination, filters, ordering
  'test/integration/autorizacion.test.ts', // a driver's DeCAs: the plates they were assigned read from a jsonb column in the scoping SQL
  'test/integration/decas-idempotency.test.ts', // claims: serialised vs contended
  'test/integration/decas-consultas.test.ts', // round trips counted at each driver (PostgreSQL adds the commit's id read)
  'test/integration/decas-quota.test.ts', // counters under concurrent creates
  'test/integration/dispositivos.test.ts', // number reservations handed out once
  'test/integration/sync.test.ts', // replays of the app's outbox against the claims
  'test/integration/webhooks-worker.test.ts', // outbox claims, leases, LISTEN/NOTIFY wake-up
  'test/integration/webhooks-crash.test.ts', // a killed process's leases, the DATA_DIR lock
  'test/integration/caida.test.ts', // SIGKILL mid-load: what was acknowledged survives (PGlite's files vs PostgreSQL's WAL)
  'test/integration/cli.test.ts', // the admin socket with the embedded database
  'test/integration/maintenance.test.ts', // clean-up jobs' SQL
  'test/integration/http-layer.test.ts', // the rate limiter's store (memory vs PostgreSQL)
  'test/integration/entrar.test.ts', // sign-in limits spent atomically in the limiter's store (memory vs PostgreSQL)
  'test/integration/blobs.test.ts', // PDF bytes in and out of bytea, and the batch that moves them out (update from values, row comparison, vacuum)
  'test/integration/privacidad.test.ts', // the download log's IPs cut in batches (update from values, a partial index, ordered by a timestamptz)
  'test/integration/agenda-limpia.test.ts', // a merge racing an edit or another merge: row locks taken in order, serialised vs contended
  'test/integration/particiones.test.ts', // partitions made, attached, detached and dropped; ids from the database's month in Madrid
];

/**
 * What the older runtime (Node 20, the minimum) runs besides the unit suite, on
 * PostgreSQL: the files that depend on the runtime rather than on our SQL —
 * WebCrypto and the seal, PDF rendering in worker threads, fetch/undici and
 * DNS for webhooks, sockets for mail, sharp and tesseract.js for photos,
 * child processes for the CLI, and the MCP SDK's transport.
 */
export const COMPATIBILIDAD = [
  'test/integration/decas-smoke.test.ts', // the whole path once
  'test/integration/sello.test.ts', // the PAdES seal: pkijs on WebCrypto, openssl reads it back
  'test/integration/decas-pdf.test.ts', // PDF/A rendering in worker threads
  'test/integration/autenticidad.test.ts', // hashing uploaded PDFs, multipart bodies
  'test/integration/ficha-offline.test.ts', // the device's ECDSA signature checked with WebCrypto
  'test/integration/webhooks-delivery.test.ts', // fetch/undici, HMAC signatures, timeouts
  'test/integration/webhooks-ssrf.test.ts', // DNS lookups and the connection policy
  'test/integration/correo.test.ts', // SMTP over sockets (nodemailer)
  'test/integration/fotos.test.ts', // sharp and tesseract.js workers
  'test/integration/cli.test.ts', // child processes, the admin socket
  'test/integration/mcp.test.ts', // the MCP SDK's streamable HTTP transport
  'test/integration/parada.test.ts', // SIGTERM: node:http's keep-alive connections drained by hand, AbortSignal.any
  'test/integration/blobs-s3.test.ts', // SigV4 on WebCrypto (aws4fetch) over fetch/undici, against a local S3 server (@20minutes/s3rver)
];
