import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../database.ts';
import { autoIncrementId } from './columns.ts';

/** The audit log of administrative changes: who, when, what, and the values before and after. */
export function migration0014(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('audit_log')
        .addColumn('id', autoIncrementId(dialect))
        .addColumn('actor_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('target', 'text', (c) => c.notNull())
        .addColumn('before', 'text')
        .addColumn('after', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('audit_log_action_idx').on('audit_log').columns(['action', 'id']).execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('audit_log').execute();
    },
  };
}
