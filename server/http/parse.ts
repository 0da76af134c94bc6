import type { z } from 'zod';
import { validationError } from '../../shared/errors';

/** Parse with a shared schema; failures become 422 `validacion` naming every field. */
export function parse<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const r = schema.safeParse(value);
  if (!r.success) throw validationError(r.error.issues);
  return r.data;
}
