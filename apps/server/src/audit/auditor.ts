import type { DbOrTx } from '../db/database.ts';

/**
 * What a service that makes an administrative change needs of the audit log: writing one record,
 * passing the change's transaction so that the record stands or falls with the change. The console's
 * AdminService keeps the log (features/console/admin.service.ts); every feature that records a change
 * depends on this interface only, not on the console.
 */
export interface Auditor {
  record(
    actorId: number | null,
    action: string,
    target: string,
    before: unknown,
    after: unknown,
    tx: DbOrTx,
  ): Promise<void>;
}
