import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';
import type { DecaPdfData } from '../../shared/pdf/deca-pdf-data';
import type { RolUsuario } from '../../shared/rules/roles';
import type { Entorno, Plan, Rol } from '../../shared/schemas/cuenta';
import type { CampoCambiado, Canal, Estado, TipoCambio, TipoVehiculo } from '../../shared/schemas/deca';
import type { ClavePublica } from '../../shared/schemas/dispositivo';
import type { Envio } from '../../shared/schemas/envio';

/** A timestamptz column: read as Date, written as Date or SQL. */
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

export interface AccountsTable {
  id: Generated<number>;
  nombre: string;
  nif: string;
  domicilio: string | null;
  rol: Rol;
  plan: ColumnType<Plan, Plan | undefined, Plan>;
  created_at: Timestamp;
  /** When its administrator confirmed the e-mail (accounts opened by sign-up start unconfirmed). */
  confirmada_at: NullableTimestamp;
  /** When it was closed (domain/accounts/cierre.ts): no sign-in, no key; its DeCAs stay until their retention ends. */
  cerrada_at: NullableTimestamp;
}

export interface UsersTable {
  id: Generated<number>;
  account_id: number;
  email: string;
  password_hash: string;
  rol: ColumnType<RolUsuario, RolUsuario | undefined, RolUsuario>;
  created_at: Timestamp;
  email_confirmado_at: NullableTimestamp;
  /** sha256 of the confirmation link's token, until it is used. */
  confirmacion_hash: string | null;
  /** A driver's assigned plates, normalized (jsonb array): they see the DeCAs of these vehicles (shared/rules/roles.ts). */
  matriculas: ColumnType<string[], string | undefined, string>;
}

/** An administrator's invitation to join the account with a role. */
export interface InvitacionesTable {
  id: Generated<number>;
  account_id: number;
  email: string;
  rol: RolUsuario;
  /** sha256 of the link's token; the token is only in the e-mail and in the answer to the administrator who invited. */
  token_hash: string;
  invitada_por: number | null;
  created_at: Timestamp;
  expires_at: Timestamp;
  aceptada_at: NullableTimestamp;
}

/** A signed-in user's device, with the public key of the pair it made (ECDSA P-256, JWK). */
export interface DispositivosTable {
  id: Generated<number>;
  account_id: number;
  user_id: number;
  nombre: string;
  clave_publica: Json<ClavePublica>;
  /** First 16 hex digits of the SHA-256 of the key's coordinates. */
  huella: string;
  created_at: Timestamp;
  revocado_at: NullableTimestamp;
}

/** A number and public token held by a device, per environment, for a DeCA issued with no coverage. */
export interface ReservasTable {
  id: Generated<number>;
  account_id: number;
  entorno: Entorno;
  dispositivo_id: number;
  numero: string;
  token_publico: string;
  created_at: Timestamp;
  caduca_at: Timestamp;
  usada_at: NullableTimestamp;
  deca_id: number | null;
}

/** Tenant table: API keys belong to one account and one environment. */
export interface ApiKeysTable {
  id: Generated<number>;
  account_id: number;
  entorno: Entorno;
  /** sha256 of the whole key; the key itself is never stored. */
  hash: string;
  prefijo: string;
  nombre: string | null;
  solo_lectura: boolean;
  created_at: Timestamp;
  last_used_at: NullableTimestamp;
  revocada_at: NullableTimestamp;
}

/** A password reset link (30 minutes, one use): only the sha256 of its token is stored. */
export interface RestablecimientosTable {
  id: Generated<number>;
  user_id: number;
  token_hash: string;
  created_at: Timestamp;
  expires_at: Timestamp;
}

export interface SessionsTable {
  /** sha256 of the cookie token. */
  id: string;
  user_id: number;
  account_id: number;
  created_at: Timestamp;
  last_seen_at: Timestamp;
  expires_at: Timestamp;
}

/** Tenant table: DeCA created per account, environment and Madrid month. */
export interface UsoMensualTable {
  account_id: number;
  entorno: Entorno;
  mes: string;
  decas: ColumnType<number, number | undefined, number>;
  fotos: ColumnType<number, number | undefined, number>;
}

/** Owned by rate-limiter-flexible (RateLimiterPostgres), created by our migration. */
export interface RateLimitsTable {
  key: string;
  points: number;
  expire: number | null;
}

/** A jsonb column: written as JSON text, read as the parsed value. */
type Json<T> = ColumnType<T, string, string>;

