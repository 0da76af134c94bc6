import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';
import type { Entorno, Plan, Rol } from '../../shared/schemas/cuenta';

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
}

export interface UsersTable {
  id: Generated<number>;
  account_id: number;
  email: string;
  password_hash: string;
  rol: ColumnType<'admin' | 'miembro', 'admin' | 'miembro' | undefined, 'admin' | 'miembro'>;
  created_at: Timestamp;
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

export interface DB {
  accounts: AccountsTable;
  users: UsersTable;
  api_keys: ApiKeysTable;
  sessions: SessionsTable;
  uso_mensual: UsoMensualTable;
  rate_limits: RateLimitsTable;
}

export type AccountRow = Selectable<AccountsTable>;
export type NewAccount = Insertable<AccountsTable>;
export type AccountUpdate = Updateable<AccountsTable>;
export type UserRow = Selectable<UsersTable>;
export type ApiKeyRow = Selectable<ApiKeysTable>;
export type SessionRow = Selectable<SessionsTable>;
