import { countedPage } from '../../db/query.ts';
import type { DownloadKind } from '@guji/shared';
import type { Db, DbOrTx } from '../../db/database.ts';
import type { Row } from '../../db/schema.ts';

export type DownloadRow = Omit<Row<'downloads'>, 'user_id'> & {
  volume_name: Row<'volumes'>['name'];
  seq: Row<'pages'>['seq'] | null;
};

/** What a reader downloaded (a page as image or text, a volume as PDF), to download again. */
export class DownloadRepository {
  constructor(private readonly db: Db) {}

  async add(entry: {
    userId: number;
    bookId: number;
    volumeId: number;
    pageId: number | null;
    kind: DownloadKind;
    createdAt: string;
  }): Promise<void> {
    await this.db
      .insertInto('downloads')
      .values({
        user_id: entry.userId,
        book_id: entry.bookId,
        volume_id: entry.volumeId,
        page_id: entry.pageId,
        kind: entry.kind,
        created_at: entry.createdAt,
      })
      .execute();
  }

  /** One page of a reader's downloads with their volume and page, newest first; with the count of all. */
  async page(
    userId: number,
    offset: number,
    limit: number,
    tx: DbOrTx = this.db,
  ): Promise<{ rows: DownloadRow[]; total: number }> {
    return countedPage(
      tx.selectFrom('downloads').where('downloads.user_id', '=', userId),
      (base) =>
        base
          .innerJoin('volumes', 'volumes.id', 'downloads.volume_id')
          .leftJoin('pages', 'pages.id', 'downloads.page_id')
          .select([
            'downloads.id',
            'downloads.kind',
            'downloads.book_id',
            'downloads.volume_id',
            'downloads.page_id',
            'downloads.created_at',
            'volumes.name as volume_name',
            'pages.seq',
          ])
          .orderBy('downloads.id', 'desc'),
      { offset, limit },
    );
  }

  /** Deletes one of the reader's own records; false when there is none. */
  async remove(userId: number, id: number): Promise<boolean> {
    const result = await this.db
      .deleteFrom('downloads')
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) === 1;
  }
}
