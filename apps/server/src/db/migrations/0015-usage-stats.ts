import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * Usage counts for the console's dashboard: one counter per local day and metric (page views, book
 * openings, searches), and the readers seen each day (one row per reader and day, so a day's readers
 * are counted once however much they read). Orders, revenue, registrations and OCR pages per day come
 * from their own tables.
 */
export function migration0015(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('usage_daily')
        .addColumn('day', 'text', (c) => c.notNull())
        .addColumn('metric', 'text', (c) => c.notNull())
        .addColumn('count', 'integer', (c) => c.notNull().defaultTo(0))
        .addPrimaryKeyConstraint('usage_daily_pk', ['day', 'metric'])
        .execute();
      await db.schema
        .createTable('usage_readers')
        .addColumn('day', 'text', (c) => c.notNull())
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addPrimaryKeyConstraint('usage_readers_pk', ['day', 'user_id'])
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('usage_readers').execute();
      await db.schema.dropTable('usage_daily').execute();
    },
  };
}
