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

/** GET /efti/accesos: one page of the account's log of eFTI authority accesses. */
export const AccesosEftiQuery = z.object({
  limite: z.coerce.number().int('Debe ser un número entero').min(1, 'Mínimo 1').max(100, 'Máximo 100').default(50).meta({ description: 'Cuántos por página (1–100)' }),
  despues_de: z
    .string()
    .max(15, 'Use el valor «siguiente» de la página anterior')
    .regex(/^\d{1,15}$/, 'Use el valor «siguiente» de la página anterior')
    .optional()
    .meta({ description: 'El valor «siguiente» de la página anterior' }),
});
export type AccesosEftiQuery = z.output<typeof AccesosEftiQuery>;

/** One access of an authority, through a national eFTI gate, to the account's data. */
export const AccesoEfti = z
  .object({
    id: z.number().int(),
    fecha: z.string().meta({ description: 'AAAA-MM-DD HH:MM:SS, hora de Madrid' }),
    pasarela: z.string().meta({ description: 'La pasarela eFTI que consultó (su identificador, EFTI_GATE_ID)' }),
    request_id: z.string().nullable().meta({ description: 'El requestId de la consulta: identifica la petición de la autoridad en toda la cadena de pasarelas' }),
    consulta: z.enum(['uil', 'identificador']).meta({ description: '`uil`: un conjunto de datos por su UIL; `identificador`: por matrícula' }),
    dataset_id: z.string().nullable().meta({ description: 'En una consulta por UIL, el conjunto de datos pedido' }),
    identificador: z.string().nullable().meta({ description: 'En una consulta por identificador, la matrícula buscada, tal como llegó' }),
    tipos_identificador: z.array(z.string()).meta({ description: 'means (vehículo), equipment (remolque), carried; vacío: cualquiera' }),
    pais: z.string().nullable().meta({ description: 'País de matriculación pedido, si lo hubo' }),
    subsets: z.array(z.string()).meta({ description: 'En una consulta por UIL, los subconjuntos pedidos' }),
    decas: z.array(z.object({ numero: z.string(), version: z.number().int() })).meta({ description: 'Las DeCA de la cuenta que se devolvieron, con la versión' }),
  })
  .meta({ id: 'AccesoEfti' });
export type AccesoEfti = z.infer<typeof AccesoEfti>;

export const AccesosEftiList = z.object({
  accesos: z.array(AccesoEfti).meta({ description: 'El más reciente primero' }),
  siguiente: z.string().nullable().meta({ description: 'Pásalo como despues_de para la página siguiente; null si no hay más' }),
});
export type AccesosEftiList = z.infer<typeof AccesosEftiList>;