/** Tenant table: one row per DeCA; document fields as columns, shipments as jsonb. */
export interface DecasTable {
  id: Generated<number>;
  account_id: number;
  entorno: Entorno;
  numero: string;
  estado: Estado;
  version: ColumnType<number, number | undefined, number>;
  /** Bumped on every write: the optimistic check for work prepared outside the transaction. */
  revision: ColumnType<number, number | undefined, number>;
  ref_externa: string | null;
  /** The client's reference of the create (Idempotency-Key, the app's local id): a replay returns this DeCA. */
  clave_cliente: ColumnType<string | null, string | null | undefined, never>;
  /** Fingerprint of that create request. */
  huella_cliente: ColumnType<string | null, string | null | undefined, never>;
  emisor_rol: Rol;
  canal: Canal;
  cargador_nombre: string | null;
  cargador_nif: string | null;
  cargador_domicilio: string | null;
  transp_nombre: string | null;
  transp_nif: string | null;
  transp_domicilio: string | null;
  fecha_transporte: string | null;
  tipo_vehiculo: TipoVehiculo | null;
  matricula: string | null;
  matricula_remolque: string | null;
  autorizacion_especial: string | null;
  conductor_nombre: string | null;
  conductor_tel: string | null;
  observaciones: string | null;
  referencia: string | null;
  /** The parties' addresses in parts and the plates' countries (eFTI, migration 0027): not printed on the PDF. */
  cargador_cp: string | null;
  cargador_municipio: string | null;
  cargador_provincia: string | null;
  cargador_pais: string | null;
  transp_cp: string | null;
  transp_municipio: string | null;
  transp_provincia: string | null;
  transp_pais: string | null;
  matricula_pais: string | null;
  remolque_pais: string | null;
  /** Shipments written before 0027 lack `destinatario_nombre` and `destinatario_nif` (read as null: `envioCompleto`). */
  envios: Json<Envio[]>;
  token_publico: string;
  token_completar: string | null;
  pdf_sha256: string | null;
  pdf_bytes: number | null;
  emitido_at: NullableTimestamp;
  /** Last change of the DeCA (creation included): what `modificado_desde` filters on. */
  modificado_at: Timestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
  fin_servicio_at: NullableTimestamp;
  sustituye_a_id: number | null;
  sustituido_por_id: number | null;
  archivado: ColumnType<boolean, boolean | undefined, boolean>;
  descargas: ColumnType<number, number | undefined, number>;
  /** Issued on this device with no coverage (its name at the time), and received by the server then. */
  dispositivo_id: ColumnType<number | null, number | null | undefined, number | null>;
  dispositivo_nombre: ColumnType<string | null, string | null | undefined, string | null>;
  recibida_at: NullableTimestamp;
  creado_por_key_id: number | null;
  creado_por_user_id: number | null;
  /** The dataset part of its eFTI UIL: the same for every DeCA of a chain of replacements (migration 0026). */
  efti_dataset_id: ColumnType<string, string, never>;
}

/** The PDF of every issued version, kept so a version's bytes never change. */
export interface DecaVersionesTable {
  account_id: number;
  entorno: Entorno;
  deca_id: number;
  version: number;
  /** The bytes, in rows written before the blob store (migration 0015) and not yet moved out by `blobs:migrate`; null otherwise. */
  pdf: Uint8Array | null;
  pdf_sha256: string;
  pdf_bytes: number;
  /** The bytes' key in the blob store (`pdf/ab/<sha256>`, server/blobs); null while they are still in `pdf`. One of the two is always set. */
  pdf_clave: string | null;
  /**
   * What the PDF was rendered from: re-rendering it yields the same bytes.
   * Versions stored before the environment was part of the data have no
   * `entorno` (rendered then as today's live ones: with no test mark).
   */
  datos_pdf: Json<Omit<DecaPdfData, 'entorno'> & Partial<Pick<DecaPdfData, 'entorno'>>>;
  created_at: Timestamp;
}

export interface DecaCambiosTable {
  id: Generated<number>;
  account_id: number;
  entorno: Entorno;
  deca_id: number;
  version: number;
  tipo: TipoCambio;
  motivo: string | null;
  autor_tipo: 'usuario' | 'clave' | 'enlace' | 'sistema';
  autor_id: number | null;
  autor_nombre: string;
  canal: Canal;
  /**
   * What changed. Null only in the 'creacion' row of a DeCA issued by its
   * create (or replacement): those fields are its version 1's data, held by
   * the DeCA itself, so they are not stored twice; reading the history
   * rebuilds them (domain/decas/listar.ts `listarCambios`, migration 0018).
   */
  campos: ColumnType<CampoCambiado[] | null, string | null, string | null>;
  created_at: Timestamp;
}

