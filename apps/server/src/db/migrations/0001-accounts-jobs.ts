import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../database.ts';
import { autoIncrementId } from './columns.ts';

/** Accounts, sessions, captchas, SMS codes and outbox, SSO nonces, site settings and the job table. */
export function migration0001(dialect: Dialect): Migration {
  const id = autoIncrementId(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('users')
        .addColumn('id', id)
        .addColumn('login_name', 'text', (c) => c.notNull().unique())
        .addColumn('password_hash', 'text', (c) => c.notNull())
        .addColumn('nick_name', 'text')
        .addColumn('real_name', 'text')
        .addColumn('id_card', 'text')
        .addColumn('phone', 'text', (c) => c.unique())
        .addColumn('email', 'text')
        .addColumn('post', 'text')
        .addColumn('address', 'text')
        .addColumn('avatar_file', 'text')
        .addColumn('failed_logins', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('locked_until', 'text')
        .addColumn('disabled', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('user_roles')
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('role', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('user_roles_pk', ['user_id', 'role'])
        .execute();

      await db.schema
        .createTable('sessions')
        .addColumn('id', id)
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('last_seen_at', 'text', (c) => c.notNull())
        .addColumn('revoked_at', 'text')
        .addColumn('ip', 'text')
        .addColumn('user_agent', 'text')
        .execute();
      await db.schema.createIndex('sessions_user_idx').on('sessions').column('user_id').execute();

      await db.schema
        .createTable('captchas')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('answer_hash', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('used_at', 'text')
        .execute();

      await db.schema
        .createTable('sms_codes')
        .addColumn('id', id)
        .addColumn('phone', 'text', (c) => c.notNull())
        .addColumn('purpose', 'text', (c) => c.notNull())
        .addColumn('code_hash', 'text', (c) => c.notNull())
        .addColumn('ip', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('verified_at', 'text')
        .addColumn('consumed_at', 'text')
        .execute();
      await db.schema
        .createIndex('sms_codes_phone_idx')
        .on('sms_codes')
        .columns(['phone', 'purpose', 'created_at'])
        .execute();
      await db.schema.createIndex('sms_codes_ip_idx').on('sms_codes').columns(['ip', 'created_at']).execute();

      await db.schema
        .createTable('sms_outbox')
        .addColumn('id', id)
        .addColumn('phone', 'text', (c) => c.notNull())
        .addColumn('text', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('sso_nonces')
        .addColumn('nonce', 'text', (c) => c.primaryKey())
        .addColumn('used_at', 'text', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('settings')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('value', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('jobs')
        .addColumn('id', id)
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('data', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('max_attempts', 'integer', (c) => c.notNull())
        .addColumn('run_at', 'text', (c) => c.notNull())
        .addColumn('locked_by', 'text')
        .addColumn('locked_at', 'text')
        .addColumn('progress', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('progress_message', 'text')
        .addColumn('last_error', 'text')
        .addColumn('result', 'text')
        .addColumn('dedupe_key', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addColumn('finished_at', 'text')
        .execute();
      await db.schema.createIndex('jobs_claim_idx').on('jobs').columns(['status', 'run_at']).execute();
      await db.schema.createIndex('jobs_dedupe_idx').on('jobs').columns(['dedupe_key', 'status']).execute();
    },
    async down(db: Kysely<unknown>) {
      for (const table of [
        'jobs',
        'settings',
        'sso_nonces',
        'sms_outbox',
        'sms_codes',
        'captchas',
        'sessions',
        'user_roles',
        'users',
      ]) {
        await db.schema.dropTable(table).execute();
      }
    },
  };
}
