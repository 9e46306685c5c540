import { sql } from 'kysely';
import type { Db, DbOrTx } from '../db/database.ts';
import { nowIso } from '../db/database.ts';
import {
  tokenChars,
  hitsFrom,
  countIndexedPages,
  type StoredPageText,
  type BookPages,
  type IndexedPage,
  type TextIndex,
  type TextQuery,
  type TextSearchResult,
} from './text-index.ts';

/**
 * SQLite: an FTS5 table over single characters (each folded character a token, so a phrase query is a
 * substring search with exact counts), contentless — the text itself is kept once, in `page_texts`; a
 * trigger deletes a page's index row with its `page_texts` row, however that row goes.
 */
export class SqliteTextIndex implements TextIndex {
  constructor(private readonly db: Db) {}

  async upsert(pages: IndexedPage[], tx: DbOrTx): Promise<void> {
    const now = nowIso();
    for (const page of pages) {
      await sql`delete from page_text_fts where rowid = ${page.pageId}`.execute(tx);
      const tokens = tokenChars(page.text);
      if (tokens.length === 0) {
        await tx.deleteFrom('page_texts').where('page_id', '=', page.pageId).execute();
        continue;
      }
      await sql`insert into page_text_fts(rowid, body) values (${page.pageId}, ${tokens.join(' ')})`.execute(
        tx,
      );
      await tx
        .insertInto('page_texts')
        .values({
          page_id: page.pageId,
          book_id: page.bookId,
          volume_id: page.volumeId,
          text: page.text,
          updated_at: now,
        })
        .onConflict((oc) =>
          oc.column('page_id').doUpdateSet({
            book_id: page.bookId,
            volume_id: page.volumeId,
            text: page.text,
            updated_at: now,
          }),
        )
        .execute();
    }
  }

  async remove(pageIds: number[], tx: DbOrTx): Promise<void> {
    // A trigger (migration 0020) deletes their index rows. In slices: a large book's pages would pass
    // SQLite's limit of bound variables.
    for (let i = 0; i < pageIds.length; i += 500)
      await tx
        .deleteFrom('page_texts')
        .where('page_id', 'in', pageIds.slice(i, i + 500))
        .execute();
  }

  async removeBook(bookId: number, tx: DbOrTx = this.db): Promise<void> {
    const rows = await tx.selectFrom('page_texts').select('page_id').where('book_id', '=', bookId).execute();
    await this.remove(
      rows.map((r) => r.page_id),
      tx,
    );
  }

  /**
   * One transaction a book, as SQLite has one writer at a time: a full reindex never holds the others up
   * for long. Filling FTS5 row by row is cheap (50 s for 110M characters), so there is no bulk path.
   */
  async rebuild(books: AsyncIterable<BookPages> | Iterable<BookPages>): Promise<number> {
    const seen = new Set<number>();
    let count = 0;
    for await (const book of books) {
      seen.add(book.bookId);
      await this.db.transaction().execute(async (tx) => {
        await this.removeBook(book.bookId, tx);
        await this.upsert(book.pages, tx);
      });
      count += book.pages.filter((page) => tokenChars(page.text).length > 0).length;
    }
    const indexed = await this.db.selectFrom('page_texts').select('book_id').distinct().execute();
    for (const { book_id } of indexed) if (!seen.has(book_id)) await this.removeBook(book_id);
    return count;
  }

  async search(query: TextQuery): Promise<TextSearchResult> {
    const chars = tokenChars(query.text);
    if (chars.length === 0) return { total: 0, hits: [] };
    const phrase = `"${chars.join(' ')}"`;
    const inBook = query.bookId === undefined ? sql`` : sql`and t.book_id = ${query.bookId}`;
    const count = await sql<{ n: number }>`select count(*) as n from page_text_fts f
      ${query.bookId === undefined ? sql`` : sql`join page_texts t on t.page_id = f.rowid`}
      where page_text_fts match ${phrase} ${inBook}`.execute(this.db);
    const rows = await sql<StoredPageText>`
      select t.page_id, t.book_id, t.volume_id, t.text from page_text_fts f
      join page_texts t on t.page_id = f.rowid
      where page_text_fts match ${phrase} ${inBook}
      order by f.rowid limit ${query.limit} offset ${query.offset}`.execute(this.db);
    return {
      total: Number(count.rows[0]?.n ?? 0),
      hits: hitsFrom(rows.rows, chars),
    };
  }

  async candidates(chars: string[], bookId?: number): Promise<number[]> {
    if (chars.length === 0) return [];
    const phrase = `"${chars.join(' ')}"`;
    const rows =
      bookId === undefined
        ? await sql<{ id: number }>`select rowid as id from page_text_fts
            where page_text_fts match ${phrase}`.execute(this.db)
        : await sql<{ id: number }>`select f.rowid as id from page_text_fts f
            join page_texts t on t.page_id = f.rowid
            where page_text_fts match ${phrase} and t.book_id = ${bookId}`.execute(this.db);
    return rows.rows.map((r) => Number(r.id));
  }

  count(): Promise<number> {
    return countIndexedPages(this.db);
  }
}
