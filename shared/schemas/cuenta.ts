import { normalizarMatricula } from '../rules/matricula';
import { normalizarNif, validarNif } from '../rules/nif';
import { MAX_MATRICULAS_CONDUCTOR, ROLES_USUARIO } from '../rules/roles';
import { cadena } from './envio';
import { z } from './zod';

export const Rol = z.enum(['transportista', 'cargador']).meta({ description: 'Lado de la DeCA que ocupa la cuenta' });
export type Rol = z.infer<typeof Rol>;

export const Plan = z.enum(['free', 'pro']);
export type Plan = z.infer<typeof Plan>;

export const Entorno = z.enum(['produccion', 'pruebas']);
export type Entorno = z.infer<typeof Entorno>;

/** Company data: printed on every DeCA the account issues. */
const texto = (max: number) => cadena({ imprimible: true }).trim().min(1, 'Obligatorio').max(max, `Máximo ${max} caracteres`);

/**
 * The company's own NIF: it goes on every DeCA the account issues, so unlike
 * a party's NIF on a DeCA (a warning), a wrong check character is refused.
 */
export const NifEmpresa = texto(20)
  .transform((s) => normalizarNif(s))
  .check((ctx) => {
    const r = validarNif(ctx.value);
    if (!r.valido) ctx.issues.push({ code: 'custom', message: `NIF no válido: ${r.motivo ?? 'revíselo'}`, input: ctx.value });
  })
  .meta({ description: 'NIF de la empresa (DNI, NIE o CIF con su carácter de control)' });

const domicilioEmpresa = texto(300).meta({ description: 'Domicilio de la empresa (art. 6: figura en cada DeCA)' });

/** Company data of an account: it fills the caller's side of a DeCA when left empty. */
export const EmpresaInput = z.object({
  nombre: texto(200).meta({ description: 'Nombre o razón social' }),
  nif: NifEmpresa,
  domicilio: domicilioEmpresa.optional(),
  rol: Rol.default('transportista'),
});
export type EmpresaInput = z.infer<typeof EmpresaInput>;

/** An administrator's change to the company data (what is sent changes; the address cannot be emptied). */
export const EmpresaPatch = z
  .object({
    nombre: texto(200).optional(),
    nif: NifEmpresa.optional(),
    domicilio: domicilioEmpresa.optional(),
  })
  .refine((p) => p.nombre !== undefined || p.nif !== undefined || p.domicilio !== undefined, { message: 'No ha cambiado ningún dato' });
export type EmpresaPatch = z.input<typeof EmpresaPatch>;

/** The account as the API and the CLI show it. */
export const Cuenta = z
  .object({
    id: z.number().int(),
    nombre: z.string(),
    nif: z.string(),
    domicilio: z.string().nullable(),
    rol: Rol,
    plan: Plan,
    created_at: z.string(),
    confirmada: z.boolean().meta({
      description: 'Correo de la cuenta confirmado; sin confirmar solo se emiten unas pocas DeCA reales y no se crean claves de producción',
    }),
  })
  .meta({ id: 'Cuenta' });
export type Cuenta = z.infer<typeof Cuenta>;

/** Monthly DeCA quota of the request's environment (null limit = unlimited). */
export const Cuota = z.object({
  periodo: z.string().meta({ description: 'Mes en curso, YYYY-MM (hora de Madrid)' }),
  limite: z.number().int().nullable().meta({ description: 'DeCA por mes; null = sin límite' }),
  usadas: z.number().int().meta({ description: 'DeCA creadas este mes en este entorno' }),
  restantes: z.number().int().nullable(),
  reinicia: z.string().meta({ description: 'Día en que empieza el siguiente periodo, YYYY-MM-DD' }),
  fotos: z
    .object({
      limite: z.number().int().nullable().meta({ description: 'Lecturas de fotos por mes; null = sin límite' }),
      usadas: z.number().int(),
      restantes: z.number().int().nullable(),
    })
    .meta({ description: 'Lecturas de fotos de albaranes (POST /fotos) este mes en este entorno' }),
});
export type Cuota = z.infer<typeof Cuota>;

