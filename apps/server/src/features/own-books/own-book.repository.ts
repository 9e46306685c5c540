import { countedPage } from '../../db/query.ts';
import { OWN_STATUS } from '@guji/shared';
import { nowIso, type Db, type DbOrTx } from '../../db/database.ts';
import { titleSearchKey } from '../../search/fold.ts';
import type { BookRow } from '../../db/schema.ts';

/**
 * Readers' own books: listing by owner, quotas, submission and the review states ('0' draft, '1' under
 * review, '2' published, '3' refused), the single-images book, and the edits of volumes and pages that
 * the own-book screens make (the console's screens make the same edits on the library's books).
 */
export class OwnBookRepository {
  constructor(private readonly db: Db) {}

  /** Pages and bytes a user's books hold. */
  async usage(userId: number, tx: DbOrTx = this.db): Promise<{ pages: number; bytes: number }> {
    const used = await tx
      .selectFrom('pages')
      .innerJoin('books', 'books.id', 'pages.book_id')
      .select((eb) => [
        eb.fn.countAll<number>().as('pages'),
        eb.fn.sum<number>('pages.file_bytes').as('bytes'),
      ])
      .where('books.owner_id', '=', userId)
      .executeTakeFirstOrThrow();
    return { pages: Number(used.pages), bytes: Number(used.bytes ?? 0) };
  }

  async setFileBytes(pageId: number, bytes: number, tx: DbOrTx): Promise<void> {
    await tx.updateTable('pages').set({ file_bytes: bytes }).where('id', '=', pageId).execute();
  }

  /** A user's books (single images aside), newest first; with the count of all. */
  async page(
    userId: number,
    offset: number,
    limit: number,
    tx: DbOrTx = this.db,
  ): Promise<{ rows: BookRow[]; total: number }> {
    return countedPage(
      tx.selectFrom('books').where('owner_id', '=', userId).where('is_lonely', '=', 0),
      (base) => base.selectAll().orderBy('id', 'desc'),
      { offset, limit },
    );
  }

  async anySingles(bookIds: number[], tx: DbOrTx = this.db): Promise<boolean> {
    const row = await tx
      .selectFrom('books')
      .select('id')
      .where('id', 'in', bookIds)
      .where('is_lonely', '=', 1)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** The owner's books go to review. */
  async submit(userId: number, bookIds: number[], now: string): Promise<void> {
    await this.db
      .updateTable('books')
      .set({ audit_status: OWN_STATUS.reviewing, refuse_reason: null, submitted_at: now })
      .where('id', 'in', bookIds)
      .where('owner_id', '=', userId)
      .execute();
  }

  /** The id of the user's single-images book, if made. */
  async singlesBook(userId: number, tx: DbOrTx = this.db): Promise<number | undefined> {
    const row = await tx
      .selectFrom('books')
      .select('id')
      .where('owner_id', '=', userId)
      .where('is_lonely', '=', 1)
      .executeTakeFirst();
    return row?.id;
  }

  /**
   * The user's single-images book (spec isLonely), made now unless a request beside this one made it first:
   * its source key is unique, so two first uploads at once share one book instead of one of them failing.
   */
  async ensureSinglesBook(userId: number, tx: DbOrTx): Promise<number> {
    const sourceKey = `single:${userId}`;
    const now = nowIso();
    const title = '单张图像';
    const made = await tx
      .insertInto('books')
      .values({
        source_key: sourceKey,
        title,
        title_search: titleSearchKey(title),
        owner_id: userId,
        audit_status: OWN_STATUS.draft,
        is_visible: 0,
        is_open: 1,
        is_lonely: 1,
        created_at: now,
        updated_at: now,
      })
      .onConflict((oc) => oc.column('source_key').doNothing())
      .returning('id')
      .executeTakeFirst();
    if (made) return made.id;
    const row = await tx
      .selectFrom('books')
      .select('id')
      .where('source_key', '=', sourceKey)
      .executeTakeFirstOrThrow();
    return row.id;
  }

  async firstVolume(bookId: number, tx: DbOrTx = this.db): Promise<number | undefined> {
    const row = await tx.selectFrom('volumes').select('id').where('book_id', '=', bookId).executeTakeFirst();
    return row?.id;
  }

  /** Own books in one review state, the longest waiting first (at most `limit`). */
  async inState(status: string, limit: number, tx: DbOrTx = this.db): Promise<BookRow[]> {
    return tx
      .selectFrom('books')
      .selectAll()
      .where('owner_id', 'is not', null)
      .where('is_lonely', '=', 0)
      .where('audit_status', '=', status)
      .orderBy('submitted_at')
      .limit(limit)
      .execute();
  }

  /**
   * Moves an own book from one review state to another with the changes given; false when the book is
   * not an own book in that state.
   */
  async review(
    bookId: number,
    from: string,
    change: {
      audit_status: string;
      refuse_reason: string | null;
      updated_at: string;
      is_visible?: number;
      call_number?: string | null;
      class_code?: string | null;
    },
    tx: DbOrTx,
  ): Promise<boolean> {
    const result = await tx
      .updateTable('books')
      .set(change)
      .where('id', '=', bookId)
      .where('owner_id', 'is not', null)
      .where('audit_status', '=', from)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  // Volumes and pages

  async updateVolume(
    volumeId: number,
    change: { name: string; introduction: string | null },
    tx: DbOrTx,
  ): Promise<void> {
    await tx.updateTable('volumes').set(change).where('id', '=', volumeId).execute();
  }

  async deleteVolume(volumeId: number, tx: DbOrTx): Promise<void> {
    await tx.deleteFrom('volumes').where('id', '=', volumeId).execute();
  }

  async pageIds(volumeId: number, tx: DbOrTx = this.db): Promise<number[]> {
    return (await tx.selectFrom('pages').select('id').where('volume_id', '=', volumeId).execute()).map(
      (r) => r.id,
    );
  }

  async renamePage(pageId: number, name: string, tx: DbOrTx): Promise<void> {
    await tx.updateTable('pages').set({ name }).where('id', '=', pageId).execute();
  }

  /** Deletes a page and numbers the volume's other pages 1, 2, … again. */
  async deletePage(pageId: number, volumeId: number, tx: DbOrTx): Promise<void> {
    await tx.deleteFrom('pages').where('id', '=', pageId).execute();
    const rest = await tx
      .selectFrom('pages')
      .select('id')
      .where('volume_id', '=', volumeId)
      .orderBy('seq')
      .execute();
    for (const [i, row] of rest.entries())
      await tx
        .updateTable('pages')
        .set({ seq: i + 1 })
        .where('id', '=', row.id)
        .execute();
  }

  /** Numbers the pages in the order given; in two steps, so no two pages ever share a number on the way. */
  async reorder(pageIds: number[], tx: DbOrTx): Promise<void> {
    for (const [i, id] of pageIds.entries())
      await tx
        .updateTable('pages')
        .set({ seq: -(i + 1) })
        .where('id', '=', id)
        .execute();
    for (const [i, id] of pageIds.entries())
      await tx
        .updateTable('pages')
        .set({ seq: i + 1 })
        .where('id', '=', id)
        .execute();
  }

  async clearDirectory(volumeId: number, tx: DbOrTx): Promise<void> {
    await tx.deleteFrom('directories').where('volume_id', '=', volumeId).execute();
  }
}
