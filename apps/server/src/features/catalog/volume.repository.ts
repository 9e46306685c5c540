import { directoryEntryOfPage, type DirectoryPoint } from '@guji/shared';
/** Volumes, their pages and their directory entries: the part of the catalogue below the book. */
import type { Db, DbOrTx } from '../../db/database.ts';
import { nowIso } from '../../db/database.ts';
import {
  IMAGE_PAGE_COLUMNS,
  type DirectoryRow,
  type ImagePage,
  type PageRow,
  type VolumeRow,
} from '../../db/schema.ts';

export interface VolumeWithCount extends VolumeRow {
  image_count: number;
}

/**
 * Volumes, pages and directory entries. CatalogRepository (catalog.repository.ts) extends it with the
 * books, so callers reach the whole catalogue through one repository.
 */
export class VolumeRepository {
  constructor(protected readonly db: Db) {}

  // Volumes

  async listVolumes(bookId: number, tx: DbOrTx = this.db): Promise<VolumeWithCount[]> {
    const rows = await tx
      .selectFrom('volumes')
      .selectAll('volumes')
      .select((eb) =>
        eb
          .selectFrom('pages')
          .select(eb.fn.countAll<number>().as('n'))
          .whereRef('pages.volume_id', '=', 'volumes.id')
          .as('image_count'),
      )
      .where('book_id', '=', bookId)
      .orderBy('sort')
      .orderBy('id')
      .execute();
    return rows.map((row) => ({ ...row, image_count: Number(row.image_count ?? 0) }));
  }

