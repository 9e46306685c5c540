import type { DbOrTx } from '../../db/database.ts';
import type { Auditor } from '../../audit/auditor.ts';
import type { Editor } from './own-access.ts';

/**
 * Catalogue staff's changes to volumes and pages go to the audit log (owners' own do not), written in
 * the change's transaction so that the record stands or falls with it.
 */
export async function auditStaffEdit(
  auditor: Auditor,
  editor: Editor,
  action: string,
  target: string,
  after: unknown,
  tx: DbOrTx,
): Promise<void> {
  if (editor.catalogStaff) await auditor.record(editor.id, action, target, null, after, tx);
}
