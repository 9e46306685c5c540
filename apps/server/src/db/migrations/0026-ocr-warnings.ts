import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * What the OCR engine noticed about a result it made (issue 28: text regions found but little read, or
 * the detector's columns and the layout's disagreeing), kept with the version as a JSON array of
 * `{ code, message }` for the proofreader; null for versions no engine made.
 */
export function migration0026(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('ocr_versions').addColumn('warnings', 'text').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable('ocr_versions').dropColumn('warnings').execute();
    },
  };
}