/** GET /cuenta. */
export const CuentaResponse = z.object({
  cuenta: Cuenta.extend({ entorno: Entorno, cuota: Cuota }),
});
export type CuentaResponse = z.infer<typeof CuentaResponse>;

export const PASSWORD_MIN = 10;

const Email = z
  .email('Correo electrónico no válido')
  .max(254)
  .transform((s) => s.toLowerCase());
const Password = cadena().min(PASSWORD_MIN, `La contraseña debe tener al menos ${PASSWORD_MIN} caracteres`).max(200, 'Máximo 200 caracteres');

/** Web-app sign-up: the company and its first (admin) user. */
export const RegistroInput = EmpresaInput.extend({
  domicilio: domicilioEmpresa,
  email: Email,
  password: Password,
});
export type RegistroInput = z.input<typeof RegistroInput>;

/**
 * A password already set is checked as typed, by its hash: no text rule of the
 * day may refuse it (one chosen before invisible characters were refused must
 * still sign in). Only a new password obeys `Password`.
 */
const PasswordActual = z.string().min(1, 'Obligatorio').max(200, 'Máximo 200 caracteres');

export const SesionInput = z.object({
  email: cadena()
    .trim()
    .min(1, 'Obligatorio')
    .max(254)
    .transform((s) => s.toLowerCase()),
  password: PasswordActual,
});
export type SesionInput = z.input<typeof SesionInput>;

/** A user's role in the account (what they may do: shared/rules/roles.ts). */
export const RolUsuario = z.enum(ROLES_USUARIO).meta({ description: 'Función del usuario: admin (todo), oficina (DeCA, agenda, importación), conductor (crea y enseña DeCA)' });

export const Usuario = z.object({
  id: z.number().int(),
  email: z.string(),
  rol: RolUsuario,
  email_confirmado: z.boolean(),
  /** A driver's assigned plates: they see the DeCAs they made and those of these vehicles (shared/rules/roles.ts). */
  matriculas: z.array(z.string()).default([]),
});
export type Usuario = z.infer<typeof Usuario>;

/** A user as the account's administrator lists them. */
export const UsuarioCuenta = Usuario.extend({ created_at: z.string() });
export type UsuarioCuenta = z.infer<typeof UsuarioCuenta>;

/** An invitation not yet accepted (its link is only in the e-mail). */
export const Invitacion = z.object({
  id: z.number().int(),
  email: z.string(),
  rol: RolUsuario,
  created_at: z.string(),
  expires_at: z.string(),
});
export type Invitacion = z.infer<typeof Invitacion>;

/** GET /app/api/usuarios. */
export const UsuariosResponse = z.object({ usuarios: z.array(UsuarioCuenta), invitaciones: z.array(Invitacion) });
export type UsuariosResponse = z.infer<typeof UsuariosResponse>;

export const InvitarInput = z.object({ email: Email, rol: RolUsuario });
export type InvitarInput = z.input<typeof InvitarInput>;

/** A plate assigned to a driver, stored normalized (`1234 bcd` → `1234BCD`). */
const MatriculaAsignada = cadena()
  .max(20, 'Máximo 20 caracteres')
  .transform((m) => normalizarMatricula(m))
  .refine((m) => m !== '', 'Escriba la matrícula');

/** PATCH /app/api/usuarios/{id}: a user's role, and/or a driver's plates (the whole list; [] clears it). */
export const CambiarRolInput = z
  .object({
    id: z.coerce.number().int().positive(),
    rol: RolUsuario.optional(),
    matriculas: z
      .array(MatriculaAsignada)
      .max(MAX_MATRICULAS_CONDUCTOR, `Como mucho ${MAX_MATRICULAS_CONDUCTOR} matrículas por conductor`)
      .transform((ms) => [...new Set(ms)])
      .optional(),
  })
  .refine((x) => x.rol !== undefined || x.matriculas !== undefined, { message: 'Indique la función o las matrículas', path: ['rol'] });

