import { z } from './zod';

/** GET /decas/{id}/efti: which issued version (the current one when absent). */
export const EftiQuery = z.object({
  version: z.coerce
    .number()
    .int('Debe ser un número de versión')
    .min(1, 'Las versiones empiezan en 1')
    .max(1_000_000, 'Versión demasiado alta')
    .optional()
    .meta({ description: 'Número de versión emitida (1, 2…); por defecto, la vigente' }),
});
export type EftiQuery = z.output<typeof EftiQuery>;