export interface NumeradoresTable {
  account_id: number;
  entorno: Entorno;
  anio: number;
  ultimo: number;
}

export interface IdempotenciaTable {
  account_id: number;
  entorno: Entorno;
  /** `hdr:<Idempotency-Key>` or `ref:<ref_externa>`. */
  clave: string;
  /** sha256 of method, path and canonical body. */
  huella: string;
  estado: 'en_curso' | 'completada';
  deca_id: number | null;
  status: number | null;
  respuesta: ColumnType<unknown, string | null | undefined, string | null>;
  created_at: Timestamp;
  expires_at: Timestamp;
  /** The claim's owner: only it completes or releases the claim. */
  dueno: string | null;
  /** When the claim was taken, by the database's clock (takeovers compare with the database's `now()`). */
  reclamada_at: ColumnType<Date, Date | undefined, Date>;
}

/** Transactional outbox of domain events (delivered by the webhook worker). */
export interface EventosTable {
  id: Generated<number>;
  account_id: number;
  entorno: Entorno;
  evento: string;
  deca_id: number | null;
  /** The event's payload object (`{ deca }`, `{ deca, control }`). */
  data: Json<Record<string, unknown>>;
  created_at: Timestamp;
}

/** Tenant table: every open of a DeCA's public URLs (robots logged, not counted). */
export interface DescargasTable {
  id: Generated<number>;
  account_id: number;
  entorno: Entorno;
  deca_id: number;
  recurso: 'ficha' | 'pdf' | 'conductor' | 'qr';
  version: number;
  ip: string;
  navegador: string;
  robot: boolean;
  motivo_robot: string | null;
  created_at: Timestamp;
  /** `ip` cut to its network (IPv4 /24, IPv6 /48) by the maintenance, 90 days after the open. */
  ip_truncada: ColumnType<boolean, boolean | undefined, boolean>;
}

/** The other party's half-filled completion form, kept until the DeCA is issued. */
export interface CompletarBorradoresTable {
  account_id: number;
  entorno: Entorno;
  deca_id: number;
  campos: Json<Record<string, string>>;
  updated_at: Timestamp;
}

/** A stored PDF to attach, read when the mail is sent: a DeCA's version (deca_versiones), or a delivery's receipt (entregas, by its number `entrega`). */
export type AdjuntoPdf = { deca_id: number; version: number; filename: string } | { deca_id: number; entrega: number; filename: string };

/** Mail outbox: written in the transaction of the action, sent by the mail worker. */
export interface CorreosTable {
  id: Generated<number>;
  account_id: number;
  entorno: Entorno;
  deca_id: number | null;
  tipo: 'pedir_datos' | 'enviar_deca' | 'justificante_entrega' | 'confirmar_email' | 'invitacion' | 'restablecer_contrasena' | 'exportacion_cuenta';
  destinatario: string;
  asunto: string;
  texto: string;
  html: string;
  adjuntos: Json<AdjuntoPdf[]>;
  estado: ColumnType<'pendiente' | 'enviado' | 'fallido', 'pendiente' | 'enviado' | 'fallido' | undefined, 'pendiente' | 'enviado' | 'fallido'>;
  intentos: ColumnType<number, number | undefined, number>;
  proximo_intento_at: Timestamp;
  bloqueado_hasta: NullableTimestamp;
  /** The token of the pass that holds the lease: only it records the result. */
  bloqueado_por: string | null;
  ultimo_error: string | null;
  /** Logged once while no SMTP_URL is set (kept, never lost). */
  registrado: ColumnType<boolean, boolean | undefined, boolean>;
  created_at: Timestamp;
  enviado_at: NullableTimestamp;
}

