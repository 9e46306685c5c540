import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../database.ts';
import { autoIncrementId } from './columns.ts';

/**
 * Reading-room terminals (DESIGN.md §7): besides the address ranges, an administrator can issue a
 * terminal a token; a browser holding it (as a cookie) is in the reading room until the token is
 * revoked. Only the token's hash is stored.
 */
export function migration0008(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('reading_room_terminals')
        .addColumn('id', autoIncrementId(dialect))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('last_seen_at', 'text')
        .addColumn('revoked_at', 'text')
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('reading_room_terminals').execute();
    },
  };
}
