import { z } from './schemas/zod';

/**
 * Every error the service can answer with, and its HTTP status. Domain code
 * picks a `codigo`; only this table decides the status, so the same refusal
 * always looks the same on the wire. A client written against the spec knows
 * the 401, 403, 422 and 429 codes of its table, so those are the only ones
 * used there; 409 has codes of its own (the spec allows more), each saying
 * which state refused the action.
 */
export const CODIGO_STATUS = {
  json_invalido: 400,
  peticion_invalida: 400,
  no_autenticado: 401,
  solo_lectura: 403,
  sin_longitud: 403,
  csrf: 403,
  prohibido: 403,
  no_encontrado: 404,
  metodo_no_permitido: 405,
  conflicto: 409,
  cuenta_incompleta: 409,
  emitido: 409,
  pendiente: 409,
  sin_cambios: 409,
  sustituido: 409,
  en_curso: 409,
  servicio_finalizado: 409,
  entregado: 409,
  ref_externa_usada: 409,
  email_registrado: 409,
  cuenta_sin_confirmar: 409,
  limite_webhooks: 409,
  enlace_caducado: 410,
  demasiado_grande: 413,
  validacion: 422,
  falta_motivo: 422,
  demasiadas_peticiones: 429,
  limite_plan: 429,
  error_interno: 500,
  no_disponible: 503,
} as const;

export type Codigo = keyof typeof CODIGO_STATUS;

/** Field path (`envios[0].destino`) → Spanish message. */
export type Campos = Record<string, string>;

/** A soft problem: the request succeeds, but the caller should look at it. */
export const Aviso = z
  .object({
    campo: z.string().nullable().meta({ description: 'Ruta del campo afectado, o null si es general' }),
    codigo: z.string().meta({ description: 'Identificador estable del aviso' }),
    mensaje: z.string().meta({ description: 'Explicación en español' }),
  })
  .meta({ id: 'Aviso' });
export type Aviso = z.infer<typeof Aviso>;

/** The documented error body (spec: Errors). */
export const ErrorBody = z
  .object({
    error: z.object({
      codigo: z.string(),
      mensaje: z.string(),
      campos: z.record(z.string(), z.string()),
      avisos: z.array(Aviso),
      request_id: z.string().startsWith('req_'),
    }),
  })
  .meta({ id: 'Error' });
export type ErrorBody = z.infer<typeof ErrorBody>;

/** The one error type of the service: a `codigo`, a Spanish message that says what to do, and details. */
export class AppError extends Error {
  readonly codigo: Codigo;
  readonly status: number;
  readonly campos: Campos;
  readonly avisos: Aviso[];
  /** Extra response headers (e.g. `Retry-After`). */
  readonly headers: Record<string, string>;

  constructor(codigo: Codigo, mensaje: string, opts: { campos?: Campos; avisos?: Aviso[]; headers?: Record<string, string> } = {}) {
    super(mensaje);
    this.name = 'AppError';
    this.codigo = codigo;
    this.status = CODIGO_STATUS[codigo];
    this.campos = opts.campos ?? {};
    this.avisos = opts.avisos ?? [];
    this.headers = opts.headers ?? {};
  }
}

/** `['envios', 0, 'destino']` → `envios[0].destino`, the path style of the spec. */
export function formatPath(path: ReadonlyArray<PropertyKey>): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out === '' ? String(part) : `.${String(part)}`;
  }
  return out;
}

/** The inverse of `formatPath`: `envios[2].peso` → `['envios', 2, 'peso']`. */
export function parsePath(campo: string): PropertyKey[] {
  return (campo.match(/[^.[\]]+/g) ?? []).map((p) => (/^\d+$/.test(p) ? Number(p) : p));
}

/**
 * Every zod issue as `campos`, keyed by field path. All issues are reported,
 * not just the first; the first message for a path wins.
 */
export function issuesToCampos(issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>): Campos {
  const campos: Campos = {};
  for (const issue of issues) {
    const key = formatPath(issue.path) || '_';
    if (!(key in campos)) campos[key] = issue.message;
  }
  return campos;
}

/** The AppError for a failed schema parse: 422 `validacion` naming each field. */
export function validationError(issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>): AppError {
  const campos = issuesToCampos(issues);
  const n = Object.keys(campos).length;
  return new AppError('validacion', n === 1 ? 'Hay un dato que falta o no es válido: revise el campo indicado.' : `Hay ${n} datos que faltan o no son válidos: revise los campos indicados.`, {
    campos,
  });
}