/** What an invitation link shows before it is accepted. */
export const InvitacionPublica = z.object({ empresa: z.string(), email: z.string(), rol: RolUsuario, expires_at: z.string() });
export type InvitacionPublica = z.infer<typeof InvitacionPublica>;

export const AceptarInvitacionInput = z.object({ token: cadena().max(200), password: Password });
export type AceptarInvitacionInput = z.input<typeof AceptarInvitacionInput>;

/** «¿Ha olvidado la contraseña?»: the address to send a reset link to. */
export const OlvidoInput = z.object({ email: SesionInput.shape.email });
export type OlvidoInput = z.input<typeof OlvidoInput>;

/** The answer to a reset request: the same whether or not the address has a user. */
export const OlvidoResponse = z.object({ mensaje: z.string() });
export type OlvidoResponse = z.infer<typeof OlvidoResponse>;

/** What a reset link shows before a password is chosen. */
export const RestablecimientoPublico = z.object({ email: z.string(), expires_at: z.string() });
export type RestablecimientoPublico = z.infer<typeof RestablecimientoPublico>;

/** A new password through a reset link (the same rules as sign-up). */
export const RestablecerInput = z.object({ token: cadena().max(200), password: Password });
export type RestablecerInput = z.input<typeof RestablecerInput>;

/** «Cambiar contraseña» in «Cuenta»: the current one, and the new one (the same rules as sign-up). */
export const CambiarContrasenaInput = z.object({ actual: PasswordActual, password: Password });
export type CambiarContrasenaInput = z.input<typeof CambiarContrasenaInput>;

/**
 * «Cerrar la cuenta» (an administrator): their password again, and the
 * company's NIF typed as it is, so it is never done by a slip or by whoever
 * finds a session open.
 */
export const CerrarCuentaInput = z.object({
  password: PasswordActual,
  nif: cadena()
    .trim()
    .min(1, 'Escriba el NIF de la empresa para confirmar')
    .max(30)
    .transform((s) => normalizarNif(s)),
});
export type CerrarCuentaInput = z.input<typeof CerrarCuentaInput>;

/** What closing the account answers: the session is over, and what happens next. */
export const CuentaCerrada = z.object({
  sesion_cerrada: z.literal(true),
  cerrada_at: z.string(),
  exportacion: z.object({
    enviada_a: z.string().meta({ description: 'Adonde se ha enviado el enlace de un solo uso a los datos (ZIP)' }),
    caduca_at: z.string(),
  }),
  decas_conservadas: z.number().int().meta({ description: 'DeCA emitidas que se conservan hasta que acabe su plazo' }),
  conservacion: z.string(),
});
export type CuentaCerrada = z.infer<typeof CuentaCerrada>;

/** GET /app/api/sesion: who is signed in. */
export const SesionResponse = z.object({
  usuario: Usuario,
  cuenta: Cuenta,
  /** Where a company sends the PDF/A after a roadside check (SEDE_CONTROL_URL). */
  sede_control_url: z.string().optional(),
});
export type SesionResponse = z.infer<typeof SesionResponse>;

/** An API key as listed (never the secret itself). */
export const ClaveApi = z
  .object({
    id: z.number().int(),
    prefijo: z.string().meta({ description: 'Comienzo de la clave, para reconocerla' }),
    entorno: Entorno,
    solo_lectura: z.boolean(),
    nombre: z.string().nullable(),
    created_at: z.string(),
    last_used_at: z.string().nullable(),
    revocada_at: z.string().nullable(),
  })
  .meta({ id: 'ClaveApi' });
export type ClaveApi = z.infer<typeof ClaveApi>;

export const ClaveCreateInput = z.object({
  entorno: Entorno,
  solo_lectura: z.boolean().default(false),
  nombre: cadena().trim().max(100).optional(),
});
export type ClaveCreateInput = z.input<typeof ClaveCreateInput>;

/** Create-key answer: the only time the key is shown. */
export const ClaveCreada = z.object({ clave: ClaveApi, key: z.string() });
export type ClaveCreada = z.infer<typeof ClaveCreada>;
