import { z } from 'zod';

// The app's Content-Security-Policy has no 'unsafe-eval'. zod 4 compiles a fast
// parser for each object schema with `new Function`, and probes for it when the
// schema is built: the probe alone is reported as a CSP violation, even though
// zod catches the error. jitless skips both; validating a form or an error body
// does not need the compiled parser. This module must be evaluated before any
// shared schema is built, so client/data/esquemas.ts imports it first.
z.config({ jitless: true });
