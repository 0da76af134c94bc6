/**
 * The app's own endpoints under `/app/api` (sign-up and sign-in, passwords,
 * the company and closing the account, API keys, users and invitations, devices): not part of the
 * public API nor of its OpenAPI document, but described once here like it —
 * method and path by name (the command's), and what each takes and answers.
 * The server mounts them from this table (server/http/routes/app-api.ts, which
 * the compiler holds to these types) and the app calls them with `llamarApp`.
 */

import type { RolUsuario } from '../rules/roles';
import type {
  AceptarInvitacionInput,
  CambiarContrasenaInput,
  CerrarCuentaInput,
  ClaveApi,
  ClaveCreada,
  ClaveCreateInput,
  Cuenta,
  CuentaCerrada,
  EmpresaPatch,
  Entorno,
  Invitacion,
  InvitacionPublica,
  InvitarInput,
  OlvidoInput,
  OlvidoResponse,
  RegistroInput,
  RestablecimientoPublico,
  SesionInput,
  SesionResponse,
  UsuarioCuenta,
  UsuariosResponse,
} from '../schemas/cuenta';
import type { Dispositivo, DispositivoInput, ReservasRespuesta } from '../schemas/dispositivo';
import type { Metodo } from './rutas';

export const APP_BASE = '/app/api';

/** Writes with a session cookie must carry this header: a cross-site form cannot set it (CSRF). */
export const CSRF_HEADER = 'X-DeCA-CSRF';

export const RUTAS_APP = {
  registrar_cuenta: ['post', '/registro'],
  iniciar_sesion: ['post', '/sesion'],
  ver_sesion: ['get', '/sesion'],
  cerrar_sesion: ['delete', '/sesion'],
  olvido_contrasena: ['post', '/contrasena/olvido'],
  ver_restablecimiento: ['get', '/contrasena/restablecer/{token}'],
  restablecer_contrasena: ['post', '/contrasena/restablecer/{token}'],
  cambiar_contrasena: ['post', '/contrasena'],
  editar_empresa: ['patch', '/cuenta'],
  cerrar_cuenta: ['post', '/cuenta/cierre'],
  reenviar_confirmacion: ['post', '/confirmacion'],
  listar_claves: ['get', '/claves'],
  crear_clave: ['post', '/claves'],
  revocar_clave: ['delete', '/claves/{id}'],
  listar_usuarios: ['get', '/usuarios'],
  invitar_usuario: ['post', '/usuarios'],
  cambiar_rol_usuario: ['patch', '/usuarios/{id}'],
  quitar_usuario: ['delete', '/usuarios/{id}'],
  anular_invitacion: ['delete', '/invitaciones/{id}'],
  listar_dispositivos: ['get', '/dispositivos'],
  registrar_dispositivo: ['post', '/dispositivos'],
  revocar_dispositivo: ['delete', '/dispositivos/{id}'],
  reservar_numeros: ['post', '/dispositivos/{id}/reservas'],
  ver_invitacion: ['get', '/invitacion/{token}'],
  aceptar_invitacion: ['post', '/invitacion/{token}'],
} as const satisfies Record<string, readonly [Metodo, `/${string}`]>;

export type NombreApp = keyof typeof RUTAS_APP;

/** The endpoints that answer other than 200: a sign-up, a key, an invitation or a device made (201), a reset link queued (202). */
export const ESTADO_APP: Partial<Record<NombreApp, 201 | 202>> = {
  registrar_cuenta: 201,
  olvido_contrasena: 202,
  crear_clave: 201,
  invitar_usuario: 201,
  registrar_dispositivo: 201,
  aceptar_invitacion: 201,
};

type Id = { id: number | string };
type Token = { token: string };
type Nada = Record<never, never>;

/** What each endpoint takes (path parameters, body and query in one object) and answers on success. */
export interface OperacionesApp {
  registrar_cuenta: { entrada: RegistroInput; salida: SesionResponse };
  iniciar_sesion: { entrada: SesionInput; salida: SesionResponse };
  ver_sesion: { entrada: Nada; salida: SesionResponse };
  cerrar_sesion: { entrada: Nada; salida: { sesion_cerrada: true } };
  olvido_contrasena: { entrada: OlvidoInput; salida: OlvidoResponse };
  ver_restablecimiento: { entrada: Token; salida: { restablecimiento: RestablecimientoPublico } };
  restablecer_contrasena: { entrada: Token & { password: string }; salida: SesionResponse };
  cambiar_contrasena: { entrada: CambiarContrasenaInput; salida: SesionResponse };
  editar_empresa: { entrada: EmpresaPatch; salida: { cuenta: Cuenta } };
  cerrar_cuenta: { entrada: CerrarCuentaInput; salida: CuentaCerrada };
  reenviar_confirmacion: { entrada: Nada; salida: { enviado_a: string } };
  listar_claves: { entrada: Nada; salida: { claves: ClaveApi[] } };
  crear_clave: { entrada: ClaveCreateInput; salida: ClaveCreada };
  revocar_clave: { entrada: Id; salida: { clave: ClaveApi } };
  listar_usuarios: { entrada: Nada; salida: UsuariosResponse };
  /** `enlace`: the invitation's link, answered only here (the e-mail carries it too), to copy or share. */
  invitar_usuario: { entrada: InvitarInput; salida: { invitacion: Invitacion; enlace: string } };
  cambiar_rol_usuario: { entrada: Id & { rol?: RolUsuario; matriculas?: string[] }; salida: { usuario: UsuarioCuenta } };
  quitar_usuario: { entrada: Id; salida: { usuario: UsuarioCuenta } };
  anular_invitacion: { entrada: Id; salida: { invitacion: Invitacion } };
  listar_dispositivos: { entrada: Nada; salida: { dispositivos: Dispositivo[] } };
  registrar_dispositivo: { entrada: DispositivoInput; salida: { dispositivo: Dispositivo } };
  revocar_dispositivo: { entrada: Id; salida: { dispositivo: Dispositivo } };
  reservar_numeros: { entrada: Id & { entorno: Entorno }; salida: ReservasRespuesta };
  ver_invitacion: { entrada: Token; salida: { invitacion: InvitacionPublica } };
  aceptar_invitacion: { entrada: AceptarInvitacionInput; salida: SesionResponse };
}
