import type { Generated, Insertable, Selectable, Updateable } from 'kysely';

/**
 * Table types. Dates are UTC ISO-8601 text and booleans are 0/1 integers on both dialects
 * (DESIGN.md §3), so every query reads the same on SQLite and PostgreSQL.
 */
export interface UsersTable {
  id: Generated<number>;
  login_name: string;
  password_hash: string;
  nick_name: string | null;
  real_name: string | null;
  id_card: string | null;
  phone: string | null;
  email: string | null;
  post: string | null;
  address: string | null;
  avatar_file: string | null;
  failed_logins: Generated<number>;
  locked_until: string | null;
  disabled: Generated<number>;
  created_at: string;
  updated_at: string;
}

export interface UserRolesTable {
  user_id: number;
  role: string;
}

export interface SessionsTable {
  id: Generated<number>;
  token_hash: string;
  user_id: number;
  created_at: string;
  expires_at: string;
  last_seen_at: string;
  revoked_at: string | null;
  ip: string | null;
  user_agent: string | null;
}

export interface CaptchasTable {
  id: string;
  answer_hash: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

export interface SmsCodesTable {
  id: Generated<number>;
  phone: string;
  purpose: string;
  code_hash: string;
  ip: string | null;
  created_at: string;
  expires_at: string;
  attempts: Generated<number>;
  verified_at: string | null;
  consumed_at: string | null;
}

export interface SmsOutboxTable {
  id: Generated<number>;
  phone: string;
  text: string;
  created_at: string;
}

export interface SsoNoncesTable {
  nonce: string;
  used_at: string;
}

export interface SettingsTable {
  key: string;
  value: string;
  updated_at: string;
}

export interface JobsTable {
  id: Generated<number>;
  name: string;
  data: string;
  status: string;
  attempts: Generated<number>;
  max_attempts: number;
  run_at: string;
  locked_by: string | null;
  locked_at: string | null;
  progress: Generated<number>;
  progress_message: string | null;
  last_error: string | null;
  result: string | null;
  dedupe_key: string | null;
  created_at: string;
  updated_at: string;
  finished_at: string | null;
}

export interface Database {
  users: UsersTable;
  user_roles: UserRolesTable;
  sessions: SessionsTable;
  captchas: CaptchasTable;
  sms_codes: SmsCodesTable;
  sms_outbox: SmsOutboxTable;
  sso_nonces: SsoNoncesTable;
  settings: SettingsTable;
  jobs: JobsTable;
}

export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type SessionRow = Selectable<SessionsTable>;
export type JobRow = Selectable<JobsTable>;