  async countVolumes(bookId: number, tx: DbOrTx = this.db): Promise<number> {
    const row = await tx
      .selectFrom('volumes')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('book_id', '=', bookId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async findVolume(id: number, tx: DbOrTx = this.db): Promise<VolumeRow | undefined> {
    return tx.selectFrom('volumes').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async createVolume(
    volume: { bookId: number; name: string; introduction: string | null; sort: number },
    tx: DbOrTx,
  ) {
    const row = await tx
      .insertInto('volumes')
      .values({
        book_id: volume.bookId,
        name: volume.name,
        introduction: volume.introduction,
        sort: volume.sort,
        created_at: nowIso(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  async deleteVolumesOfBook(bookId: number): Promise<void> {
    await this.db.deleteFrom('volumes').where('book_id', '=', bookId).execute();
  }

  // Pages

  /** The pages of a book that have OCR text, in id order (what the full-text index holds of it). */
  async pagesWithText(
    bookId: number,
    tx: DbOrTx = this.db,
  ): Promise<Array<Pick<PageRow, 'id' | 'book_id' | 'volume_id' | 'ocr_json'>>> {
    return tx
      .selectFrom('pages')
      .select(['id', 'book_id', 'volume_id', 'ocr_json'])
      .where('book_id', '=', bookId)
      .where('ocr_json', 'is not', null)
      .orderBy('id')
      .execute();
  }

  /** The master key of every page (the daily purge's list of master folders in use). */
  async allMasterKeys(tx: DbOrTx = this.db): Promise<string[]> {
    const rows = await tx.selectFrom('pages').select('master_key').execute();
    return rows.map((row) => row.master_key);
  }

  /** The file keys of the pages of a book or a volume (read before they are deleted). */
  async pageFiles(
    where: { bookId: number } | { volumeId: number },
    tx: DbOrTx = this.db,
  ): Promise<Array<Pick<PageRow, 'id' | 'master_key' | 'pyramid_key'>>> {
    const query = tx.selectFrom('pages').select(['id', 'master_key', 'pyramid_key']);
    return 'bookId' in where
      ? query.where('book_id', '=', where.bookId).execute()
      : query.where('volume_id', '=', where.volumeId).execute();
  }

  /**
   * The sequence number of a volume's last page (0 when it has none), with the volume's row locked
   * until the transaction ends: two uploads into one volume at once number their pages one after the
   * other instead of both after the same last page (PostgreSQL; SQLite writes one transaction at a time).
   */
  async lastPageSeq(volumeId: number, tx: DbOrTx): Promise<number> {
    await tx
      .updateTable('volumes')
      .set((eb) => ({ name: eb.ref('name') }))
      .where('id', '=', volumeId)
      .execute();
    const last = await tx
      .selectFrom('pages')
      .select((eb) => eb.fn.max('seq').as('seq'))
      .where('volume_id', '=', volumeId)
      .executeTakeFirst();
    return Number(last?.seq ?? 0);
  }

  async listPages(volumeId: number, tx: DbOrTx = this.db): Promise<PageRow[]> {
    return tx.selectFrom('pages').selectAll().where('volume_id', '=', volumeId).orderBy('seq').execute();
  }

  async findPage(id: number, tx: DbOrTx = this.db): Promise<PageRow | undefined> {
    return tx.selectFrom('pages').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** A page without its OCR JSON (tens of kilobytes on a recognised page): what serving its image needs. */
  async findImagePage(id: number, tx: DbOrTx = this.db): Promise<ImagePage | undefined> {
    return tx.selectFrom('pages').select(IMAGE_PAGE_COLUMNS).where('id', '=', id).executeTakeFirst();
  }

  /** The first page of the book's first volume: its cover. */
  async coverPage(bookId: number, tx: DbOrTx = this.db): Promise<PageRow | undefined> {
    return tx
      .selectFrom('pages')
      .innerJoin('volumes', 'volumes.id', 'pages.volume_id')
      .selectAll('pages')
      .where('pages.book_id', '=', bookId)
      .orderBy('volumes.sort')
      .orderBy('volumes.id')
      .orderBy('pages.seq')
      .limit(1)
      .executeTakeFirst();
  }

  /** Cover page ids of several books at once, for lists. */
  async coverPageIds(bookIds: number[], tx: DbOrTx = this.db): Promise<Map<number, number>> {
    const covers = new Map<number, number>();
    if (bookIds.length === 0) return covers;
    const rows = await tx
      .selectFrom('pages')
      .innerJoin('volumes', 'volumes.id', 'pages.volume_id')
      .select(['pages.book_id', 'pages.id', 'volumes.sort', 'volumes.id as volume_id', 'pages.seq'])
      .where('pages.book_id', 'in', bookIds)
      .where('pages.seq', '=', 1)
      .orderBy('volumes.sort')
      .orderBy('volumes.id')
      .execute();
    for (const row of rows) if (!covers.has(row.book_id)) covers.set(row.book_id, row.id);
    return covers;
  }

  async createPage(
    page: {
      volumeId: number;
      bookId: number;
      seq: number;
      name: string;
      width: number;
      height: number;
      masterKey: string;
      ocrJson: string | null;
    },
    tx: DbOrTx,
  ): Promise<number> {
    const row = await tx
      .insertInto('pages')
      .values({
        volume_id: page.volumeId,
        book_id: page.bookId,
        seq: page.seq,
        name: page.name,
        width: page.width,
        height: page.height,
        master_key: page.masterKey,
        ocr_json: page.ocrJson,
        created_at: nowIso(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  /** Up to `limit` pages with a pyramid, by id, after `afterId` (the pyramids command walks them all). */
  async pagesWithPyramids(
    afterId: number,
    limit: number,
    tx: DbOrTx = this.db,
  ): Promise<Array<{ id: number; pyramidKey: string }>> {
    const rows = await tx
      .selectFrom('pages')
      .select(['id', 'pyramid_key'])
      .where('pyramid_key', 'is not', null)
      .where('id', '>', afterId)
      .orderBy('id')
      .limit(limit)
      .execute();
    return rows.map((row) => ({ id: row.id, pyramidKey: row.pyramid_key! }));
  }

  /** Whether a page still uses this pyramid (one a rebuild replaced is removed only when none does). */
  async pyramidInUse(pyramidKey: string, tx: DbOrTx = this.db): Promise<boolean> {
    const row = await tx
      .selectFrom('pages')
      .select('id')
      .where('pyramid_key', '=', pyramidKey)
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }

  async setPyramid(pageId: number, pyramidKey: string | null, status: 'ready' | 'failed') {
    await this.db
      .updateTable('pages')
      .set({ pyramid_key: pyramidKey, status })
      .where('id', '=', pageId)
      .execute();
  }

  async pendingPageIds(tx: DbOrTx = this.db): Promise<number[]> {
    const rows = await tx
      .selectFrom('pages')
      .select('id')
      .where('status', '=', 'pending')
      .orderBy('id')
      .execute();
    return rows.map((r) => r.id);
  }

  // Directory

  /** The directory entry a page belongs to (`directoryEntryOfPage`, the rule the reader shows). */
  async directoryEntryAt(
    volumeId: number,
    seq: number,
    tx: DbOrTx = this.db,
  ): Promise<{ id: number; name: string } | undefined> {
    return (await this.directoryEntriesAt(volumeId, [seq], tx)).get(seq);
  }

  /** The directory entries of several pages of one volume, reading its directory once. */
  async directoryEntriesAt(
    volumeId: number,
    seqs: readonly number[],
    tx: DbOrTx = this.db,
  ): Promise<Map<number, { id: number; name: string }>> {
    const rows = await this.listDirectory(volumeId, tx);
    const children = new Map<number | null, typeof rows>();
    for (const row of rows) children.set(row.parent_id, [...(children.get(row.parent_id) ?? []), row]);
    // Reading order: each entry followed by the entries under it (rows come sorted by sort, id).
    const ordered: Array<DirectoryPoint & { name: string }> = [];
    const visit = (parentId: number | null, depth: number) => {
      if (depth > 32) return;
      for (const row of children.get(parentId) ?? []) {
        ordered.push({ id: row.id, parentId: row.parent_id, page: row.page_seq, name: row.name });
        visit(row.id, depth + 1);
      }
    };
    visit(null, 0);
    const entries = new Map<number, { id: number; name: string }>();
    for (const seq of seqs) {
      const entry = directoryEntryOfPage(ordered, seq);
      if (entry) entries.set(seq, { id: entry.id, name: entry.name });
    }
    return entries;
  }

  async listDirectory(
    volumeId: number,
    tx: DbOrTx = this.db,
  ): Promise<Array<DirectoryRow & { page_seq: number | null }>> {
    return tx
      .selectFrom('directories')
      .leftJoin('pages', 'pages.id', 'directories.page_id')
      .selectAll('directories')
      .select('pages.seq as page_seq')
      .where('directories.volume_id', '=', volumeId)
      .orderBy('directories.sort')
      .orderBy('directories.id')
      .execute();
  }

  async createDirectoryEntry(
    entry: {
      volumeId: number;
      bookId: number;
      parentId: number | null;
      name: string;
      pageId: number | null;
      sort: number;
    },
    tx: DbOrTx,
  ): Promise<number> {
    const row = await tx
      .insertInto('directories')
      .values({
        volume_id: entry.volumeId,
        book_id: entry.bookId,
        parent_id: entry.parentId,
        name: entry.name,
        page_id: entry.pageId,
        sort: entry.sort,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }
}
