import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * The uploads each user has in progress, in the database instead of each process's memory (issue 17: several
 * processes, one truth): behind a proxy that spreads requests over two `serve` processes a user still gets
 * two uploads at once, not two per process. A user has numbered slots; a slot is held by one upload until it
 * is released or its lease ends, so a process that crashed mid-upload holds it for one lease at most.
 */
export function migration0021(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('upload_slots')
        .addColumn('user_id', 'integer', (c) => c.notNull())
        // 0 … UPLOADS_PER_USER - 1.
        .addColumn('slot', 'integer', (c) => c.notNull())
        // A random id of the upload holding the slot: only its holder renews or releases it.
        .addColumn('holder', 'text', (c) => c.notNull())
        // Milliseconds since 1970 when the lease ends unless renewed.
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('upload_slots_pk', ['user_id', 'slot'])
        .execute();
      await db.schema
        .createIndex('upload_slots_expires_at')
        .on('upload_slots')
        .column('expires_at')
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('upload_slots').execute();
    },
  };
}
