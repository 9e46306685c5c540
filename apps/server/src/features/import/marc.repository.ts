import { OWN_STATUS } from '@guji/shared';
import type { Db, DbOrTx } from '../../db/database.ts';
import type { BookRow } from '../../db/schema.ts';

/**
 * The queries of MARC import and export: the library's books a record may update (never a reader's
 * own book, never the hidden book of single images), found by id, source key or call number; the
 * catalogue's books in id order, a batch at a time, for the export.
 */
export class MarcRepository {
  constructor(private readonly db: Db) {}

  private libraryBooks(tx: DbOrTx) {
    return tx.selectFrom('books').selectAll().where('owner_id', 'is', null).where('is_lonely', '=', 0);
  }

  async byIds(ids: number[], tx: DbOrTx = this.db): Promise<BookRow[]> {
    if (ids.length === 0) return [];
    return this.libraryBooks(tx).where('id', 'in', ids).execute();
  }

  async bySourceKeys(keys: string[], tx: DbOrTx = this.db): Promise<BookRow[]> {
    if (keys.length === 0) return [];
    return this.libraryBooks(tx).where('source_key', 'in', keys).execute();
  }

  async byCallNumbers(callNumbers: string[], tx: DbOrTx = this.db): Promise<BookRow[]> {
    if (callNumbers.length === 0) return [];
    return this.libraryBooks(tx).where('call_number', 'in', callNumbers).execute();
  }

  /**
   * The next books of the catalogue after `afterId`: every published book (the library's and readers'
   * published own books), or only the visible ones.
   */
  async exportBatch(
    afterId: number,
    limit: number,
    visibleOnly: boolean,
    tx: DbOrTx = this.db,
  ): Promise<BookRow[]> {
    let query = tx
      .selectFrom('books')
      .selectAll()
      .where('is_lonely', '=', 0)
      .where('audit_status', '=', OWN_STATUS.published)
      .where('id', '>', afterId);
    if (visibleOnly) query = query.where('is_visible', '=', 1);
    return query.orderBy('id').limit(limit).execute();
  }
}
