import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../database.ts';
import { autoIncrementId } from './columns.ts';

/**
 * Personal API tokens of the public read API (issue 18 part 7, features/public-api): a user's named
 * tokens, each stored only as the SHA-256 of its secret with the secret's first characters to tell them
 * apart. A revoked token's row goes; a user's tokens go with the user.
 */
export function migration0024(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('api_tokens')
        .addColumn('id', autoIncrementId(dialect))
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('token_prefix', 'text', (c) => c.notNull())
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('last_used_at', 'text')
        .execute();
      await db.schema.createIndex('api_tokens_user').on('api_tokens').column('user_id').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('api_tokens').execute();
    },
  };
}