/** Tenant table: a receiver of signed events (spec: Events). */
export interface WebhooksTable {
  id: Generated<number>;
  account_id: number;
  entorno: Entorno;
  url: string;
  /** Subscribed event names, or ['*']. */
  eventos: Json<string[]>;
  descripcion: string | null;
  /** `whsec_…`: the HMAC key, needed in clear to sign. */
  secreto: string;
  activo: ColumnType<boolean, boolean | undefined, boolean>;
  pausa_motivo: string | null;
  pausado_at: NullableTimestamp;
  /** First failed attempt since the last 2xx; null while healthy. */
  fallando_desde: NullableTimestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** One event for one webhook: the body to send and where its delivery stands. */
export interface WebhookEntregasTable {
  id: Generated<number>;
  account_id: number;
  entorno: Entorno;
  webhook_id: number;
  /** `ev_…`: X-Deca-Entrega and the body's id, the same on every attempt. */
  entrega_id: string;
  evento_id: number | null;
  evento: string;
  deca_id: number | null;
  cuerpo: string;
  estado: 'pendiente' | 'entregada' | 'fallida';
  /** Every attempt made (automatic and by hand). */
  intentos: ColumnType<number, number | undefined, number>;
  /** Automatic attempts: they pick the next retry delay. */
  intentos_auto: ColumnType<number, number | undefined, number>;
  proximo_intento_at: NullableTimestamp;
  /** Lease of the worker sending it now (start, expiry, owner); an expired lease means that worker died. */
  en_curso_desde: NullableTimestamp;
  en_curso_hasta: NullableTimestamp;
  en_curso_token: string | null;
  ultimo_intento_at: NullableTimestamp;
  ultimo_status: number | null;
  ultimo_error: string | null;
  ultima_duracion_ms: number | null;
  entregada_at: NullableTimestamp;
  created_at: Timestamp;
}

/** The log of every delivery attempt (never the receiver's response body). */
export interface WebhookIntentosTable {
  id: Generated<number>;
  account_id: number;
  entorno: Entorno;
  entrega_id: number;
  numero: number;
  at: Timestamp;
  status: number | null;
  error: string | null;
  duracion_ms: number;
  proximo_intento_at: NullableTimestamp;
  manual: ColumnType<boolean, boolean | undefined, boolean>;
}

/** The self-made seal (one row), when SEAL_P12 is not configured. */
export interface SelloServicioTable {
  id: number;
  clave_pkcs8: Uint8Array;
  certificado: Uint8Array;
  created_at: Timestamp;
}

/** The address book (migration 0009): companies, vehicles and places, learnt and edited. */
export interface AgendaTable {
  id: Generated<number>;
  account_id: number;
  entorno: Entorno;
  tipo: 'empresas' | 'vehiculos' | 'lugares';
  clave: string;
  datos: Json<Record<string, unknown>>;
  busqueda: string;
  usos: ColumnType<number, number | undefined, number>;
  ultimo_uso_at: NullableTimestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** Something to revise (a NIF with a wrong check character): never suggested until fixed (migration 0023). */
  dudosa: Generated<boolean>;
}

/** The ZIP of a closed account's data (server/blobs/exportaciones.ts), served once by an unguessable link for 7 days. */
export interface ExportacionesTable {
  id: Generated<number>;
  account_id: number;
  /** sha256 of the link's token; the token is only in the e-mail (and the operator's output). */
  token_hash: string;
  /** The file's name in the export store. */
  archivo: string;
  bytes: number;
  enviada_a: string;
  created_at: Timestamp;
  caduca_at: Timestamp;
  /** When it was downloaded whole: the link works no more. */
  descargada_at: NullableTimestamp;
}

/** A delivery-note photo read by POST /fotos (migration 0022): its bytes in the blob store, the DeCA it became. */
export interface FotosTable {
  id: Generated<number>;
  account_id: number;
  entorno: Entorno;
  /** Its key in the blob store (`foto/ab/<token>.<sha256>`). */
  clave: string;
  sha256: string;
  bytes: number;
  /** Its media type, from its first bytes (`image/jpeg`…). */
  tipo: string;
  /** The DeCA made from it; null until then. */
  deca_id: number | null;
  created_at: Timestamp;
  /** When the maintenance deletes it if it became no DeCA; null once it is a DeCA's. */
  caduca_at: NullableTimestamp;
}

/** A proof of delivery of a DeCA's shipment (migration 0024). */
export interface EntregasTable {
  id: Generated<number>;
  account_id: number;
  entorno: Entorno;
  deca_id: number;
  /** 1, 2… within its DeCA. */
  n: number;
  /** Index in the DeCA's `envios`; null for all of them. */
  envio: number | null;
  resultado: 'entregada' | 'rechazada';
  receptor_nombre: string | null;
  receptor_documento: string | null;
  firma: ColumnType<import('../../shared/schemas/entrega').Firma | null, string | null, string | null>;
  reservas: string | null;
  sin_reservas: boolean;
  motivo_rechazo: string | null;
  /** Each photo's key in the blob store and its digest. */
  fotos: Json<{ clave: string; sha256: string; bytes: number }[]>;
  posicion: ColumnType<import('../../shared/schemas/entrega').Posicion | null, string | null, string | null>;
  /** The phone's time when it was collected. */
  registrada_at: Timestamp;
  created_at: Timestamp;
  canal: Canal;
  user_id: number | null;
  api_key_id: number | null;
  /** The receipt's public verification link. */
  token: string;
  /** The sealed receipt: its digest and its key in the blob store. */
  pdf_sha256: string;
  pdf_clave: string;
  /** The signature as a PNG (drawn from `firma`), its key and digest in the blob store; null without a signature. */
  firma_png: ColumnType<{ clave: string; sha256: string; bytes: number } | null, string | null | undefined, string | null>;
}

/** «Firmar en su móvil»: a 30-minute, single-use link for the consignee's own phone (only its token's digest). */
export interface FirmasRemotasTable {
  id: Generated<number>;
  account_id: number;
  entorno: Entorno;
  deca_id: number;
  envio: number | null;
  token_sha256: string;
  created_at: Timestamp;
  expira_at: Timestamp;
  usada_at: NullableTimestamp;
  /** A newer link for the same shipment replaced it. */
  anulada_at: NullableTimestamp;
  /** The delivery its signature made. */
  entrega_n: number | null;
  /** Who asked for it, as the delivery it makes is recorded. */
  canal: Canal;
  user_id: number | null;
  api_key_id: number | null;
  etiqueta: string;
}

/** An authenticated eFTI gate request, once per signature (migration 0026): what it asked and how many datasets it got. */
export interface EftiConsultasTable {
  id: Generated<number>;
  entorno: Entorno;
  gate_id: string;
  /** The message's `requestId`, as the gate sent it (null when it could not be read). */
  request_id: string | null;
  tipo: 'uil' | 'identificador' | 'no_valida';
  dataset_id: string | null;
  identificador: string | null;
  tipos_identificador: Json<string[]>;
  pais: string | null;
  subsets: Json<string[]>;
  /** The status the response carried (200, 400, 404). */
  estado: number;
  datasets: number;
  /** SHA-256 of the request's signature: unique per gate, so a replay is refused. */
  firma_sha256: string;
  created_at: Timestamp;
}

/** Which DeCAs of an account one gate request returned (migration 0026). */
export interface EftiAccesosTable {
  id: Generated<number>;
  account_id: number;
  entorno: Entorno;
  consulta_id: number;
  /** The numbers of the DeCAs returned, with their versions. */
  decas: Json<{ numero: string; version: number }[]>;
  created_at: Timestamp;
}

export interface DB {
  firmas_remotas: FirmasRemotasTable;
  efti_consultas: EftiConsultasTable;
  efti_accesos: EftiAccesosTable;
  entregas: EntregasTable;
  agenda: AgendaTable;
  fotos: FotosTable;
  exportaciones: ExportacionesTable;
  descargas: DescargasTable;
  completar_borradores: CompletarBorradoresTable;
  correos: CorreosTable;
  decas: DecasTable;
  deca_versiones: DecaVersionesTable;
  deca_cambios: DecaCambiosTable;
  numeradores: NumeradoresTable;
  sello_servicio: SelloServicioTable;
  idempotencia: IdempotenciaTable;
  eventos: EventosTable;
  accounts: AccountsTable;
  users: UsersTable;
  invitaciones: InvitacionesTable;
  dispositivos: DispositivosTable;
  reservas: ReservasTable;
  api_keys: ApiKeysTable;
  sessions: SessionsTable;
  restablecimientos: RestablecimientosTable;
  uso_mensual: UsoMensualTable;
  rate_limits: RateLimitsTable;
  webhooks: WebhooksTable;
  webhook_entregas: WebhookEntregasTable;
  webhook_intentos: WebhookIntentosTable;
}

export type AccountRow = Selectable<AccountsTable>;
export type ExportacionRow = Selectable<ExportacionesTable>;
export type NewAccount = Insertable<AccountsTable>;
export type AccountUpdate = Updateable<AccountsTable>;
export type UserRow = Selectable<UsersTable>;
export type InvitacionRow = Selectable<InvitacionesTable>;
export type DispositivoRow = Selectable<DispositivosTable>;
export type ReservaRow = Selectable<ReservasTable>;
export type ApiKeyRow = Selectable<ApiKeysTable>;
export type SessionRow = Selectable<SessionsTable>;
export type DecaRow = Selectable<DecasTable>;
export type NewDeca = Insertable<DecasTable>;
export type DecaUpdate = Updateable<DecasTable>;
export type CambioRow = Selectable<DecaCambiosTable>;
export type WebhookRow = Selectable<WebhooksTable>;
export type WebhookEntregaRow = Selectable<WebhookEntregasTable>;
export type WebhookIntentoRow = Selectable<WebhookIntentosTable>;
