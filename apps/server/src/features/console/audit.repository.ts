import { countedPage } from '../../db/query.ts';
import type { Db, DbOrTx } from '../../db/database.ts';
import type { AuditLogTable } from '../../db/schema.ts';
import type { Selectable } from 'kysely';

export interface AuditRecord {
  actorId: number | null;
  action: string;
  target: string;
  /** JSON text, or null. */
  before: string | null;
  after: string | null;
  createdAt: string;
}

export type AuditRow = Selectable<AuditLogTable> & { login_name: string | null };

/** The audit log of administrative changes, newest first. */
export class AuditRepository {
  constructor(private readonly db: Db) {}

  /** Pass the change's transaction, so the record stands or falls with the change. */
  async record(entry: AuditRecord, tx: DbOrTx): Promise<void> {
    await tx
      .insertInto('audit_log')
      .values({
        actor_id: entry.actorId,
        action: entry.action,
        target: entry.target,
        before: entry.before,
        after: entry.after,
        created_at: entry.createdAt,
      })
      .execute();
  }

  /** One page of the log, filtered by action and by the actor's login name; with the count of all. */
  async page(
    query: { action?: string | undefined; actor?: string | undefined; offset: number; limit: number },
    tx: DbOrTx = this.db,
  ): Promise<{ rows: AuditRow[]; total: number }> {
    let base = tx.selectFrom('audit_log').leftJoin('users', 'users.id', 'audit_log.actor_id');
    if (query.action) base = base.where('audit_log.action', '=', query.action);
    if (query.actor) base = base.where('users.login_name', '=', query.actor);
    return countedPage(
      base,
      (list) => list.selectAll('audit_log').select('users.login_name').orderBy('audit_log.id', 'desc'),
      query,
    );
  }
}
