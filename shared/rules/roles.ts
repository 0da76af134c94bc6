/**
 * What each user of an account may do in the application. API keys are not
 * users: they act for the whole account (a read-only key only reads) and
 * never manage users or keys.
 *
 * - administrador: everything;
 * - oficina: DeCAs (all of their life), the address book, CSV import and export;
 * - conductor: creates, issues and shows DeCAs (and reads delivery-note photos, modifies
 *   one on the road, ends its service, deletes a pending one) — only *their* DeCAs
 *   (see `esDecaDelConductor`); sees no API keys, webhooks, users or plan.
 */
import { normalizarMatricula } from './matricula';

export const ROLES_USUARIO = ['admin', 'oficina', 'conductor'] as const;
export type RolUsuario = (typeof ROLES_USUARIO)[number];

export type Permiso =
  /** Replace (method 2) or archive a DeCA. */
  | 'gestion'
  /** Add to and edit the address book (reading it is for everyone: it fills the forms). */
  | 'agenda'
  /** Import a spreadsheet, export the list. */
  | 'importar'
  /** The plan and its monthly quota. */
  | 'plan'
  /** API keys and webhooks. */
  | 'integraciones'
  /** The account's users and invitations, and the company data. */
  | 'usuarios';

const PERMISOS: Record<RolUsuario, readonly Permiso[]> = {
  admin: ['gestion', 'agenda', 'importar', 'plan', 'integraciones', 'usuarios'],
  oficina: ['gestion', 'agenda', 'importar', 'plan'],
  conductor: [],
};

export const NOMBRE_ROL: Record<RolUsuario, string> = { admin: 'Administrador', oficina: 'Oficina', conductor: 'Conductor' };

/** What each role may do, as «podrá …» (the invitation, the role picker). */
export const QUE_PUEDE: Record<RolUsuario, string> = {
  admin: 'hacer de todo: DeCA, agenda, importación, usuarios, claves de API, webhooks y plan',
  oficina: 'llevar las DeCA de la cuenta, la agenda y la importación de hojas de cálculo; no verá claves, webhooks ni usuarios',
  conductor: 'crear, emitir y enseñar sus DeCA (las que crea y las de los vehículos que tenga asignados), también sin cobertura; no verá las demás DeCA, claves, webhooks, usuarios ni plan',
};

/** What the refusal names: «Su función (Conductor) no permite <this>». */
export const TEXTO_PERMISO: Record<Permiso, string> = {
  gestion: 'sustituir ni archivar DeCA',
  agenda: 'cambiar la agenda',
  importar: 'importar ni exportar hojas de cálculo',
  plan: 'ver el plan de la cuenta',
  integraciones: 'gestionar las claves de API ni los webhooks',
  usuarios: 'gestionar los usuarios ni los datos de la empresa',
};

/** The refusal a user reads, from the server or from a screen their role does not open. */
export function mensajeSinPermiso(rol: RolUsuario, permiso: Permiso): string {
  return `Su función en la cuenta (${NOMBRE_ROL[rol]}) no permite ${TEXTO_PERMISO[permiso]}. Pídaselo a un administrador.`;
}

export function puede(rol: RolUsuario, permiso: Permiso): boolean {
  return PERMISOS[rol].includes(permiso);
}

/**
 * Whether changing `rol` of a user (or removing one, `nuevo` null) leaves
 * the account with an administrator: the last one cannot step down.
 */
export function quedaAdministrador(admins: number, actual: RolUsuario, nuevo: RolUsuario | null): boolean {
  return actual !== 'admin' || nuevo === 'admin' || admins > 1;
}

/** Plates a driver may have assigned (their tractor or truck, a spare, a relief one). */
export const MAX_MATRICULAS_CONDUCTOR = 10;

/** A driver as the DeCA rule sees them: who they are and the plates the administrator assigned them. */
export interface ConductorAsignado {
  userId: number;
  /** Stored normalized (`1234BCD`); compared normalized anyway. */
  matriculas: readonly string[];
}

/**
 * Whether the caller sees (and so may change, within what their role allows)
 * every DeCA of the account: administrators, the office and API keys (`null`:
 * a key acts for the whole account) do; a driver sees only theirs.
 */
export function veTodasLasDecas(rol: RolUsuario | null): boolean {
  return rol !== 'conductor';
}

/**
 * A driver's DeCAs: those they made, and those whose vehicle (`matricula`:
 * the truck or tractor, not the trailer, which many tractors pull) is one of
 * the plates the administrator assigned them in «Usuarios». Every other DeCA
 * of the account does not exist for them: not listed, not shown, not
 * changed, ended or deleted (the server answers as for another account's).
 * The server's query (server/domain/decas/queries.ts) is this rule in SQL.
 */
export function esDecaDelConductor(conductor: ConductorAsignado, deca: { creado_por_user_id: number | null; matricula: string | null }): boolean {
  if (deca.creado_por_user_id === conductor.userId) return true;
  if (!deca.matricula) return false;
  const m = normalizarMatricula(deca.matricula);
  return m !== '' && conductor.matriculas.some((x) => normalizarMatricula(x) === m);
}

/** What a driver's list says about what it holds. */
export function queVeElConductor(matriculas: readonly string[]): string {
  return matriculas.length
    ? `Ve las DeCA que ha hecho usted y las de ${matriculas.length === 1 ? 'su vehículo' : 'sus vehículos'} ${matriculas.join(', ')}.`
    : 'Ve las DeCA que ha hecho usted. Para ver también las de su vehículo, pida a un administrador que le asigne su matrícula en «Usuarios».';
}
