import { z } from 'zod';

/**
 * zod configured once for Spanish messages. Every shared schema imports `z`
 * from here so the client (offline validation) and the server report the same
 * words for the same mistake.
 */
z.config(z.locales.es());
z.config({
  customError: (issue) => (issue.code === 'invalid_type' && issue.input === undefined ? 'Obligatorio' : undefined),
});

export { z };
