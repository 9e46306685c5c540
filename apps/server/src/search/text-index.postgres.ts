import { sql } from 'kysely';
import type { Db, DbOrTx } from '../db/database.ts';
import { nowIso } from '../db/database.ts';
import { escapeLike } from '../db/query.ts';
import { rebuildPostgresIndex } from './text-index-rebuild.postgres.ts';
import { textGrams } from './text-grams.ts';
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

/** Above this many hits the matches are dense enough to find in page order. */
const DENSE_HITS = 2000;

/**
 * PostgreSQL (DESIGN.md §1): `tsv`, a `simple` tsvector of the folded characters one token each, answers
 * 1–2 character queries as `<->` phrases; `folded` (the token characters without spaces) with a pg_trgm
 * GIN index answers 3 or more characters as a substring.
 */
export class PostgresTextIndex implements TextIndex {
  constructor(private readonly db: Db) {}

  async upsert(pages: IndexedPage[], tx: DbOrTx): Promise<void> {
    const now = nowIso();
    const rows = pages.map((page) => ({ page, tokens: tokenChars(page.text) }));
    await this.remove(
      rows.filter((row) => row.tokens.length === 0).map((row) => row.page.pageId),
      tx,
    );
    const kept = rows.filter((row) => row.tokens.length > 0);
    // Several hundred pages a statement: a reindex of a large library is not a round trip per page.
    for (let i = 0; i < kept.length; i += 500) {
      const values = kept.slice(i, i + 500).map(
        ({ page, tokens }) =>
          sql`(${page.pageId}, ${page.bookId}, ${page.volumeId}, ${page.text}, ${now}, ${tokens.join('')},
            array_to_tsvector(${textGrams(tokens)}::text[]))`,
      );
      await sql`insert into page_texts (page_id, book_id, volume_id, text, updated_at, folded, tsv)
        values ${sql.join(values)}
        on conflict (page_id) do update set book_id = excluded.book_id, volume_id = excluded.volume_id,
          text = excluded.text, updated_at = excluded.updated_at, folded = excluded.folded, tsv = excluded.tsv`.execute(
        tx,
      );
    }
  }

  async remove(pageIds: number[], tx: DbOrTx): Promise<void> {
    // In slices: a reindex may remove more pages than a statement may bind.
    for (let i = 0; i < pageIds.length; i += 500)
      await tx
        .deleteFrom('page_texts')
        .where('page_id', 'in', pageIds.slice(i, i + 500))
        .execute();
  }

  async removeBook(bookId: number, tx: DbOrTx): Promise<void> {
    await tx.deleteFrom('page_texts').where('book_id', '=', bookId).execute();
  }

  rebuild(books: AsyncIterable<BookPages> | Iterable<BookPages>): Promise<number> {
    return rebuildPostgresIndex(this.db, books);
  }

  async search(query: TextQuery): Promise<TextSearchResult> {
    const chars = tokenChars(query.text);
    if (chars.length === 0) return { total: 0, hits: [] };
    const matches = phraseCondition(chars);
    const inBook = query.bookId === undefined ? sql`` : sql`and book_id = ${query.bookId}`;
    // 1–2 characters over the whole library: the count the triggers keep. Otherwise count the matches
    // (one book's pages, or a pg_trgm substring match of 3 or more characters, which is selective).
    const count =
      chars.length <= 2 && query.bookId === undefined
        ? await sql<{
            n: string;
          }>`select pages as n from text_gram_counts where gram = ${chars.join('')}`.execute(this.db)
        : await sql<{
            n: string;
          }>`select count(*) as n from page_texts where ${matches} ${inBook}`.execute(this.db);
    const total = Number(count.rows[0]?.n ?? 0);
    // Few hits: take their ids from the GIN index first (a materialized CTE), then order them; left to
    // itself the planner walks the primary key testing every row (270 ms for a rare character). Many
    // hits: walking the primary key finds the first ones at once, and collecting all ids would cost as
    // much as the count did.
    const rows =
      total > DENSE_HITS
        ? await sql<StoredPageText>`
            select page_id, book_id, volume_id, text from page_texts where ${matches} ${inBook}
            order by page_id limit ${query.limit} offset ${query.offset}`.execute(this.db)
        : await sql<StoredPageText>`
            with hits as materialized (select page_id from page_texts where ${matches} ${inBook}),
              chosen as (select page_id from hits order by page_id limit ${query.limit} offset ${query.offset})
            select t.page_id, t.book_id, t.volume_id, t.text from page_texts t join chosen c on c.page_id = t.page_id
            order by t.page_id`.execute(this.db);
    return {
      total,
      hits: hitsFrom(rows.rows, chars),
    };
  }

  async candidates(chars: string[], bookId?: number): Promise<number[]> {
    if (chars.length === 0) return [];
    const inBook = bookId === undefined ? sql`` : sql`and book_id = ${bookId}`;
    const rows = await sql<{
      page_id: number;
    }>`select page_id from page_texts where ${phraseCondition(chars)} ${inBook}`.execute(this.db);
    return rows.rows.map((r) => Number(r.page_id));
  }

  count(): Promise<number> {
    return countIndexedPages(this.db);
  }
}

/** Pages holding the folded characters in a row: pg_trgm for 3 or more, the gram lexemes for 1–2. */
function phraseCondition(chars: string[]) {
  return chars.length >= 3
    ? sql`folded like ${`%${escapeLike(chars.join(''))}%`}`
    : sql`tsv @@ ${lexemeQuery(chars.join(''))}::tsquery`;
}

/** A tsquery of one lexeme, quoted so that no character of it is read as an operator. */
function lexemeQuery(gram: string): string {
  return `'${gram.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
}
