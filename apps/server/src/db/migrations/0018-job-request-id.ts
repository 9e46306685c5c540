import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * The id of the request that queued a job (issue 17, observability): the worker's log lines for the job
 * carry it, so one search of the logs follows an upload from its request to the OCR it started.
 */
export function migration0018(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('jobs').addColumn('request_id', 'text').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable('jobs').dropColumn('request_id').execute();
    },
  };
}
